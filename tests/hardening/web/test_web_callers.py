"""Who is calling and what one caller may hold, tried over HTTP on a real app as an attacker would.

The app runs with small caps, one trusted proxy (``TRUSTED_PROXIES=1``: the test sends what the Hub's
proxy delivers, the caller's own ``X-Forwarded-For`` with the real address appended on the right) and a
stand-in Hub whose ``whoami`` refuses every token at once, or hangs for tokens that ask it to.
"""

from __future__ import annotations

import json
import secrets
import socket
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from tests.browser.conftest import RunningApp, start_app, stop_app
from tests.hardening.web import web_api
from tests.hardening.web.slow_hub import SlowHub
from tests.hardening.web.trickle import trickle
from tests.hardening.web.web_seed import Files, receipt_id, submit

REAL = "203.0.113.7"  # the caller's real address, which the proxy appends
CAPS = {
    "TRUSTED_PROXIES": "1",
    "TOKEN_LOOKUPS_PER_MINUTE": "5",
    "TOKEN_LOOKUPS_AT_ONCE": "2",
    "EVENTS_IN_FLIGHT": "3",
    "ANONYMOUS_EVENTS_IN_FLIGHT": "2",
    "SESSIONS_PER_USER": "3",
    "MAX_SESSIONS": "12",
    "BODY_DEADLINE_S": "2",
    "FRESH_VIEWS_PER_MINUTE": "5",
}


@pytest.fixture(scope="module")
def hub() -> Iterator[SlowHub]:
    stand_in = SlowHub()
    yield stand_in
    stand_in.close()


@pytest.fixture(scope="module")
def app(
    tmp_path_factory: pytest.TempPathFactory, browser_datasets: tuple[Path, Path], hub: SlowHub
) -> Iterator[RunningApp]:
    running = start_app(tmp_path_factory.mktemp("callers"), *browser_datasets, HF_ENDPOINT=hub.url, **CAPS)
    yield running
    stop_app(running)


def forwarded(forged: str, real: str = REAL) -> dict[str, str]:
    return {"X-Forwarded-For": f"{forged}, {real}"}


def script_submit(url: str, token: str, extra: dict[str, str]) -> httpx.Response:
    return httpx.post(
        f"{url}/script-api/submit",
        headers={"Authorization": f"Bearer {token}", **extra},
        files={"file": ("p.tsv", b"x")},
        data={"split": "validation"},
        timeout=60,
    )


def test_forged_forwarded_addresses_share_the_real_callers_token_lookups(app: RunningApp, hub: SlowHub):
    """Before: 100 unknown tokens, each behind a forged address, made the Space ask the Hub 100 times."""
    asked = hub.asked
    statuses = [script_submit(app.url, f"hf_unknown{i:04d}x", forwarded(f"10.9.8.{i}")).status_code for i in range(12)]
    assert statuses[:5] == [401] * 5 and set(statuses[5:]) == {429}, statuses
    assert hub.asked - asked == 5  # TOKEN_LOOKUPS_PER_MINUTE=5 for the one real address
    other = script_submit(app.url, "hf_unknownother", forwarded("10.9.8.1", real="198.51.100.9"))
    assert other.status_code == 401  # another real address has its own allowance


def join(url: str, fn_index: int, session_hash: str, cookie: str | None) -> httpx.Response:
    body = {"data": [], "fn_index": fn_index, "session_hash": session_hash, "trigger_id": None, "event_data": None}
    return httpx.post(
        f"{url}/submit/gradio_api/queue/join", json=body, headers=web_api.headers(cookie, url), timeout=30
    )


def quota_index(url: str) -> int:
    cfg = web_api.config(url)
    return next(d["id"] for d in cfg["dependencies"] if d.get("api_name") == "show_quota")


def read_stream(url: str, session_hash: str, cookie: str | None) -> httpx.Response:
    """The visit's event stream, read until its events are complete (Gradio closes it then)."""
    return httpx.get(
        f"{url}/submit/gradio_api/queue/data",
        params={"session_hash": session_hash},
        headers=web_api.headers(cookie, url),
        timeout=60,
    )


def test_a_visits_results_reach_only_the_session_that_opened_it(app: RunningApp):
    """Before: an anonymous client presenting a signed-in user's session hash read their stream."""
    url, index, visit = app.url, quota_index(app.url), secrets.token_hex(6)
    alice, bob = web_api.sign_in(url, "alice"), web_api.sign_in(url, "bob")
    assert join(url, index, visit, alice).status_code == 200
    for cookie in (None, bob):
        stolen = read_stream(url, visit, cookie)
        assert stolen.status_code == 403 and "belongs to another sign-in" in stolen.text
        assert join(url, index, visit, cookie).status_code == 403
        cancel = httpx.post(
            f"{url}/submit/gradio_api/cancel",
            json={"session_hash": visit, "fn_index": index, "event_id": "x"},
            headers=web_api.headers(cookie, url),
            timeout=30,
        )
        assert cancel.status_code == 403
    own = read_stream(url, visit, alice)
    assert own.status_code == 200 and "process_completed" in own.text


