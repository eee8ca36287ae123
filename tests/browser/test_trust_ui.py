"""What the board says about trust, as a reader sees it, at 1440x900 and 390x844: the tries column, flagged
entries hidden by default and one click away (with their badge and reason), Hub-reported rows off until asked for,
declaration filters, and the entry page's declarations, flag and Hub pull request.

The app runs with a seeded results table (rows as the service publishes them), written once the worker has
published its own and its scoring process is paused (``app_with_table``), so nothing rewrites it during the tests.
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
from tests.browser.test_board_ui import entry

pytestmark = pytest.mark.browser
LAPTOP, PHONE = {"width": 1440, "height": 900}, {"width": 390, "height": 844}
SIZES = pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["laptop", "phone"])
EVIDENCE = "https://huggingface.co/spaces/x/navitrace/discussions/9"
PR = "https://huggingface.co/lab/clean-vlm/discussions/2"
DECLARED = {"trained_on": "none", "test_images_beyond_inference": False, "code_link": None, "best_of": 1}

SEEDED = [
    entry(
        "Tuned-VLM",
        44.0,
        "2026-03-02",
        submissions_model=4,
        submissions_total=6,
        declarations={**DECLARED, "trained_on": "test", "best_of": 4},
        flag={
            "kind": "contamination",
            "reason": "Tuned on the test images",
            "link": EVIDENCE,
            "flagged_at": "2026-03-05",
        },
    ),
    entry(
        "Clean-VLM",
        30.0,
        "2026-03-01",
        submissions_model=3,
        submissions_total=5,
        declarations={**DECLARED, "code_link": "https://github.com/lab/clean-vlm"},
        hub_pr_url=PR,
    ),
    entry(
        "BestOf-VLM",
        25.0,
        "2026-02-01",
        submissions_model=1,
        submissions_total=1,
        declarations={**DECLARED, "best_of": 8},
    ),
    entry("Old-VLM", 20.0, "2026-01-01", submissions_model=2, submissions_total=2, declarations=None),
    {
        **baseline_row("test"),
        "submission_id": "hub-lab-hubby",
        "kind": "hub",
        "model": "Hubby-VLM",
        "model_link": "https://huggingface.co/lab/hubby-vlm",
        "score": 50.0,
        "source": "https://huggingface.co/lab/hubby-vlm/blob/main/.eval_results/navitrace.yaml",
        "submitted_at": "2026-03-03",
        "description": None,
    },
    baseline_row("test"),
]


@pytest.fixture(scope="module")
def trust_app(tmp_path_factory: pytest.TempPathFactory, browser_datasets: tuple[Path, Path]) -> Iterator[RunningApp]:
    with app_with_table(tmp_path_factory.mktemp("trust-app"), browser_datasets, SEEDED, "seed the trust tests") as app:
        yield app


@pytest.fixture
def open_page(chromium, trust_app: RunningApp, request: pytest.FixtureRequest):
    make = page_maker(chromium, trust_app, request)
    new = next(make)

    def opened(size: dict[str, int], query: str = "", showing: str = "#leaderboard-table") -> Page:
        page = new()
        page.set_viewport_size(size)
        page.goto(trust_app.url + "/" + query)
        expect(page.locator(showing)).to_be_visible(timeout=30_000)
        return page

    yield opened
    next(make, None)


def models(page: Page) -> list[str]:
    cells = page.locator("#leaderboard-table tbody tr td.nt-model")
    return [t.split("\n")[0].split(" ")[0].strip() for t in cells.all_inner_texts()]


def in_view(page: Page, locator, size: dict[str, int]) -> None:
    box = locator.bounding_box()
    assert box is not None, "not drawn"
    assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"] + 1, box


def address(page: Page) -> dict[str, list[str]]:
    return parse_qs(urlparse(page.url).query)


TEXT_BOX = (  # the box of an element's text (its cell's padding left out)
    "e => { const r = document.createRange(); r.selectNodeContents(e); const b = r.getBoundingClientRect();"
    " return {left: b.left, right: b.right}; }"
)


def open_filters(page: Page) -> None:
    """The board's "Filters and columns" panel, closed by default (the first rows stay in the first screen)."""
    page.locator("#board-filters > summary").click()
    expect(page.get_by_label("Show flagged entries")).to_be_visible()


