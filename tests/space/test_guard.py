"""The guard's policy without a running app: which hosts and origins are the app's own, the settings."""

from __future__ import annotations

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from leaderboard.config import SettingsError
from space.web.guard import Door, Guard, Keeper, allowed_origins, local_hosts
from space.web.settings import SpaceSettings

SPACE = SpaceSettings(space_id="org/board", space_hosts=("org-board.hf.space", "board.example.org"))


def test_on_a_space_only_its_hosts_and_the_hub_may_call():
    assert allowed_origins(SPACE) == {
        "https://org-board.hf.space",
        "https://board.example.org",
        "https://huggingface.co",
    }
    assert Guard(SPACE, 1000).hosts is None  # the Hub's proxy routes by host: no Host check there


def test_locally_only_the_apps_own_address_and_the_named_hosts():
    space = SpaceSettings(server_name="0.0.0.0", server_port=7860, allowed_hosts=("localhost:8080",))
    assert local_hosts(space) == {"127.0.0.1:7860", "localhost:7860", "[::1]:7860", "localhost:8080"}
    assert "http://localhost:8080" in allowed_origins(space) and "http://127.0.0.1:7861" not in allowed_origins(space)


def test_settings_name_the_key_and_the_value_when_wrong():
    env = {"SPACE_ID": "org/board", "SPACE_HOST": "org-board.hf.space, board.example.org", "UPLOADS_PER_MINUTE": "2"}
    parsed = SpaceSettings.from_env(env)
    assert parsed.space_hosts == ("org-board.hf.space", "board.example.org") and parsed.uploads_per_minute == 2
    with pytest.raises(SettingsError, match=r"UPLOAD_MB_PER_HOUR='lots': expected a whole number of at least 1"):
        SpaceSettings.from_env({"UPLOAD_MB_PER_HOUR": "lots"})
    with pytest.raises(SettingsError, match=r"ALLOWED_HOSTS='http://x.org': expected a host name"):
        SpaceSettings.from_env({"ALLOWED_HOSTS": "http://x.org"})


def guarded(space: SpaceSettings) -> TestClient:
    """The door and the keeper around two stand-in routes (the site's own order: ``space.web.server.guarded``)."""
    guard = Guard(space, max_file_bytes=1000)
    app = FastAPI()
    app.add_middleware(Keeper, guard=guard)
    app.add_middleware(Door, guard=guard)

    @app.get("/logout")
    def logout() -> str:
        return "signed out"

    @app.post("/gradio_api/queue/join")
    def join() -> str:
        return "joined"

    return TestClient(app, base_url="https://org-board.hf.space")


def test_signing_out_from_another_site_is_refused():
    with guarded(SPACE) as client:
        assert client.get("/logout", headers={"sec-fetch-site": "cross-site"}).status_code == 403
        assert client.get("/logout", headers={"sec-fetch-site": "same-origin"}).text == '"signed out"'


def test_a_body_that_does_not_say_its_size_is_refused_before_it_is_read():
    def chunks():
        yield b'{"data": []}'

    with guarded(SPACE) as client:
        answer = client.post("/gradio_api/queue/join", content=chunks(), headers={"origin": "https://huggingface.co"})
    assert answer.status_code == 413 and "must say its size" in answer.text


def test_a_rate_limit_keeps_its_window_sum_as_calls_come_and_go():
    """The sum is kept, not recounted per call: a caller allowed thousands of calls a minute made every call
    walk all of them on the event loop."""
    from space.web.limits import RateLimit

    now = [0.0]
    calls = RateLimit(1000, 60, clock=lambda: now[0])
    for i in range(1000):
        now[0] = i * 0.05  # 1,000 calls over 50 s
        assert calls.take("viewer") is None
    assert calls.take("viewer") == 11  # the window is full: the oldest call leaves it at 60 s, in 10.05 s
    now[0] = 75.0  # the 301 calls of the first 15 s (0 to 15 inclusive) have left the window
    window = calls._spent["viewer"]
    assert calls.take("viewer", 300) is None
    assert window.total == sum(units for _, units in window.times) == 699 + 300


def test_no_caller_chooses_the_root_address_gradio_builds_the_page_from():
    """``X-Gradio-Server`` always goes; ``X-Forwarded-Host`` stays only if it is ours."""
    local = Guard(SpaceSettings(server_port=7860), 1024)
    raw = [(b"host", b"127.0.0.1:7860"), (b"X-Gradio-Server", b"https://evil.example"), (b"accept", b"*/*")]
    assert local.clean_headers(raw) == [(b"host", b"127.0.0.1:7860"), (b"accept", b"*/*")]
    assert local.clean_headers([(b"x-forwarded-host", b"evil.example")]) == []
    assert local.clean_headers([(b"x-forwarded-host", b"localhost:7860")]) == [(b"x-forwarded-host", b"localhost:7860")]
    space = Guard(SpaceSettings(space_id="o/s", space_hosts=("o-s.hf.space",)), 1024)
    # A proxy appends; Gradio reads the first value, which is the caller's: refused unless it is the Space's.
    assert space.clean_headers([(b"x-forwarded-host", b"evil.example, o-s.hf.space")]) == []
    assert space.clean_headers([(b"x-forwarded-host", b"O-S.hf.space")]) == [(b"x-forwarded-host", b"O-S.hf.space")]


def test_every_answer_limits_scripts_to_the_apps_own_origin():
    from space.web.security_headers import SecurityHeaders, policy_for

    inner = FastAPI()
    inner.get("/")(lambda: {"ok": True})
    cases = [(SpaceSettings(), "frame-ancestors 'self'")]
    cases.append((SpaceSettings(space_id="o/s"), "frame-ancestors 'self' https://huggingface.co"))
    for space, frames in cases:
        client = TestClient(SecurityHeaders(inner, policy_for(space)))
        answer = client.get("/")
        policy = answer.headers["content-security-policy"]
        assert "default-src 'self'" in policy and "script-src 'self' " in policy and frames in policy
        assert "http" not in policy.split("script-src")[1].split(";")[0]  # no other origin may serve scripts
        assert answer.headers["x-content-type-options"] == "nosniff"
