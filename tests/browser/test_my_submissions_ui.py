"""My submissions while a submission waits: where it stands, on a phone too, and cancelling it in the page.

Its own app whose scoring process is paused (``paused_worker``: SIGSTOP once it is ready and outside any commit,
SIGCONT at the end): the submissions made through the service from this process stay PENDING for as long as the
test looks.
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
from tests.browser.helpers import open_tab, paused_worker, sign_in

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def waiting_app(tmp_path_factory: pytest.TempPathFactory, browser_datasets: tuple[Path, Path]) -> Iterator[RunningApp]:
    app = start_app(tmp_path_factory.mktemp("waiting-app"), *browser_datasets, SCORE_INTERVAL_S="3600")
    try:
        with paused_worker(app):  # before any submission
            yield app
    finally:
        stop_app(app)


@pytest.fixture
def new_page(chromium, waiting_app, request: pytest.FixtureRequest):
    yield from page_maker(chromium, waiting_app, request)


def service_of(app: RunningApp) -> Leaderboard:
    env = {"LEADERBOARD_HOME": str(app.home), "ANSWER_KEY_DATASET": str(app.private), "MAINTAINERS": MAINTAINER}
    return Leaderboard(Settings.from_env({**env, "PUBLIC_DATASET": str(app.public)}))


def waiting_submission(app: RunningApp, user: str, folder: Path, seed: int) -> str:
    """A test submission of ``user``, acknowledged and left waiting (the app's worker is not woken)."""
    file = folder / f"{user}-{seed}.tsv"
    write_example(load_answer_key(app.private, "test", folder / "cache"), "noisy", file, seed=seed)
    meta = {"model": f"Waiting-Model-With-A-Long-Name-{seed}", "contact_email": f"{user}@example.org"}
    return service_of(app).submit(file, split="test", user=user, metadata=meta).submission_id


def open_my_submissions(page: Page, app: RunningApp, user: str, width: int, height: int) -> None:
    page.set_viewport_size({"width": width, "height": height})
    sign_in(page, app.url, user)
    open_tab(page, "My submissions")  # the header's link: the signed-in page opens on that tab


def inside_viewport(page: Page, locator) -> dict:
    box, size = locator.bounding_box(), page.viewport_size
    assert box is not None and size is not None
    assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"] + 1, (box, size)
    assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"] + 1, (box, size)
    return box


def test_on_a_phone_a_waiting_submission_says_where_it_stands_on_screen(new_page, waiting_app, tmp_path):
    submission_id = waiting_submission(waiting_app, "wanda", tmp_path, seed=1)
    page = new_page()
    open_my_submissions(page, waiting_app, "wanda", 390, 844)
    row = page.locator(f"#my-submissions-table tr[data-id='{submission_id}']")
    expect(row).to_contain_text("PENDING")
    page.evaluate("window.scrollTo(0, 0)")
    cells = row.locator("td:visible")
    expect(cells).to_have_count(4)  # model, status, score, message: the rest is in the details
    status, message = cells.nth(1), cells.nth(3)
    expect(message).to_contain_text(re.compile(r"(next|number \d+) in the queue; scored in"))
    status_box, message_box = inside_viewport(page, status), inside_viewport(page, message)
    assert message_box["y"] >= status_box["y"] + status_box["height"] - 1  # on its own line under the status
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "my-submissions-waiting-390")


@pytest.mark.parametrize("size", [(1440, 900), (390, 844)], ids=["1440x900", "390x844"])
def test_i_cancel_a_waiting_submission_and_get_my_quota_back(new_page, waiting_app, tmp_path, size):
    user = f"carl{size[0]}"
    service = service_of(waiting_app)
    submission_id = waiting_submission(waiting_app, user, tmp_path, seed=2)
    left_before = service.quota(user).left
    page = new_page()
    open_my_submissions(page, waiting_app, user, *size)
    page.locator(f"#my-submissions-table tr[data-id='{submission_id}']").click()
    expect(page.locator("#my-detail")).to_contain_text(submission_id)
    button = page.get_by_role("button", name="Cancel: do not score it")
    button.scroll_into_view_if_needed()
    button.click()
    note = page.locator("#my-action-note")
    expect(note).to_contain_text(f"{submission_id} is cancelled: it will not be scored.")
    expect(note).to_contain_text("Its place in your daily test quota is free again.")
    note.scroll_into_view_if_needed()
    inside_viewport(page, note)
    row = page.locator(f"#my-submissions-table tr[data-id='{submission_id}']")
    expect(row).to_contain_text("CANCELLED")
    expect(button).to_be_hidden()  # nothing left to cancel
    expect(page.locator("#my-detail")).to_contain_text("CANCELLED")  # the details say what the table says
    expect(page.locator("#my-detail")).not_to_contain_text("FAILED")
    assert service.quota(user).left == left_before + 1
    assert service.status(submission_id, user).cancelled
    assert [e["action"] for e in service.audit_log(MAINTAINER, submission_id)][-1] == "cancel"
    shot(page, f"my-submissions-cancelled-{size[0]}")
