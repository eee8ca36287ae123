"""What the reader asks of the board: header sorts, best entry per model, filters, the address, the summary,
intervals and rank ranges, entry links, and the charts' HTML."""

from __future__ import annotations

import re

import pytest

from scoring.penalty_table import EMBODIMENTS
from space.board import chart_series, progress
from space.board import charts as public_charts
from space.board import controls as board_url
from space.board import view as board
from space.board.columns import interval, rank_range, sort_key
from tests.space.test_board import row

ROWS = [
    row("Qwen", 36.26, parameters_b=7.0, open_weights=True, organization="Lab A", submitted_at="2026-03-01",
        score_ci=[34.1, 38.5], significantly_better=[], per_category={"Stairs": 30.0}, paper_link="https://x.org/p",
        per_embodiment={"Human": 40.0, "Bicycle": 20.0}),
    row("qwen", 20.0, parameters_b=7.0, open_weights=True, organization="Lab A", submitted_at="2026-01-10",
        submission_id="id-qwen-old", per_embodiment={"Human": 25.0}),
    row("Gemini", 31.5, organization="Big Co", open_weights=False, submitted_at="2026-02-01",
        per_category={"Stairs": 35.0}, per_embodiment={"Human": 30.0}),
    row("Tiny", -4.2, parameters_b=0.5, open_weights=True, organization="Uni B", submitted_at="2026-02-15",
        significantly_better=["id-Qwen"]),
    row("Straight forward (baseline)", 0.0, kind="baseline", submission_id="baseline-test"),
]  # fmt: skip


def names(view: board.BoardView) -> list[str]:
    return [str(r["model"]) for r in board.select(ROWS, view)]


def test_one_row_per_model_by_default_its_best_and_all_entries_on_request():
    assert names(board.BoardView()) == ["Qwen", "Gemini", "Straight forward (baseline)", "Tiny"]
    assert names(board.BoardView(best_only=False)).count("qwen") == 1
    ranks = {r["model"]: r["rank"] for r in board.select(ROWS, board.BoardView())}
    # The hidden older "qwen" (20.0) keeps its place 3: best entry per model hides rows, it does not re-rank.
    assert ranks == {"Qwen": 1, "Gemini": 2, "Tiny": 4, "Straight forward (baseline)": None}


@pytest.mark.parametrize(
    ("key", "descending", "expected"),
    [
        ("params", None, ["Qwen", "Tiny", "Gemini", "Straight forward (baseline)"]),  # no count: last
        ("params", False, ["Tiny", "Qwen", "Gemini", "Straight forward (baseline)"]),
        ("cat:Stairs", None, ["Gemini", "Qwen"]),
        ("cat:Stairs", False, ["Qwen", "Gemini"]),
        ("date", None, ["Qwen", "Tiny", "Gemini"]),
        ("model", None, ["Gemini", "Qwen", "Straight forward (baseline)", "Tiny"]),
        ("model", True, ["Tiny", "Straight forward (baseline)", "Qwen", "Gemini"]),
    ],
)
def test_any_column_sorts_in_its_natural_order_and_reverses(key, descending, expected):
    got = names(board.BoardView(sort=key, descending=descending))
    assert got[: len(expected)] == expected


def test_the_sorted_header_says_so_with_aria_sort_and_an_arrow():
    html = board.render(ROWS, board.BoardView(sort="params", descending=False))
    header = re.search(r'<th[^>]*aria-sort="ascending"[^>]*>.*?</th>', html)
    assert header and 'data-sort="params"' in header.group(0) and "▲" in header.group(0)
    assert html.count("aria-sort=") == 1 and 'data-sort="params" data-desc="0"' in html


def test_an_unknown_sort_key_is_refused_by_name():
    with pytest.raises(ValueError, match="sort 'bogus'"):
        sort_key("bogus")
    assert board_url.sort_state("bogus:asc") == ("score", None)  # from a page or a link: the default instead


def test_filters_keep_the_baseline_and_drop_entries_without_what_they_ask():
    open_only = board.Filters(open_weights=True)
    assert names(board.BoardView(filters=open_only)) == ["Qwen", "Straight forward (baseline)", "Tiny"]
    small = board.Filters(params_min=1, params_max=10)
    assert names(board.BoardView(filters=small)) == ["Qwen", "Straight forward (baseline)"]
    assert names(board.BoardView(filters=board.Filters(organization="big"))) == [
        "Gemini",
        "Straight forward (baseline)",
    ]


