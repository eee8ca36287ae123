"""Cross-origin calls, in Chromium: "this machine only" cannot be reached from another page.

A page on another port of 127.0.0.1 is same-site with the app (ports do not count), so the
session cookie (SameSite=Lax) goes with its requests, and Gradio's own CORS answer allowed any
loopback Origin with credentials. A sandboxed frame sends ``Origin: null``; a DNS-rebound name
sends its own ``Host``. Each is refused by the door (space/web/guard.py) with 403 and the reason;
the victim's browser stays as it was, and nothing changes in the store.
"""

from __future__ import annotations

import html
import re
import time

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, MAINTAINER, RunningApp, shot
from tests.browser.helpers import sign_in
from tests.browser.space_mode import Elsewhere

pytestmark = pytest.mark.browser
SIGN_IN_FORM = (
    '<form id="f" method="post" action="{url}/local-auth/sign-in"><input name="user" value="mallory"></form>'
    "<script>document.getElementById('f').submit()</script>"
)


def not_signed_in(page: Page, app: RunningApp) -> None:
    page.goto(app.url)
    expect(page.get_by_role("button", name="Sign in locally")).to_be_visible()
    expect(page.locator("#identity")).not_to_contain_text("mallory")


def test_a_page_on_another_port_cannot_sign_the_browser_in(new_page, app: RunningApp):
    """Login CSRF: a form on 127.0.0.1:{other port} posts the attacker's name to the sign-in."""
    elsewhere = Elsewhere(SIGN_IN_FORM.format(url=app.url), host="127.0.0.1")
    page = new_page()
    with page.expect_response(f"{app.url}/local-auth/sign-in") as answer:
        page.goto(elsewhere.url)
    assert answer.value.status == 403
    assert f"Origin '{elsewhere.origin}' is another site" in answer.value.text()
    assert "set-cookie" not in answer.value.headers
    shot(page, "refused-cross-port-sign-in")
    not_signed_in(page, app)
    elsewhere.close()


def test_a_sandboxed_frame_cannot_sign_the_browser_in(new_page, app: RunningApp):
    """A sandboxed frame (no allow-same-origin) sends ``Origin: null``; the sign-in refuses it."""
    frame = SIGN_IN_FORM.format(url=app.url)
    elsewhere = Elsewhere(f'<iframe sandbox="allow-forms allow-scripts" srcdoc="{html.escape(frame)}"></iframe>')
    page = new_page()
    page.goto(elsewhere.url)
    # The door refuses the post (its log says so); the refusal itself is not shown inside another site's frame
    # (frame-ancestors: space/web/security_headers.py), so the log is where to read it.
    refused = "refused POST /local-auth/sign-in: Origin 'null' (a sandboxed frame, a local file or a redirect"
    expect(page.frame_locator("iframe").locator("body")).not_to_contain_text("Signed in")
    deadline = time.monotonic() + 30
    while refused not in app.log_text() and time.monotonic() < deadline:
        page.wait_for_timeout(100)  # polling the log for the line the door writes, not waiting a fixed time
    assert refused in app.log_text()
    shot(page, "refused-sandboxed-sign-in")
    not_signed_in(page, app)
    elsewhere.close()


# Each Gradio page: a call that needs a preflight (JSON), and one that needs none (text/plain), with its arguments.
CALLS = {
    "/maintainers": ("maintainers_refresh", '{"data": [""]}', "rescore", '{"data": ["", "rescore", true]}'),
    "/submit": ("refresh", '{"data": [null, null]}', "withdraw", '{"data": ["", ""]}'),
}


@pytest.mark.parametrize("mount", sorted(CALLS))
def test_a_page_on_another_port_cannot_call_the_app_with_a_maintainers_cookie(new_page, app: RunningApp, mount: str):
    """The maintainers' desk and the signed-in page (Submit, My submissions, Explorer) alike."""
    page = new_page()
    sign_in(page, app.url, MAINTAINER)
    before = sorted(p.name for p in (app.home / "requests").rglob("*.json"))
    elsewhere = Elsewhere("<p>Nothing to see here.</p>", host="127.0.0.1")
    seen: list = []
    target = app.url + mount
    json_call, json_body, simple_call, simple_body = CALLS[mount]
    page.on("response", lambda r: seen.append(r) if r.url.startswith(target + "/gradio_api/") else None)
    page.goto(elsewhere.url)
    outcome = page.evaluate(
        """async ([app, json_call, json_body, simple_call, simple_body]) => {
            let json;
            try {  // JSON needs a preflight: the door refuses it, the call is never sent
                const r = await fetch(app + "/gradio_api/call/" + json_call, {method: "POST",
                    credentials: "include", headers: {"content-type": "application/json"}, body: json_body});
                json = await r.text();
            } catch (e) { json = "blocked: " + e.name; }
            // text/plain needs none: it reaches the server with the cookie, and the door refuses it
            await fetch(app + "/gradio_api/call/" + simple_call, {method: "POST", credentials: "include",
                mode: "no-cors", headers: {"content-type": "text/plain"}, body: simple_body});
            return json;
        }""",
        [target, json_call, json_body, simple_call, simple_body],
    )
    assert outcome == "blocked: TypeError", outcome
    simple = [r for r in seen if r.url.endswith(f"/gradio_api/call/{simple_call}")]
    assert simple and simple[0].status == 403, [(r.url, r.status) for r in seen]
    assert "access-control-allow-credentials" not in simple[0].headers
    # The body of an opaque answer is withheld from the page (and from DevTools: nosniff); the log says why.
    refused = f"refused POST {mount}/gradio_api/call/{simple_call}: Origin '{elsewhere.origin}' is another site"
    assert refused in app.log_text()
    assert sorted(p.name for p in (app.home / "requests").rglob("*.json")) == before, "the store changed"
    elsewhere.close()


def test_a_dns_rebound_name_reaches_nothing(chromium, app: RunningApp):
    """``evil.example`` resolving to 127.0.0.1: its pages would be same-origin with the app but for the Host check."""
    port = app.url.rsplit(":", 1)[1]
    rebound = chromium.browser_type.launch(
        executable_path=str(CHROMIUM), args=[*CHROMIUM_ARGS, "--host-resolver-rules=MAP evil.example 127.0.0.1"]
    )
    try:
        page = rebound.new_page()
        answer = page.goto(f"http://evil.example:{port}/")
        assert answer is not None and answer.status == 403
        assert f"Host 'evil.example:{port}' is not this app's address" in answer.text()
        sign_in_answer = page.evaluate(
            """async () => {
                const form = new URLSearchParams({user: "boss"});
                const r = await fetch("/local-auth/sign-in", {method: "POST", body: form});
                return [r.status, await r.text()];
            }"""
        )
        assert sign_in_answer[0] == 403 and re.search(r"Host '.*' is not this app's address", sign_in_answer[1])
    finally:
        rebound.close()
