"""One rank per entry in every place and a range that contains it (space/board/ranks.py):
the board in any view, the entry page, the CSV; a hidden flagged entry counts in nobody's rank or range; best
entry per model keeps each submitter's model apart and re-ranks nothing."""

from __future__ import annotations

import csv
import io

from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from space.board import csv_rows
from space.board import view as board
from space.board.ranks import ranked
from space.entry import view as entry

FLAG = {"kind": "contamination", "reason": "seen the test set", "link": None, "flagged_at": "2026-03-01"}


def row(name: str, score: float | None, better: list[str] | None = None, **extra: object) -> dict[str, object]:
    return {"submission_id": name, "kind": "submission", "split": "test", "model": name, "score": score,
            "submitted_at": "2026-03-01", "significantly_better": better, **extra}  # fmt: skip


# The old pages' defect: A is clearly first; the flagged F is significantly above C and D; D is below C.
ISSUE = [
    row("A", 60.0, []),
    row("F", 50.0, ["A"], flag=FLAG),
    row("B", 45.0, ["A"]),
    row("C", 40.0, ["A", "F"]),
    row("D", 30.0, ["A", "F", "C"]),
    {"submission_id": "baseline-test", "kind": "baseline", "split": "test", "model": "Baseline", "score": 0.0},
]


def figures(rows: list[dict[str, object]]) -> dict[object, tuple[object, object]]:
    return {r["submission_id"]: (r["rank"], r["rank_bounds"]) for r in rows}


def csv_figures(rows: list[dict[str, object]]) -> dict[str, tuple[str, str, str]]:
    lines = csv.DictReader(io.StringIO(csv_rows.csv_bytes(rows, "test").decode()))
    return {line["submission_id"]: (line["rank"], line["rank_best"], line["rank_worst"]) for line in lines}


def test_a_hidden_flagged_entry_counts_in_no_rank_and_no_range_and_every_page_agrees():
    shown = figures(board.select(ISSUE, board.BoardView()))
    # 4 ranked (A, B, C, D); C: A above it (F hidden), D below: rank 3, range 2-3 (the defect read "3", "4-5").
    assert shown == {
        "A": (1, [1, 1]),
        "B": (2, [2, 4]),
        "C": (3, [2, 3]),
        "D": (4, [3, 4]),
        "baseline-test": (None, None),
    }
    assert shown == figures(board.select([r for r in ISSUE if "flag" not in r], board.BoardView()))
    for name in "ABCD":
        page = entry.find(ISSUE, name)
        assert (page["rank"], page["rank_bounds"]) == shown[name]
        rank, best, worst = csv_figures(ISSUE)[name]
        assert (int(rank), [int(best), int(worst)]) == shown[name]
    html = board.render(ISSUE, board.BoardView())
    tip = "1 significantly better, 1 not significantly different, 1 significantly worse"
    assert f'<span title="{tip}">2–3</span>' in html


def test_a_flagged_entry_is_placed_without_taking_a_rank_and_the_flagged_view_says_it_counts_them():
    flagged = entry.find(ISSUE, "F")
    assert (flagged["rank"], flagged["rank_bounds"]) == (2, [2, 3])  # where 50.0 stands among A, B, C, D
    assert csv_figures(ISSUE)["F"] == ("2", "2", "3")
    page = entry.entry_html(flagged, [])
    assert "(range 2–3)" in page and "takes no rank from them" in page
    with_flagged = board.BoardView(hide_flagged=False)
    assert figures(board.select(ISSUE, with_flagged))["C"] == (4, [3, 4])  # F is ranked now, and above C
    assert "ranked with the others" in board.summary_line(ISSUE, with_flagged)
    assert "ranked with the others" not in board.summary_line(ISSUE, board.BoardView())


def test_rows_without_per_row_scores_have_a_rank_and_no_range():
    rows = [row("A", 60.0, []), row("P", 70.0, [], kind="reported"), row("W", None), row("H", 90.0, kind="hub")]
    shown = figures(ranked(rows, "test"))
    assert shown == {"H": (None, None), "P": (1, None), "A": (2, [1, 3]), "W": (3, None)}
    assert "(range —)" in entry.entry_html(entry.find(rows, "W"), [])


def test_the_entry_page_says_how_many_entries_are_better_tied_and_worse():
    page = entry.entry_html(entry.find(ISSUE, "C"), [])
    # C: upper-bound rank 2 (A above it), shared with B (2); D is significantly below it, A above, B neither way.
    assert "Significantly better than 1 entry; tied with 1 other entry (sharing upper-bound rank 2)." in page
    assert "Significantly below 1 entry, not significantly different from 1 entry" in page
    assert "· upper-bound rank <b>2</b> on the test split" in page


