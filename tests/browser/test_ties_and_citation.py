"""Ties and citations in Chromium at 1440x900 and 390x844, with JavaScript on and off: entries sharing an
upper-bound rank read as tied on the board (one tinted, bracketed group, "tied ×n", a legend) while a clear
winner stands alone at 1; an entry's page says its standing and offers its citation, naming the release, copyable
with a button when scripts run; axe finds nothing critical or serious on either page.

One app with a seeded table whose ties are known (``TIES``) and a one-hour scoring interval (nothing rewrites it).
Screenshots go to ``/tmp/shots27b/`` (``SHOTS27``) as well as ``artifacts/screenshots/``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Page, expect

from benchmarks.pages.audits import axe
from leaderboard.publishing.table import baseline_row
from tests.browser import test_public_pages as public
from tests.browser.axe_setup import axe_ready
from tests.browser.conftest import RunningApp, shot
from tests.browser.helpers import app_with_table, wait_until
from tests.browser.test_board_ui import entry
from tests.browser.test_public_pages import LAPTOP, PHONE, SCRIPT, SIZES, rows

pytestmark = pytest.mark.browser
browse = public.browse  # the fixture: a page in a fresh context of the size asked, scripts on or off
SHOTS27 = Path(os.environ.get("SHOTS27", "/tmp/shots27b"))
ATLAS, BIRCH, CEDAR, DUNE = (
    f"sub-{m}-vlm-2026-03-0{d}" for m, d in (("atlas", 1), ("birch", 2), ("cedar", 3), ("dune", 4))
)
QUIRK = "sub-quirk-2026-02-01"
HOSTILE = "Quirk {VLM} 100% \\o/"
TIES = [
    # Clearly first: nobody is significantly better.
    entry("Atlas-VLM", 62.0, "2026-03-01", significantly_better=[], score_ci=[60.1, 63.8], organization="Lab Atlas"),
    # Three entries significantly below Atlas only: upper-bound rank 2, tied with each other.
    entry("Birch-VLM", 48.2, "2026-03-02", significantly_better=[ATLAS], score_ci=[45.0, 51.3]),
    entry("Cedar-VLM", 47.5, "2026-03-03", significantly_better=[ATLAS], score_ci=[44.2, 50.6]),
    entry("Dune-VLM", 45.9, "2026-03-04", significantly_better=[ATLAS], score_ci=[42.8, 49.0]),
    # Two entries below all four, tied with each other at upper-bound rank 5; one has a name BibTeX and HTML must
    # keep as text.
    entry("Elm-VLM", 21.5, "2026-02-15", significantly_better=[ATLAS, BIRCH, CEDAR, DUNE], score_ci=[19.0, 24.1]),
    entry(
        HOSTILE,
        20.0,
        "2026-02-01",
        submission_id=QUIRK,
        significantly_better=[ATLAS, BIRCH, CEDAR, DUNE],
        score_ci=[17.5, 22.4],
    ),
    baseline_row("test"),
    baseline_row("validation"),
]


@pytest.fixture(scope="module")
def ties_site(tmp_path_factory: pytest.TempPathFactory, browser_datasets: tuple[Path, Path]) -> Iterator[RunningApp]:
    with app_with_table(tmp_path_factory.mktemp("ties-site"), browser_datasets, TIES, "seed known ties") as app:
        # The board reads the table every few seconds: the seeded rows are served once the page names them.
        wait_until(lambda: "Atlas-VLM" in httpx.get(app.url, timeout=10).text, app, "the seeded board", 60)
        yield app


def keep(page: Page, name: str) -> None:
    """A screenshot kept for the issue (``/tmp/shots27b``) and with the other artifacts."""
    SHOTS27.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS27 / f"{name}.png"), full_page=True)
    shot(page, f"issue27-{name}")


def ub_cell(page: Page, model: str):
    return rows(page).filter(has_text=model).locator("td.nt-ub-col")


@SIZES
@SCRIPT
def test_tied_entries_read_as_tied_and_the_clear_winner_stands_alone(browse, ties_site, size, javascript):
    page = browse(ties_site, size, javascript)
    page.goto(ties_site.url)
    expect(rows(page).first).to_contain_text("Atlas-VLM")
    expect(ub_cell(page, "Atlas-VLM")).to_have_text("1")  # alone: no "tied" beside it
    for model in ("Birch-VLM", "Cedar-VLM", "Dune-VLM"):
        cell = ub_cell(page, model)
        expect(cell).to_contain_text("tied ×3")
        expect(cell.locator(".nt-vh")).to_have_text(", tied with 2 others")  # what a screen reader hears
        expect(cell).to_be_in_viewport()  # kept in view beside the rank, on a phone too
        expect(rows(page).filter(has_text=model)).to_have_class("nt-row-submission nt-tied nt-tie-a" + _end(model))
    for model in ("Elm-VLM", HOSTILE):  # the next group, in the other tint
        expect(ub_cell(page, model)).to_contain_text("tied ×2")
        expect(rows(page).filter(has_text=model)).to_have_class(re.compile(r"\bnt-tie-b\b"))
    tint = ub_cell(page, "Cedar-VLM").evaluate("e => getComputedStyle(e).backgroundColor")
    plain = ub_cell(page, "Atlas-VLM").evaluate("e => getComputedStyle(e).backgroundColor")
    assert tint != plain, (tint, plain)  # the group is drawn as one, apart from the winner
    legend = page.locator("#board-ties-legend")
    expect(legend).to_contain_text("Entries that share it are statistically tied")
    header = page.locator("#leaderboard-table thead th").nth(1)
    expect(header).to_have_text("Rank (UB)")
    no_page_scroll(page)
    legend.scroll_into_view_if_needed()
    page.evaluate("window.scrollTo(0, 0)")
    keep(page, f"board-ties-{size['width']}-{'js' if javascript else 'nojs'}")


def _end(model: str) -> str:
    return {"Birch-VLM": " nt-tie-first", "Dune-VLM": " nt-tie-last"}.get(model, "")


@SIZES
@SCRIPT
def test_an_entry_says_its_standing_and_offers_its_citation_naming_the_release(browse, ties_site, size, javascript):
    page = browse(ties_site, size, javascript)
    page.goto(ties_site.url)
    rows(page).filter(has_text="Cedar-VLM").get_by_role("link", name="Cedar-VLM").click()
    expect(page.locator("#entry-standing")).to_contain_text(
        "Significantly better than 2 entries; tied with 2 other entries (sharing upper-bound rank 2)."
    )
    expect(page.locator("#entry-score")).to_contain_text("upper-bound rank 2")
    page.get_by_role("link", name="Cite this entry").click()
    bibtex = page.locator("#entry-cite-bibtex")
    expect(bibtex).to_be_in_viewport()
    expect(bibtex).to_contain_text("title        = {Cedar-VLM on the {NaviTrace} Leaderboard (test split, release v1)}")
    expect(bibtex).to_contain_text(f"/entry/{CEDAR}?release=v1")
    expect(bibtex).to_contain_text("score 47.50 (95\\% CI 44.20--50.60)")
    expect(page.locator("#entry-cite-release")).to_contain_text("Release v1 (2026-03-03)")
    text = page.locator("#entry-cite-plain")
    expect(text).to_contain_text(f"Lab A. Cedar-VLM, NaviTrace Leaderboard entry {CEDAR} (test split), release v1")
    copy = page.get_by_role("button", name="Copy BibTeX")
    if javascript:
        expect(copy).to_be_visible()
    else:
        expect(copy).to_be_hidden()  # nothing that cannot work: the text is there to select
    no_page_scroll(page)
    keep(page, f"entry-citation-{size['width']}-{'js' if javascript else 'nojs'}")


def test_the_copy_button_copies_the_bibtex(browse, ties_site):
    page = browse(ties_site, LAPTOP)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=ties_site.url)
    page.goto(f"{ties_site.url}/entry/{ATLAS}")
    page.get_by_role("button", name="Copy BibTeX").click()
    expect(page.locator("#entry-cite-bibtex-status")).to_have_text("Copied.")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == page.locator("#entry-cite-bibtex").text_content()
    assert copied.startswith(f"@misc{{navitrace-{ATLAS},") and "author       = {{Lab Atlas}}" in copied


def test_a_hostile_model_name_is_text_in_the_citation(browse, ties_site):
    page = browse(ties_site, PHONE)
    page.goto(ties_site.url)
    rows(page).filter(has_text="Quirk").get_by_role("link", name=HOSTILE).click()
    bibtex = page.locator("#entry-cite-bibtex")
    expect(bibtex).to_contain_text(
        "Quirk \\textbraceleft{}VLM\\textbraceright{} 100\\% \\textbackslash{}o/ on the {NaviTrace} Leaderboard"
    )
    expect(page.locator("#entry-title")).to_have_text(HOSTILE)


@SIZES
def test_axe_finds_nothing_serious_on_the_board_and_the_entry_page(chromium, ties_site, size):
    axe_ready()
    context = chromium.new_context(viewport=size, bypass_csp=True, reduced_motion="reduce")
    try:
        page = context.new_page()
        found = {}
        page.goto(ties_site.url)
        expect(rows(page).first).to_be_visible()
        found["board"] = axe("board", page)
        page.goto(f"{ties_site.url}/entry/{CEDAR}")
        expect(page.locator("#entry-cite-bibtex")).to_be_visible()
        found["entry"] = axe("entry", page)
        for name, run in found.items():
            print(f"\naxe on the {name} at {size['width']}x{size['height']}: {run.rules} rules, {run.nodes} elements")
            serious = [
                (v["id"], v["help"], v.get("targets")) for v in run.violations if v["impact"] in ("critical", "serious")
            ]
            assert not serious, (name, serious)
    finally:
        context.close()


def no_page_scroll(page: Page) -> None:
    """The page itself never scrolls sideways (the table may, inside its frame)."""
    wide = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert wide <= 1, f"the page scrolls sideways by {wide}px"
