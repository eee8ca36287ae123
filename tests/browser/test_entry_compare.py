"""The entry page (``/?entry=<id>``) and the compare view (``/?compare=a,b``) in a real browser,
at a laptop's 1440x900 and a phone's 390x844: what a visitor sees in the first screen.

The app is started on a store seeded beforehand: three published test entries of different
quality and one private one (``MIN_ROWS_PER_FIGURE=1``: the 8-scene browser dataset would otherwise
withhold every per-embodiment figure, and with it every interval).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from leaderboard import Leaderboard, Settings
from scoring import load_answer_key
from scoring.examples import write_example
from tests.browser.conftest import MAINTAINER, RunningApp, page_maker, shot, start_app, stop_app
from tests.service_fixtures import submit

pytestmark = pytest.mark.browser
SIZES = {"laptop": (1440, 900), "phone": (390, 844)}


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory, browser_datasets: tuple[Path, Path]) -> Iterator[tuple]:
    folder = tmp_path_factory.mktemp("entry-app")
    private, public = browser_datasets
    env = {
        "LEADERBOARD_HOME": str(folder / "home"),
        "ANSWER_KEY_DATASET": str(private),
        "PUBLIC_DATASET": str(public),
        "MAINTAINERS": MAINTAINER,
        "MIN_ROWS_PER_FIGURE": "1",
    }
    service = Leaderboard(Settings.from_env(env))
    key = load_answer_key(private, "test", folder / "cache")
    ids = {}
    for name, kind, user, publish in (
        ("Perfect", "perfect", "alice", True),
        ("Noisy", "noisy", "bob", True),
        ("Straight", "straight", "carol", True),
        ("Secret", "noisy", "dave", False),
    ):
        path = folder / f"{name}.tsv"
        write_example(key, kind, path, seed=3)
        ids[name] = submit(service, path, user=user, model=name, publish=publish).submission_id
    service.worker.drain()
    for name in ("Perfect", "Noisy", "Straight"):
        service.approve(ids[name], by=MAINTAINER)
    app = start_app(folder, private, public, MIN_ROWS_PER_FIGURE="1")
    yield app, ids, {r["submission_id"]: r for r in service.published_table()}
    stop_app(app)


@pytest.fixture
def sized_page(chromium, seeded, request: pytest.FixtureRequest) -> Iterator:
    app: RunningApp = seeded[0]
    makers = page_maker(chromium, app, request)
    make = next(makers)

    def sized(size: str) -> Page:
        page = make()
        width, height = SIZES[size]
        page.set_viewport_size({"width": width, "height": height})
        return page

    yield sized
    next(makers, None)


def in_viewport(page: Page, selector: str) -> None:
    """The element's box lies inside the first screen (no scrolling down or sideways)."""
    box = page.locator(selector).first.bounding_box()
    assert box is not None, f"{selector} is not rendered"
    view = page.viewport_size
    assert box["y"] >= 0 and box["y"] + min(box["height"], 40) <= view["height"], (selector, box, view)
    assert box["x"] >= 0 and box["x"] + min(box["width"], view["width"]) <= view["width"] + 1, (selector, box, view)


def fits_across(page: Page, selector: str, within: str) -> None:
    """The element lies within ``within`` (a scrolling box that would clip it) and the viewport's width."""
    box, outer = page.locator(selector).first.bounding_box(), page.locator(within).first.bounding_box()
    assert box is not None and outer is not None
    right = min(outer["x"] + outer["width"], page.viewport_size["width"])
    assert box["x"] >= outer["x"] and box["x"] + box["width"] <= right + 0.5, (box, outer)


@pytest.mark.parametrize("size", SIZES)
def test_an_entry_url_opens_its_page_with_the_interval_in_the_first_screen(sized_page, seeded, size):
    app, ids, table = seeded
    page = sized_page(size)
    page.goto(f"{app.url}/?entry={ids['Noisy']}")
    expect(page.locator("#entry-title")).to_have_text("Noisy")
    row = table[ids["Noisy"]]
    low, high = row["score_ci"]
    score = page.locator("#entry-score")
    expect(score).to_contain_text(f"{row['score']:.2f} [{low:.2f}, {high:.2f}]")
    expect(score).to_contain_text(re.compile(r"rank 2 \(range \d(–\d)?\)"))
    in_viewport(page, "#entry-title")
    in_viewport(page, "#entry-score")
    shot(page, f"entry-{size}")
    # Everything known about it, further down: links, versions, the charts with intervals, the breakdown.
    facts = page.locator("#entry-facts")
    expect(facts).to_contain_text("Scorer version")
    expect(facts).to_contain_text(str(row["dataset_revision"]))
    human = row["per_embodiment"]["Human"]
    expect(page.locator("#entry-embodiment")).to_contain_text(f"Human{human:.2f} [")
    expect(page.locator("#entry-category .nt-ci-whisker").first).to_be_attached()
    expect(page.locator("#entry-metadata")).to_contain_text("Lighting")


@pytest.mark.parametrize("size", SIZES)
def test_a_private_or_unknown_entry_says_so(sized_page, seeded, size):
    app, ids, _ = seeded
    page = sized_page(size)
    for wanted in (ids["Secret"], "no-such-entry"):
        page.goto(f"{app.url}/?entry={wanted}")
        note = page.locator("#entry-missing")
        expect(note).to_contain_text(f"No public entry has the id “{wanted}”")
        in_viewport(page, "#entry-missing")
        expect(page.locator("#entry-page")).not_to_contain_text("Secret")


@pytest.mark.parametrize("size", SIZES)
def test_the_compare_url_shows_the_paired_differences(sized_page, seeded, size):
    app, ids, table = seeded
    page = sized_page(size)
    page.goto(f"{app.url}/?compare={ids['Perfect']},{ids['Straight']}")
    headline = page.locator("#compare-headline")
    expect(headline).to_contain_text(re.compile(r"A − B = \+\d+\.\d\d \[\+\d+\.\d\d, \+\d+\.\d\d\]"))
    in_viewport(page, "#compare-headline")
    shot(page, f"compare-{size}")
    grid = page.locator("#compare-table")
    expect(grid).to_contain_text("Human")
    expect(grid).to_contain_text("(category)")
    gap = table[ids["Perfect"]]["score"] - table[ids["Straight"]]["score"]
    overall = grid.locator("tr", has_text="overall").locator("td").last  # the point over its interval
    expect(overall).to_have_text(re.compile(re.escape(f"{gap:+.2f}") + r"\s*\[\+\d+\.\d\d, \+\d+\.\d\d\]"))
    fits_across(
        page, "#compare-table td:last-child", "#compare-page .nt-table-wrap"
    )  # the difference column fits, even on a phone


def test_two_pickers_compare_without_a_url(sized_page, seeded):
    app, ids, _ = seeded
    page = sized_page("laptop")
    page.goto(app.url)
    page.get_by_role("tab", name="Compare", exact=True).click()
    for label, model in (("Entry A", "Noisy"), ("Entry B", "Perfect")):
        page.get_by_label(label).click()
        page.get_by_role("option", name=re.compile(rf"^#\d {model} ")).first.click()
    headline = page.locator("#compare-headline")
    expect(headline).to_contain_text(re.compile(r"A − B = −?-?\d+\.\d\d \[-\d+\.\d\d, -\d+\.\d\d\]"))
    in_viewport(page, "#compare-headline")