def test_the_summary_counts_only_what_matches_and_never_a_best_of_nothing():
    assert board.summary_line(ROWS, board.BoardView(query="zzz")) == "No entry matches 'zzz' on the test split."
    assert board.summary_line(ROWS, board.BoardView(query="7B")) == "1 model matches '7B'; best score 36.26."
    assert board.summary_line(ROWS, board.BoardView(query="7b", best_only=False)).startswith("2 entries match '7b'")
    assert board.summary_line(ROWS, board.BoardView()) == "3 models on the test split; best score 36.26."
    empty = board.summary_line(ROWS, board.BoardView(split="validation"))
    assert "matches" not in empty and "yet" in empty
    assert "No entry matches" not in board.render(ROWS, board.BoardView(split="validation"))
    assert board.render(ROWS, board.BoardView(query="zzz")).count("<tr") == 2  # the header and the baseline


def test_the_score_carries_its_interval_and_the_rank_range_shows_only_where_known():
    html = board.render(ROWS, board.BoardView())
    assert '<strong>36.26</strong> <span class="nt-ci" title="95% interval">[34.10, 38.50]</span>' in html
    # Qwen: nobody significantly better, Tiny significantly worse, 4 ranked entries (the hidden "qwen" too): 1-3.
    tip = "0 significantly better, 2 not significantly different, 1 significantly worse"
    assert ">Rank range<" in html and f'<td class="nt-sec"><span title="{tip}">1–3</span></td>' in html
    without = [r for r in ROWS if r.get("significantly_better") is None]
    assert ">Rank range<" not in board.render(without, board.BoardView())
    assert interval(None) is None and interval([1.0]) is None and rank_range([2, 2]) == "2" and rank_range(None) == "—"


def test_a_submission_links_to_its_entry_page_and_to_its_paper():
    html = board.render(ROWS, board.BoardView())
    assert '<a class="nt-entry" href="/?entry=id-Qwen">Qwen</a>' in html
    assert 'href="https://x.org/p"' in html and ">paper</a>" in html
    evil = row("x", 1.0, submission_id='a"><script>')
    assert "<script>" not in board.render([evil], board.BoardView()) and "entry=a%22%3E%3Cscript%3E" in board.render(
        [evil], board.BoardView()
    )


def test_the_address_round_trips_the_view_and_ignores_what_it_does_not_know():
    controls = board_url.from_query(
        {"split": "validation", "q": "qwen", "sort": "emb:Human", "dir": "asc", "cols": "emb,cat", "all": "1",
         "open": "1", "pmin": "1", "pmax": "10", "org": "Lab", "by": "weather_conditions"}
    )  # fmt: skip
    view = board_url.view_of(*controls.__dict__.values())
    assert view == board.BoardView(
        split="validation",
        query="qwen",
        sort="emb:Human",
        groups=frozenset({board.GROUP_EMBODIMENT, board.GROUP_CATEGORY}),
        breakdown="weather_conditions",
        descending=False,
        best_only=False,
        filters=board.Filters(True, 1.0, 10.0, "Lab"),
    )
    junk = board_url.from_query({"split": "train", "sort": "x" * 10_000, "cols": "nope", "pmin": "nan", "by": "<b>"})
    assert junk == board_url.Controls(groups=())  # "cols" given but unknown: no group
    assert board_url.from_query({}) == board_url.Controls()
    assert board_url.view_of("test", "", "Human", [], "").sort == "emb:Human"  # an old API call's label


def test_charts_draw_grouped_bars_one_per_model_and_escape_names():
    rows = [*ROWS, row("<b>x</b>", 5.0, per_embodiment={"Human": 5.0})]
    entries = chart_series.top_entries(rows, "test")
    names = chart_series.labels(entries)
    assert names == ["Qwen", "Gemini", "<b>x</b>"]  # the older "qwen" entry is not a second bar
    html = public_charts.grouped_bars("Per embodiment", "e", entries, names, "per_embodiment", list(EMBODIMENTS))
    legend = re.findall(r"<li><i [^>]*></i>(.*?)</li>", html)
    assert legend == ["Qwen", "Gemini", "&lt;b&gt;x&lt;/b&gt;"] and "<b>" not in html
    assert public_charts.charts_html([], "test") == ""


def test_progress_steps_up_on_the_dates_the_best_score_rose():
    series = progress.best_by_date(ROWS, "test")
    assert [(str(d), s) for d, s, _ in series["Overall"]] == [
        ("2026-01-10", 20.0),
        ("2026-02-01", 31.5),
        ("2026-03-01", 36.26),
    ]
    assert [(str(d), s) for d, s, _ in series["Human"]] == [
        ("2026-01-10", 25.0),
        ("2026-02-01", 30.0),
        ("2026-03-01", 40.0),
    ]
    html = public_charts.progress(ROWS, "test")
    assert html.count("<polyline") == len(series) and "Overall" in html
    assert public_charts.progress([], "test") == ""
