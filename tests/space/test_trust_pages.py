"""The pages' side of trust, as pure functions: what the board keeps, ranks and says; the CSV's new columns;
the entry page's flag, tries, declarations and Hub pull request (every value escaped)."""

from __future__ import annotations

import csv
import io

from space.board import controls as board_url
from space.board import csv_rows
from space.board import view as board
from space.entry import view as entry

FLAG = {
    "kind": "duplicate",
    "reason": "<script>alert(1)</script>",
    "link": "https://e.org/d/1",
    "flagged_at": "2026-03-05",
}
DECLARED = {"trained_on": "none", "test_images_beyond_inference": False, "code_link": None, "best_of": 1}


def row(model: str, score: float, **extra: object) -> dict[str, object]:
    return {"submission_id": f"id-{model}", "kind": "submission", "model": model, "split": "test", "score": score,
            "submitted_at": "2026-03-01", **extra}  # fmt: skip


ROWS = [
    row("Flagged", 50.0, flag=FLAG, declarations=DECLARED, submissions_model=4, submissions_total=9),
    row("Hubby", 60.0, kind="hub", model_link="https://huggingface.co/a/hubby"),
    row("Clean", 40.0, declarations=DECLARED, submissions_model=1, submissions_total=2),
    row("BestOf", 30.0, declarations={**DECLARED, "best_of": 5}),
    row("Undeclared", 20.0),
    {**row("Straight forward (baseline)", 0.0), "kind": "baseline"},
]


def shown(view: board.BoardView) -> list[tuple[object, object]]:
    return [(r["model"], r["rank"]) for r in board.select(ROWS, view)]


def test_by_default_flagged_and_hub_rows_are_left_out_and_take_no_rank():
    assert shown(board.BoardView()) == [
        ("Clean", 1),
        ("BestOf", 2),
        ("Undeclared", 3),
        ("Straight forward (baseline)", None),
    ]
    line = board.summary_line(ROWS, board.BoardView())
    assert line.endswith("1 flagged entry hidden (untick Hide flagged); 1 Hub-reported result not shown.")


def test_one_switch_each_shows_the_flagged_entry_ranked_and_the_hub_row_unranked():
    assert shown(board.BoardView(hide_flagged=False))[:2] == [("Flagged", 1), ("Clean", 2)]
    assert shown(board.BoardView(show_hub=True))[:2] == [("Hubby", None), ("Clean", 1)]
    html = board.render(ROWS, board.BoardView(hide_flagged=False, show_hub=True))
    assert "<script>" not in html and "&lt;script&gt;" in html  # the reason, escaped, in the badge's title
    assert "⚑ duplicate" in html and "nt-row-flagged" in html and "nt-badge-hub" in html
    assert ">4 / 9</span>" in html and ">1 / 2</span>" in html


def test_declaration_filters_drop_entries_without_the_answer():
    single = board.BoardView(hide_flagged=False, filters=board.Filters(single_run=True))
    assert [m for m, _ in shown(single)] == ["Flagged", "Clean", "Straight forward (baseline)"]
    untrained = board.BoardView(filters=board.Filters(not_trained=True))
    assert [m for m, _ in shown(untrained)] == ["Clean", "BestOf", "Straight forward (baseline)"]


def test_the_address_carries_the_switches_and_the_defaults_leave_it_clean():
    assert board_url.from_query({}).hide_flagged is True
    controls = board_url.from_query({"flagged": "1", "hub": "1", "notrained": "1", "single": "yes"})
    assert (controls.hide_flagged, controls.show_hub, controls.not_trained, controls.single_run) == (
        False,
        True,
        True,
        True,
    )
    view = board_url.view_of("test", "", "score", [], "", True, False, None, None, "", False, True, True, False)
    assert (view.hide_flagged, view.show_hub, view.filters.not_trained, view.filters.single_run) == (
        False,
        True,
        True,
        False,
    )
    assert board_url.view_of("test", "", "score", [], "").hide_flagged  # API callers of the first inputs


def test_the_csv_appends_tries_flag_declarations_and_hub_pr():
    lines = list(csv.DictReader(io.StringIO(csv_rows.csv_bytes(ROWS, "test").decode())))
    header = list(lines[0])
    start = header.index(csv_rows.CSV_TRUST[0])  # appended together; later issues' columns come after them
    assert header[start : start + len(csv_rows.CSV_TRUST)] == list(csv_rows.CSV_TRUST)
    flagged = next(line for line in lines if line["model"] == "Flagged")
    assert (flagged["submissions_model"], flagged["submissions_total"], flagged["flag_kind"]) == ("4", "9", "duplicate")
    assert (flagged["trained_on"], flagged["best_of"], flagged["test_images_beyond_inference"]) == ("none", "1", "no")


def test_the_entry_page_says_the_flag_the_tries_the_declarations_and_the_pull_request():
    html = entry.entry_html({**ROWS[0], "hub_pr_url": "https://huggingface.co/a/m/discussions/1", "rank": 1}, [])
    assert html.index("entry-flag") < html.index("entry-score")  # the flag first
    assert "&lt;script&gt;" in html and "<script>" not in html
    assert 'href="https://e.org/d/1"' in html
    assert "4 test submissions for this model, 9 in all" in html
    assert "a single run" in html and "not given" in html
    assert 'id="entry-hub-pr"' in html and 'href="https://huggingface.co/a/m/discussions/1"' in html
    unsafe = entry.entry_html({**ROWS[2], "hub_pr_url": "javascript:alert(1)"}, [])
    assert "entry-hub-pr" not in unsafe and "javascript" not in unsafe
    assert "or before they were asked" in entry.entry_html(ROWS[4], [])
    hub = entry.entry_html(ROWS[1], [])
    assert "reported on the Hub, not scored here" in hub and "Declared by the submitter" not in hub
