"""The local development sign-in: a signed session, for this machine only by default, never on a Space."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.testclient import TestClient

from space.web.auth import SIGN_IN_PATH, SIGN_OUT_PATH, back_to, sign_in_routes
from space.web.guard import Guard
from space.web.server import guarded
from space.web.settings import SpaceSettings

URL = "http://127.0.0.1:7860"  # the app's own address: the door refuses any other Host


def client(policy: str, host: str = "127.0.0.1") -> TestClient:
    """The sign-in routes behind the guard, as ``space.web.server.build_app`` serves them (enter it: ``with``)."""
    space = SpaceSettings(local_sign_in=policy)
    app = guarded(FastAPI(routes=sign_in_routes(space)), Guard(space, max_file_bytes=1000))

    @app.get("/whoami")
    def whoami(request: Request) -> dict:
        info = request.session.get("oauth_info") or {}
        return {"user": (info.get("userinfo") or {}).get("preferred_username")}

    return TestClient(app, base_url=URL, client=(host, 50000), follow_redirects=False, headers={"origin": URL})


def test_signing_in_and_out_on_this_machine():
    with client("loopback") as browser:
        _signing_in_and_out(browser)


def _signing_in_and_out(browser: TestClient) -> None:
    answer = browser.post(SIGN_IN_PATH, data={"user": "alice"})
    assert answer.status_code == 303 and answer.headers["location"] == "/"
    assert browser.get("/whoami").json() == {"user": "alice"}
    browser.post(SIGN_OUT_PATH)
    assert browser.get("/whoami").json() == {"user": None}


def test_another_machine_is_refused_unless_opened_up():
    with client("loopback", host="203.0.113.9") as other:
        refused = other.post(SIGN_IN_PATH, data={"user": "boss"})
    assert refused.status_code == 403 and "only for browsers on this machine" in refused.text
    assert "203.0.113.9" in refused.text and "LOCAL_SIGN_IN=anyone" in refused.text
    with client("anyone", host="203.0.113.9") as other, client("off") as off:
        assert other.post(SIGN_IN_PATH, data={"user": "boss"}).status_code == 303
        assert off.post(SIGN_IN_PATH, data={"user": "boss"}).status_code == 403


def test_a_bad_name_and_another_site_are_refused_with_the_reason():
    with client("loopback") as browser:
        bad = browser.post(SIGN_IN_PATH, data={"user": "no spaces allowed"})
        forged = browser.post(SIGN_IN_PATH, data={"user": "boss"}, headers={"origin": "https://evil.example"})
    assert bad.status_code == 400 and "expected a Hugging Face user name" in bad.text
    assert forged.status_code == 403 and "another site" in forged.text


def test_a_forged_session_cookie_is_worth_nothing():
    with client("loopback") as browser:
        browser.cookies.set(
            "session", "eyJvYXV0aF9pbmZvIjogeyJ1c2VyaW5mbyI6IHsicHJlZmVycmVkX3VzZXJuYW1lIjogImJvc3MifX19.x.y"
        )
        assert browser.get("/whoami").json() == {"user": None}


def test_a_cookie_copied_before_sign_out_is_worth_nothing_after():
    with client("loopback") as browser:
        browser.post(SIGN_IN_PATH, data={"user": "boss"})
        copied = browser.cookies["session"]
        assert browser.get("/whoami").json() == {"user": "boss"}
        browser.post(SIGN_OUT_PATH)
        browser.cookies.set("session", copied)  # the cookie as it was while signed in: still validly signed
        assert browser.get("/whoami").json() == {"user": None}


def test_there_is_no_local_sign_in_on_a_space():
    assert sign_in_routes(SpaceSettings(space_id="org/space")) == []


def test_signing_in_returns_to_the_page_it_was_asked_from_and_never_to_another_site():
    with client("loopback") as browser:
        back = browser.post(SIGN_IN_PATH, data={"user": "alice", "next": "/submit/?tab=mine"})
        assert back.status_code == 303 and back.headers["location"] == "/submit/?tab=mine"
        for elsewhere in ("https://evil.example/", "//evil.example/x", "/\\evil.example", "javascript:alert(1)"):
            answer = browser.post(SIGN_IN_PATH, data={"user": "alice", "next": elsewhere})
            assert answer.headers["location"] == "/", elsewhere
        assert browser.post(SIGN_OUT_PATH, data={"next": "/about"}).headers["location"] == "/about"
    assert back_to("/entry/abc?x=1") == "/entry/abc?x=1"