@SIZES
def test_flagged_entries_are_hidden_by_default_and_one_click_shows_them_with_their_badge(open_page, size):
    page = open_page(size)
    expect(page.locator("#leaderboard-table")).to_contain_text("Clean-VLM")
    assert "Tuned-VLM" not in models(page)
    assert models(page)[0] == "Clean-VLM"  # the hidden entry takes no rank: Clean-VLM is #1
    expect(page.locator("#leaderboard-table tbody tr").first.locator("td").first).to_have_text("1")
    summary = page.locator("#board-summary")
    expect(summary).to_contain_text("1 flagged entry hidden")
    show = summary.get_by_role("link", name="Show flagged")  # the one click, where the reader reads "hidden"
    in_view(page, show, size)
    show.click()
    row = page.locator("#leaderboard-table tbody tr", has_text="Tuned-VLM")
    expect(row).to_be_visible()
    badge = row.locator(".nt-badge-flag")
    expect(badge).to_have_text("⚑ contamination")
    expect(badge).to_have_attribute("title", "Flagged by the maintainers (contamination): Tuned on the test images")
    in_view(page, badge, size)
    assert models(page)[0] == "Tuned-VLM"
    assert address(page).get("flagged") == ["1"]
    open_filters(page)
    expect(page.get_by_label("Show flagged entries")).to_be_checked()  # the panel says so too
    shot(page, f"trust-board-flagged-{size['width']}")


def test_reloading_an_address_with_flagged_shown_keeps_them_shown(open_page):
    page = open_page(LAPTOP)
    open_filters(page)
    page.get_by_label("Show flagged entries").check()
    expect(page.locator("#leaderboard-table tbody tr", has_text="Tuned-VLM")).to_be_visible()
    assert address(page).get("flagged") == ["1"]
    page.reload()  # the address keeps the choice
    expect(page.locator("#leaderboard-table tbody tr", has_text="Tuned-VLM")).to_be_visible()
    open_filters(page)
    expect(page.get_by_label("Show flagged entries")).to_be_checked()


def test_the_tries_column_shows_the_counts_with_its_explanation_on_a_laptop(open_page):
    page = open_page(LAPTOP)
    header = page.get_by_role("columnheader", name="Tries")
    expect(header).to_be_visible()
    assert "how many tries stood behind it" in (header.get_attribute("title") or "")
    row = page.locator("#leaderboard-table tbody tr", has_text="Clean-VLM")
    headers = [t.strip() for t in page.locator("#leaderboard-table thead th").all_inner_texts()]
    column = next(i for i, h in enumerate(headers) if h.startswith("Tries"))
    expect(row.locator("td").nth(column)).to_have_text("3 / 5")
    in_view(page, row.locator("td").nth(column), LAPTOP)


def test_on_a_phone_every_column_is_a_sideways_scroll_away_with_rank_and_model_kept_in_view(open_page):
    page = open_page(PHONE)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # the page itself never scrolls
    row = page.locator("#leaderboard-table tbody tr", has_text="Clean-VLM")
    headers = [t.strip() for t in page.locator("#leaderboard-table thead th").all_inner_texts()]
    expect(row.locator("td").nth(next(i for i, h in enumerate(headers) if h.startswith("Tries")))).to_have_text("3 / 5")
    date = row.locator("td").last  # the last column: the table's own box scrolls sideways to it
    date.scroll_into_view_if_needed()
    expect(date).to_have_text("2026-03-01")
    in_view(page, date, PHONE)
    assert page.locator("#board-table-wrap").evaluate("e => e.scrollLeft") > 0
    for cell in ("td.nt-rank", "td.nt-model-col"):  # still where they were: sticky on the left
        in_view(page, row.locator(cell), PHONE)
    expect(row.locator("td.nt-rank")).to_have_text("1")
    model = row.locator("td.nt-model-col").bounding_box()
    digits = row.locator("td.nt-rank").evaluate(TEXT_BOX)  # the rank's own text, not its cell's padding
    assert model and 0 <= digits["left"] and digits["right"] <= model["x"] + 0.5, (digits, model)  # not covered
    box = date.bounding_box()
    assert box and box["x"] >= model["x"] + model["width"] - 1, (box, model)  # beside them, not under them


