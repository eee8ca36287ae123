"""The board's scoring status line in Chromium, at 1440x900 and 390x844.

On the real app (``python app.py``, the session's ``app``): the line is beside "Last updated", inside the
screen's width, and ``/api/health`` says the app's scoring process runs (the app hands its pulse to the health
route). On a site served in this process, whose scoring process is a pulse the test sets: a queue is counted
and timed, and a stopped worker reads "Scoring is paused: submissions are queued and kept". Screenshots go to
``/tmp/shots27c`` (``SHOTS_27C`` to change it).
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Page, expect

from leaderboard import Leaderboard, Settings
from space.web.services import Services
from space.web.settings import SpaceSettings
from space.workspace import gradio_internals
from tests.browser.conftest import RunningApp
from tests.browser.helpers import wait_until
from tests.service_fixtures import MAINTAINER, submit
from tests.space.served_site import Site, free_port, served

pytestmark = pytest.mark.browser
SHOTS = Path(os.environ.get("SHOTS_27C", "/tmp/shots27c"))
LAPTOP, PHONE = {"width": 1440, "height": 900}, {"width": 390, "height": 844}
SIZES = pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["1440x900", "390x844"])


def _shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=False)


def _open(chromium, url: str, size: dict[str, int]) -> Page:
    context = chromium.new_context(viewport=size)
    context.set_default_timeout(30_000)
    page = context.new_page()
    page.goto(url + "/")
    return page


def _in_view(page: Page, size: dict[str, int]) -> None:
    """The line is on the first screen and not cut at its right edge (it wraps on a phone)."""
    line = page.locator("#scoring-status")
    expect(line).to_be_visible()
    line.scroll_into_view_if_needed()
    box = line.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= size["width"] + 0.5, box
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"], "the page scrolls sideways"
    summary = page.locator("#board-summary")
    expect(summary.locator("#scoring-status")).to_have_count(1)  # beside "Last updated", in the summary line


@SIZES
def test_the_real_app_shows_the_status_line_and_its_worker_runs(chromium, app: RunningApp, size):
    answered: list[httpx.Response] = []

    def answers() -> bool:
        answered.append(httpx.get(f"{app.url}/api/health", timeout=5))
        return answered[-1].status_code in (200, 503)

    wait_until(answers, app, "the health route's first answer")
    health = answered[-1].json()
    assert health["worker"]["running"] is True, health  # app.py handed its scoring process's pulse over
    assert answered[-1].status_code == 200 and health["status"] in ("ok", "degraded"), health
    page = _open(chromium, app.url, size)
    expect(page.locator("#scoring-status")).to_have_text(re.compile(r"^Scoring: .* · (no result yet|last result .+)"))
    _in_view(page, size)
    _shot(page, f"board-status-real-app-{size['width']}x{size['height']}")
    page.context.close()


@pytest.fixture(scope="module")
def queued(tmp_path_factory, demo_dataset, demo_public, key_cache) -> Iterator[Site]:
    """A site served here: one approved entry on the board, three files waiting, a worker that ran a round."""
    for name, value in gradio_internals.QUIET_ANALYTICS.items():  # as app.main sets them, before any Blocks
        os.environ.setdefault(name, value)
    folder = tmp_path_factory.mktemp("status-line")
    env = {"LEADERBOARD_HOME": str(folder / "home"), "ANSWER_KEY_DATASET": str(demo_dataset),
           "PUBLIC_DATASET": str(demo_public), "MAINTAINERS": MAINTAINER}  # fmt: skip
    settings = dataclasses.replace(Settings.from_env(env), answer_key_cache=key_cache)
    service = Leaderboard(settings)
    from scoring import load_answer_key
    from scoring.examples import write_example

    key = load_answer_key(demo_dataset, "test", key_cache)
    paths = []
    for seed in range(4):
        paths.append(folder / f"file{seed}.tsv")
        write_example(key, "noisy", paths[-1], seed=seed)
    entry = submit(service, paths[0], user="alice", model="Alpha-VLM", publish=True).submission_id
    service.worker.drain()
    service.approve(entry, by=MAINTAINER)
    for i, path in enumerate(paths[1:]):
        submit(service, path, user=f"user{i}", model=f"Waiting-{i}")
    space = SpaceSettings(server_port=free_port())
    services = Services.create(settings, space, leaderboard=service, examples=folder / "examples")
    assert services.health is not None
    services.health.pulse.started()
    services.health.pulse.heard("idle")
    services.health.refresh()
    with served(settings, space, services) as site:
        yield site
    services.close()


@SIZES
def test_a_queue_is_counted_and_a_stopped_worker_is_said_plainly(chromium, queued: Site, size):
    health = queued.services.health
    assert health is not None
    health.pulse.started()
    health.pulse.heard("idle")
    page = _open(chromium, queued.url, size)
    line = page.locator("#scoring-status")
    expect(line).to_have_text(re.compile(r"^Scoring: 3 waiting, about \d+ (s|min) · last result \d+ (s|min) ago\.$"))
    _in_view(page, size)
    _shot(page, f"board-status-queue-{size['width']}x{size['height']}")
    health.pulse.stopped()
    page.reload()
    expect(line).to_have_text("Scoring is paused: submissions are queued and kept (3 waiting).")
    _in_view(page, size)
    _shot(page, f"board-status-paused-{size['width']}x{size['height']}")
    page.context.close()
