"""The entry page's link to the eval-results pull request on the model's Hub repo.

The store is seeded with two published test entries; one has a ``hub/{id}.json`` record, as the
scheduler's Hub job writes it once the pull request is opened (tests/hub/test_hub_eval_http.py opens
it over HTTP). A visitor finds the link right under the entry's facts, at a laptop's and a phone's size.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from leaderboard import Leaderboard, Settings
from leaderboard.publishing.hub_eval import HubRecord, hub_path
from scoring import load_answer_key
from scoring.examples import write_example
from tests.browser.conftest import MAINTAINER, page_maker, shot, start_app, stop_app
from tests.hub.hub_eval_setup import declared
from tests.service_fixtures import submit

pytestmark = pytest.mark.browser
SIZES = {"laptop": (1440, 900), "phone": (390, 844)}
PR_URL = "https://huggingface.co/acme/navigator/discussions/1"


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory, browser_datasets: tuple[Path, Path]) -> Iterator[tuple]:
    folder = tmp_path_factory.mktemp("hub-pr-app")
    private, public = browser_datasets
    env = {"LEADERBOARD_HOME": str(folder / "home"), "ANSWER_KEY_DATASET": str(private),
           "PUBLIC_DATASET": str(public), "MAINTAINERS": MAINTAINER}  # fmt: skip
    service = Leaderboard(Settings.from_env(env))
    key = load_answer_key(private, "test", folder / "cache")
    ids = {}
    for name, user in (("Shared", "alice"), ("Kept", "bob")):
        path = folder / f"{name}.tsv"
        write_example(key, "noisy", path, seed=len(ids) + 1)
        receipt = submit(service, path, user=user, model=name, publish=True, **declared(service, True))
        ids[name] = receipt.submission_id
    service.worker.drain()
    for submission_id in ids.values():
        service.approve(submission_id, by=MAINTAINER)
    record = HubRecord("acme/navigator", pr_url=PR_URL, opened_at="2026-11-25T17:00:00.000000Z")
    service.requests.commit({hub_path(ids["Shared"]): record.to_bytes()}, message="the Hub job's record")
    service.publish()
    app = start_app(folder, private, public)
    yield app, ids
    stop_app(app)


@pytest.mark.parametrize("size", SIZES)
def test_the_pull_request_link_is_under_the_entry_facts(chromium, seeded, request, size):
    app, ids = seeded
    makers = page_maker(chromium, app, request)
    page = next(makers)()
    width, height = SIZES[size]
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"{app.url}/?entry={ids['Shared']}")  # the old address leads to the entry's own page
    expect(page).to_have_url(f"{app.url}/entry/{ids['Shared']}")
    block = page.locator("#entry-hub-pr")
    expect(block).to_contain_text("On the Hub: the pull request adding this result to the model's repository")
    anchor = block.get_by_role("link", name="the pull request adding this result")
    expect(anchor).to_have_attribute("href", PR_URL)
    expect(anchor).to_have_attribute("target", "_blank")
    block.scroll_into_view_if_needed()
    box, facts = block.bounding_box(), page.locator("#entry-facts").bounding_box()
    assert box is not None and facts is not None and box["y"] >= facts["y"] + facts["height"] - 1  # right below
    assert 0 <= box["y"] and box["y"] + box["height"] <= height and box["x"] + box["width"] <= width + 1
    shot(page, f"entry-hub-pr-{size}")

    page.goto(f"{app.url}/entry/{ids['Kept']}")  # no pull request: no block
    expect(page.locator("#entry-title")).to_have_text("Kept")
    expect(page.locator("#entry-hub-pr")).to_have_count(0)
    next(makers, None)
