"""The board (a plain page at ``/``) as a reader sees it, at 1440x900 (a laptop) and 390x844 (a phone).

The app runs with a seeded results table (``SEEDED``: several entries per model, reported figures,
uncertainty columns as the uncertainty helper publishes them: intervals and who is significantly better
than whom), written once the worker has published its own and its scoring process is paused
(``app_with_table``), so nothing rewrites the table during the tests.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import Page, expect

from leaderboard.publishing.table import baseline_row
from tests.browser.conftest import RunningApp, page_maker, shot
from tests.browser.helpers import app_with_table

pytestmark = pytest.mark.browser
LAPTOP, PHONE = {"width": 1440, "height": 900}, {"width": 390, "height": 844}
EMBODIMENTS = ("Human", "Legged Robot", "Wheeled Robot", "Bicycle")
QWEN, GEMINI = "sub-qwen-vl-2026-03-01", "sub-gemini-2026-02-01"


def entry(model: str, score: float, day: str, **extra: object) -> dict[str, object]:
    per = {e: round(score + d, 2) for e, d in zip(EMBODIMENTS, (6.0, -3.0, 2.0, -5.0))}
    return {
        "submission_id": f"sub-{model.lower()}-{day}",
        "kind": "submission",
        "model": model,
        "organization": extra.pop("organization", "Lab A"),
        "split": extra.pop("split", "test"),
        "score": score,
        "score_valid_only": score + 1.0,
        "coverage": 0.98,
        "per_embodiment": per,
        "per_category": {"Crossing": score - 1.0, "Stairs": score + 1.5},
        "submitted_at": day,
        **extra,
    }


SEEDED = [
    entry(
        "Qwen-VL",
        36.26,
        "2026-03-01",
        parameters_b=7.0,
        open_weights=True,
        paper_link="https://arxiv.org/abs/2510.26909",
        score_ci=[34.1, 38.5],
        significantly_better=[],
        per_embodiment_ci={"Human": [40.0, 44.0]},
    ),
    entry(
        "Qwen-VL",
        20.0,
        "2026-01-10",
        parameters_b=7.0,
        open_weights=True,
        score_ci=[18.0, 22.0],
        significantly_better=[QWEN, GEMINI],
    ),
    entry(
        "Gemini",
        31.5,
        "2026-02-01",
        organization="Big Co",
        open_weights=False,
        score_ci=[29.0, 33.9],
        significantly_better=[],
    ),
    entry("Gemini", 12.0, "2026-01-05", organization="Big Co", open_weights=False, score_ci=None),
    entry("LLaVA", 18.4, "2026-01-20", organization="Uni B", parameters_b=13.0, open_weights=True),
    entry(
        "Tiny",
        -4.2,
        "2026-02-15",
        organization="Uni B",
        parameters_b=0.5,
        open_weights=True,
        significantly_better=[QWEN, GEMINI],
    ),
    {
        **baseline_row("test"),
        "submission_id": "reported-abc",
        "kind": "reported",
        "model": "GPT-Paper",
        "score": 25.0,
        "source": "https://arxiv.org/abs/2510.26909",
        "submitted_at": "2026-01-15",
        "description": None,
    },
    entry("Val-Model", 10.0, "2026-01-01", split="validation"),
    baseline_row("test"),
    baseline_row("validation"),
]


@pytest.fixture(scope="module")
def board_app(tmp_path_factory: pytest.TempPathFactory, browser_datasets: tuple[Path, Path]) -> Iterator[RunningApp]:
    with app_with_table(tmp_path_factory.mktemp("board-app"), browser_datasets, SEEDED, "seed the board") as running:
        yield running


@pytest.fixture
def board_page(chromium, board_app: RunningApp, request: pytest.FixtureRequest):
    """``board_page(size, query="")`` -> a page on the board at that viewport, its table drawn."""
    make = page_maker(chromium, board_app, request)
    new = next(make)

    def open_board(size: dict[str, int], query: str = "", showing: str = "Qwen-VL") -> Page:
        page = new()
        page.set_viewport_size(size)
        page.goto(board_app.url + "/" + query)
        expect(page.locator("#leaderboard-table")).to_contain_text(showing, timeout=30_000)
        return page

    yield open_board
    next(make, None)


def models(page: Page) -> list[str]:
    cells = page.locator("#leaderboard-table tbody tr td.nt-model")  # by its class: Rank (UB) may come before it
    return [t.split("\n")[0].replace(" baseline", "").replace(" reported", "").strip() for t in cells.all_inner_texts()]


def inside(page: Page, selector: str) -> dict[str, float]:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, f"{selector} is not drawn"
    return box


def address(page: Page) -> dict[str, list[str]]:
    return parse_qs(urlparse(page.url).query, keep_blank_values=True)


def open_filters(page: Page) -> None:
    page.locator("#board-filters > summary").click()
    expect(page.get_by_label("Open weights only")).to_be_visible()


def test_on_a_phone_rank_model_and_score_are_in_the_first_screen_without_sideways_scrolling(board_page):
    page = board_page(PHONE)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # the page never scrolls sideways
    first = page.locator("#leaderboard-table tbody tr").first
    expect(first).to_contain_text("Qwen-VL")
    for cell in ("td.nt-rank", "td.nt-model-col", "td.nt-score"):
        box = first.locator(cell).bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], (cell, box)
        assert box["y"] + box["height"] <= PHONE["height"], f"{cell} of rank 1 is below the first screen: {box}"
    expect(first.locator("td.nt-score")).to_contain_text("36.26")
    expect(first.locator("td.nt-score .nt-ci")).to_have_text("[34.10, 38.50]")  # its own line under the score
    sign_in = inside(page, "#identity button")
    assert sign_in["x"] + sign_in["width"] <= PHONE["width"], sign_in
    nav = page.locator("#nt-nav a")
    names = [t.strip() for t in nav.all_inner_texts()]
    assert names == ["Leaderboard", "Submit", "My submissions", "Explorer", "About"], names
    for i in range(nav.count()):
        box = nav.nth(i).bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], (names[i], box)
    shot(page, "board-phone")
    _charts_are_readable(page, PHONE["width"])


def _charts_are_readable(page: Page, width: int) -> None:
    """Every legend entry is drawn inside the page, and no two value labels or axis labels overlap."""
    for chart in ("#chart-embodiment", "#chart-category", "#chart-progress"):
        page.locator(chart).scroll_into_view_if_needed()
        for item in page.locator(f"{chart} .nt-legend li").all():
            box = item.bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= width, (chart, item.inner_text(), box)
        svg = page.locator(f"{chart} svg").bounding_box()
        assert svg and svg["x"] >= 0 and svg["x"] + svg["width"] <= width, (chart, svg)
    values = [b for b in (v.bounding_box() for v in page.locator("#chart-embodiment .nt-chart-value").all()) if b]
    values.sort(key=lambda b: b["y"])
    assert len(values) == 4 * 4  # 4 embodiments x 4 models (best entry each)
    for upper, lower in zip(values, values[1:]):
        assert upper["y"] + upper["height"] <= lower["y"] + 0.5, (upper, lower)
    axis = [b for b in (t.bounding_box() for t in page.locator("#chart-progress text").all()) if b]
    for i, a in enumerate(axis):
        for b in axis[i + 1 :]:
            apart = a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"] or a["y"] + a["height"] <= b["y"]
            assert apart or b["y"] + b["height"] <= a["y"], ("axis labels overlap", a, b)


def test_on_a_laptop_the_board_fits_the_first_screen_and_its_charts_are_drawn(board_page):
    page = board_page(LAPTOP)
    expect(page.get_by_role("columnheader", name="Organisation")).to_be_in_viewport()
    assert page.evaluate("document.documentElement.scrollWidth") <= LAPTOP["width"]  # the default table fits
    expect(page.locator("#leaderboard-table tbody tr").nth(3)).to_be_in_viewport()  # rows, not just controls
    legend = page.locator("#chart-embodiment .nt-legend li")
    expect(legend).to_have_text(["Qwen-VL", "Gemini", "LLaVA", "Tiny"])  # grouped bars, one per model
    expect(page.locator("#chart-embodiment .nt-chart-group")).to_have_text(list(EMBODIMENTS))
    expect(page.locator("#chart-progress .nt-legend li").first).to_have_text("Overall")
    _charts_are_readable(page, LAPTOP["width"])
    shot(page, "board-laptop")


def sort_by(page: Page, header: str) -> None:
    page.get_by_role("columnheader", name=header).get_by_role("link").click()


def test_a_header_click_sorts_by_that_column_and_a_second_click_reverses(board_page):
    page = board_page(LAPTOP)
    sort_by(page, "Params")
    params = page.get_by_role("columnheader", name="Params")
    expect(params).to_have_attribute("aria-sort", "descending")
    expect(params.locator(".nt-arrow")).to_have_text("▼")
    expect(page.locator("#leaderboard-table tbody tr").first).to_contain_text("LLaVA")
    assert models(page)[:3] == ["LLaVA", "Qwen-VL", "Tiny"]  # 13B, 7B, 500M; no count after them
    sort_by(page, "Params")
    expect(page.get_by_role("columnheader", name="Params")).to_have_attribute("aria-sort", "ascending")
    expect(page.locator("#leaderboard-table tbody tr").first).to_contain_text("Tiny")
    assert models(page)[:3] == ["Tiny", "Qwen-VL", "LLaVA"]
    assert address(page)["sort"] == ["params"] and address(page)["dir"] == ["asc"]
    expect(page.get_by_role("columnheader", name="Score")).not_to_have_attribute("aria-sort", "descending")

    open_filters(page)
    page.get_by_role("checkbox", name="Per task category").check()
    expect(page.get_by_role("columnheader", name="Crossing")).to_be_visible()
    sort_by(page, "Crossing")
    expect(page.get_by_role("columnheader", name="Crossing")).to_have_attribute("aria-sort", "descending")
    assert models(page)[:4] == ["Qwen-VL", "Gemini", "LLaVA", "Tiny"]
    score = page.get_by_role("columnheader", name="Score").get_by_role("link")
    score.focus()
    page.keyboard.press("Enter")  # from the keyboard too; the focus stays on the header
    expect(page.get_by_role("columnheader", name="Score")).to_have_attribute("aria-sort", "descending")
    expect(page.get_by_role("columnheader", name="Score").get_by_role("link")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.get_by_role("columnheader", name="Score")).to_have_attribute("aria-sort", "ascending")
    expect(page.locator("#leaderboard-table tbody tr").first).to_contain_text("Tiny")
    sort_by(page, "Date")
    expect(page.get_by_role("columnheader", name="Date")).to_have_attribute("aria-sort", "descending")
    assert models(page)[:3] == ["Qwen-VL", "Tiny", "Gemini"]  # newest first: 03-01, 02-15, 02-01
    shot(page, "board-sorted")


def test_the_search_summary_counts_only_what_matches(board_page):
    page = board_page(LAPTOP)
    summary = page.locator("#board-summary")
    search = page.get_by_label("Search the board")
    search.fill("zzz")
    expect(summary).to_contain_text("No entry matches 'zzz'")
    expect(summary).not_to_contain_text("best")
    search.fill("7B")
    expect(summary).to_contain_text("1 model matches '7B'")
    assert models(page) == ["Qwen-VL", "Straight forward (baseline)"]
    assert address(page)["q"] == ["7B"]  # the address says what is shown
    search.fill("")
    expect(summary).to_contain_text("5 models on the test split")
    page.locator("#board-splits").get_by_role("link", name="Validation").click()
    expect(page.locator("#leaderboard-table")).to_contain_text("Val-Model")
    expect(summary).to_contain_text("1 model on the validation split")
    expect(page.locator("#board-results")).not_to_contain_text("No entry matches")


def test_best_entry_per_model_is_the_default_and_all_entries_one_click_away(board_page):
    page = board_page(LAPTOP)
    assert models(page).count("Qwen-VL") == 1
    open_filters(page)
    page.get_by_label("All entries (not only each model's best)").check()
    expect(page.locator("#leaderboard-table tbody tr", has_text="Qwen-VL")).to_have_count(2)
    assert address(page)["all"] == ["1"]


def test_filters_narrow_the_board_and_the_address_carries_them(board_page):
    page = board_page(LAPTOP)
    open_filters(page)
    page.get_by_label("Open weights only").check()
    expect(page.locator("#leaderboard-table tbody tr", has_text="Gemini")).to_have_count(0)
    assert "GPT-Paper" not in models(page)
    page.get_by_label("Parameters from (B)").fill("1")
    page.get_by_label("Parameters up to (B)").fill("10")
    page.get_by_label("Parameters up to (B)").press("Enter")
    expect(page.locator("#leaderboard-table tbody tr", has_text="LLaVA")).to_have_count(0)
    assert models(page) == ["Qwen-VL", "Straight forward (baseline)"]
    page.get_by_label("Organisation").fill("uni")
    page.get_by_label("Organisation").press("Enter")
    expect(page.locator("#board-summary")).to_contain_text("No entry on the test split passes the filters")
    query = address(page)
    assert query["open"] == ["1"] and query["pmin"] == ["1"] and query["pmax"] == ["10"] and query["org"] == ["uni"]


def test_opening_an_address_reproduces_the_view(board_page):
    page = board_page(LAPTOP, "?q=qwen&sort=date&dir=asc&all=1&cols=emb,cat&by=weather_conditions")
    expect(page.get_by_label("Search the board")).to_have_value("qwen")
    expect(page.get_by_label("All entries (not only each model's best)")).to_be_checked()
    expect(page.get_by_role("columnheader", name="Date")).to_have_attribute("aria-sort", "ascending")
    expect(page.get_by_role("columnheader", name="Crossing")).to_be_visible()
    assert models(page) == ["Qwen-VL", "Qwen-VL", "Straight forward (baseline)"]
    dates = page.locator("#leaderboard-table tbody tr", has_text="Qwen-VL").locator("td:last-child").all_inner_texts()
    assert dates == ["2026-01-10", "2026-03-01"]
    other = board_page(LAPTOP, "?split=validation", showing="Val-Model")
    expect(other.locator("#leaderboard-table")).not_to_contain_text("Qwen-VL")
    expect(other.locator("#board-splits").get_by_role("link", name="Validation")).to_have_attribute(
        "aria-current", "page"
    )


def test_rows_link_to_their_entry_page_and_show_intervals_and_rank_ranges(board_page, board_app: RunningApp):
    import httpx

    page = board_page(LAPTOP)
    qwen = page.locator("#leaderboard-table tbody tr", has_text="Qwen-VL")
    expect(qwen.get_by_role("link", name="Qwen-VL")).to_have_attribute("href", f"/entry/{QWEN}")
    expect(qwen.get_by_role("link", name="paper")).to_have_attribute("href", "https://arxiv.org/abs/2510.26909")
    expect(qwen.locator("td.nt-score")).to_have_text("36.26 [34.10, 38.50]")
    header = [h.strip() for h in page.locator("#leaderboard-table thead th").all_inner_texts()]
    rank_range = header.index("Rank range") + 1
    # Nobody is significantly better; two (Qwen-VL of January, Tiny) are significantly worse: the last two places
    # are out.
    ranked = httpx.get(f"{board_app.url}/api/board", timeout=30).json()["rows"]
    count = sum(r["rank"] is not None for r in ranked if not r["flag_kind"])
    expect(qwen.locator(f"td:nth-child({rank_range})")).to_have_text(f"1–{count - 2}")
    llava = page.locator("#leaderboard-table tbody tr", has_text="LLaVA")
    expect(llava.locator(f"td:nth-child({rank_range})")).to_have_text("—")
    expect(llava.locator("td.nt-score")).to_have_text("18.40")  # no interval: none is made up
    qwen.get_by_role("link", name="Qwen-VL").click()
    expect(page.locator("#entry-page")).to_contain_text("Qwen-VL")
    assert urlparse(page.url).path == f"/entry/{QWEN}"


def test_the_header_links_are_reached_by_tab_and_show_a_clear_focus_ring(board_page):
    page = board_page(LAPTOP)
    page.keyboard.press("Tab")
    skip = page.get_by_role("link", name="Skip to the content")
    expect(skip).to_be_focused()
    for _ in range(3):
        page.keyboard.press("Tab")
    focused = page.evaluate(
        "(() => { const s = getComputedStyle(document.activeElement); return [s.outlineStyle, s.outlineWidth]; })()"
    )
    assert focused[0] != "none" and float(focused[1].removesuffix("px")) >= 2, focused
    shot(page, "board-focus")


def test_the_json_api_replaces_the_gradio_board_api(board_app: RunningApp):
    import httpx

    board = httpx.get(f"{board_app.url}/api/board", timeout=30).json()
    ranked = {r["submission_id"]: r["rank"] for r in board["rows"] if r["kind"] == "submission"}
    assert ranked[QWEN] == 1 and ranked[GEMINI] == 2
    oldest_first = sorted((r for r in board["rows"] if r["submitted_at"]), key=lambda r: r["submitted_at"])
    assert oldest_first[-1]["model"] == "Qwen-VL"
    validation = httpx.get(f"{board_app.url}/api/board", params={"split": "validation"}, timeout=30).json()
    assert "Val-Model" in {r["model"] for r in validation["rows"]}