@SIZES
def test_hub_reported_rows_are_off_by_default_and_one_click_shows_them_marked(open_page, size):
    page = open_page(size)
    expect(page.locator("#leaderboard-table")).to_contain_text("Clean-VLM")
    assert "Hubby-VLM" not in models(page)
    expect(page.locator("#board-summary")).to_contain_text("1 Hub-reported result not shown")
    open_filters(page)
    page.get_by_label("Show Hub-reported results").check()
    row = page.locator("#leaderboard-table tbody tr", has_text="Hubby-VLM")
    expect(row).to_be_visible()
    badge = row.locator(".nt-badge-hub")
    expect(badge).to_have_attribute("title", "Reported on the Hub, not scored here: a figure the model's repository "
                                    "publishes for this benchmark")  # fmt: skip
    expect(row.locator("td").first).to_have_text("—")  # not ranked: not scored here
    expect(page.locator("#leaderboard-table tbody tr", has_text="Clean-VLM").locator("td").first).to_have_text("1")
    assert address(page).get("hub") == ["1"]
    page.locator("#board-filters > summary").click()  # closed again: the row's badge in sight
    in_view(page, badge, size)


def test_opening_an_address_with_flagged_shown_shows_them(open_page):
    page = open_page(LAPTOP, "?flagged=1")
    expect(page.locator("#leaderboard-table")).to_contain_text("Tuned-VLM")
    expect(page.locator("#leaderboard-table tbody tr").first.locator("td").first).to_have_text("1")
    assert models(page)[:2] == ["Tuned-VLM", "Clean-VLM"]
    expect(page.locator("#board-summary")).not_to_contain_text("flagged entry hidden")
    open_filters(page)
    expect(page.get_by_label("Show flagged entries")).to_be_checked()


def test_declaration_filters_keep_single_runs_and_untrained_models(open_page):
    page = open_page(LAPTOP, "?flagged=1")
    expect(page.locator("#leaderboard-table")).to_contain_text("Tuned-VLM")
    open_filters(page)
    page.get_by_label("Single run only").check()
    expect(page.locator("#leaderboard-table")).not_to_contain_text("BestOf-VLM")
    assert models(page) == ["Clean-VLM", "Straight"]  # Old-VLM declared nothing: it drops out too
    assert address(page).get("single") == ["1"] and address(page).get("flagged") == ["1"]
    page.get_by_label("Single run only").uncheck()
    page.get_by_label("Not trained on NaviTrace").check()
    expect(page.locator("#leaderboard-table")).not_to_contain_text("Tuned-VLM")
    assert models(page) == ["Clean-VLM", "BestOf-VLM", "Straight"]
    assert address(page).get("notrained") == ["1"] and "single" not in address(page)


@SIZES
def test_the_entry_page_shows_the_tries_the_declarations_and_the_hub_pull_request(open_page, size):
    page = open_page(size, "entry/sub-clean-vlm-2026-03-01", showing="#entry-title")
    expect(page.locator("#entry-title")).to_have_text("Clean-VLM")
    expect(page.locator("#entry-facts")).to_contain_text("3 test submissions for this model, 5 in all")
    declared = page.locator("#entry-declarations")
    declared.scroll_into_view_if_needed()
    expect(declared).to_be_visible()
    for question, answer in (
        ("Trained or tuned on NaviTrace data", "no"),
        ("Test images used beyond inference", "no"),
        ("Prompt or inference code", "https://github.com/lab/clean-vlm"),
        ("Runs", "a single run"),
    ):
        expect(declared.locator("dt", has_text=question).locator("xpath=following-sibling::dd[1]")).to_have_text(answer)
    in_view(page, declared, size)  # the long code link wraps: nothing runs off a phone's screen
    pr = page.locator("#entry-hub-pr a")
    expect(pr).to_have_attribute("href", PR)
    pr.scroll_into_view_if_needed()
    in_view(page, pr, size)
    expect(page.locator("#entry-flag")).to_have_count(0)
    shot(page, f"trust-entry-{size['width']}")


def test_a_flagged_entry_page_says_why_first_with_the_evidence(open_page):
    page = open_page(PHONE, "?entry=sub-tuned-vlm-2026-03-02", showing="#entry-title")  # the old address
    flag = page.locator("#entry-flag")
    expect(flag).to_contain_text("Flagged by the maintainers: contamination")
    expect(flag).to_contain_text("Tuned on the test images")
    expect(flag.get_by_role("link", name="the discussion")).to_have_attribute("href", EVIDENCE)
    box, score = flag.bounding_box(), page.locator("#entry-score").bounding_box()
    assert box and score and box["y"] < score["y"] < PHONE["height"], (box, score)  # above the score, first screen
    expect(page.locator("#entry-declarations")).to_contain_text("the best of 4 runs")
    expect(page.locator("#entry-declarations")).to_contain_text("yes, on the test split's images")
