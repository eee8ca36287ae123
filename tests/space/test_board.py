"""The public table as people see it: ranks, search, sort, column groups, escaping, CSV."""

from __future__ import annotations

import csv
import io

from space.board import csv_rows
from space.board import view as board

BASE = {"split": "test", "kind": "submission", "submitted_at": "2026-01-01"}


def row(model: str, score: float | None, **extra: object) -> dict[str, object]:
    return {**BASE, "model": model, "score": score, "submission_id": f"id-{model}", **extra}


ROWS = [
    row("Alpha", 40.0, organization="ETH", per_embodiment={"Human": 50.0, "Bicycle": 10.0}, coverage=1.0),
    row("Beta", 55.5, organization="KIT", per_embodiment={"Human": 20.0}, coverage=0.5, submitted_at="2026-02-01"),
    row("Gamma", 40.0, kind="reported", source="https://arxiv.org/abs/2510.26909"),
    row("Straight forward (baseline)", 0.0, kind="baseline", submission_id="baseline-test"),
    row("Other split", 99.0, split="validation"),
]


def test_ranks_by_score_ties_share_a_rank_and_the_baseline_has_none():
    ranked = board.ranked(ROWS, "test")
    assert [(r["model"], r["rank"]) for r in ranked] == [
        ("Beta", 1),
        ("Alpha", 2),
        ("Gamma", 2),
        ("Straight forward (baseline)", None),
    ]


def test_search_keeps_the_baseline_as_the_reference_line():
    view = board.BoardView(query="kit")
    assert [r["model"] for r in board.select(ROWS, view)] == ["Beta", "Straight forward (baseline)"]


def test_sorting_by_a_column_puts_rows_without_it_last_and_keeps_ranks():
    human = board.select(ROWS, board.BoardView(sort="Human"))
    assert [r["model"] for r in human][:2] == ["Alpha", "Beta"]
    assert [r["rank"] for r in human][:2] == [2, 1]
    assert [r["model"] for r in board.select(ROWS, board.BoardView(sort="Model"))][:2] == ["Alpha", "Beta"]


def test_render_marks_reported_and_baseline_rows_and_shows_groups_on_demand():
    html = board.render(ROWS, board.BoardView(groups=frozenset()))
    assert 'class="nt-row-reported"' in html and 'class="nt-row-baseline"' in html
    assert ">Human<" not in html  # the embodiment group is off
    html = board.render(ROWS, board.BoardView(groups=frozenset(board.GROUPS)))
    assert ">Human<" in html and ">Scorer / data<" in html and "Other split" not in html


def test_render_escapes_every_user_value():
    evil = row(
        '<img src=x onerror="alert(1)">', 1.0, organization="<script>x</script>", model_link="javascript:alert(1)"
    )
    html = board.render([evil], board.BoardView())
    assert "<img" not in html and "<script>" not in html and "javascript:" not in html
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in html


def test_csv_flattens_breakdowns_guards_formulas_and_has_no_private_column():
    data = csv_rows.csv_bytes([*ROWS, row("=HYPERLINK(1)", 2.0, contact_email="x@example.org")], "test")
    lines = list(csv.DictReader(io.StringIO(data.decode())))
    assert lines[0]["model"] == "Beta" and lines[0]["per_embodiment.Human"] == "20.0"
    assert any(r["model"] == "'=HYPERLINK(1)" for r in lines)
    assert b"x@example.org" not in data and "contact_email" not in lines[0]


def test_csv_carries_the_intervals_and_rank_ranges_and_leaves_them_empty_where_there_are_none():
    # Delta is significantly better than Alpha and the reported Gamma, not than Beta: of the 4 ranked rows,
    # none is above it and 2 below, so its range is 1-2 (space/board/ranks.py); the table's old rank_range is not read.
    known = row("Delta", 60.0, score_ci=[58.5, 61.25], rank_range=[3, 4], significantly_better=[],
                per_embodiment_ci={"Human": [55.0, 65.0]})  # fmt: skip
    below = [{**r, "significantly_better": ["id-Delta"]} if r["model"] in ("Alpha", "Gamma") else r for r in ROWS]
    lines = {r["model"]: r for r in csv.DictReader(io.StringIO(csv_rows.csv_bytes([*below, known], "test").decode()))}
    delta, gamma = lines["Delta"], lines["Gamma"]
    assert (delta["score_ci_low"], delta["score_ci_high"], delta["rank_best"], delta["rank_worst"]) == (
        "58.5",
        "61.25",
        "1",
        "2",
    )
    assert (delta["per_embodiment_ci.Human.low"], delta["per_embodiment_ci.Human.high"]) == ("55.0", "65.0")
    assert delta["per_embodiment_ci.Bicycle.low"] == "" and gamma["score_ci_low"] == gamma["rank_best"] == ""


def test_a_thousand_entries_render_in_one_table():
    many = [row(f"model-{i}", i / 10, per_embodiment={"Human": 1.0}) for i in range(1000)]
    html = board.render(many, board.BoardView(groups=frozenset(board.GROUPS)))
    assert html.count("<tr") == 1001 and "model-999" in html


def test_a_huge_search_is_cut_before_it_is_split_and_matched(monkeypatch):
    seen: list[int] = []
    original = board._matches

    def spy(haystack: str, words: list[str]) -> bool:
        seen.append(len(words))
        return original(haystack, words)

    monkeypatch.setattr(board, "_matches", spy)
    query = "kit " * 500_000  # 2 MB
    assert [r["model"] for r in board.select(ROWS, board.BoardView(query=query))] == [
        "Beta",
        "Straight forward (baseline)",
    ]
    assert max(seen) == 1  # one distinct word, from the first MAX_QUERY characters only
    assert len(board.query_words("a b c d e f g h i j k " + "x" * 10_000)) == board.MAX_WORDS
