"""The entry page (``/entry/<id>``) and compare (``/compare?compare=a,b``), plain pages, in a real browser at a
laptop's 1440x900 and a phone's 390x844: what a visitor sees in the first screen, the ways on (back to the board,
"Compare with…", the pickers: plain GET forms whose address says what is shown), the differences chart drawn
inside its box, and the old addresses (``/?entry=``, ``/?compare=``) still arriving there.

The app is started on a store seeded beforehand: three published test entries of different
quality and one private one (``MIN_ROWS_PER_FIGURE=1``: the 8-scene browser dataset would otherwise
withhold every per-embodiment figure, and with it every interval).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlparse

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


def compared(page: Page) -> list[str]:
    """The ids the address asks compare for (``?compare=a&compare=b`` or ``?compare=a,b``)."""
    values = parse_qs(urlparse(page.url).query).get("compare", [])
    return [i for v in values for i in v.split(",")]


@pytest.mark.parametrize("size", SIZES)
def test_an_entry_url_opens_its_page_with_the_interval_in_the_first_screen(sized_page, seeded, size):
    app, ids, table = seeded
    page = sized_page(size)
    page.goto(f"{app.url}/entry/{ids['Noisy']}")
    expect(page.locator("#entry-title")).to_have_text("Noisy")
    row = table[ids["Noisy"]]
    low, high = row["score_ci"]
    score = page.locator("#entry-score")
    expect(score).to_contain_text(f"{row['score']:.2f} [{low:.2f}, {high:.2f}]")
    expect(score).to_contain_text(re.compile(r"rank 2 \(range \d(–\d)?\)"))
    in_viewport(page, "#entry-title")
    in_viewport(page, "#entry-score")
    for way in (page.get_by_role("link", name="Back to the board"), page.get_by_label("Compare with…")):
        expect(way).to_be_in_viewport()  # the ways on, in the first screen too
    shot(page, f"entry-{size}")
    # Everything known about it, further down: links, versions, the charts with intervals, the breakdown.
    facts = page.locator("#entry-facts")
    expect(facts).to_contain_text("Scorer version")
    expect(facts).to_contain_text(str(row["dataset_revision"]))
    facts.scroll_into_view_if_needed()
    fits_across(page, "#entry-facts", "#main")  # not clipped on a phone
    human = row["per_embodiment"]["Human"]
    expect(page.locator("#entry-embodiment")).to_contain_text(f"Human{human:.2f} [")
    expect(page.locator("#entry-category .nt-ci-whisker").first).to_be_attached()
    expect(page.locator("#entry-metadata")).to_contain_text("Lighting")


def test_the_old_entry_and_compare_addresses_arrive_at_their_pages(sized_page, seeded):
    app, ids, _ = seeded
    page = sized_page("laptop")
    page.goto(f"{app.url}/?entry={ids['Noisy']}")
    expect(page.locator("#entry-title")).to_have_text("Noisy")
    assert urlparse(page.url).path == f"/entry/{ids['Noisy']}"
    page.goto(f"{app.url}/?compare={ids['Perfect']},{ids['Straight']}")
    expect(page.locator("#compare-headline")).to_contain_text("A − B")
    assert urlparse(page.url).path == "/compare" and compared(page) == [ids["Perfect"], ids["Straight"]]


@pytest.mark.parametrize("size", SIZES)
def test_a_private_or_unknown_entry_says_so(sized_page, seeded, size):
    app, ids, _ = seeded
    page = sized_page(size)
    for wanted in (ids["Secret"], "no-such-entry"):
        page.goto(f"{app.url}/entry/{wanted}")
        note = page.locator("#entry-missing")
        expect(note).to_contain_text(f"No public entry has the id “{wanted}”")
        in_viewport(page, "#entry-missing")
        expect(page.locator("#entry-page")).not_to_contain_text("Secret")
        expect(page.get_by_role("link", name="Back to the board")).to_be_visible()


@pytest.mark.parametrize("size", SIZES)
def test_the_compare_url_shows_the_paired_differences(sized_page, seeded, size):
    app, ids, table = seeded
    page = sized_page(size)
    page.goto(f"{app.url}/compare?compare={ids['Perfect']},{ids['Straight']}")
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


@pytest.mark.parametrize("size", SIZES)
def test_the_differences_chart_draws_every_interval_inside_its_own_box(sized_page, seeded, size):
    """On the old pages, compare's "Differences (A − B)" drew its intervals off the left edge, through the labels.
    Both ways round: A ahead (bars to the right of zero) and A behind (to the left)."""
    app, ids, _ = seeded
    page = sized_page(size)
    for a, b in (("Perfect", "Straight"), ("Straight", "Perfect"), ("Noisy", "Perfect")):
        page.goto(f"{app.url}/compare?compare={ids[a]},{ids[b]}")
        rows = page.locator("#compare-bars .nt-ci-row")
        expect(rows.first).to_be_visible()
        expect(page.locator("#compare-bars .nt-ci-whisker").first).to_be_attached()  # intervals are drawn
        chart = page.locator("#compare-bars").bounding_box()
        assert chart and chart["x"] >= 0 and chart["x"] + chart["width"] <= page.viewport_size["width"] + 0.5
        for row in rows.all():
            row.scroll_into_view_if_needed()
            track = row.locator("svg.nt-ci-track").bounding_box()
            label = row.locator(".nt-ci-label").bounding_box()
            value = row.locator(".nt-ci-value").bounding_box()
            assert track and label and value
            assert chart["x"] - 0.5 <= track["x"] and track["x"] + track["width"] <= chart["x"] + chart["width"] + 0.5
            for text in (label, value):
                assert not overlaps(track, text), (a, b, row.inner_text(), track, text)
            # The zero line, the bar and the whisker, in the track's own units (its viewBox is 0..100 wide; a
            # box on screen would count the strokes' width in those units too).
            marks = row.locator("svg.nt-ci-track").evaluate(MARKS)
            assert marks and all(-0.01 <= left and right <= 100.01 for left, right in marks), (
                a,
                b,
                row.inner_text(),
                marks,
            )
        shot(page, f"compare-bars-{a}-{b}-{size}")


MARKS = "svg => [...svg.children].map(c => { const b = c.getBBox(); return [b.x, b.x + b.width]; })"


def overlaps(one: dict[str, float], other: dict[str, float]) -> bool:
    apart_x = one["x"] + one["width"] <= other["x"] + 0.5 or other["x"] + other["width"] <= one["x"] + 0.5
    apart_y = one["y"] + one["height"] <= other["y"] + 0.5 or other["y"] + other["height"] <= one["y"] + 0.5
    return not (apart_x or apart_y)


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_compare_with_and_the_pickers_keep_the_address_saying_what_is_shown(chromium, seeded, javascript):
    """On the old pages the pickers never updated the address, and going back to the board still said
    ``?compare=``. Now an entry's "Compare with…" and compare's two pickers are GET forms: every view an address."""
    app, ids, _ = seeded
    context = chromium.new_context(viewport={"width": 1440, "height": 900}, java_script_enabled=javascript)
    try:
        page = context.new_page()
        page.goto(app.url)
        page.locator("#leaderboard-table").get_by_role("link", name="Noisy", exact=True).click()
        expect(page.locator("#entry-title")).to_have_text("Noisy")
        assert urlparse(page.url).path == f"/entry/{ids['Noisy']}"
        page.get_by_label("Compare with…").select_option(ids["Perfect"])
        page.locator("#compare-with").get_by_role("button", name="Compare").click()
        headline = page.locator("#compare-headline")
        expect(headline).to_contain_text(re.compile(r"A = #\d Noisy .*B = #\d Perfect", re.S))
        assert urlparse(page.url).path == "/compare" and compared(page) == [ids["Noisy"], ids["Perfect"]]
        expect(page.get_by_label("Entry A")).to_have_value(ids["Noisy"])  # the pickers say it too
        expect(page.get_by_label("Entry B")).to_have_value(ids["Perfect"])

        page.get_by_label("Entry B").select_option(ids["Straight"])
        page.locator("#compare-form").get_by_role("button", name="Compare").click()
        expect(headline).to_contain_text(re.compile(r"B = #\d Straight"))
        assert compared(page) == [ids["Noisy"], ids["Straight"]]

        page.go_back()  # the previous comparison, as its address says
        expect(page.locator("#compare-headline")).to_contain_text(re.compile(r"B = #\d Perfect"))
        assert compared(page) == [ids["Noisy"], ids["Perfect"]]
        page.go_back()
        expect(page.locator("#entry-title")).to_have_text("Noisy")
        assert urlparse(page.url).path == f"/entry/{ids['Noisy']}" and not compared(page)
        page.get_by_role("link", name="Back to the board").click()
        expect(page.locator("#leaderboard-table")).to_contain_text("Perfect")
        assert urlparse(page.url).path == "/" and not urlparse(page.url).query  # the board's own address
    finally:
        context.close()


def test_two_pickers_compare_from_the_empty_compare_page(sized_page, seeded):
    app, ids, _ = seeded
    page = sized_page("phone")
    page.goto(f"{app.url}/compare")
    expect(page.locator("#compare-prompt")).to_contain_text("Pick two entries")
    for label, model in (("Entry A", "Noisy"), ("Entry B", "Perfect")):
        page.get_by_label(label).select_option(ids[model])
    page.locator("#compare-form").get_by_role("button", name="Compare").click()
    headline = page.locator("#compare-headline")
    expect(headline).to_contain_text(re.compile(r"A − B = −?-?\d+\.\d\d \[-\d+\.\d\d, -\d+\.\d\d\]"))
    in_viewport(page, "#compare-headline")
    assert compared(page) == [ids["Noisy"], ids["Perfect"]]
