"""Ties and citations as the site serves them: the upper-bound rank and the tied groups on the board, in the
CSV and the JSON, the entry page's standing and citation, About's citations.

The seeded store (conftest.py) holds real submissions scored and bootstrapped: Perfect (clearly first), Noisy,
and Flaggy, the same file as Noisy from another user (flagged: on the board with ``?flagged=1``)."""

from __future__ import annotations

import csv
import io
import re
from html import unescape

from starlette.applications import Starlette
from starlette.testclient import TestClient

from space.entry import view
from space.entry.citation import bibtex, plain
from space.site import api
from tests.space.public.conftest import column

ORIGIN = "http://testserver"  # the TestClient's address


def _row_of(site, model: str, html: str) -> str:
    """The start of the table row (``<tr class=...>`` and its first cells) that links to ``model``'s entry."""
    return html.split(f'href="/entry/{site.ids[model]}"')[0].rsplit("<tr", 1)[1]


def test_the_clear_winner_is_alone_at_one_and_identical_files_are_tied_on_the_board(site):
    html = site.client.get("/?flagged=1").text
    ubs = column(html, "Rank (UB)")
    models = [m.split(" ")[0] for m in column(html, "Model")]
    assert ubs[models.index("Perfect")] == "1"  # alone: no "tied" beside it
    tied = "2tied ×2, tied with 1 other"  # the cell's texts run together: "2", "tied ×2", ", tied with 1 other"
    assert ubs[models.index("Noisy")] == ubs[models.index("Flaggy")] == tied
    for twin in ("Noisy", "Flaggy"):
        assert "nt-tied nt-tie-a" in _row_of(site, twin, html)
    assert "nt-tied" not in _row_of(site, "Perfect", html)
    assert 'id="board-ties-legend"' in html and "statistically tied" in html
    default = site.client.get("/").text  # Flaggy hidden: Noisy shares its upper-bound rank with no ranked entry
    assert column(default, "Rank (UB)")[:2] == ["1", "2"]


def test_the_csv_and_the_json_carry_rank_ub_and_whom_it_is_shared_with(site):
    text = site.client.get("/board.csv", params={"split": "test"}).text
    lines = {line["model"]: line for line in csv.DictReader(io.StringIO(text))}
    assert (lines["Perfect"]["rank_ub"], lines["Perfect"]["rank_ub_tied_with"]) == ("1", "0")
    assert lines["Noisy"]["rank_ub"] == lines["Flaggy"]["rank_ub"] == lines["Noisy"]["rank_best"] == "2"
    assert lines["Flaggy"]["rank_ub_tied_with"] == "1"  # placed among the ranked entries: it shares Noisy's
    assert lines["Paper-Model"]["rank_ub"] == ""  # a reported figure: a rank, no upper-bound rank
    client = TestClient(Starlette(routes=api.routes(site.services)))
    board = client.get("/api/board", params={"split": "test"}).json()
    rows = {r["model"]: r for r in board["rows"]}
    assert "rank_ub" in board["columns"] and rows["Perfect"]["rank_ub"] == 1
    assert rows["Noisy"]["rank_ub"] == rows["Flaggy"]["rank_ub"] == 2 and rows["Paper-Model"]["rank_ub"] is None
    one = client.get(f"/api/entry/{site.ids['Noisy']}").json()["row"]
    assert (one["rank_ub"], one["rank_ub_tied_with"]) == (2, 0)


def test_an_entry_says_its_standing_and_offers_its_citation_without_script(site):
    ident = site.ids["Noisy"]
    html = site.client.get(f"/entry/{ident}").text
    assert "· upper-bound rank <b>2</b> on the test split" in html
    assert "Significantly better than 2 entries; tied with no other entry (alone at upper-bound rank 2)." in html
    assert '<a href="#entry-cite" id="entry-cite-link">Cite this entry</a>' in html
    url = f"{ORIGIN}/entry/{ident}?release=v1"
    assert "Release <strong>v1</strong> (" in html and f'<a href="{url}">{url}</a>' in html
    row = view.find(site.services.board.snapshot().rows, ident)
    pres = dict(re.findall(r'<pre id="(entry-cite-[a-z]+)"[^>]*>(.*?)</pre>', html, re.S))
    assert unescape(pres["entry-cite-bibtex"]) == bibtex(row, ORIGIN)
    assert unescape(pres["entry-cite-plain"]) == plain(row, ORIGIN)
    assert "title        = {Noisy on the {NaviTrace} Leaderboard (test split, release v1)}" in bibtex(row, ORIGIN)
    assert f"Noisy, NaviTrace Leaderboard entry {ident} (test split), release v1 (" in plain(row, ORIGIN)
    assert re.search(r'<button type="button" class="nt-button nt-copy" data-copy="entry-cite-bibtex" hidden>', html)
    assert re.search(r'<script src="/static/board.js\?v=\w+" defer>', html)


def test_the_citation_names_the_address_it_was_asked_by_though_the_page_is_drawn_once(site):
    ident = site.ids["Perfect"]
    first = site.client.get(f"/entry/{ident}").text
    other = site.client.get(f"/entry/{ident}", headers={"host": "localhost:7860"}).text
    assert f"{ORIGIN}/entry/{ident}?release=v1" in first and "localhost:7860" not in first
    assert f"http://localhost:7860/entry/{ident}?release=v1" in other


def test_a_hostile_model_name_stays_text_in_the_page_and_in_the_bibtex(rows_site):
    hostile = "}}, author={x} </pre><script>alert(1)</script> 100% \\"
    rows = [{"submission_id": "e1", "kind": "submission", "split": "test", "model": hostile, "score": 40.0,
             "score_ci": [38.0, 42.0], "submitted_at": "2026-03-01", "significantly_better": []}]  # fmt: skip
    html = rows_site(rows).get("/entry/e1").text
    assert "<script>alert" not in html and "&lt;/pre&gt;&lt;script&gt;" in html
    cited = bibtex(view.find(rows, "e1"), ORIGIN)
    assert "\\textbraceright{}\\textbraceright{}, author=\\textbraceleft{}x\\textbraceright{}" in cited
    assert "100\\% \\textbackslash{} on the {NaviTrace}" in cited


def test_about_says_how_to_cite_the_benchmark_and_the_leaderboard(site):
    html = site.client.get("/about").text
    assert '<h2 id="citation">Citation</h2>' in html
    assert "@article{windecker2025navitrace," in html and "arXiv preprint arXiv:2510.26909" in html
    assert "Windecker, Tim and Patel, Manthan" in html
    assert "@misc{navitrace_leaderboard," in html and f"\\url{{{ORIGIN}/}}" in html
    assert "Each entry&#x27;s page has a citation" in html or "Each entry's page has a citation" in html
