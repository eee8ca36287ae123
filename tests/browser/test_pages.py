"""The Space in a real browser: what a researcher and a maintainer do, step by step.

Each test signs in as its own user (its own browser context), so the tests share one app and
do not depend on each other's order.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import httpx
import pytest
from gradio_client import Client
from playwright.sync_api import expect

from scoring import load_answer_key
from scoring.examples import write_example
from tests.browser.conftest import MAINTAINER, RunningApp, shot
from tests.browser.helpers import (
    LONG_MS,
    choose,
    coloured_pixels,
    open_desk,
    open_tab,
    picture_drawn,
    scored,
    served,
    sign_in,
    submit_file,
    upload,
    wait_finished,
    wait_until,
)
from tests.service_fixtures import DECLARED

pytestmark = pytest.mark.browser
PREDICTION_BLUE = (37, 99, 235)  # space.explorer.picture.PREDICTION


@pytest.fixture(scope="module")
def files(app: RunningApp, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Submission files made like ``python -m scoring example-submission`` (test ones from the private copy)."""
    folder = tmp_path_factory.mktemp("browser-files")
    cache = folder / "cache"
    made = {}
    for name, dataset, split, kind in (
        ("validation-noisy", app.public, "validation", "noisy"),
        ("test-noisy", app.private, "test", "noisy"),
        ("test-straight", app.public, "test", "straight"),
    ):
        made[name] = folder / f"{name}.tsv"
        write_example(load_answer_key(dataset, split, cache), kind, made[name])
    made["bad"] = folder / "bad.tsv"
    made["bad"].write_text("sample_id\tembodiment\ttrace\nval_0000\tHuman\t[[1, 2], [3, 4]]\n", "utf-8")
    return made


def show_columns(page, *groups: str) -> None:
    """Tick column groups in the board's "Filters and columns" panel (closed by default); each applies at once."""
    page.locator("#board-filters > summary").click()
    for group in groups:
        page.get_by_role("checkbox", name=re.compile(f"^{re.escape(group)}")).check()
    page.locator("#board-filters > summary").click()  # closed again: the panel lies over the table


def test_the_leaderboard_renders_with_the_baseline_row(new_page, app: RunningApp):
    page = new_page()
    page.goto(app.url)
    table = page.locator("#leaderboard-table")
    baseline = table.locator("tr.nt-row-baseline")
    expect(baseline).to_contain_text("Straight forward (baseline)")
    expect(baseline.locator(".nt-badge-baseline")).to_have_text("baseline")
    expect(baseline).to_contain_text("0.00")
    for header in ("Rank", "Model", "Organisation", "Score", "Coverage", "Valid-only", "Human", "Open weights", "Date"):
        expect(table.get_by_role("columnheader", name=header, exact=True)).to_be_visible()
    show_columns(page, "Per task category", "Details")
    expect(table.get_by_role("columnheader", name="Scorer / data")).to_be_visible()
    shot(page, "leaderboard")


def test_a_validation_submission_is_scored_and_the_explorer_draws_its_trace(new_page, app: RunningApp, files):
    page = new_page()
    sign_in(page, app.url, "alice")
    submission_id = submit_file(page, files["validation-noisy"], "Alice-VLM")
    shot(page, "submit-receipt")
    wait_finished(page, submission_id)
    row = page.locator("#my-submissions-table tr", has_text=submission_id)
    expect(row).to_contain_text(re.compile(r"\d+\.\d\d"))  # a score
    expect(page.locator("#my-detail")).to_contain_text("Per embodiment")
    expect(page.locator("#my-rows-download")).to_be_visible()
    shot(page, "my-submissions")

    open_tab(page, "Explorer")
    choose(page, "Your validation submission (optional)", re.compile(submission_id))
    choose(page, "Row of that submission (worst first)", re.compile(r"val_\d+"))
    breakdown = page.locator("#explorer-breakdown")
    expect(breakdown).to_contain_text("Row score", timeout=LONG_MS)
    expect(page.locator("#explorer-components")).to_contain_text("DTW")
    image = page.locator("#explorer-image img")
    # The row's picture is the one in place (its alt text comes with it and names the prediction), and drawn:
    expect(image).to_have_attribute("alt", re.compile("The predicted trace of"), timeout=LONG_MS)
    picture_drawn(page, "#explorer-image img")
    assert coloured_pixels(image.screenshot(), PREDICTION_BLUE) > 30, "no predicted trace drawn in the picture"
    shot(page, "explorer")


