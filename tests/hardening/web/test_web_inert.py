"""HTML and script in every metadata field render as inert text in a real browser, wherever they are shown.

The payloads go in through the app's own endpoints as the people concerned (a submitter's
metadata, a maintainer's reject reason and reported row), or through the Submit form itself
(fields the service refuses, whose refusal message quotes them back). Then the pages that show
them are opened in Chromium: the leaderboard (all column groups, a metadata breakdown, the
charts hovered), an entry, a comparison, the embed and the JSON API, My submissions, the Explorer,
the maintainers' desk (tables, picked entry, edit form, audit log), and the sign-in refusal page;
and every plain page with a payload in its own address (which its header writes into the sign-in's
way back). Nothing may run (``window.__pwned`` stays unset), no element may be injected, and the
text must show literally.
``tests/browser/test_pages.py`` has the first, smaller version of this check.
"""

from __future__ import annotations

import re
from urllib.parse import quote

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import MAINTAINER, RunningApp, shot
from tests.browser.helpers import LONG_MS, choose, open_desk, open_tab, sign_in, upload
from tests.hardening.web import web_api
from tests.hardening.web.web_seed import Files, receipt_id, service_of, submit, wait_scored

pytestmark = pytest.mark.browser

# One number per payload, so a failure says which one ran.
MODEL = "<img src=x onerror=window.__pwned=1>Trudy"
ORGANISATION = "<script>window.__pwned=2</script>"
MODEL_LINK = 'https://example.org/"><svg/onload=window.__pwned=3>'
PAPER_LINK = "https://example.org/'onmouseover='window.__pwned=4'"
EMAIL = "<img/src=x/onerror=window.__pwned=5>@example.org"
DESCRIPTION = '"><svg onload=window.__pwned=6> <a href="javascript:window.__pwned=7">click</a>'
REASON = "<img src=x onerror=window.__pwned=8> spam"
REPORTED = "<svg onload=window.__pwned=9>Reported"
REPORTED_ORG = "<iframe srcdoc='<script>parent.__pwned=10</script>'>"
SOURCE = 'https://example.org/"><img/src=x/onerror=window.__pwned=11>'
VALIDATION_MODEL = "<details open ontoggle=window.__pwned=12>Val"
PARAMETERS = "<img src=x onerror=__pwned=13>"  # refused (not a number, within the 32-character cap); quoted
JS_LINK = "javascript:window.__pwned=14"  # refused (not http); the message quotes it
SIGN_IN = "<img src=x onerror=window.__pwned=15>"  # refused as a user name; the page quotes it
ADDRESS = "\"'><img src=x onerror=window.__pwned=16><script>window.__pwned=17</script>"  # in a page's own address
# The HTML components that show people's values, and what a payload would add to them (Gradio's own
# loading spinner is an svg with a Svelte class).
SHOWN_IN = (
    "#leaderboard",
    "#my-submissions",
    "#my-detail",
    "#submit-receipt",
    "#validation-report",
    "#explorer-breakdown",
    "#explorer-task",
    "#maint-status",
    "#pending",
    "#maint-detail",
    "#all-submissions",
    "#user-activity",
    "#audit",
)
INJECTED = (
    "img",
    "svg:not([class*='svelte-'])",
    "script",
    "iframe",
    "details",
    "a[href^='javascript']",
    "[onerror]",
    "[onload]",
    "[onmouseover]",
)


@pytest.fixture(scope="module")
def planted(web_app: RunningApp, web_files: Files) -> dict[str, str]:
    """trudy's published test submission (approved), a second one rejected, a validation one; a reported row."""
    url, service = web_app.url, service_of(web_app)
    trudy, boss = web_api.sign_in(url, "trudy"), web_api.sign_in(url, MAINTAINER)
    meta = {
        "model": MODEL,
        "organization": ORGANISATION,
        "model_link": MODEL_LINK,
        "paper_link": PAPER_LINK,
        "contact_email": EMAIL,
        "description": DESCRIPTION,
        "publish": True,
    }
    approved = receipt_id(submit(web_app, trudy, web_files.make("test", seed=300), "test", **meta))
    rejected = receipt_id(submit(web_app, trudy, web_files.make("test", seed=301), "test", **meta))
    validation = receipt_id(
        submit(web_app, trudy, web_files.make("validation", seed=300), "validation", model=VALIDATION_MODEL)
    )
    for sid in (approved, rejected, validation):
        wait_scored(service, sid)
    assert web_api.call(web_api.desk(url), "approve", [approved, ""], boss).ok
    assert web_api.call(web_api.desk(url), "reject", [rejected, REASON], boss).ok
    reported = [approved, REPORTED, REPORTED_ORG, "test", 42.0, None, None, SOURCE, ""]
    assert web_api.call(web_api.desk(url), "add_reported", reported, boss).ok
    return {"approved": approved, "rejected": rejected, "validation": validation, "reported": reported_id(url, boss)}


OWN_TAGS = (
    "found => found.map(e => (e.tagName === 'SCRIPT' ? e.outerHTML : e.cloneNode(false).outerHTML).slice(0, 300))"
)