@pytest.mark.parametrize("who,cap", [("anonymous", 2), ("carol", 3)])
def test_one_caller_holds_a_bounded_number_of_events_until_it_reads_them(app: RunningApp, who: str, cap: int):
    """Before: 3,000 unread joins by one account stayed for the life of the process (+53 MB), and 150 anonymous
    drawings filled the queue. Each caller now holds at most its cap, all its visits together."""
    url, index = app.url, quota_index(app.url)
    cookie = None if who == "anonymous" else web_api.sign_in(url, who)
    visits = [secrets.token_hex(6) for _ in range(cap + 4)]
    answers = [join(url, index, visit, cookie) for visit in visits]
    accepted = [v for v, a in zip(visits, answers, strict=True) if a.status_code == 200]
    refused = [a for a in answers if a.status_code == 429]
    assert len(accepted) == cap and len(refused) == 4, [a.status_code for a in answers]
    assert f"at most {cap} at once" in refused[0].text
    for visit in accepted:  # read: the results are delivered, and the allowance comes back
        assert "process_completed" in read_stream(url, visit, cookie).text
    assert join(url, index, secrets.token_hex(6), cookie).status_code == 200


def test_the_scripted_rest_calls_count_too(app: RunningApp):
    """``/gradio_api/call/{name}`` without a visit: its unread results count like the page's."""
    url, cookie = app.url, web_api.sign_in(app.url, "dave")
    with httpx.Client(base_url=f"{url}/submit", headers=web_api.headers(cookie, url), timeout=30) as client:
        codes = [client.post("/gradio_api/call/show_quota", json={"data": []}).status_code for _ in range(6)]
    assert codes == [200, 200, 200, 429, 429, 429], codes


def test_one_account_signing_in_again_and_again_signs_out_only_itself(app: RunningApp):
    """Before: 70 sign-ins by one account (the book lowered) signed alice and the admin out."""
    url = app.url
    others = {name: web_api.sign_in(url, name) for name in ("erin", "boss")}
    mallory = [web_api.sign_in(url, "mallory") for _ in range(30)]  # MAX_SESSIONS=12, SESSIONS_PER_USER=3

    def signed_in(cookie: str) -> bool:  # the file input opens only for a session the server still knows
        return web_api.data_of(web_api.call(url, "show_quota", [], cookie))[1]["interactive"] is True

    assert all(signed_in(cookie) for cookie in others.values())
    assert signed_in(mallory[-1]) and not signed_in(mallory[0])


def test_a_body_that_trickles_is_cut_at_its_deadline(app: RunningApp):
    """Before: a body announced at 200 KB, sent a byte every 2 s, held its handler (and its slot) for ever."""
    port = int(app.url.rsplit(":", 1)[1])
    cookie = web_api.sign_in(app.url, "trickle")
    with socket.create_connection(("127.0.0.1", port), timeout=60) as sock:
        head = (
            f"POST /submit/gradio_api/queue/join HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            f"Origin: {app.url}\r\nCookie: session={cookie}\r\nContent-Type: application/json\r\n"
            "Content-Length: 60000\r\n\r\n{"
        )
        sock.sendall(head.encode())
        answer = b""
        for _ in range(60):  # a byte a second, far past BODY_DEADLINE_S=2 (+1 s per 64 KB)
            try:
                sock.sendall(b" ")
            except OSError:
                break
            sock.settimeout(1.0)
            try:
                answer += sock.recv(4096)
            except TimeoutError:
                continue
            if b"\r\n\r\n" in answer and answer.endswith(b"."):  # the whole answer: its one sentence ends
                break
    assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
    assert b"did not arrive" in answer


def test_a_hub_that_hangs_holds_a_few_callers_and_no_page(app: RunningApp, hub: SlowHub):
    """Before: 45 scripted submissions waiting on a 40 s whoami left the page's own script unanswered for 20 s.
    Now at most TOKEN_LOOKUPS_AT_ONCE wait on the Hub (up to its deadline), the rest are told at once."""
    url, asked, slots = app.url, hub.asked, int(CAPS["TOKEN_LOOKUPS_AT_ONCE"])
    with ThreadPoolExecutor(8) as pool:
        waiting = [
            pool.submit(script_submit, url, f"hf_slow{i:04d}xx", forwarded("x", real=f"198.18.0.{i}")) for i in range(8)
        ]
        deadline = time.monotonic() + 60
        while hub.asked - asked < slots:  # the page is asked once the lookups hang in the stand-in Hub, every slot held
            assert time.monotonic() < deadline, f"{hub.asked - asked} of {slots} lookups reached the Hub in 60 s"
            time.sleep(0.01)
        page = httpx.get(f"{url}/", timeout=10)
        static = httpx.get(f"{url}/api/board", timeout=10)
        answers = [f.result() for f in waiting]
    assert page.status_code == 200 and static.status_code == 200
    codes = sorted(a.status_code for a in answers)
    assert codes == [503] * 8, codes
    told_at_once = [a for a in answers if "slow to answer" in a.json()["error"]]
    timed_out = [a for a in answers if "did not answer within" in a.json()["error"]]
    assert len(timed_out) == 2 and len(told_at_once) == 6, [a.json()["error"] for a in answers]
    assert json.loads(answers[0].text)["error"].startswith("Not submitted")
    hub.release.set()  # the Hub answers again: the hung lookups end and free their slots for the tests after


