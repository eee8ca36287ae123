"""The scripted submission's policy without a running app: who reaches the route, and the token cache.

The same over HTTP, with the real app and the local Hub: tests/hub/test_scripted_submission.py.
"""

from __future__ import annotations

import pytest
from starlette.datastructures import Headers

from space.web.guard import SCRIPT_SUBMIT, Guard
from space.web.settings import SpaceSettings
from space.web.tokens import HubUnavailable, TokenRefused, TooManyLookups, WhoAmI

LOCAL = SpaceSettings(server_port=7860)
MB = 2**20


def where(guard: Guard, **headers: str) -> str | None:
    return guard.refuse_from_where("POST", SCRIPT_SUBMIT, Headers(headers={"host": "127.0.0.1:7860", **headers}))


def test_only_a_request_without_origin_or_cookie_reaches_the_script_route():
    guard = Guard(LOCAL, 64 * MB)
    assert where(guard, authorization="Bearer hf_x") is None
    for origin in ("https://evil.example", "http://127.0.0.1:7860", "null"):
        assert "is for scripts with a Hugging Face token" in (where(guard, origin=origin) or ""), origin
    assert "Origin header is missing" in (where(guard, cookie="session=abc") or "")
    # The same Origin on any other route is the app's own page, as before:
    page = Headers({"origin": "http://127.0.0.1:7860", "host": "127.0.0.1:7860"})
    assert guard.refuse_from_where("POST", "/gradio_api/queue/join", page) is None


def test_the_script_route_says_its_size_before_anything_is_read():
    guard = Guard(LOCAL, 64 * MB)
    assert guard.refuse_body(SCRIPT_SUBMIT, None, "1.2.3.4", None)[:2] == (
        411,
        "A scripted submission must say its size (Content-Length).",
    )
    status, why, _ = guard.refuse_body(SCRIPT_SUBMIT, None, "1.2.3.4", 100 * MB)
    assert (status, why) == (413, "A submission of 100 MB is over the limit of one file of 64 MB.")
    assert guard.refuse_body(SCRIPT_SUBMIT, None, "1.2.3.4", 30 * MB)[0] == 0  # far above MAX_CALL_KB: a file


class FakeHub:
    def __init__(self) -> None:
        self.tokens = {"hf_alice_token": "alice"}
        self.asked: list[str] = []
        self.down = False

    def __call__(self, token: str) -> str:
        self.asked.append(token)
        if self.down:
            raise HubUnavailable("the Hugging Face Hub did not say who this token is (HTTP 503)")
        if token not in self.tokens:
            raise TokenRefused("the Hugging Face Hub does not know this token (invalid or revoked)")
        return self.tokens[token]


def test_a_revoked_token_works_only_until_its_answer_expires():
    now, hub = [0.0], FakeHub()
    who = WhoAmI(hub, ttl_s=60, lookups_per_minute=100, clock=lambda: now[0])
    assert who.user("hf_alice_token", "ip") == "alice"
    del hub.tokens["hf_alice_token"]  # revoked on the Hub
    now[0] = 59.0
    assert who.user("hf_alice_token", "ip") == "alice" and len(hub.asked) == 1
    now[0] = 60.0
    with pytest.raises(TokenRefused, match="invalid or revoked"):
        who.user("hf_alice_token", "ip")
    with pytest.raises(TokenRefused):  # the refusal is kept too: no second question
        who.user("hf_alice_token", "ip")
    assert len(hub.asked) == 2


def test_many_different_tokens_from_one_client_do_not_hammer_the_hub():
    hub = FakeHub()
    who = WhoAmI(hub, ttl_s=60, lookups_per_minute=3, clock=lambda: 0.0)
    for i in range(3):
        with pytest.raises(TokenRefused):
            who.user(f"hf_guess_{i:08d}", "1.2.3.4")
    with pytest.raises(TooManyLookups, match="3 a minute") as refused:
        who.user("hf_guess_99999999", "1.2.3.4")
    assert refused.value.retry_after == 60 and len(hub.asked) == 3
    assert who.user("hf_alice_token", "5.6.7.8") == "alice"  # another client is not held back


def test_the_hub_down_is_not_remembered_and_the_cache_is_bounded():
    hub = FakeHub()
    who = WhoAmI(hub, ttl_s=60, lookups_per_minute=100, max_cached=2, clock=lambda: 0.0)
    hub.down = True
    with pytest.raises(HubUnavailable):
        who.user("hf_alice_token", "ip")
    hub.down = False
    assert who.user("hf_alice_token", "ip") == "alice" and len(hub.asked) == 2
    for token in ("hf_other_token_1", "hf_other_token_2"):
        with pytest.raises(TokenRefused):
            who.user(token, "ip")
    assert len(who._known) == 2  # alice's answer, the oldest, was dropped
    assert who.user("hf_alice_token", "ip") == "alice" and len(hub.asked) == 5
