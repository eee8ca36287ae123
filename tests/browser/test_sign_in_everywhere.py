"""One sign-in for the whole site: the plain pages, ``/submit/`` and ``/maintainers/`` share a session.

The local development sign-in, as a person uses it: signing in from the board's header makes every page
know the user (the Gradio pages too), signing out from a Gradio page signs out everywhere, and each
page's sign-in form brings the browser back to that page. The Space's Hugging Face sign-in is checked the
same way in test_space_oauth.py.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import MAINTAINER, RunningApp, shot
from tests.browser.helpers import LONG_MS, sign_in

pytestmark = pytest.mark.browser
PAGES = ("/", "/about", "/submit/", "/submit/?tab=mine", "/maintainers/")


def knows(page: Page, user: str, maintainer: bool = False) -> None:
    who = f"Signed in as {user}" + (" · maintainer" if maintainer else "")
    expect(page.locator("#identity")).to_contain_text(who, timeout=LONG_MS)


def test_one_sign_in_serves_every_page_and_one_sign_out_ends_it(new_page, app: RunningApp):
    page = new_page()
    sign_in(page, app.url, MAINTAINER)  # on the board, a plain page
    for path in PAGES:
        page.goto(app.url + path)
        knows(page, MAINTAINER, maintainer=True)
    expect(page.locator("#tab-maintainers")).to_be_visible(timeout=LONG_MS)  # the desk knows its maintainer
    page.goto(app.url + "/submit/?tab=explorer")
    knows(page, MAINTAINER, maintainer=True)
    page.locator("#identity").get_by_role("button", name="Sign out").click()  # from a Gradio page
    page.wait_for_url(app.url + "/submit/?tab=explorer")  # back where it was
    expect(page.locator("#identity").get_by_role("button", name="Sign in locally")).to_be_visible(timeout=LONG_MS)
    for path in PAGES:
        page.goto(app.url + path)
        expect(page.locator("#identity").get_by_role("button", name="Sign in locally")).to_be_visible(timeout=LONG_MS)
        expect(page.locator("#identity")).not_to_contain_text("Signed in as")
    expect(page.locator("#tab-maintainers")).to_be_hidden()
    expect(page.locator("#nt-nav").get_by_role("link", name="Maintainers' desk")).to_have_count(0)


@pytest.mark.parametrize("start", ["/about", "/submit/?tab=mine", "/maintainers/"])
def test_each_pages_sign_in_comes_back_to_it(new_page, app: RunningApp, start: str):
    page = new_page()
    page.goto(app.url + start)
    # A Gradio page draws its header for the caller on load: wait until the form names this page to return to.
    expect(page.locator("#identity input[name=next]")).to_have_value(start, timeout=30_000)
    page.get_by_label("User name (local sign-in)").fill("wanda")
    page.get_by_role("button", name="Sign in locally").click()
    page.wait_for_url(app.url + start)
    knows(page, "wanda")
    if start.startswith("/submit/"):
        expect(page.get_by_role("tab", name="My submissions", exact=True)).to_have_attribute("aria-selected", "true")
    shot(page, f"signed-in-back-at-{start}")
