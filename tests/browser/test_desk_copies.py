"""The maintainers' desk marks a likely copy before anyone approves it, on a desktop and a phone.

One earlier test submission (private: a copy of it is still a copy) and another user's copy of it,
every point moved by 1 px, asking to be published. The real app's worker (or ours) scores both and
writes the mark; the maintainer sees it under the pending list and, once the copy is picked, right
above the Approve button, both inside the viewport. The copier's own page never mentions it.
"""

from __future__ import annotations

import inspect
import re

import pytest
from playwright.sync_api import FloatRect, Page, expect

from scoring import load_answer_key
from scoring.examples import write_example
from tests.browser.conftest import MAINTAINER, RunningApp, shot
from tests.browser.desk_helpers import jittered
from tests.browser.helpers import choose, open_desk, open_tab, scored, sign_in

pytestmark = pytest.mark.browser
SIZES = {"desktop": (1440, 900), "phone": (390, 844)}


@pytest.fixture(scope="module")
def copied(app: RunningApp, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """``(original, copy)`` ids, both scored: the copy marked as one by the worker."""
    from leaderboard import Leaderboard, Settings

    folder = tmp_path_factory.mktemp("copies")
    env = {"LEADERBOARD_HOME": str(app.home), "ANSWER_KEY_DATASET": str(app.private), "PUBLIC_DATASET": str(app.public)}
    service = Leaderboard(Settings.from_env({**env, "MAINTAINERS": MAINTAINER}))
    source = folder / "original.tsv"
    write_example(load_answer_key(app.private, "test", folder / "cache"), "noisy", source, seed=41)
    original = service.submit(
        source, split="test", user="olga", metadata={"model": "Olga-Nav", "contact_email": "olga@example.org"}
    ).submission_id
    scored(service, original)
    extra: dict[str, object] = {}
    if "declarations" in inspect.signature(service.submit).parameters:  # required of a public test entry
        extra["declarations"] = {"trained_on": "none", "test_images_beyond_inference": False, "best_of": 1}
    copy = service.submit(
        jittered(source, folder / "copy.tsv"),
        split="test",
        user="carl",
        metadata={"model": "Carl-Nav", "contact_email": "carl@example.org"},
        publish=True,
        **extra,  # type: ignore[arg-type]
    ).submission_id
    scored(service, copy)
    assert (service.status(copy).likely_copy or {}).get("of") == original  # the worker wrote the mark
    return original, copy


def _page(chromium, size: tuple[int, int]) -> Page:
    context = chromium.new_context(viewport={"width": size[0], "height": size[1]})
    context.set_default_timeout(30_000)
    return context.new_page()


def _inside(page: Page, box: FloatRect | None) -> bool:
    height = page.viewport_size["height"] if page.viewport_size else 0
    return box is not None and 0 <= box["y"] and box["y"] + box["height"] <= height


@pytest.mark.parametrize("device", sorted(SIZES))
def test_the_desk_shows_a_likely_copy_above_the_approve_button(chromium, app: RunningApp, copied, device):
    original, copy = copied
    line = f"Likely copy of Olga-Nav ({original}): 100% of rows within 1 px, 0% identical"
    page = _page(chromium, SIZES[device])
    try:
        sign_in(page, app.url, MAINTAINER)
        open_desk(page)
        listed = page.locator("#pending-copies")
        expect(listed).to_contain_text(copy)
        expect(listed).to_contain_text(line)  # on the pending list, before anything is picked
        choose(page, "Submission to act on", re.compile(copy))
        mark = page.locator("#maint-copy")
        expect(mark).to_contain_text(line)
        approve = page.get_by_role("button", name="Approve")
        approve.scroll_into_view_if_needed()
        mark_box, button_box = mark.bounding_box(), approve.bounding_box()
        assert _inside(page, mark_box) and _inside(page, button_box), (mark_box, button_box)
        assert mark_box and button_box and mark_box["y"] + mark_box["height"] <= button_box["y"] + 1  # above it
        shot(page, f"desk-likely-copy-{device}")
        choose(page, "Submission to act on", re.compile(original))  # the original copies nothing: no mark
        expect(page.locator("#maint-detail")).to_contain_text("Olga-Nav")
        expect(mark).to_be_hidden()
    finally:
        page.context.close()


def test_the_copier_never_sees_the_mark(chromium, app: RunningApp, copied):
    _, copy = copied
    page = _page(chromium, SIZES["desktop"])
    try:
        sign_in(page, app.url, "carl")
        open_tab(page, "My submissions")
        row = page.locator("#my-submissions-table tr", has_text=copy)
        expect(row).to_contain_text("FINISHED")
        expect(page.locator("body")).not_to_contain_text("Likely copy")
        expect(page.locator("body")).not_to_contain_text("Olga-Nav")
    finally:
        page.context.close()