def test_best_entry_per_model_keeps_two_submitters_apart_and_re_ranks_nothing():
    rows = [
        row("alice-best", 50.0, [], model="Navigator", model_group="alice-first"),
        row("bob", 45.0, [], model="Navigator", model_group="bob-first"),
        row("alice-first", 40.0, [], model="Navigator", model_group="alice-first"),
        row("paper", 35.0, [], model="Navigator", kind="reported"),
        row("other", 30.0, [], model="Other"),
    ]
    shown = figures(board.select(rows, board.BoardView()))
    assert list(shown) == ["alice-best", "bob", "paper", "other"]  # alice's older entry hidden, bob's kept
    assert shown["paper"][0] == 4 and shown["other"] == (5, [1, 5])  # the hidden entry keeps its place 3
    assert figures(board.select(rows, board.BoardView(best_only=False)))["other"] == shown["other"]
    old_table = [{k: v for k, v in r.items() if k != "model_group"} for r in rows]  # before the column: by name
    assert [r["submission_id"] for r in board.select(old_table, board.BoardView())] == ["alice-best", "paper", "other"]


# -- any board, any view -------------------------------------------------------------------------------------


@st.composite
def boards(draw: st.DrawFn) -> list[dict[str, object]]:
    count = draw(st.integers(1, 12))
    ids = [f"e{i}" for i in range(count)]
    rows = []
    for name in ids:
        kind = draw(st.sampled_from(["submission"] * 4 + ["reported", "hub"]))
        score = draw(st.one_of(st.none(), st.sampled_from([10.0, 20.0, 20.0, 35.5, 50.0, -3.0])))
        # Any lists at all, even ones that contradict the scores: the pages must keep the range around the rank.
        better = draw(st.one_of(st.none(), st.lists(st.sampled_from(ids), max_size=count)))
        extra = {
            "flag": FLAG if draw(st.booleans()) and kind != "hub" else None,  # maintainers flag entries only
            "model": draw(st.sampled_from(["Navigator", "navigator", "Qwen", "X"])),
            "model_group": draw(st.sampled_from([None, "g1", "g2"])),
            "organization": draw(st.sampled_from([None, "Lab", "Uni"])),
            "open_weights": draw(st.booleans()),
        }
        rows.append(row(name, score, better, kind=kind, **extra))
    rows.append({"submission_id": "baseline-test", "kind": "baseline", "split": "test", "model": "B", "score": 0.0})
    return rows


views = st.builds(
    board.BoardView,
    query=st.sampled_from(["", "qwen", "navigator lab"]),
    sort=st.sampled_from(["score", "rank", "rank_range", "model", "date"]),
    descending=st.sampled_from([None, True, False]),
    best_only=st.booleans(),
    filters=st.sampled_from([board.Filters(), board.Filters(open_weights=True)]),
    hide_flagged=st.booleans(),
    show_hub=st.booleans(),
)


@hypothesis_settings(max_examples=200, deadline=None)
@given(rows=boards(), view=views)
def test_in_any_view_the_range_contains_the_rank_and_the_rank_is_the_pages_one(rows, view):
    shown = [r for r in board.select(rows, view) if r["kind"] != "baseline"]
    ranked_set = [r for r in rows if r["kind"] in ("submission", "reported") and not (view.hide_flagged and r["flag"])]
    canonical = {r["submission_id"]: r for r in ranked(rows, "test")}
    table = csv_figures(rows)
    for r in shown:
        if r["kind"] == "hub":
            assert r["rank"] is None and r["rank_bounds"] is None
            continue
        higher = [o for o in ranked_set if board_score(o) > board_score(r)]
        assert r["rank"] == 1 + len(higher)  # the definition, whatever the view hides or sorts
        if r["rank_bounds"] is not None:
            best, worst = r["rank_bounds"]
            assert 1 <= best <= r["rank"] <= worst <= len(ranked_set)
        if view.hide_flagged:  # the default board's figures are the entry page's and the CSV's
            one = canonical[r["submission_id"]]
            assert (r["rank"], r["rank_bounds"]) == (one["rank"], one["rank_bounds"])
            found = entry.find(rows, str(r["submission_id"]))
            assert (found["rank"], found["rank_bounds"]) == (r["rank"], r["rank_bounds"])
            bounds = r["rank_bounds"] or ["", ""]
            assert table[r["submission_id"]] == (str(r["rank"]), str(bounds[0]), str(bounds[1]))
    if view.hide_flagged:  # a hidden flagged entry is as good as absent
        clean = [r for r in rows if not r.get("flag")]
        assert figures(shown) == figures([r for r in board.select(clean, view) if r["kind"] != "baseline"])


def board_score(r: dict[str, object]) -> float:
    return float(r["score"]) if isinstance(r["score"], float) else float("-inf")