def test_a_test_submission_approved_by_a_maintainer_reaches_the_leaderboard(new_page, app: RunningApp, files):
    researcher = new_page()
    sign_in(researcher, app.url, "bob")
    open_tab(researcher, "Submit")
    expect(researcher.locator("#quota")).to_contain_text("3 of 3")
    submission_id = submit_file(researcher, files["test-noisy"], "Bob-Navigator", test=True, publish=True)
    expect(researcher.locator("#quota")).to_contain_text("2 of 3")
    wait_finished(researcher, submission_id)
    expect(researcher.locator("#my-submissions-table tr", has_text=submission_id)).to_contain_text("awaiting approval")
    expect(researcher.locator("#my-rows-download")).to_be_hidden()  # per-row test scores stay private

    maintainer = new_page()
    sign_in(maintainer, app.url, MAINTAINER)
    open_desk(maintainer)
    pending = maintainer.locator("#pending-table")
    expect(pending).to_contain_text(submission_id)
    expect(pending).to_contain_text("bob-navigator@example.org")  # maintainers see the contact
    choose(maintainer, "Submission to act on", re.compile(submission_id))
    maintainer.get_by_role("button", name="Approve").click()
    # Another test of this session may have sent the same example file first: then the desk marks this entry a
    # likely copy and asks before approving it; the maintainer confirms.
    approved = maintainer.locator("#maint-status").filter(has_text=f"Approved {submission_id}")
    asked = maintainer.get_by_role("button", name="Yes, approve and publish")
    expect(approved.or_(asked)).to_be_visible(timeout=LONG_MS)
    if asked.is_visible():
        asked.click()
    expect(maintainer.locator("#maint-status")).to_contain_text(f"Approved {submission_id}", timeout=LONG_MS)
    expect(maintainer.locator("#audit-log")).to_contain_text("approve")
    shot(maintainer, "maintainers")

    open_tab(maintainer, "Leaderboard")  # the header's link, from the desk as from any page
    row = maintainer.locator("#leaderboard-table tr", has_text="Bob-Navigator")
    expect(row).to_contain_text(re.compile(r"\d+\.\d\d"))
    expect(maintainer.locator("#leaderboard-table")).not_to_contain_text("@example.org")  # no e-mail in public
    shot(maintainer, "leaderboard-approved")
    open_tab(researcher, "My submissions")  # updates by itself: no reload
    expect(researcher.locator("#my-submissions-table tr", has_text=submission_id)).to_contain_text("on the leaderboard")
    # Where it landed, as its details say: significantly better than how many, tied with how many.
    researcher.locator("#my-submissions-table tr", has_text=submission_id).click()
    landed = researcher.locator("#my-standing")
    expect(landed).to_contain_text(re.compile(r"On the board: rank \d+ · upper-bound rank \d+\. Significantly better"))
    expect(landed).to_contain_text("tied with")
    expect(landed.get_by_role("link", name="Its entry page")).to_have_attribute("href", f"/entry/{submission_id}")


def test_a_non_maintainer_sees_no_desk_and_the_server_refuses_every_maintainer_action(new_page, app: RunningApp, files):
    page = new_page()
    sign_in(page, app.url, "mallory")
    submission_id = submit_file(page, files["test-straight"], "Mallory-Model", test=True, publish=True)
    expect(page.get_by_role("tab", name="Maintainers")).to_have_count(0)
    expect(page.get_by_role("link", name="Maintainers' desk")).to_have_count(0)
    shot(page, "non-maintainer")
    page.goto(app.url + "/maintainers/")  # the desk's address typed by hand: a note, none of the desk
    expect(page.locator("#desk-refused")).to_contain_text("This page is for the maintainers")
    expect(page.locator("#tab-maintainers")).to_be_hidden()

    cookie = httpx.post(app.url + "/local-auth/sign-in", data={"user": "mallory"}).cookies["session"]
    desk = app.url + "/maintainers/"
    anonymous = Client(desk, verbose=False)
    signed_in = Client(desk, verbose=False, headers={"Cookie": f"session={cookie}", "Origin": app.url})
    calls = {
        "/approve": (submission_id, ""),
        "/reject": (submission_id, "spam"),
        "/hide": (submission_id, ""),
        "/unhide": (submission_id, ""),
        "/edit": (submission_id, "Renamed", "", "", "", "", "", ""),
        "/rescore": (submission_id, "because", True),
        "/add_reported": (submission_id, "Fake", "", "test", 99.0, None, None, "https://example.org", ""),
        "/remove_reported": (submission_id, "reported-0000"),
        "/maintainers_refresh": (submission_id,),
    }
    for client, who in ((anonymous, "You are not signed in"), (signed_in, "'mallory' is")):
        for endpoint, args in calls.items():
            with pytest.raises(Exception) as refused:
                client.predict(*args, api_name=endpoint)
            # Refused at the door (an HTTP 403 before the event queues; its body says why) or by the handler.
            said = getattr(getattr(refused.value, "response", None), "text", "") or str(refused.value)
            assert "not a maintainer" in said and who in said, (endpoint, said)
    for docs in (app.url + "/submit/", desk):  # neither Gradio page's API docs list a maintainer endpoint
        maintainer_view = httpx.get(docs + "gradio_api/info")
        assert maintainer_view.status_code == 200
        assert not re.search(r"approve|reject|rescore|maintainers_refresh", maintainer_view.text)
    reviews = app.home / "requests" / "reviews" / f"{submission_id}.json"
    assert not reviews.exists(), "a refused call changed the review"
    entries = [json.loads(p.read_text()) for p in (app.home / "requests" / "audit").rglob("*.json")]
    by_mallory = [e["action"] for e in entries if e["who"] == "mallory"]
    on_hers = [e["action"] for e in entries if e["target"] == submission_id]
    assert by_mallory == ["submit"] and set(on_hers) <= {"submit", "finished"}, (by_mallory, on_hers)


