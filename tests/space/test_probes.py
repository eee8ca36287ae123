"""The desk's probing table: counts only, escaped, and an empty table that says what it looks for."""

from __future__ import annotations

from leaderboard.review.probing import FEW_ROWS, ProbePair
from space.desk.probes import probe_section


def test_pairs_show_ids_and_counts_and_nothing_per_row():
    pair = ProbePair("<b>eve</b>", "a" * 16, "b" * 16, 2, 1249, "2026-11-25T10:00:00.000000Z")
    html = probe_section([pair])
    assert 'id="probe-table"' in html and "&lt;b&gt;eve&lt;/b&gt;" in html and "<b>eve" not in html
    assert "a" * 16 in html and "b" * 16 in html and ">2<" in html and ">1249<" in html
    assert "2026-11-25 10:00" in html


def test_no_pair_says_what_it_looks_for():
    html = probe_section([])
    assert f"differ in only 1–{FEW_ROWS} rows" in html and "<strong>same user</strong>" in html
