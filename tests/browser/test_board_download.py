"""The board's CSV: a link under the table that downloads the split on show (``GET /board.csv``)."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import expect

from tests.browser.conftest import shot

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("size", [(1440, 900), (390, 844)], ids=["1440x900", "390x844"])
def test_the_csv_link_sits_under_the_table_and_downloads_the_split_on_show(chromium, app, size):
    context = chromium.new_context(viewport={"width": size[0], "height": size[1]}, accept_downloads=True)
    try:
        page = context.new_page()
        page.goto(app.url)
        link = page.get_by_role("link", name="Download CSV (test split)")
        expect(link).to_be_visible(timeout=30_000)
        table = page.locator("#leaderboard table")
        link.scroll_into_view_if_needed()
        table_box, link_box = table.bounding_box(), link.bounding_box()
        assert table_box and link_box and link_box["y"] >= table_box["y"] + table_box["height"] - 1  # under it
        assert 0 <= link_box["x"] and link_box["x"] + link_box["width"] <= size[0]
        with page.expect_download() as got:
            link.click()
        rows = list(csv.DictReader(io.StringIO(Path(got.value.path()).read_text("utf-8"))))
        assert got.value.suggested_filename == "navitrace_leaderboard_test.csv"
        assert {r["split"] for r in rows} == {"test"} and "baseline-test" in {r["submission_id"] for r in rows}
        shot(page, f"board-csv-link-{size[0]}")

        page.locator("#board-split").get_by_text("validation", exact=True).click()
        validation = page.get_by_role("link", name="Download CSV (validation split)")
        expect(validation).to_be_visible()
        with page.expect_download() as got:
            validation.click()
        assert got.value.suggested_filename == "navitrace_leaderboard_validation.csv"
    finally:
        context.close()


def test_an_unknown_split_is_a_404_that_says_what_exists(app):
    answer = httpx.get(f"{app.url}/board.csv", params={"split": "training" * 20}, timeout=30)
    assert answer.status_code == 404
    assert "expected one of test, validation" in answer.text and len(answer.text) < 200
    assert "access-control-allow-origin" not in answer.headers