def test_a_bad_file_shows_its_validation_message(new_page, app: RunningApp, files):
    page = new_page()
    sign_in(page, app.url, "betty")  # checking a file needs a sign-in, as uploading does
    open_tab(page, "Submit")
    upload(page, "submit-file", files["bad"])
    report = page.locator("#validation-report")
    expect(report).to_contain_text("This file cannot be submitted", timeout=LONG_MS)
    expect(report).to_contain_text(
        'line 1: missing required column prediction; found "sample_id", "embodiment", "trace"'
    )
    expect(page.get_by_role("button", name="2 · Submit")).to_be_disabled()
    shot(page, "bad-file")


def test_html_and_script_in_metadata_render_as_inert_text(new_page, app: RunningApp, files):
    from leaderboard import Leaderboard, Settings

    env = {"LEADERBOARD_HOME": str(app.home), "ANSWER_KEY_DATASET": str(app.private), "PUBLIC_DATASET": str(app.public)}
    service = Leaderboard(Settings.from_env({**env, "MAINTAINERS": MAINTAINER}))
    meta = {
        "model": '<img src=x onerror="window.__xss=1">Evil',
        "organization": "<script>window.__xss=2</script>",
        "model_link": 'https://example.org/"onmouseover="window.__xss=3"',
        "description": "<b onclick=window.__xss=4>bold?</b>",
    }
    receipt = service.submit(
        files["test-noisy"], split="test", user="trudy", metadata=meta, publish=True, declarations=DECLARED
    )
    scored(service, receipt.submission_id)
    service.approve(receipt.submission_id, by=MAINTAINER)
    # Approved by another process: the app reads the table again within a second (its own thread), not on a request.
    wait_until(lambda: receipt.submission_id in served(app, "test"), app, "the app to serve the approved entry")

    page = new_page()
    sign_in(page, app.url, MAINTAINER)
    show_columns(page, "Details")
    expect(page.get_by_role("columnheader", name="Scorer / data")).to_be_visible()
    row = page.locator("#leaderboard-table tr", has_text="Evil")
    expect(row).to_contain_text('<img src=x onerror="window.__xss=1">Evil')  # shown as text
    expect(row).to_contain_text("<script>window.__xss=2</script>")
    expect(row.locator("img, script, b")).to_have_count(0)
    row.hover()
    open_desk(page)
    page.get_by_role("button", name="All submissions").click()
    expect(page.locator("#all-submissions")).to_contain_text("<script>window.__xss=2</script>")
    assert page.evaluate("window.__xss") is None
    shot(page, "inert-metadata")


def test_the_desk_shows_a_private_submission_as_private_not_pending(new_page, app: RunningApp, files):
    """A validation submission (always private) has nothing to approve."""
    researcher = new_page()
    sign_in(researcher, app.url, "vera")
    submission_id = submit_file(researcher, files["validation-noisy"], "Vera-Private")
    wait_finished(researcher, submission_id)

    maintainer = new_page()
    sign_in(maintainer, app.url, MAINTAINER)
    open_desk(maintainer)
    expect(maintainer.locator("#pending-table")).not_to_contain_text(submission_id)
    maintainer.get_by_text("All submissions", exact=True).click()
    row = maintainer.locator("#all-table tr", has_text=submission_id)
    expect(row).to_contain_text("private, nothing to decide")
    expect(row).not_to_contain_text("pending")
    row.scroll_into_view_if_needed()
    box = row.bounding_box()
    assert box is not None and 0 <= box["y"] < maintainer.viewport_size["height"]  # where the maintainer looks
    shot(maintainer, "desk-private")
