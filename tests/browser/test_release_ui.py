"""The ladder release policy in the browser: the submitter sees the note and no figure for a
resubmission within noise; a maintainer sees the exact figure on the desk and switches the policy there.

Its own app (``LEADERBOARD_RELEASE_POLICY=ladder``), seeded before it starts: alice's first test
figure (approved, on the board) and the same predictions less two rows (a little worse: withheld).
Screenshots at 1440x900 and 390x844 go to ``artifacts/screenshots/release-*.png``.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from leaderboard import Leaderboard, Settings
from scoring import load_answer_key
from scoring.examples import write_example
from tests.browser.conftest import MAINTAINER, SHOTS, RunningApp, page_maker, start_app, stop_app
from tests.browser.helpers import open_desk, open_tab, sign_in
from tests.service_fixtures import DECLARED

LAPTOP = {"width": 1440, "height": 900}
PHONE = {"width": 390, "height": 844}
NOTE = "not a significant improvement over your best"


@dataclasses.dataclass(frozen=True)
class Seeded:
    app: RunningApp
    first: str
    again: str
    exact: str  # the withheld figure as the pages print it


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory, browser_datasets: tuple[Path, Path]) -> Iterator[Seeded]:
    folder = tmp_path_factory.mktemp("release-app")
    private, public = browser_datasets
    environ = {
        "LEADERBOARD_HOME": str(folder / "home"),
        "ANSWER_KEY_DATASET": str(private),
        "PUBLIC_DATASET": str(public),
        "MAINTAINERS": MAINTAINER,
        "LEADERBOARD_RELEASE_POLICY": "ladder",
    }
    service = Leaderboard(Settings.from_env(environ))
    example = folder / "noisy.tsv"
    write_example(load_answer_key(private, "test", folder / "cache"), "noisy", example, seed=3)
    meta = {"model": "Navigator-7B", "contact_email": "alice@example.org"}
    first = service.submit(
        example, split="test", user="alice", metadata=meta, publish=True, declarations=DECLARED
    ).submission_id
    service.worker.drain()
    service.approve(first, MAINTAINER)
    lines = example.read_bytes().splitlines(keepends=True)
    again_file = b"".join(lines[:1] + lines[3:])  # two rows left out: a little worse, never significantly better
    again = service.submit(
        again_file, split="test", user="alice", metadata=meta, publish=True, filename="again.tsv", declarations=DECLARED
    )
    service.worker.drain()
    summary = service.status(again.submission_id, MAINTAINER).summary
    assert summary is not None and summary.score is not None and not service.status(again.submission_id).released
    assert f"{summary.score:.2f}" != f"{service.status(first).summary.score:.2f}"  # type: ignore[union-attr]
    app = start_app(folder, private, public, LEADERBOARD_RELEASE_POLICY="ladder")
    yield Seeded(app, first, again.submission_id, f"{summary.score:.2f}")
    stop_app(app)


@pytest.fixture
def pages(chromium, seeded: Seeded, request: pytest.FixtureRequest):
    yield from page_maker(chromium, seeded.app, request)


def _in_view(page: Page, locator) -> None:  # noqa: ANN001 (playwright's Locator)
    box = locator.bounding_box()
    size = page.viewport_size
    assert box is not None and size is not None
    assert 0 <= box["y"] and box["y"] + min(box["height"], 40) <= size["height"], f"{box} outside {size}"


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_the_submitter_reads_the_note_and_no_figure(pages, seeded: Seeded, viewport):
    page = pages()
    page.set_viewport_size(viewport)
    sign_in(page, seeded.app.url, "alice")
    open_tab(page, "My submissions")
    row = page.locator("#my-submissions-table tr", has_text=seeded.again)
    expect(row).to_contain_text(NOTE)
    expect(row).not_to_contain_text(seeded.exact)
    expect(row.locator("td").nth(2)).to_have_text("—")  # the Score column
    row.click()
    detail = page.locator("#my-detail")
    expect(detail).to_contain_text(NOTE)
    expect(detail).to_contain_text("not released (ladder policy)")
    expect(detail).not_to_contain_text("Score " + seeded.exact)
    row.scroll_into_view_if_needed()
    _in_view(page, row.locator("td").first)
    suffix = "" if viewport == LAPTOP else "-phone"
    page.screenshot(path=str(SHOTS / f"release-my-submissions{suffix}.png"))
    page.locator("#nt-nav").get_by_role("link", name="Leaderboard").click()  # the board: the first figure only
    expect(page.locator("#leaderboard-table")).to_contain_text("Navigator-7B")
    assert seeded.again not in page.locator("#leaderboard-table").inner_html()


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_a_maintainer_sees_the_figure_and_switches_the_policy(pages, seeded: Seeded, viewport):
    page = pages()
    page.set_viewport_size(viewport)
    sign_in(page, seeded.app.url, MAINTAINER)
    open_desk(page)
    page.get_by_text("Score release policy (exact or ladder)").click()
    withheld = page.locator("#release-withheld-table")
    expect(withheld).to_contain_text(seeded.again)
    expect(withheld).to_contain_text(seeded.exact)
    expect(withheld).to_contain_text("withheld from its submitter (ladder)")
    now = page.locator("#release-policy-now")
    expect(now).to_contain_text(re.compile("In force: (ladder|exact)"))
    target = "exact" if "In force: ladder" in now.inner_text() else "ladder"  # each run switches it over
    choice = page.locator("#release-policy-choice")
    choice.get_by_label(target, exact=True).check()
    page.locator("#release-policy-apply").click()
    done = page.locator("#release-policy-done")
    expect(done).to_contain_text(f"The release policy is now {target}")
    expect(page.locator("#release-policy-now")).to_contain_text(f"In force: {target}")
    done.scroll_into_view_if_needed()
    _in_view(page, done)
    suffix = "" if viewport == LAPTOP else "-phone"
    page.screenshot(path=str(SHOTS / f"release-desk{suffix}.png"))
    page.locator("#maint-refresh").click()
    expect(page.locator("#audit")).to_contain_text("release-policy")
