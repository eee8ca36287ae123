"""Driving the pages like a person: sign in, open a tab, upload, pick from a dropdown, wait for text; and the
state under the pages: an app whose table is seeded, its scoring process paused, a picture drawn."""

from __future__ import annotations

import io
import os
import re
import signal
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from filelock import FileLock
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from leaderboard.publishing.table import TABLE_PATH, table_bytes
from leaderboard.storage.base import INTERNAL
from leaderboard.storage.local import LocalStorage
from space.submit.declarations import BEST_OF_LABEL
from tests.browser.conftest import START_TIMEOUT_S, RunningApp, start_app, stop_app

LONG_MS = 90_000  # scoring in the background: a few seconds here, generous for a busy CI machine
READY = re.compile(r"worker process ready \(pid (\d+)")  # the scoring process's (leaderboard/runtime/worker_process.py)


WORKSPACE = {"Submit": "submit", "My submissions": "mine", "Explorer": "explorer"}  # the Gradio page's tabs


def sign_in(page: Page, url: str, user: str) -> None:
    """The local sign-in in the header of the board (a plain page); the browser comes back to the board."""
    page.goto(url)
    page.get_by_label("User name (local sign-in)").fill(user)
    page.get_by_role("button", name="Sign in locally").click()
    expect(page.locator("#identity")).to_contain_text(f"Signed in as {user}")


def open_tab(page: Page, name: str) -> None:
    """Submit, My submissions and the Explorer are tabs of the signed-in Gradio page (``/submit/``): reached
    by the header's link from any other page, then by the tab; the Leaderboard and About are plain pages."""
    if name in WORKSPACE:
        if "/submit/" not in page.url:
            page.locator("#nt-nav").get_by_role("link", name=name, exact=True).click()
            # The Gradio page boots and selects the tab the address names: slower than a plain page on a busy machine.
            expect(page.get_by_role("tab", name=name, exact=True)).to_have_attribute(
                "aria-selected", "true", timeout=LONG_MS
            )
            return
        page.get_by_role("tab", name=name, exact=True).click()
        return
    page.locator("#nt-nav").get_by_role("link", name=name, exact=True).click()


def open_desk(page: Page) -> None:
    """Go to the maintainers' desk (a page of its own) the way a maintainer does: the header's link."""
    page.get_by_role("link", name="Maintainers' desk").click()
    expect(page.locator("#tab-maintainers")).to_be_visible()


def choose(page: Page, label: str, option: str | re.Pattern) -> None:
    """Pick the option of a Gradio dropdown found by its label (type to filter, click the option)."""
    box = page.get_by_label(label)
    box.click()
    page.get_by_role("option", name=option).first.click()


def upload(page: Page, elem_id: str, path: Path) -> None:
    page.locator(f"#{elem_id} input[type=file]").set_input_files(str(path))


def submit_file(page: Page, path: Path, model: str, *, test: bool = False, publish: bool = False) -> str:
    """Upload, check, fill the metadata and submit on the Submit tab; the submission id."""
    open_tab(page, "Submit")
    if test:
        page.get_by_label("Test: hidden ground truth, for the leaderboard").check()
    upload(page, "submit-file", path)
    expect(page.locator("#validation-report")).to_contain_text("You can submit this file", timeout=LONG_MS)
    page.get_by_label("Model name (required)").fill(model)
    page.get_by_label("Contact e-mail (private: only maintainers see it)").fill(f"{model.lower()}@example.org")
    if publish:
        box = page.get_by_label("Publish on the leaderboard once a maintainer approves (test split only)")
        expect(box).to_be_enabled()
        box.check()
        if test:
            declare(page)
    button = page.get_by_role("button", name="2 · Submit")
    expect(button).to_be_enabled()
    button.click()
    receipt = page.locator("#submit-receipt")
    expect(receipt).to_contain_text("Submitted:", timeout=LONG_MS)
    return receipt.locator(".nt-id").inner_text().strip()


