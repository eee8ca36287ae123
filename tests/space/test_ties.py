"""Ties: the upper-bound rank beside each rank, and entries sharing it read as tied, on the board, the
entry page, the CSV and the JSON (space/board/ranks.py, space/board/columns.py, space/board/table.py).

Two fixtures whose ties are known: hand-made ``significantly_better`` lists (``KNOWN``), and per-row scores run
through the real paired bootstrap (a clear winner, two identical files, others)."""

from __future__ import annotations

import csv
import io

from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from leaderboard.statistics.uncertainty import scene_totals
from leaderboard.statistics.uncertainty_table import with_uncertainty
from space.board import csv_rows
from space.board import view as board
from space.board.controls import Controls
from space.board.ranks import ranked
from space.board.table import table_html, tie_classes
from space.entry import standing
from space.entry import view as entry
from space.site import api
from tests.leaderboard.test_uncertainty import _entry_row, fake_rows


def row(name: str, score: float, better: list[str] | None, **extra: object) -> dict[str, object]:
    return {"submission_id": name, "kind": "submission", "split": "test", "model": name, "score": score,
            "submitted_at": "2026-03-01", "significantly_better": better, **extra}  # fmt: skip


# W is clearly first; A, B, C are significantly below W only (tied with each other: upper-bound rank 2); D is
# below the five others (6); the reported figure P has a rank but no upper-bound rank (no per-row scores).
KNOWN = [
    row("W", 90.0, []),
    row("A", 50.0, ["W"]),
    row("B", 48.0, ["W"]),
    row("P", 45.0, ["W"], kind="reported"),
    row("C", 40.0, ["W"]),
    row("D", 10.0, ["W", "A", "B", "C", "P"]),
    {"submission_id": "baseline-test", "kind": "baseline", "split": "test", "model": "Baseline", "score": 0.0},
]


def upper(rows: list[dict[str, object]]) -> dict[object, tuple[object, object]]:
    return {r["submission_id"]: (r["rank_ub"], r["rank_ub_tied_with"]) for r in rows}


def test_a_clear_winner_is_alone_at_one_and_entries_sharing_an_upper_bound_rank_are_tied():
    assert upper(ranked(KNOWN, "test")) == {
        "W": (1, 0),
        "A": (2, 2),
        "B": (2, 2),
        "P": (None, None),
        "C": (2, 2),
        "D": (6, 0),
        "baseline-test": (None, None),
    }


def test_the_csv_and_the_json_name_the_upper_bound_rank_in_columns_of_their_own_at_the_end():
    lines = list(csv.DictReader(io.StringIO(csv_rows.csv_bytes(KNOWN, "test").decode())))
    header = list(lines[0])
    at = header.index("rank_ub")
    assert header[at : at + 2] == ["rank_ub", "rank_ub_tied_with"]
    assert header.index("hub_pr_url") < at  # appended: the older columns keep their places
    got = {line["submission_id"]: (line["rank_ub"], line["rank_ub_tied_with"]) for line in lines}
    assert got["W"] == ("1", "0") and got["A"] == got["C"] == ("2", "2") and got["P"] == ("", "")
    assert all(line["rank_ub"] == line["rank_best"] for line in lines)  # the same figure, named
    columns, rows = api.csv_table(KNOWN, "test")
    assert columns == header
    typed = {r["submission_id"]: (r["rank_ub"], r["rank_ub_tied_with"]) for r in rows}
    assert typed["W"] == (1, 0) and typed["B"] == (2, 2) and typed["P"] == (None, None)


