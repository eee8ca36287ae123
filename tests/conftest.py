"""Shared fixtures: a small synthetic NaviTrace dataset (private and public copies) and its keys."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.service_fixtures import clock, environ, files, service, service_cache, settings  # noqa: F401

DEMO_SAMPLES = 6
DEMO_SIZE = (96, 72)


@pytest.fixture(autouse=True)
def audit_order_of_this_test_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """The audit log orders one process's entries by the latest stamp it made (``storage/audit.py``): a test whose
    fake clock runs days ahead would otherwise push every later test's real-time entries after another
    process's (an app's), and read the log out of order."""
    from leaderboard.storage import audit

    monkeypatch.setattr(audit, "_last", 0.0)


@pytest.fixture(scope="session")
def demo_dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from synthetic import write_demo_dataset

    return write_demo_dataset(tmp_path_factory.mktemp("demo") / "navitrace", samples=DEMO_SAMPLES, size=DEMO_SIZE)


@pytest.fixture(scope="session")
def demo_public(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from synthetic import write_demo_dataset

    folder = tmp_path_factory.mktemp("demo-public") / "navitrace"
    return write_demo_dataset(folder, samples=DEMO_SAMPLES, size=DEMO_SIZE, public=True)


@pytest.fixture(scope="session")
def key_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("navitrace-cache")


@pytest.fixture(scope="session")
def validation_key(demo_dataset: Path, key_cache: Path):
    from scoring import load_answer_key

    return load_answer_key(demo_dataset, "validation", key_cache)


@pytest.fixture(scope="session")
def test_key(demo_dataset: Path, key_cache: Path):
    from scoring import load_answer_key

    return load_answer_key(demo_dataset, "test", key_cache)


# The browser tests' fixtures live here, once: tests/browser and tests/hardening/web share one
# Playwright (two sync_playwright() at once fail) and one pair of small datasets.
BROWSER = Path("/usr/bin/chromium")  # Debian's Chromium; never `playwright install`
BROWSER_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
BROWSER_SAMPLES, BROWSER_SIZE = 8, (320, 240)


@pytest.fixture(scope="session")
def browser_datasets(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    from synthetic import write_demo_dataset

    folder = tmp_path_factory.mktemp("browser-data")
    private = write_demo_dataset(folder / "navitrace", samples=BROWSER_SAMPLES, size=BROWSER_SIZE)
    public = write_demo_dataset(folder / "navitrace-public", samples=BROWSER_SAMPLES, size=BROWSER_SIZE, public=True)
    return private, public


@pytest.fixture(scope="session")
def chromium():
    if not BROWSER.exists():
        reason = f"{BROWSER} is missing: install Debian's chromium (apt-get install -y chromium) to run browser tests"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(BROWSER), args=BROWSER_ARGS)
        yield browser
        browser.close()
