"""The entry page and compare view as HTML (space/entry/view.py, compare.py): what they show of a
public row, what they refuse, and that a person's text stays inert."""

from __future__ import annotations

from leaderboard.statistics.uncertainty_compare import GroupFigure
from space.entry import compare
from space.entry import view as entry

ROWS = [
    {
        "submission_id": "a1",
        "kind": "submission",
        "split": "test",
        "model": "<b>Alpha</b>",
        "score": 40.0,
        "score_ci": [38.0, 42.5],
        "significantly_better": [],  # nobody above it, and "b2" does not list it as significantly better: 1-2
        "per_embodiment": {"Human": 41.0},
        "per_metadata": {"lighting_conditions": {"Day": 40.0}},
        "scorer_version": "1.0.0",
        "dataset_revision": "r1",
        "model_link": "javascript:alert(1)",
        "paper_link": "https://arxiv.org/abs/1",
    },
    {
        "submission_id": "b2",
        "kind": "submission",
        "split": "test",
        "model": "Beta",
        "score": 35.0,
        "significantly_better": [],
    },
    {"submission_id": "baseline-test", "kind": "baseline", "split": "test", "model": "Straight", "score": 0.0},
]


def test_an_id_from_the_url_is_cut_before_use():
    assert entry.entry_id({"entry": " a1 "}) == "a1"
    assert entry.entry_id({"entry": "x" * 10_000}) == "x" * entry.MAX_ID
    assert entry.entry_id({}) is None and entry.entry_id({"entry": "  "}) is None
    assert compare.compare_ids({"compare": "a1,b2,c3"}) is None
    assert compare.compare_ids({"compare": "a1," + "y" * 10_000}) == ("a1", "y" * entry.MAX_ID)


def test_only_rows_of_the_public_table_are_found():
    assert entry.find(ROWS, "a1")["rank"] == 1
    assert entry.find(ROWS, "private-id") is None
    assert "No public entry has the id “&lt;script&gt;”" in entry.not_found("<script>")


def test_the_entry_page_shows_the_interval_and_escapes_text():
    groups = [GroupFigure("score", "", 40.0, [38.0, 42.5]), GroupFigure("per_embodiment", "Human", 41.0, [39.0, 43.0])]
    page = entry.entry_html(entry.find(ROWS, "a1"), groups)
    assert "<b>40.00</b> <span title='95% confidence interval'>[38.00, 42.50]</span>" in page
    assert "(range 1–2)" in page and "41.00 [39.00, 43.00]" in page
    assert "&lt;b&gt;Alpha&lt;/b&gt;" in page and "<b>Alpha</b>" not in page
    assert "javascript:" not in page and 'href="https://arxiv.org/abs/1"' in page
    assert "r1" in page and "Lighting" in page


def test_a_row_without_per_row_scores_says_why_it_has_no_interval():
    page = entry.entry_html(entry.find(ROWS, "baseline-test"), [])
    assert "No interval or rank range" in page and "[" not in page.split("id='entry-score'")[0]


def test_the_compare_view_writes_each_difference_with_its_interval():
    differences = [
        GroupFigure("per_embodiment", "Human", 3.1, [1.2, 5.0], 41.0, 37.9),
        GroupFigure("score", "", 5.0, [2.0, 8.0], 40.0, 35.0),
        GroupFigure("per_category", "Crossing", None, None, None, 30.0),
    ]
    page = compare.compare_html(entry.find(ROWS, "a1"), entry.find(ROWS, "b2"), differences)
    assert "A − B = <b>+5.00 [+2.00, +8.00]</b>" in page
    assert page.index(">overall<") < page.index(">Human<") < page.index(">Crossing (category)<")
    assert "+3.10 [+1.20, +5.00]" in page and "withheld" in page