def test_the_desks_actions_are_refused_at_the_door_and_its_page_still_opens(app: RunningApp):
    """Strangers' desk events never queue (they were refused only inside the handler, after waiting their turn);
    what the desk runs as it opens still answers, to tell the visitor to sign in as a maintainer."""
    url, mallory = app.url, web_api.sign_in(app.url, "mallory2")
    for cookie in (None, mallory):
        with httpx.Client(base_url=f"{url}/maintainers", headers=web_api.headers(cookie, url), timeout=30) as client:
            refused = client.post("/gradio_api/call/reject", json={"data": ["x", "spam"]})
            assert refused.status_code == 403 and "not a maintainer" in refused.text
        opened = web_api.call(web_api.desk(url), "open_", [None], cookie)
        assert opened.ok, opened.text[:300]
        assert web_api.data_of(opened)[1]["visible"] is True  # the note for visitors, not the desk


def test_searches_nobody_made_before_are_limited_per_caller_and_the_usual_views_are_not(app: RunningApp):
    """Before: any caller could make the server draw a new board for each random ``?q=`` (44-110 ms each at
    1,000 entries), as fast as it liked."""
    url, me = app.url, forwarded("x", real="192.0.2.50")
    with httpx.Client(base_url=url, headers=me, timeout=30) as client:
        codes = [client.get("/", params={"q": f"random-{i}"}).status_code for i in range(8)]
        refused = client.get("/embed", params={"q": "one more"})
        usual = [client.get("/").status_code, client.get("/", params={"q": "random-0"}).status_code]
    assert codes == [200] * 5 + [429] * 3, codes
    assert refused.status_code == 429 and "5 a minute" in refused.text and int(refused.headers["retry-after"]) <= 60
    assert usual == [200, 200]  # drawn before: served to anyone, nothing spent
    other = httpx.get(f"{url}/", params={"q": "mine"}, headers=forwarded("x", real="192.0.2.51"), timeout=30)
    assert other.status_code == 200  # another address has its own allowance


def test_proposing_a_result_on_the_hub_needs_the_submitters_own_hugging_face_sign_in(app: RunningApp, tmp_path: Path):
    """A result reaches a model repo only by the hand of someone who controls it; from My submissions that is the
    submitter, with their own token, which the local sign-in does not have."""
    url, cookie = app.url, web_api.sign_in(app.url, "frank")
    answer = submit(app, cookie, Files(app, tmp_path).make("validation", seed=7), "validation", model="Frank-Nav")
    picked = receipt_id(answer)
    anonymous = web_api.call(url, "share_on_hub", [None, ""], None)
    assert not anonymous.ok and "Sign in" in anonymous.text
    session = secrets.token_hex(6)  # one visit, as the page's: the picker's choices are this visit's
    web_api.call(url, "my_submission", [None, ""], cookie, session=session)  # fills this visit's picker
    local = web_api.call(url, "share_on_hub", [picked, ""], cookie, session=session)
    assert "Sign in with Hugging Face to propose it under your own account" in local.text, local.text[:300]


def test_a_scripted_submission_whose_file_trickles_is_cut_at_its_deadline_and_frees_its_slot(app: RunningApp):
    """Before: two bodies announced at 200 KB, sent a byte every 2 s with a valid token, held both of the scripted
    route's slots for ever; now each is answered 408 once its deadline passes, and an honest one goes through."""
    port = int(app.url.rsplit(":", 1)[1])
    answers: list[bytes] = []

    def trickle_one(i: int) -> None:  # a byte a second: BODY_DEADLINE_S=2, +3 s for 200 KB; 60 s at most
        token, forwarded = f"hf_user_trickler{i}_xx", f"x, 192.0.2.{60 + i}"
        answers.append(trickle("127.0.0.1", port, token, 1.0, time.monotonic() + 60, forwarded))

    with ThreadPoolExecutor(2) as pool:
        list(pool.map(trickle_one, range(2)))
    assert all(a.startswith(b"HTTP/1.1 408") for a in answers), [a[:80] for a in answers]
    honest = script_submit(app.url, "hf_user_honest_xx", forwarded("x", real="192.0.2.70"))
    assert honest.status_code in (200, 400), honest.text[:300]  # the slots are free: the file itself is judged