def declare(page: Page, best_of: int = 1) -> None:
    """Answer the declarations a public test entry needs (shown once test and publish are chosen)."""
    expect(page.locator("#declarations")).to_be_visible()
    page.locator("#decl-trained").get_by_label("No", exact=True).check()
    page.locator("#decl-beyond").get_by_label("No", exact=True).check()
    page.get_by_label(BEST_OF_LABEL).fill(str(best_of))


def wait_finished(page: Page, submission_id: str) -> None:
    """My submissions updates by itself: wait (without reloading) until the row says FINISHED."""
    open_tab(page, "My submissions")
    row = page.locator("#my-submissions-table tr", has_text=submission_id)
    expect(row).to_contain_text("FINISHED", timeout=LONG_MS)


def coloured_pixels(png: bytes, colour: tuple[int, int, int], tolerance: int = 40) -> int:
    """How many pixels of a screenshot are within ``tolerance`` (per channel) of ``colour``."""
    import numpy as np
    from PIL import Image

    pixels = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=np.int16)
    close = np.abs(pixels - np.array(colour, dtype=np.int16)).max(axis=2) <= tolerance
    return int(close.sum())


def scored(service, submission_id: str, timeout_s: float = 90) -> None:
    """Wait until a submission made from the test process is FINISHED (the app's worker or ours scores it)."""
    import time

    deadline = time.monotonic() + timeout_s
    while (status := service.status(submission_id).status) != "FINISHED":
        assert status != "FAILED" and time.monotonic() < deadline, f"{submission_id} is {status}"
        service.worker.drain()  # returns at once while the app's worker holds the machine's worker lock
        time.sleep(0.2)


LOADED = "sel => { const img = document.querySelector(sel); return !!img && img.complete && img.naturalWidth > 0; }"
DRAWN = """async (sel) => {
  const img = document.querySelector(sel);
  await img.decode();
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  return document.querySelector(sel) === img;
}"""
STATE = "sel => { const i = document.querySelector(sel); return i && [i.src, i.complete, i.naturalWidth, i.loading]; }"


def picture_drawn(page: Page, selector: str) -> None:
    """The picture ``<img>`` at ``selector`` is loaded, decoded and drawn in a frame: the browser's own signals
    (``complete``, ``decode()``, then two animation frames), not a timer, asked again of whichever element the
    page holds there (a new picture may be a new element). Call it once the picture's ``alt`` or the figures
    beside it say which picture this is. Gradio's image loads lazily: it is scrolled into view for that, and the
    page back to where it was."""
    image = page.locator(selector)
    expect(image).to_be_visible()
    where = page.evaluate("[scrollX, scrollY]")
    image.scroll_into_view_if_needed()
    try:
        for _ in range(10):
            try:
                page.wait_for_function(LOADED, arg=selector, timeout=LONG_MS)
            except PlaywrightTimeout:
                state = page.evaluate(STATE, selector)
                raise AssertionError(f"{selector} not loaded in 90 s (src, complete, width, lazy): {state}") from None
            if page.evaluate(DRAWN, selector):  # the same element before and after: this picture is drawn
                return
        raise AssertionError(f"{selector} was replaced ten times while it was being drawn")
    finally:
        page.evaluate("([x, y]) => window.scrollTo(x, y)", where)
        scrolled(page)


SCROLLED = """async () => {
  const at = () => `${scrollX},${scrollY}`;
  for (let before = null; before !== at(); ) {
    before = at();
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  }
}"""


def scrolled(page: Page) -> None:
    """The page has stopped scrolling: at the same place two frames apart (a smooth scroll moves every frame)."""
    page.evaluate(SCROLLED)


