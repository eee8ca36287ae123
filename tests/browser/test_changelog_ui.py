"""Releases in the browser: the changelog, the frozen board of v1 and the changes since v1, at 1440x900
and 390x844, as a reader sees them.

The app runs over a store prepared before it starts: three entries and a figure reported from a paper, all of
release v1; then v2 opened with a recalibrated B (2000), which lowers the noisy entries below the paper's
figure, and every entry rescored under it. The paper's figure is put between the noisy entries' two scores,
computed here with the scorer, so the ranks are known to move: the paper up two, each noisy entry down one.
Screenshots go to ``artifacts/screenshots/`` and ``/tmp/shots27/``.
"""

from __future__ import annotations

import dataclasses
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from benchmarks.pages.audits import axe
from leaderboard import Leaderboard, Settings
from scoring import load_answer_key, score_submission
from scoring.examples import write_example
from tests.browser.axe_setup import axe_ready
from tests.browser.conftest import MAINTAINER, RunningApp, shot, start_app, stop_app
from tests.service_fixtures import DECLARED

pytestmark = pytest.mark.browser
SIZES = pytest.mark.parametrize("size", [(1440, 900), (390, 844)], ids=["1440x900", "390x844"])
SHOTS = Path("/tmp/shots27")
V2_BASELINE = 2000.0
NOTE = "B recomputed over the full test split: every score below 100 is lower."


def _prepare(home: Path, private: Path, public: Path, files: Path) -> dict[str, float]:
    env = {"LEADERBOARD_HOME": str(home), "ANSWER_KEY_DATASET": str(private), "PUBLIC_DATASET": str(public),
           "MAINTAINERS": MAINTAINER}  # fmt: skip
    settings = Settings.from_env(env)
    service = Leaderboard(settings)
    key = load_answer_key(private, "test", settings.cache_folder)
    scores = {}
    for name, kind, seed in (("Perfect-VLM", "perfect", 1), ("Noisy-VLM", "noisy", 1), ("Rough-VLM", "noisy", 4)):
        path = files / f"{name}.tsv"
        write_example(key, kind, path, seed=seed)
        metadata = {"model": name, "contact_email": "someone@example.org"}
        service.submit(path, split="test", user=name.lower(), metadata=metadata, publish=True, declarations=DECLARED)
        scores[name] = float(score_submission(path, key, baseline_raw=V2_BASELINE).summary.score or 0.0)
    service.worker.drain()
    for view in service.pending(MAINTAINER):
        service.approve(view.submission_id, by=MAINTAINER)
    old = {str(r["model"]): float(str(r["score"])) for r in service.public_table() if r["kind"] == "submission"}
    noisy = ("Noisy-VLM", "Rough-VLM")
    paper = (max(scores[n] for n in noisy) + min(old[n] for n in noisy)) / 2  # between v2's and v1's figures
    assert max(scores[n] for n in noisy) < paper < min(old[n] for n in noisy), (scores, old)
    service.add_reported(
        MAINTAINER, model="Paper-VLM", score=round(paper, 2), source="https://arxiv.org/abs/2510.26909"
    )
    recalibrated = Leaderboard(dataclasses.replace(settings, baseline_raw=V2_BASELINE))
    recalibrated.open_release(NOTE, by=MAINTAINER)
    assert recalibrated.worker.drain() == 3
    return old


@dataclasses.dataclass(frozen=True)
class Released:
    app: RunningApp
    v1_scores: dict[str, float]  # the entries' figures under v1

    @property
    def url(self) -> str:
        return self.app.url


@pytest.fixture(scope="module")
def released(tmp_path_factory: pytest.TempPathFactory, browser_datasets: tuple[Path, Path]) -> Iterator[Released]:
    folder = tmp_path_factory.mktemp("release-app")
    files = folder / "files"
    files.mkdir()
    old = _prepare(folder / "home", *browser_datasets, files)
    app = start_app(folder, *browser_datasets, BASELINE_RAW=str(V2_BASELINE))
    try:
        yield Released(app, old)
    finally:
        stop_app(app)


def _page(chromium, size: tuple[int, int]) -> Page:
    context = chromium.new_context(viewport={"width": size[0], "height": size[1]})
    context.set_default_timeout(30_000)
    return context.new_page()


def _keep(page: Page, name: str) -> None:
    path = shot(page, name)
    SHOTS.mkdir(parents=True, exist_ok=True)
    shutil.copy(path, SHOTS / path.name)


def _rows(page: Page, table: str) -> list[list[str]]:
    """The table's body rows as the reader sees each cell's text."""
    return [
        [" ".join(cell.split()) for cell in row.locator("td").all_inner_texts()]
        for row in page.locator(f"#{table} tbody tr").all()
    ]


@SIZES
def test_the_changelog_says_what_changed_why_when_and_how_ranks_moved(chromium, released: Released, size):
    page = _page(chromium, size)
    page.goto(released.url + "/")
    footer = page.locator("#footer-changelog")
    footer.scroll_into_view_if_needed()
    footer.click()
    expect(page).to_have_url(released.url + "/changelog")
    expect(page.get_by_role("heading", name="Changelog", level=1)).to_be_visible()
    v2 = page.locator("#release-v2")
    expect(v2.get_by_role("heading", name="Release v2", level=2)).to_contain_text("current")
    expect(v2).to_contain_text(NOTE)
    expect(v2.locator(".nt-release-facts")).to_contain_text("2000")
    expect(page.locator("#release-v1").get_by_role("heading", level=2)).to_contain_text("frozen")
    header = page.locator("#moves-v2 thead th").all_inner_texts()
    assert header == ["Entry", "Rank in v1", "Rank in v2", "Change", "Score in v1", "Score in v2"]
    moves = {row[0]: row[1:4] for row in _rows(page, "moves-v2")}
    assert moves == {
        "Perfect-VLM": ["1", "1", "="],
        "Paper-VLM (reported)": ["4", "2", "▲ 2"],
        "Noisy-VLM": ["2", "3", "▼ 1"] if moves["Noisy-VLM"][0] == "2" else ["3", "4", "▼ 1"],
        "Rough-VLM": ["3", "4", "▼ 1"] if moves["Rough-VLM"][0] == "3" else ["2", "3", "▼ 1"],
    }
    expect(page.locator("#moves-v2")).to_be_visible()
    _keep(page, f"changelog-{size[0]}x{size[1]}")
    page.context.close()


