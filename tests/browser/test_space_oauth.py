"""The Space as deployed: Gradio's own Hugging Face OAuth (on a local OpenID provider), behind TLS.

Sign in, submit, see My submissions, sign out; one sign-in serves every page (the plain ones, ``/submit/``
and ``/maintainers/``), comes back to the page it started from, and one sign-out ends it everywhere; a
maintainer signs in and approves; a non-maintainer's session cannot reach a maintainer action; an expired
session asks to sign in again without losing the form; a page on another site cannot act with a
maintainer's cookie.
Fixtures and how the provider and the proxy work: tests/browser/space_mode.py.
"""

from __future__ import annotations

import json
import re
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest
from playwright.sync_api import Page, expect

from scoring import load_answer_key
from scoring.examples import write_example
from tests.browser.conftest import MAINTAINER, shot, stop_app
from tests.browser.helpers import LONG_MS, choose, open_desk, open_tab, submit_file, upload, wait_finished
from tests.browser.space_mode import Elsewhere, SpaceApp, start_oidc, start_space_app

pytestmark = pytest.mark.browser
EVIL = "https://evil.example"
DESK = "/maintainers"  # the maintainers' desk: a page (and API) of its own
WORKSPACE = "/submit"  # Submit, My submissions and the Explorer: the signed-in Gradio page
SIGN_IN = "Sign in with Hugging Face"  # the shared header's link (space/site/shell.py)


