"""The real app (``python app.py``) on a free port with seeded local state, and Debian's Chromium.

``app`` starts one server for the session: small synthetic datasets (``browser_datasets`` in
tests/conftest.py, 8 scenes at 320x240) as
``ANSWER_KEY_DATASET`` / ``PUBLIC_DATASET``, a fresh ``LEADERBOARD_HOME``, ``MAINTAINERS=boss``,
and a one-second scoring interval. It waits for the page and fails with the server's log if the
process died. ``chromium`` drives ``/usr/bin/chromium`` (never ``playwright install``); when it is
missing the browser tests are skipped with the reason, except under ``CI=true`` where they fail.
Screenshots go to ``artifacts/screenshots/``.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from tests.conftest import BROWSER, BROWSER_ARGS

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "artifacts" / "screenshots"
CHROMIUM, CHROMIUM_ARGS = BROWSER, BROWSER_ARGS  # the `chromium` and `browser_datasets` fixtures: tests/conftest.py
MAINTAINER = "boss"
START_TIMEOUT_S = 90.0


@dataclass(frozen=True)
class RunningApp:
    url: str
    home: Path
    log: Path
    private: Path  # the answer-key dataset (test ground truth included)
    public: Path
    process: subprocess.Popen

    def log_text(self) -> str:
        return self.log.read_text("utf-8", errors="replace")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_app(folder: Path, private: Path, public: Path, **extra: str) -> RunningApp:
    """``python app.py`` as the Dockerfile runs it, on a free port; returns once the page is served."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("SPACE_ID", "REQUESTS_REPO", "RESULTS_REPO")}
    env.update(
        LEADERBOARD_HOME=str(folder / "home"),
        ANSWER_KEY_DATASET=str(private),
        PUBLIC_DATASET=str(public),
        MAINTAINERS=MAINTAINER,
        GRADIO_SERVER_PORT=str(port),
        GRADIO_SERVER_NAME="127.0.0.1",
        GRADIO_TEMP_DIR=str(folder / "gradio"),
        SCORE_INTERVAL_S=extra.pop("SCORE_INTERVAL_S", "1"),  # a test may slow the worker (a seeded table)
        PYTHONUNBUFFERED="1",
        **extra,
    )
    log = folder / "app.log"
    with open(log, "wb") as out:
        process = subprocess.Popen([sys.executable, "app.py"], cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    app = RunningApp(f"http://127.0.0.1:{port}", folder / "home", log, private, public, process)
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"the app exited with status {process.returncode} before serving:\n{app.log_text()}")
        try:
            if httpx.get(app.url + "/", timeout=2).status_code == 200:
                return app
        except httpx.HTTPError:
            pass
        time.sleep(0.25)
    stop_app(app)
    pytest.fail(f"the app did not serve {app.url} within {START_TIMEOUT_S:.0f} s:\n{app.log_text()}")


def stop_app(app: RunningApp) -> None:
    if app.process.poll() is None:
        app.process.send_signal(signal.SIGTERM)
        try:
            app.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            app.process.kill()
            app.process.wait()


@pytest.fixture(scope="session")
def app(tmp_path_factory: pytest.TempPathFactory, browser_datasets: tuple[Path, Path]) -> Iterator[RunningApp]:
    running = start_app(tmp_path_factory.mktemp("app"), *browser_datasets)
    yield running
    stop_app(running)
    assert running.process.returncode in (0, -signal.SIGTERM), running.log_text()


@pytest.fixture
def new_page(chromium, app: RunningApp, request: pytest.FixtureRequest):
    """``new_page()`` -> a page in a fresh browser context (its own cookies: its own sign-in)."""
    yield from page_maker(chromium, app, request)


def page_maker(chromium, app: RunningApp, request: pytest.FixtureRequest):
    """The body of a ``new_page``-like fixture for ``app``: screenshots and the app's log when the test failed."""
    contexts = []

    def make():
        context = chromium.new_context(viewport={"width": 1400, "height": 1000})
        context.set_default_timeout(30_000)
        contexts.append(context)
        return context.new_page()

    yield make
    failed = getattr(request.node, "rep_call", None)
    if failed is not None and failed.failed:
        for i, context in enumerate(contexts):
            for j, page in enumerate(context.pages):
                shot(page, f"FAILED-{request.node.name}-{i}-{j}")
        print(f"--- app log ---\n{app.log_text()[-6000:]}")
    for context in contexts:
        context.close()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report


def shot(page, name: str) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{re.sub(r'[^A-Za-z0-9_.-]', '_', name)}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
