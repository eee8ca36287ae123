"""The straight-forward example scores what About says the baseline scores (0).

On any dataset whose B is calibrated on its own test split (``python -m scoring calibrate``, as the
embedded default's ``DEMO_BASELINE_RAW`` is), a researcher who submits the straight example reads
0.00 in My submissions, the figure About gives and the board's baseline row shows.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from scoring import load_answer_key
from scoring.calibrate import straight_forward_mean_raw
from scoring.examples import write_example
from tests.browser.conftest import RunningApp, page_maker, shot, start_app, stop_app
from tests.browser.helpers import open_tab, sign_in, submit_file, wait_finished

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def calibrated(tmp_path_factory: pytest.TempPathFactory, browser_datasets: tuple[Path, Path]) -> Iterator[RunningApp]:
    private, public = browser_datasets
    folder = tmp_path_factory.mktemp("calibrated")
    key = load_answer_key(private, "test", folder / "cache")
    app = start_app(folder, private, public, BASELINE_RAW=repr(straight_forward_mean_raw(key)[0]))
    yield app
    stop_app(app)


@pytest.fixture
def new_page(chromium, calibrated: RunningApp, request: pytest.FixtureRequest):
    yield from page_maker(chromium, calibrated, request)


def test_the_straight_example_scores_zero_as_about_says(new_page, calibrated: RunningApp, tmp_path: Path):
    straight = tmp_path / "example_test_straight.tsv"
    write_example(load_answer_key(calibrated.public, "test", tmp_path / "cache"), "straight", straight)
    page = new_page()
    page.set_viewport_size({"width": 1440, "height": 900})
    sign_in(page, calibrated.url, "stella")
    open_tab(page, "About")
    expect(page.locator("#about-page")).to_contain_text("0 the average of the straight-forward baseline")
    submission_id = submit_file(page, straight, "Straight-Example", test=True)
    wait_finished(page, submission_id)
    row = page.locator("#my-submissions-table tr", has_text=submission_id)
    expect(row.locator("td").nth(2)).to_have_text("0.00")  # Model, Status, Score
    shot(page, "straight-example-zero")