@pytest.fixture(scope="module")
def oidc(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    url, process, _ = start_oidc(tmp_path_factory.mktemp("oidc"))
    yield url
    process.terminate()
    process.wait(10)


@pytest.fixture(scope="module")
def space(tmp_path_factory: pytest.TempPathFactory, browser_datasets: tuple[Path, Path], oidc: str):
    running, proxy = start_space_app(tmp_path_factory.mktemp("space-app"), *browser_datasets, oidc)
    yield running
    proxy.stop()
    stop_app(running.app)
    assert running.app.process.returncode in (0, -signal.SIGTERM), running.app.log_text()


@pytest.fixture(scope="module")
def files(space: SpaceApp, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("space-files")
    made = {}
    for name, dataset, split in (("validation", space.app.public, "validation"), ("test", space.app.public, "test")):
        made[name] = folder / f"{name}.tsv"
        write_example(load_answer_key(dataset, split, folder / "cache"), "straight", made[name])
    return made


@pytest.fixture
def browser_page(chromium, space: SpaceApp, request: pytest.FixtureRequest):
    """``browser_page()`` -> a page in a fresh context that trusts the proxy's self-signed certificate."""
    contexts = []

    def make() -> Page:
        context = chromium.new_context(viewport={"width": 1400, "height": 1000}, ignore_https_errors=True)
        context.set_default_timeout(30_000)
        contexts.append(context)
        return context.new_page()

    yield make
    report = getattr(request.node, "rep_call", None)
    if report is not None and report.failed:
        for i, context in enumerate(contexts):
            for j, page in enumerate(context.pages):
                shot(page, f"FAILED-{request.node.name}-{i}-{j}")
        print(f"--- app log ---\n{space.app.log_text()[-6000:]}")
    for context in contexts:
        context.close()


def hf_sign_in(page: Page, space: SpaceApp, user: str, seconds: int = 3600, start: str = "/") -> None:
    """Open ``start``, click the header's "Sign in with Hugging Face", sign in at the provider, land back on
    ``start`` signed in."""
    page.goto(space.url + start)
    link = page.locator("#identity").get_by_role("link", name=SIGN_IN)
    # The link names this very page (a Gradio page's header says so once the page has loaded for its caller).
    expect(link).to_have_attribute("href", f"/login/huggingface?_target_url={quote(start, safe='')}", timeout=LONG_MS)
    link.click()
    page.get_by_label("User name").fill(user)
    page.get_by_label("Session seconds").fill(str(seconds))
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(space.url + start)
    expect(page.locator("#identity")).to_contain_text(f"Signed in as {user}", timeout=LONG_MS)


def signed_out(page: Page) -> None:
    """The header offers the sign-in and names nobody."""
    expect(page.locator("#identity").get_by_role("link", name=SIGN_IN)).to_be_visible(timeout=LONG_MS)
    expect(page.locator("#identity")).not_to_contain_text("Signed in as")


def session_cookie(page: Page) -> str:
    return next(c["value"] for c in page.context.cookies() if c["name"] == "session")


def said(answer: httpx.Response | str) -> str:
    """What a call got back in words: its stream, or a refusal's status and body (the desk's events are refused
    at the door, before they queue, for anyone but a maintainer)."""
    return answer if isinstance(answer, str) else f"HTTP {answer.status_code}: {answer.text}"


def call(
    space: SpaceApp, api_name: str, data: list, cookie: str | None, origin: str | None, page: str = ""
) -> httpx.Response | str:
    """An event call through the TLS proxy as a page at ``origin`` would make it: the refusal, or the stream.
    ``page``: ``DESK`` for the maintainers' desk, a page (and API) of its own."""
    headers = {"Cookie": f"session={cookie}"} if cookie else {}
    headers |= {"Origin": origin} if origin else {}
    with httpx.Client(base_url=space.url + page, headers=headers, verify=False, timeout=60) as client:
        posted = client.post(f"/gradio_api/call/{api_name}", json={"data": data})
        if posted.status_code != 200:
            return posted
        return client.get(f"/gradio_api/call/{api_name}/{posted.json()['event_id']}").text


def test_sign_in_submit_see_it_and_sign_out(browser_page, space: SpaceApp, files):
    page = browser_page()
    hf_sign_in(page, space, "alice")
    cookie = page.context.cookies()
    assert any(c["name"] == "session" and c["secure"] and c["sameSite"] == "None" for c in cookie), cookie
    submission_id = submit_file(page, files["validation"], "Alice-Model")
    wait_finished(page, submission_id)
    shot(page, "space-my-submissions")
    copied = session_cookie(page)
    before = call(space, "show_quota", [], copied, space.url, WORKSPACE)
    assert isinstance(before, str) and "Test submissions left" in before, before
    page.locator("#identity").get_by_role("link", name="Sign out").click()
    signed_out(page)
    # The cookie as it was before signing out is signed, unexpired, and worth nothing now.
    after = call(space, "show_quota", [], copied, space.url, WORKSPACE)
    assert isinstance(after, str) and "Sign in at the top" in after and "Test submissions left" not in after, after


def test_one_sign_in_serves_every_page_and_one_sign_out_ends_it(browser_page, space: SpaceApp):
    """One sign-in for the whole site: the plain pages and both Gradio pages share one session; OAuth comes back
    where it started."""
    page = browser_page()
    hf_sign_in(page, space, MAINTAINER)  # on the board, a plain page
    for path in (WORKSPACE + "/", WORKSPACE + "/?tab=mine", DESK + "/", "/about"):
        page.goto(space.url + path)
        expect(page.locator("#identity")).to_contain_text(f"Signed in as {MAINTAINER} · maintainer", timeout=LONG_MS)
    page.goto(space.url + DESK + "/")
    expect(page.locator("#tab-maintainers")).to_be_visible(timeout=LONG_MS)  # the desk knows the maintainer
    boss = session_cookie(page)
    page.goto(space.url + WORKSPACE + "/?tab=mine")
    expect(page.get_by_role("tab", name="My submissions", exact=True)).to_have_attribute("aria-selected", "true")
    page.locator("#identity").get_by_role("link", name="Sign out").click()  # on a Gradio page
    for path in ("/", WORKSPACE + "/", DESK + "/"):
        page.goto(space.url + path)
        signed_out(page)
    expect(page.locator("#tab-maintainers")).to_be_hidden()
    # The desk's API forgets the session too: the maintainer's cookie as it was before signing out is worth nothing.
    copied = said(call(space, "maintainers_refresh", [""], boss, space.url, DESK))
    assert "You are not signed in, so you are not a maintainer" in copied, copied
    # Each page's sign-in comes back to that page, query included, the Gradio pages' too.
    for start in (WORKSPACE + "/?tab=explorer", DESK + "/", "/about", "/?split=validation"):
        other = browser_page()
        hf_sign_in(other, space, "dora", start=start)
        assert other.url == space.url + start, (start, other.url)
        if start.startswith(WORKSPACE):
            expect(other.get_by_role("tab", name="Explorer", exact=True)).to_have_attribute("aria-selected", "true")
        if start.startswith(DESK):
            expect(other.locator("#identity")).not_to_contain_text("maintainer")
    shot(other, "space-signed-in-back-where-it-started")
    # Signing out on a plain page signs out of the Gradio pages too.
    other.locator("#identity").get_by_role("link", name="Sign out").click()
    for path in ("/about", WORKSPACE + "/?tab=mine", DESK + "/"):
        other.goto(space.url + path)
        signed_out(other)


def test_a_maintainer_approves_and_a_non_maintainer_cannot(browser_page, space: SpaceApp, files):
    researcher = browser_page()
    hf_sign_in(researcher, space, "mallory")
    submission_id = submit_file(researcher, files["test"], "Mallory-Model", test=True, publish=True)
    wait_finished(researcher, submission_id)
    expect(researcher.get_by_role("link", name="Maintainers' desk")).to_have_count(0)
    mallory = session_cookie(researcher)
    for api_name, args in (("approve", [submission_id, ""]), ("maintainers_refresh", [submission_id])):
        answer = said(call(space, api_name, args, mallory, space.url, DESK))
        assert "'mallory' is not a maintainer" in answer, (api_name, answer)
    assert not (space.app.home / "requests" / "reviews" / f"{submission_id}.json").exists()

    maintainer = browser_page()
    hf_sign_in(maintainer, space, MAINTAINER)
    open_desk(maintainer)
    expect(maintainer.locator("#pending-table")).to_contain_text(submission_id, timeout=LONG_MS)
    choose(maintainer, "Submission to act on", re.compile(submission_id))
    maintainer.get_by_role("button", name="Approve").click()
    expect(maintainer.locator("#maint-status")).to_contain_text(f"Approved {submission_id}")
    shot(maintainer, "space-maintainer-approved")
    review = json.loads((space.app.home / "requests" / "reviews" / f"{submission_id}.json").read_text())
    assert review["decision"] == "approved"


def test_an_expired_session_asks_to_sign_in_again_and_keeps_the_form(browser_page, space: SpaceApp, files):
    seconds = 20  # long enough to upload and check a small file; the test then waits it out
    page = browser_page()
    asked_at = time.time()  # the session ends between asked_at + seconds and signed_in_at + seconds
    hf_sign_in(page, space, "carol", seconds)
    signed_in_at = time.time()
    open_tab(page, "Submit")
    upload(page, "submit-file", files["validation"])
    expect(page.locator("#validation-report")).to_contain_text("You can submit this file", timeout=LONG_MS)
    page.get_by_label("Model name (required)").fill("Carol-Model")
    assert time.time() < asked_at + seconds, "the machine is too slow for this session's lifetime"
    time.sleep(max(0.0, signed_in_at + seconds + 1 - time.time()))  # the session has expired now
    page.get_by_role("button", name="2 · Submit").click()
    expect(page.get_by_text("Sign in with Hugging Face (button at the top) to submit.")).to_be_visible()
    expect(page.get_by_label("Model name (required)")).to_have_value("Carol-Model")  # nothing typed is lost
    shot(page, "space-expired-session")
    page.reload()
    signed_out(page)


def test_a_page_on_another_site_cannot_act_with_a_maintainers_cookie(browser_page, space: SpaceApp, files):
    """The cookie is SameSite=None on a Space, so only the Origin check stands in the way."""
    researcher = browser_page()
    hf_sign_in(researcher, space, "victor")
    submission_id = submit_file(researcher, files["test"], "Victor-Model", test=True, publish=True)
    wait_finished(researcher, submission_id)
    maintainer = browser_page()
    hf_sign_in(maintainer, space, MAINTAINER)
    boss = session_cookie(maintainer)

    # At the HTTP level: a foreign Origin gets 403 with the reason and no CORS answer; Hugging Face's own passes.
    for origin in (EVIL, "null", "http://" + space.host):
        refused = call(space, "reject", [submission_id, "spam"], boss, origin, DESK)
        assert isinstance(refused, httpx.Response) and refused.status_code == 403, (origin, refused)
        assert "access-control-allow-credentials" not in refused.headers and "Origin" in refused.text
    with httpx.Client(base_url=space.url, verify=False) as client:
        ask = {"Origin": EVIL, "Access-Control-Request-Method": "POST"}
        preflight = client.options(DESK + "/gradio_api/call/maintainers_refresh", headers=ask)
        assert preflight.status_code == 403 and "access-control-allow-origin" not in preflight.headers
    for origin in (space.url, "https://huggingface.co"):  # the Space's own page, and the Hub's page around it
        own = call(space, "maintainers_refresh", [submission_id], boss, origin, DESK)
        assert isinstance(own, str) and "victor-model@example.org" in own, (origin, own)

    # In Chromium: the maintainer's browser opens a page on another site that calls the Space with credentials.
    seen: list = []
    desk = space.url + DESK
    maintainer.on("response", lambda r: seen.append(r) if r.url.startswith(desk + "/gradio_api/") else None)
    elsewhere = Elsewhere("<p>Nothing to see here.</p>")
    maintainer.goto(elsewhere.url)
    outcome = maintainer.evaluate(
        """async ([space, id]) => {
            const results = {};
            try {  // JSON: the browser asks first (preflight), the door refuses it, nothing is sent
                const r = await fetch(space + "/gradio_api/call/maintainers_refresh", {method: "POST",
                    credentials: "include", headers: {"content-type": "application/json"},
                    body: JSON.stringify({data: [id]})});
                results.json = await r.text();
            } catch (e) { results.json = "blocked: " + e.name; }
            // A "simple" request needs no preflight: it reaches the server, which refuses it
            await fetch(space + "/gradio_api/call/reject", {method: "POST", credentials: "include",
                mode: "no-cors", headers: {"content-type": "text/plain"}, body: JSON.stringify({data: [id, "spam"]})});
            return results;
        }""",
        [desk, submission_id],
    )
    assert outcome["json"] == "blocked: TypeError", outcome
    simple = [r for r in seen if r.url.endswith("/gradio_api/call/reject")]
    assert simple and simple[0].status == 403, [(r.url, r.status) for r in seen]
    assert "access-control-allow-credentials" not in simple[0].headers
    # The body of an opaque answer is withheld from the page (and from DevTools: nosniff); the log says why.
    assert "refused POST /maintainers/gradio_api/call/reject" in space.app.log_text()
    assert "is another site" in space.app.log_text()
    elsewhere.close()
    assert not (space.app.home / "requests" / "reviews" / f"{submission_id}.json").exists(), "the entry was decided"