def reported_id(url: str, cookie: str) -> str:
    """The id of the reported row planted above, as the public JSON API lists it."""
    rows = httpx.get(f"{url}/api/board", headers=web_api.headers(cookie), timeout=30).json()["rows"]
    return next(str(r["submission_id"]) for r in rows if REPORTED in str(r.get("model")))


def inert(page: Page, where: str) -> None:
    """Nothing ran and nothing was injected into the page's HTML components."""
    assert page.evaluate("window.__pwned") is None, f"a payload ran on {where}: {page.evaluate('window.__pwned')}"
    injected = page.locator(", ".join(f"{box} {tag}" for box in SHOWN_IN for tag in INJECTED))
    found = injected.evaluate_all("found => found.map(e => e.outerHTML.slice(0, 200))")
    assert not found, f"{where}: {found}"


def hover_charts(page: Page) -> list[str]:
    """The charts' legend entries and bar tooltips (``title``) as the reader gets them (they name the model)."""
    charts = page.locator("#board-charts")
    legend = charts.locator(".nt-legend li").all_inner_texts()
    return legend + charts.locator("[title]").evaluate_all("found => found.map(e => e.getAttribute('title'))")


def test_the_leaderboard_shows_every_payload_as_text(new_web_page, web_app: RunningApp, planted):
    page = new_web_page()
    page.goto(web_app.url)
    table = page.locator("#leaderboard-table")
    expect(table).to_contain_text(MODEL, timeout=LONG_MS)
    page.locator("#board-filters summary").click()
    page.get_by_role("checkbox", name="Per task category").check()
    page.get_by_role("checkbox", name="Details (rows, description, versions, id)").check()
    page.get_by_label("Metadata breakdown").select_option(label="Weather")
    page.get_by_role("button", name="Apply").click()
    expect(page).to_have_url(re.compile(r"by="))
    row = table.locator("tr", has_text="Trudy")
    for text in (MODEL, ORGANISATION, DESCRIPTION[:60]):
        expect(row).to_contain_text(text)
    reported = table.locator("tr.nt-row-reported", has_text="__pwned=9")
    expect(reported).to_contain_text(REPORTED)
    expect(reported).to_contain_text(REPORTED_ORG)
    hrefs = table.locator("a").evaluate_all("links => links.map(a => a.getAttribute('href'))")
    safe = ("https://", "/entry/", "/?")  # links out, to the entry's own page, and the sort links
    assert all(h.startswith(safe) and '"' not in h and "<" not in h for h in hrefs), hrefs
    tooltips = hover_charts(page)
    assert any(MODEL in t for t in tooltips), tooltips  # a tooltip showed the model name, as text
    inert(page, "the leaderboard")
    shot(page, "inert-leaderboard")


def test_the_plain_pages_show_every_payload_as_text(new_web_page, web_app: RunningApp, planted):
    """The entry's page, a comparison, the embed and the JSON API, opened in the browser: the payloads are text."""
    page = new_web_page()
    approved, reported = planted["approved"], planted["reported"]
    for path, shown in (
        (f"/entry/{approved}", (MODEL, ORGANISATION, DESCRIPTION[:60])),
        (f"/entry/{reported}", (REPORTED, REPORTED_ORG)),
        (f"/compare?compare={approved},{reported}", (MODEL, REPORTED)),
        ("/embed", (MODEL, REPORTED)),
        (f"/?q={quote(MODEL)}", (MODEL,)),
    ):
        page.goto(web_app.url + path)
        main = page.locator("main, body").first
        for text in shown:
            expect(main).to_contain_text(text, timeout=LONG_MS)
        assert page.evaluate("window.__pwned") is None, f"a payload ran on {path}"
        injected = page.locator(", ".join(f"main {tag}, #board-embed {tag}" for tag in INJECTED))
        # The pages have svg charts and a <details> panel of their own: an element is a payload's when its own tag
        # (or a script's text) carries one.
        found = injected.evaluate_all(OWN_TAGS)
        found = [f for f in found if "pwned" in f]
        assert not found, f"{path}: {found}"
        hrefs = page.locator("main a, #board-embed a").evaluate_all("links => links.map(a => a.getAttribute('href'))")
        assert not [h for h in hrefs if h and (h.lower().startswith("javascript") or "<" in h)], (path, hrefs)
    for path in (f"/api/entry/{approved}", "/api/board"):
        answer = page.goto(web_app.url + path)
        assert answer is not None and answer.headers["content-type"].startswith("application/json"), path
        assert answer.headers.get("x-content-type-options") == "nosniff", path
        assert page.evaluate("window.__pwned") is None and page.locator("img, svg, script").count() == 0, path
    shot(page, "inert-plain-pages")