def wait_until(condition: Callable[[], bool], app: RunningApp, what: str, timeout_s: float = START_TIMEOUT_S) -> None:
    """Until ``condition()``; fails saying ``what`` was waited for, with the app's log, when the app exits or the
    time runs out."""
    deadline = time.monotonic() + timeout_s
    while not condition():
        if app.process.poll() is not None:
            pytest.fail(f"the app exited ({app.process.returncode}) before {what}:\n{app.log_text()[-4000:]}")
        if time.monotonic() > deadline:
            pytest.fail(f"waited {timeout_s:.0f} s for {what}, in vain:\n{app.log_text()[-4000:]}")
        time.sleep(0.1)


def worker_pid(app: RunningApp) -> int:
    """The pid of the app's scoring process, once it has said it is ready (the last one to say so)."""
    wait_until(lambda: READY.search(app.log_text()) is not None, app, "'worker process ready' in the app's log")
    return int(READY.findall(app.log_text())[-1])


@contextmanager
def paused_worker(app: RunningApp) -> Iterator[int]:
    """The app's scoring process stopped (SIGSTOP) until the block ends (SIGCONT), caught outside any commit: it
    is stopped while this process holds the locks of the app's stores (``LocalStorage``), so it cannot be stopped
    holding one, and no commit (of this process or of the app's pages) then waits for it."""
    pid = worker_pid(app)
    locks = [FileLock(str(app.home / store / INTERNAL / "lock")) for store in ("requests", "results")]
    for lock in locks:
        lock.acquire(timeout=120)  # a commit holds it for milliseconds (leaderboard/storage/local.py)
    try:
        os.kill(pid, signal.SIGSTOP)
        wait_until(lambda: _stopped(pid), app, f"the scoring process (pid {pid}) to stop")
    finally:
        for lock in reversed(locks):
            lock.release()
    try:
        yield pid
    finally:
        os.kill(pid, signal.SIGCONT)


def served(app: RunningApp, split: str) -> set[str]:
    """The ids of the rows the app's JSON API serves for ``split`` (none while it does not answer)."""
    try:
        answer = httpx.get(f"{app.url}/api/board", params={"split": split}, timeout=10)
    except httpx.HTTPError:
        return set()
    return {str(row["submission_id"]) for row in answer.json()["rows"]} if answer.status_code == 200 else set()


def _stopped(pid: int) -> bool:
    """Every thread of ``pid`` is stopped by a signal (``T`` in its ``/proc`` stat)."""
    tasks = Path(f"/proc/{pid}/task")
    return all((task / "stat").read_text("ascii").rsplit(")", 1)[1].split()[0] == "T" for task in tasks.iterdir())


@contextmanager
def app_with_table(
    folder: Path, datasets: tuple[Path, Path], rows: list[dict] | None, message: str
) -> Iterator[RunningApp]:
    """The app (a one-hour scoring interval) whose published table is ``rows``, for as long as the block lasts.

    It waits for the worker's first publish (and fails saying so, with the app's log, when none comes), then
    pauses the worker before writing ``rows``: each round of the worker rewrites the table from the requests
    store, and a second round can follow the first at start (the scheduler's first request may arrive while
    the first round runs), so a table written while it runs does not stay. It returns once the app serves
    those rows (its JSON API: the pages read the table in a thread of their own, a moment later). ``rows=None``:
    the worker's own table, which its later rounds write again as it is.
    """
    app = start_app(folder, *datasets, SCORE_INTERVAL_S="3600")
    try:
        results = LocalStorage(app.home / "results")
        wait_until(lambda: results.read(TABLE_PATH) is not None, app, f"the worker's first publish of {TABLE_PATH}")
        if rows is None:
            yield app
            return
        with paused_worker(app):
            results.commit({TABLE_PATH: table_bytes(rows)}, message=message)
            for split in sorted({str(row["split"]) for row in rows}):
                seeded = {str(row["submission_id"]) for row in rows if row["split"] == split}
                what = f"the app to serve the seeded rows at /api/board?split={split}"
                wait_until(lambda split=split, seeded=seeded: seeded <= served(app, split), app, what)
            yield app
    finally:
        stop_app(app)