def test_the_board_shows_the_upper_bound_rank_beside_the_rank_and_groups_the_tied():
    view = board.BoardView()
    shown = board.select(KNOWN, view)
    html = table_html(shown, view, Controls())
    assert '<th scope="col" title="Upper-bound rank' in html and ">Rank (UB)<" in html
    winner = html.split('href="/entry/W"')[0].rsplit("<tr", 1)[1]
    assert '<span class="nt-ub">1</span></td>' in winner and "tied" not in winner  # alone at 1
    for name in ("A", "B", "C"):
        line = html.split(f'href="/entry/{name}"')[0].rsplit("<tr", 1)[1]
        assert '<span class="nt-ub">2</span><span class="nt-tie"' in line
        assert '<span aria-hidden="true">tied ×3</span><span class="nt-vh">, tied with 2 others</span>' in line
    # Sorted by score, A and B stand together (one bracket); P (no upper-bound rank) splits them from C.
    assert tie_classes(shown)[:3] == ["", " nt-tied nt-tie-a nt-tie-first", " nt-tied nt-tie-a nt-tie-last"]
    assert tie_classes(shown)[3:] == ["", "", "", ""]
    by_model = board.BoardView(sort="model")
    assert "nt-tied" not in table_html(board.select(KNOWN, by_model), by_model, Controls(sort="model"))


def test_the_entry_page_says_how_many_it_is_significantly_better_than_and_tied_with():
    winner = entry.entry_html(entry.find(KNOWN, "W"), [])
    assert "· upper-bound rank <b>1</b> on the test split" in winner
    assert "Significantly better than 5 entries; tied with no other entry (alone at upper-bound rank 1)." in winner
    middle = entry.entry_html(entry.find(KNOWN, "A"), [])
    assert "Significantly better than 1 entry; tied with 2 other entries (sharing upper-bound rank 2)." in middle
    landed = standing.landed_html(entry.find(KNOWN, "C"))
    assert "rank 5 · upper-bound rank <b>2</b>" in landed and "tied with 2 other entries" in landed
    assert 'href="/entry/C"' in landed.replace("'", '"')


# -- through the real bootstrap ----------------------------------------------------------------------------------


@hypothesis_settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000), others=st.integers(0, 3))
def test_identical_files_are_tied_on_the_board_the_csv_and_the_json_and_a_clear_winner_is_alone(seed, others):
    """Two entries with the same per-row scores (``a``, ``b``) and a clear winner: neither of the twins is
    significantly better than the other, both share one upper-bound rank everywhere; the winner is alone at 1."""
    same = fake_rows(60, seed=seed)
    totals = {"a": scene_totals(same), "b": scene_totals(same)}
    totals["best"] = scene_totals(fake_rows(60, seed=seed + 99, mean=95.0, spread=2.0, invalid=0.0))
    totals |= {f"o{i}": scene_totals(fake_rows(60, seed=seed + i + 1, mean=10.0 + 15 * i)) for i in range(others)}
    table = with_uncertainty([_entry_row(name, t) for name, t in totals.items()], totals)
    mine = {r["submission_id"]: r for r in table}
    assert "a" not in mine["b"]["significantly_better"] and "b" not in mine["a"]["significantly_better"]
    shown = {r["submission_id"]: r for r in ranked(table, "test")}
    assert (shown["best"]["rank_ub"], shown["best"]["rank_ub_tied_with"]) == (1, 0)
    assert shown["a"]["rank_ub"] == shown["b"]["rank_ub"] > 1 and shown["a"]["rank_ub_tied_with"] >= 1
    lines = {
        line["submission_id"]: line for line in csv.DictReader(io.StringIO(csv_rows.csv_bytes(table, "test").decode()))
    }
    assert (
        lines["a"]["rank_ub"] == lines["b"]["rank_ub"] == str(shown["a"]["rank_ub"]) and lines["best"]["rank_ub"] == "1"
    )
    typed = {r["submission_id"]: r for r in api.csv_table(table, "test")[1]}
    assert typed["a"]["rank_ub"] == typed["b"]["rank_ub"] and typed["best"]["rank_ub_tied_with"] == 0
    view = board.BoardView()
    html = table_html(board.select(table, view), view, Controls())
    twins = [html.split(f'href="/entry/{n}"')[0].rsplit("<tr", 1)[1] for n in ("a", "b")]
    ub = f'<span class="nt-ub">{shown["a"]["rank_ub"]}</span><span class="nt-tie"'
    assert all(ub in line and "nt-tied" in line for line in twins)  # side by side, one tied group
