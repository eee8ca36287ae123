"""The board's CSV: a link beside the search that downloads the split on show (``GET /board.csv``)."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import expect

from tests.browser.conftest import shot

pytestmark = pytest.mark.browser
CSV_LINK = re.compile(r"^Download CSV")


@pytest.mark.parametrize("size", [(1440, 900), (390, 844)], ids=["1440x900", "390x844"])
def test_the_csv_link_is_in_the_first_screen_and_downloads_the_split_on_show(chromium, app, size):
    context = chromium.new_context(viewport={"width": size[0], "height": size[1]}, accept_downloads=True)
    try:
        page = context.new_page()
        page.goto(app.url)
        link = page.get_by_role("link", name=CSV_LINK)  # "(test)" after it on a laptop; a phone has no room for it
        expect(link).to_be_in_viewport()  # with the controls, above the table: no scrolling to find it
        table, link_box = page.locator("#leaderboard-table"), link.bounding_box()
        table_box = table.bounding_box()
        assert table_box and link_box and link_box["y"] + link_box["height"] <= table_box["y"] + 1  # above it
        assert 0 <= link_box["x"] and link_box["x"] + link_box["width"] <= size[0]
        with page.expect_download() as got:
            link.click()
        rows = list(csv.DictReader(io.StringIO(Path(got.value.path()).read_text("utf-8"))))
        assert got.value.suggested_filename == "navitrace_leaderboard_test.csv"
        assert {r["split"] for r in rows} == {"test"} and "baseline-test" in {r["submission_id"] for r in rows}
        shot(page, f"board-csv-link-{size[0]}")

        page.locator("#board-splits").get_by_role("link", name="Validation").click()
        validation = page.get_by_role("link", name=CSV_LINK)
        expect(validation).to_have_attribute("href", "/board.csv?split=validation")
        expect(page).to_have_url(re.compile(r"[?&]split=validation"))  # the address says what is shown
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
