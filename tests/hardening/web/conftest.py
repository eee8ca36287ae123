"""One real app for the web hardening tests, seeded through its own API with secrets worth stealing.

``web_app`` is ``python app.py`` on a free port (``tests/browser/conftest.start_app``: small
synthetic datasets, a fresh ``LEADERBOARD_HOME``, ``MAINTAINERS=boss``, one-second scoring). It is
not the browser tests' app, so neither suite sees the other's submissions or audit entries.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.browser.conftest import (  # noqa: F401  (fixtures and the report hook are found by name)
    RunningApp,
    page_maker,
    pytest_runtest_makereport,
    shot,
    start_app,
    stop_app,
)
from tests.hardening.web.web_seed import QUOTA, Files, Seeded, seed


@pytest.fixture(scope="session")
def web_app(
    tmp_path_factory: pytest.TempPathFactory,
    browser_datasets: tuple[Path, Path],
) -> Iterator[RunningApp]:
    # These tests upload and check many files per user: the per-user upload and check limits (tested in
    # test_web_guard.py with an app of their own) are raised out of their way.
    limits = {"UPLOADS_PER_MINUTE": "10000", "UPLOAD_MB_PER_HOUR": "100000", "CHECKS_PER_MINUTE": "10000"}
    running = start_app(
        tmp_path_factory.mktemp("web-app"), *browser_datasets, TEST_SUBMISSIONS_PER_DAY=str(QUOTA), **limits
    )
    yield running
    stop_app(running)


@pytest.fixture(scope="session")
def web_files(web_app: RunningApp, tmp_path_factory: pytest.TempPathFactory) -> Files:
    return Files(web_app, tmp_path_factory.mktemp("web-files"))


@pytest.fixture(scope="session")
def seeded(web_app: RunningApp, web_files: Files) -> Seeded:
    """eve's scored, approved test submission with a contact e-mail, her validation one, a reported row."""
    return seed(web_app, web_files)


@pytest.fixture
def new_web_page(chromium, web_app: RunningApp, request: pytest.FixtureRequest):
    """``new_web_page()`` -> a page of ``web_app`` in a fresh browser context (its own cookies, its own sign-in)."""
    yield from page_maker(chromium, web_app, request)