@SIZES
def test_the_old_board_reads_as_it_was_and_keeps_its_release_in_every_control(chromium, released: Released, size):
    page = _page(chromium, size)
    page.goto(released.url + "/changelog")
    page.locator("#release-v1").get_by_role("link", name="Its board").click()
    expect(page).to_have_url(released.url + "/?release=v1")
    note = page.locator("#board-release")
    expect(note).to_contain_text("You are reading the board of release v1")
    expect(note.get_by_role("link", name="The current board")).to_be_visible()
    for model, score in released.v1_scores.items():  # the v1 figures, not v2's
        row = page.locator("#leaderboard-table tbody tr", has_text=model)
        expect(row).to_contain_text(f"{score:.2f}")
    expect(page.locator("#board-csv-link")).to_have_attribute("href", "/board.csv?split=test&release=v1")
    _keep(page, f"release-v1-board-{size[0]}x{size[1]}")
    page.locator("#leaderboard-table thead").get_by_role("link", name="Model").click()  # sort: the release stays
    expect(page).to_have_url(released.url + "/?sort=model&release=v1")
    expect(page.locator("#board-release")).to_contain_text("You are reading the board of release v1")
    page.context.close()


@SIZES
def test_an_entry_of_the_old_board_opens_as_that_release_showed_it(chromium, released: Released, size):
    page = _page(chromium, size)
    page.goto(released.url + "/?release=v1")
    page.locator("#leaderboard-table tbody").get_by_role("link", name="Noisy-VLM").click()
    expect(page).to_have_url(re.compile(r"/entry/[0-9a-f]+\?release=v1$"))
    expect(page.get_by_role("heading", name="Noisy-VLM", level=1)).to_be_in_viewport()
    line = page.locator("#entry-release")
    expect(line).to_contain_text("Release v1")
    expect(line).to_contain_text("closed: the figures as they stood")
    expect(line).to_be_in_viewport()
    expect(page.locator("#entry-score")).to_contain_text(f"{released.v1_scores['Noisy-VLM']:.2f}")  # not v2's
    cite = page.locator("#entry-cite-release")
    cite.scroll_into_view_if_needed()
    expect(cite).to_contain_text("Release v1")
    expect(cite.get_by_role("link")).to_have_text(re.compile(r"/entry/[0-9a-f]+\?release=v1$"))
    _keep(page, f"release-v1-entry-{size[0]}x{size[1]}")
    line.get_by_role("link", name="Current figures").click()  # the way to today's figures
    expect(page).to_have_url(re.compile(r"/entry/[0-9a-f]+$"))
    expect(page.locator("#entry-release")).not_to_contain_text("closed")
    page.context.close()


@SIZES
def test_the_changes_since_v1_show_old_and_new_figures_side_by_side(chromium, released: Released, size):
    page = _page(chromium, size)
    page.goto(released.url + "/")
    release = page.locator("#board-release")
    expect(release).to_contain_text("Release v2")  # opened today: the board points at the changes
    release.get_by_role("link", name="Changes since v1").click()
    expect(page).to_have_url(released.url + "/?since=v1")
    section = page.locator("#release-changes")
    expect(section.get_by_role("heading", name="Changes since v1 (test split)")).to_be_visible()
    rows = _rows(page, "release-changes-table")
    paper = next(row for row in rows if row[0].startswith("Paper-VLM"))
    assert paper[3] == "▲ 2" and paper[4] == paper[5]  # a reported figure stays; it moves up as others fall
    noisy = next(row for row in rows if row[0] == "Noisy-VLM")
    assert noisy[3] == "▼ 1" and float(noisy[5]) < float(noisy[4])
    section.scroll_into_view_if_needed()
    _keep(page, f"changes-since-v1-{size[0]}x{size[1]}")
    page.context.close()


@SIZES
def test_axe_finds_nothing_serious_on_the_changelog_and_the_changes_view(chromium, released: Released, size):
    axe_ready()
    context = chromium.new_context(
        viewport={"width": size[0], "height": size[1]}, bypass_csp=True, reduced_motion="reduce"
    )
    try:
        page = context.new_page()
        found = {}
        page.goto(f"{released.url}/changelog")
        expect(page.get_by_role("heading", name="Changelog", level=1)).to_be_visible()
        found["changelog"] = axe("changelog", page)
        page.goto(f"{released.url}/?since=v1")
        expect(page.locator("#leaderboard-table")).to_be_visible()
        found["changes since v1"] = axe("changes", page)
        page.goto(f"{released.url}/?release=v1")
        expect(page.locator("#leaderboard-table")).to_be_visible()
        found["the v1 board"] = axe("release-v1", page)
        page.locator("#leaderboard-table tbody").get_by_role("link", name="Perfect-VLM").click()
        expect(page.locator("#entry-release")).to_contain_text("closed")
        found["an entry of v1"] = axe("release-v1-entry", page)
        for name, run in found.items():
            serious = [(v["id"], v["help"]) for v in run.violations if v["impact"] in ("critical", "serious")]
            assert not serious, (name, serious)
    finally:
        context.close()