def test_a_payload_in_the_address_stays_text_on_every_plain_page(new_web_page, web_app: RunningApp):
    """Every plain page writes its own address into the header (where a sign-in comes back to), and the board
    quotes its search and filters back: a payload there stays text, on the way in and back from a sign-in."""
    page = new_web_page()
    value = quote(ADDRESS, safe="")
    for path in (
        f"/?q={value}",
        f"/?split=validation&org={value}&sort={value}&dir={value}&cols={value}&by={value}",
        f"/embed?q={value}",
        f"/about?next={value}",
        f"/compare?compare={value}",
        f"/compare?compare=x&compare={value}",
        f"/entry/{value}",
        f"/?entry={value}",
    ):
        answer = page.goto(web_app.url + path)
        assert answer is not None and answer.status < 500, (path, answer and answer.status)
        assert page.evaluate("window.__pwned") is None, f"a payload ran on {path}"
        found = [f for f in page.locator("img, script, iframe, svg, [onerror]").evaluate_all(OWN_TAGS) if "pwned" in f]
        assert not found, f"{path}: {found}"
        back = page.locator("#identity input[name=next]").evaluate_all("found => found.map(e => e.value)")
        assert all(v.startswith("/") and not v.startswith("//") for v in back), (path, back)
    page.goto(f"{web_app.url}/about?next={value}")
    page.get_by_label("User name (local sign-in)").fill("quincy")
    page.get_by_role("button", name="Sign in locally").click()
    expect(page.locator("#identity")).to_contain_text("Signed in as quincy")
    assert page.url == f"{web_app.url}/about?next={value}", page.url  # back where it was, the address intact
    assert page.evaluate("window.__pwned") is None and page.locator("img").count() == 0
    shot(page, "inert-address")


def test_my_submissions_and_the_explorer_show_payloads_as_text(new_web_page, web_app: RunningApp, planted):
    page = new_web_page()
    sign_in(page, web_app.url, "trudy")
    open_tab(page, "My submissions")
    mine = page.locator("#my-submissions-table")
    expect(mine.locator("tr", has_text=planted["rejected"])).to_contain_text(f"rejected: {REASON}", timeout=LONG_MS)
    expect(mine).to_contain_text(MODEL)
    expect(page.locator("#my-detail")).to_contain_text(VALIDATION_MODEL)  # the newest is picked first
    inert(page, "my submissions")
    open_tab(page, "Explorer")
    choose(page, "Your validation submission (optional)", re.compile(planted["validation"]))
    expect(page.get_by_label("Your validation submission (optional)")).to_have_value(re.compile(re.escape("Val")))
    inert(page, "the explorer")
    shot(page, "inert-explorer")


def test_refusals_quoting_the_input_show_it_as_text(new_web_page, web_app: RunningApp, web_files: Files):
    page = new_web_page()
    sign_in(page, web_app.url, "tricky")
    open_tab(page, "Submit")
    upload(page, "submit-file", web_files.make("validation", seed=301))
    expect(page.locator("#validation-report")).to_contain_text("You can submit this file", timeout=LONG_MS)
    page.get_by_label("Model name (required)").fill("Tricky")
    receipt = page.locator("#submit-receipt")
    for label, value in (("Parameter count", PARAMETERS), ("Model link", JS_LINK)):
        page.get_by_label(label).fill(value)
        page.get_by_role("button", name="2 · Submit").click()
        expect(receipt).to_contain_text(f"Not submitted: {label.split()[0]}", ignore_case=True, timeout=LONG_MS)
        expect(receipt).to_contain_text(value)
        page.get_by_label(label).fill("")
        inert(page, f"the refusal of {label}")
    shot(page, "inert-refusal")
    refused = new_web_page()
    refused.goto(web_app.url)
    refused.get_by_label("User name (local sign-in)").fill(SIGN_IN)
    refused.get_by_role("button", name="Sign in locally").click()
    expect(refused.locator("body")).to_contain_text(f"Cannot sign in: user {SIGN_IN!r}")
    assert refused.evaluate("window.__pwned") is None and refused.locator("img").count() == 0


def test_the_maintainers_desk_shows_payloads_as_text(new_web_page, web_app: RunningApp, planted):
    page = new_web_page()
    sign_in(page, web_app.url, MAINTAINER)
    open_desk(page)
    everything = page.locator("#all-submissions")
    page.get_by_role("button", name="All submissions").click()
    row = everything.locator("tr", has_text=planted["approved"])
    for text in (MODEL, ORGANISATION, EMAIL, DESCRIPTION[:60]):
        expect(row).to_contain_text(text, timeout=LONG_MS)
    expect(everything.locator("tr", has_text=planted["rejected"])).to_contain_text(REASON)
    choose(page, "Submission to act on", re.compile(planted["approved"]))
    expect(page.locator("#maint-detail")).to_contain_text(EMAIL)
    page.get_by_text("Edit the metadata of this submission").click()
    expect(page.get_by_label("Model name").first).to_have_value(MODEL)
    page.get_by_text("Submissions per user").click()
    expect(page.locator("#activity-table tr", has_text="trudy")).to_be_visible()
    expect(page.locator("#audit-log")).to_contain_text(REASON)
    expect(page.locator("#audit-log")).to_contain_text(REPORTED)
    page.get_by_text("Reported rows (figures published elsewhere").click()
    page.get_by_label("Reported row to remove").click()
    expect(page.get_by_role("option", name=re.compile("Reported"))).to_contain_text(REPORTED)
    page.keyboard.press("Escape")
    inert(page, "the maintainers' desk")
    shot(page, "inert-maintainers")
