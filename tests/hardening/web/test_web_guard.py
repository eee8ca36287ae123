"""Attacks on who may call, and from where, at the HTTP level (space/web/guard.py).

One app of its own, with small limits so that a test reaches them in a few calls. Each attack
is made as it was made before the fix, and the refusal is asserted structurally: the status, the
one-line reason, no ``Access-Control-*`` answer to a foreign Origin, nothing changed in the store
or in Gradio's upload folder.
"""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from scoring import MAX_FILE_BYTES
from tests.browser.conftest import MAINTAINER, RunningApp, start_app, stop_app
from tests.hardening.web import web_api
from tests.hardening.web.web_seed import Files, submit

LIMITS = {
    "UPLOADS_PER_MINUTE": "3",
    "UPLOAD_MB_PER_HOUR": "1",
    "CHECKS_PER_MINUTE": "2",
    "ANONYMOUS_CALLS_PER_MINUTE": "30",
    "MAX_CALL_KB": "16",
}
EVIL = "https://evil.example"


@pytest.fixture(scope="module")
def guarded(tmp_path_factory: pytest.TempPathFactory, browser_datasets: tuple[Path, Path]) -> Iterator[RunningApp]:
    running = start_app(tmp_path_factory.mktemp("guarded"), *browser_datasets, **LIMITS)
    yield running
    stop_app(running)


@pytest.fixture(scope="module")
def files(guarded: RunningApp, tmp_path_factory: pytest.TempPathFactory) -> Files:
    return Files(guarded, tmp_path_factory.mktemp("guard-files"))


@pytest.fixture(scope="module")
def pending(guarded: RunningApp, files: Files) -> str:
    """A test submission awaiting a maintainer's decision: what a cross-site request would approve or reject."""
    answer = submit(guarded, web_api.sign_in(guarded.url, "penny"), files.make("test", seed=1), "test", publish=True)
    assert answer.ok, answer.text[:400]
    submission_id = next(p.stem for p in (guarded.home / "requests" / "requests").glob("*.json"))
    job, deadline = guarded.home / "requests" / "jobs" / f"{submission_id}.json", time.monotonic() + 90
    while not (job.is_file() and json.loads(job.read_text())["status"] == "FINISHED"):  # scored: the store is quiet
        assert time.monotonic() < deadline, f"{submission_id} was not scored:\n{guarded.log_text()[-3000:]}"
        time.sleep(0.2)
    return submission_id


def store(app: RunningApp) -> list[str]:
    """Every file of the requests store and its size: a refused call must leave it as it was."""
    root = app.home / "requests"
    return sorted(f"{p.relative_to(root)}:{p.stat().st_size}" for p in root.rglob("*") if p.is_file())


def uploads(app: RunningApp) -> list[Path]:
    return sorted(p for p in (app.home.parent / "gradio").rglob("*") if p.is_file() and p.stat().st_size)


def no_cors(response: httpx.Response) -> bool:
    return not any(name.lower().startswith("access-control-") for name in response.headers)


def test_a_foreign_or_null_origin_is_refused_on_every_kind_of_request(guarded: RunningApp, pending: str):
    """Attack 2: a maintainer's cookie with a foreign Origin read e-mails and rejected an entry. Attack 3: another
    127.0.0.1 port and ``Origin: null`` signed a browser in."""
    url, boss = guarded.url, web_api.sign_in(guarded.url, MAINTAINER)
    before = store(guarded)
    port = int(url.rsplit(":", 1)[1])
    for origin in (EVIL, "null", f"http://127.0.0.1:{port + 1}", f"http://localhost:{port + 1}"):
        headers = {"Origin": origin, "Cookie": f"session={boss}"}
        attempts = {
            "preflight": ("OPTIONS", "/submit/gradio_api/queue/join", {"Access-Control-Request-Method": "POST"}, None),
            "join": (
                "POST",
                "/submit/gradio_api/queue/join",
                {},
                {"data": [pending], "fn_index": 0, "session_hash": "x"},
            ),
            "call": ("POST", "/maintainers/gradio_api/call/reject", {}, {"data": [pending, "spam"]}),
            "run": ("POST", "/maintainers/gradio_api/run/maintainers_refresh", {}, {"data": [pending]}),
            "sign-in": ("POST", "/local-auth/sign-in", {}, None),
            "sign-out": ("POST", "/local-auth/sign-out", {}, None),
            "config": ("GET", "/config", {}, None),
        }
        with httpx.Client(base_url=url, timeout=30) as client:
            for what, (method, path, extra, body) in attempts.items():
                kwargs = (
                    {"json": body} if body is not None else {"data": {"user": "mallory"}} if method == "POST" else {}
                )
                answer = client.request(method, path, headers=headers | extra, **kwargs)
                assert answer.status_code == 403, (origin, what, answer.status_code, answer.text[:200])
                assert no_cors(answer), (origin, what, answer.headers)
                assert ("another site" in answer.text) or ("Origin 'null'" in answer.text), (origin, what)
                assert "set-cookie" not in answer.headers, (origin, what)
            refused_upload = client.post(
                "/submit/gradio_api/upload", headers=headers, files={"files": ("x.tsv", b"sample_id\tembodiment\n")}
            )
            assert refused_upload.status_code == 403 and no_cors(refused_upload)
    assert store(guarded) == before, "a refused request changed the store"
    # The same calls from the app's own page work: the refusal was about where they came from.
    own = web_api.call(web_api.desk(url), "maintainers_refresh", [pending], boss)
    assert own.ok and "penny" in own.text


def test_the_apps_own_origin_gets_a_credentialed_cors_answer_and_only_it(guarded: RunningApp):
    ask = {"Access-Control-Request-Method": "POST"}
    with httpx.Client(base_url=guarded.url, timeout=30) as client:
        own = client.options("/submit/gradio_api/queue/join", headers=ask | {"Origin": guarded.url})
        other = client.options("/submit/gradio_api/queue/join", headers=ask | {"Origin": EVIL})
    assert own.headers["access-control-allow-origin"] == guarded.url
    assert own.headers["access-control-allow-credentials"] == "true"
    assert other.status_code == 403 and no_cors(other)


def test_a_foreign_host_reaches_no_handler(guarded: RunningApp):
    """Attack 3, DNS rebinding: ``Host: evil.example:{port}`` signed in as admin and read e-mails."""
    port = guarded.url.rsplit(":", 1)[1]
    before = store(guarded)
    with httpx.Client(base_url=guarded.url, timeout=30, headers={"Host": f"evil.example:{port}"}) as client:
        for method, path in (("GET", "/"), ("GET", "/submit/config"), ("POST", "/local-auth/sign-in")):
            answer = client.request(method, path, data={"user": MAINTAINER} if method == "POST" else None)
            assert answer.status_code == 403 and no_cors(answer), (path, answer.status_code)
            assert f"Host 'evil.example:{port}' is not this app's address" in answer.text
            assert "set-cookie" not in answer.headers
    assert store(guarded) == before


# The plain pages (space/site/routes.py) and both mounted Gradio pages, behind the one guard.
PLAIN = ("/", "/?q=x", "/about", "/embed", "/compare?compare=a,b", "/entry/x", "/api/board", "/api/entry/x")
PLAIN += ("/board.csv", "/static/site.css", "/examples/example_validation_noisy.tsv")
GRADIO = ("/submit/", "/submit/config", "/maintainers/", "/maintainers/config")
MOUNTS = ("/submit", "/maintainers")


def test_the_guard_stands_before_every_page_plain_or_gradio(guarded: RunningApp):
    """A foreign Host or Origin reaches no route, every answer carries the policy, and on each mounted page an
    anonymous upload and an oversized call are refused before their bodies are read, as on the first page."""
    port, before, uploaded = guarded.url.rsplit(":", 1)[1], store(guarded), uploads(guarded)
    with httpx.Client(base_url=guarded.url, timeout=30) as client:
        for path in PLAIN + GRADIO:
            rebound = client.get(path, headers={"Host": f"evil.example:{port}"})
            assert rebound.status_code == 403 and no_cors(rebound), (path, rebound.status_code)
            assert f"Host 'evil.example:{port}' is not this app's address" in rebound.text, path
            foreign = client.get(path, headers={"Origin": EVIL})
            assert foreign.status_code == 403 and no_cors(foreign), (path, foreign.status_code)
            assert f"Origin '{EVIL}' is another site" in foreign.text, path
            own = client.get(path)
            assert own.status_code < 500, (path, own.status_code)
            policy = own.headers.get("content-security-policy", "")
            # The embed is made to be framed by any site, so it runs no script but our own files.
            framed_by = "frame-ancestors *" if path == "/embed" else "frame-ancestors 'self'"
            assert framed_by in policy and "script-src 'self'" in policy, (path, policy)
            if path == "/embed":
                assert "'unsafe-inline'" not in policy and "'unsafe-eval'" not in policy, policy
            assert own.headers.get("x-content-type-options") == "nosniff", path
        for mount in MOUNTS:
            files = {"files": ("x.tsv", b"sample_id\tembodiment\n")}
            anonymous = client.post(f"{mount}/gradio_api/upload", headers={"Origin": guarded.url}, files=files)
            assert anonymous.status_code == 403 and "Sign in to upload" in anonymous.text, (mount, anonymous.text)
            body = {"data": ["x" * (20 * 1024)], "fn_index": 0, "session_hash": "big"}  # MAX_CALL_KB=16
            big = client.post(f"{mount}/gradio_api/queue/join", json=body)
            assert big.status_code == 413 and "at most 16 KB" in big.text, (mount, big.status_code)
        form = {"user": "x" * (20 * 1024), "next": "/"}  # the plain sign-in's body is capped too
        big_form = client.post("/local-auth/sign-in", data=form, headers={"Origin": guarded.url})
        assert big_form.status_code == 413 and "set-cookie" not in big_form.headers, big_form.status_code
    assert store(guarded) == before and uploads(guarded) == uploaded


def test_a_signed_in_change_without_origin_is_refused_and_a_script_without_cookie_is_not(guarded: RunningApp):
    boss = web_api.sign_in(guarded.url, MAINTAINER)
    with httpx.Client(base_url=guarded.url, timeout=30) as client:
        bare = client.post(
            "/maintainers/gradio_api/call/maintainers_refresh",
            json={"data": [""]},
            headers={"Cookie": f"session={boss}"},
        )
        script = client.post("/submit/gradio_api/call/show_quota", json={"data": []})
    assert bare.status_code == 403 and "its Origin header is missing" in bare.text
    assert script.status_code == 200  # no cookie, no session to abuse: a script may call what anyone may


def test_a_cookie_copied_before_sign_out_is_worth_nothing_after(guarded: RunningApp, files: Files):
    """Attack 3: sign-out only dropped the cookie in the browser; a copy made before still worked."""
    url = guarded.url
    copied = web_api.sign_in(url, MAINTAINER)
    assert web_api.call(web_api.desk(url), "maintainers_refresh", [""], copied).ok
    signed_out = httpx.post(f"{url}/local-auth/sign-out", headers=web_api.headers(copied, url), timeout=30)
    assert signed_out.status_code == 303
    refused = web_api.call(web_api.desk(url), "maintainers_refresh", [""], copied)
    assert "You are not signed in, so you are not a maintainer" in refused.text, refused.text[:300]
    with open(files.make("validation", seed=2), "rb") as handle:
        upload = httpx.post(
            f"{url}/submit/gradio_api/upload", files={"files": handle}, headers=web_api.headers(copied, url), timeout=30
        )
    assert upload.status_code == 403 and "Sign in to upload" in upload.text


def test_anonymous_uploads_and_checks_are_refused_and_leave_nothing(guarded: RunningApp, files: Files):
    """Attack 5: five 60 MB anonymous uploads stayed for an hour; anonymous checks took the CPU."""
    before = uploads(guarded)
    path = files.make("validation", seed=3)
    with open(path, "rb") as handle:
        anonymous = httpx.post(
            f"{guarded.url}/submit/gradio_api/upload",
            files={"files": handle},
            headers={"Origin": guarded.url},
            timeout=30,
        )
    assert (
        anonymous.status_code == 403
        and anonymous.text == "Sign in to upload a file: uploads are for signed-in users only."
    )
    assert uploads(guarded) == before
    file = web_api.upload(guarded.url, path, web_api.sign_in(guarded.url, "uma"))  # a file someone uploaded
    check = web_api.call(guarded.url, "check_file", [file, "validation"])
    assert check.ok and "Sign in at the top to check a file" in check.text and "rows read" not in check.text


def test_an_oversized_upload_is_refused_before_its_body_is_read(guarded: RunningApp):
    cookie = web_api.sign_in(guarded.url, "olga")
    host, port = guarded.url.removeprefix("http://").split(":")
    head = (
        f"POST /submit/gradio_api/upload HTTP/1.1\r\nHost: {host}:{port}\r\nOrigin: {guarded.url}\r\n"
        f"Cookie: session={cookie}\r\nContent-Type: multipart/form-data; boundary=x\r\n"
        f"Content-Length: {100 * 2**20}\r\nConnection: close\r\n\r\n"
    )
    with socket.create_connection((host, int(port)), timeout=30) as raw:
        raw.sendall(head.encode())  # the headers only: the 100 MB never follow
        answer = raw.makefile("rb").read().decode()
    assert answer.startswith("HTTP/1.1 413"), answer[:200]
    assert f"An upload of 100 MB is over the limit of one file of {MAX_FILE_BYTES // 2**20} MB." in answer


def test_uploads_per_minute_and_bytes_per_hour_are_counted_per_user(guarded: RunningApp, files: Files):
    url, small = guarded.url, files.make("validation", seed=4)
    ursula, victor = web_api.sign_in(url, "ursula"), web_api.sign_in(url, "victor")
    for _ in range(3):  # UPLOADS_PER_MINUTE=3
        web_api.upload(url, small, ursula)
    with open(small, "rb") as handle:
        fourth = httpx.post(
            f"{url}/submit/gradio_api/upload", files={"files": handle}, headers=web_api.headers(ursula, url)
        )
    assert fourth.status_code == 429 and "Too many uploads: 3 a minute per user" in fourth.text
    assert 0 < int(fourth.headers["retry-after"]) <= 60
    web_api.upload(url, small, victor)  # another user is not held up by ursula's count
    big = files.folder / "big.tsv"
    big.write_bytes(b"x" * (600 * 1024))  # UPLOAD_MB_PER_HOUR=1: one of these fits, two do not
    wendy = web_api.sign_in(url, "wendy")
    web_api.upload(url, big, wendy)
    with open(big, "rb") as handle:
        second = httpx.post(
            f"{url}/submit/gradio_api/upload", files={"files": handle}, headers=web_api.headers(wendy, url)
        )
    assert second.status_code == 429 and "Too much uploaded: 1 MB an hour per user" in second.text


def test_a_call_body_over_the_limit_is_refused(guarded: RunningApp):
    body = {"data": ["x" * (20 * 1024)], "fn_index": 0, "session_hash": "big"}  # MAX_CALL_KB=16
    answer = httpx.post(f"{guarded.url}/submit/gradio_api/queue/join", json=body, timeout=30)
    assert answer.status_code == 413 and "at most 16 KB" in answer.text


def test_uploads_are_deleted_once_refused_or_stored(guarded: RunningApp, files: Files):
    url, cookie = guarded.url, web_api.sign_in(guarded.url, "dora")
    bad = files.folder / "bad.tsv"
    bad.write_text("sample_id\tembodiment\ttrace\nval_0000\tHuman\t[[1, 2], [3, 4]]\n", "utf-8")
    refused = web_api.upload(url, bad, cookie)
    assert Path(refused["path"]).is_file()
    check = web_api.call(url, "check_file", [refused, "validation"], cookie)
    assert check.ok and "This file cannot be submitted" in check.text
    assert not Path(refused["path"]).exists(), "a refused file stayed on the server"
    good = files.make("validation", seed=5)
    kept = web_api.upload(url, good, cookie)
    assert "You can submit this file" in web_api.call(url, "check_file", [kept, "validation"], cookie).text
    assert Path(kept["path"]).is_file(), "a checked file is needed for the submission"
    fields = [
        kept,
        "validation",
        "Dora-Model",
        "",
        "",
        "",
        "dora@example.org",
        "",
        "",
        "",
        False,
        None,
        None,
        "",
        None,
        False,
    ]
    assert web_api.call(url, "submit", fields, cookie).ok
    assert not Path(kept["path"]).exists(), "a stored file stayed in Gradio's folder"
    again = web_api.call(url, "check_file", [kept, "validation"], cookie)  # the page still names it
    assert "no longer on the server" in again.text or not again.ok


def test_checks_are_limited_per_user(guarded: RunningApp, files: Files):
    url, cookie = guarded.url, web_api.sign_in(guarded.url, "carla")
    file = web_api.upload(url, files.make("validation", seed=6), cookie)
    answers = [web_api.call(url, "check_file", [file, "validation"], cookie).text for _ in range(3)]
    assert all("You can submit this file" in a for a in answers[:2])  # CHECKS_PER_MINUTE=2
    assert "Too many checks: 2 a minute per user" in answers[2]


def test_anonymous_event_calls_are_limited_per_client_and_signed_in_ones_apart(guarded: RunningApp):
    url, signed_in = guarded.url, web_api.sign_in(guarded.url, "sam")
    statuses = []
    with httpx.Client(base_url=url, timeout=30) as client:
        for _ in range(40):  # ANONYMOUS_CALLS_PER_MINUTE=30, and earlier tests spent some
            posted = client.post("/submit/gradio_api/call/show_quota", json={"data": []})
            statuses.append(posted.status_code)
            if posted.status_code == 200:  # read, as a client does: unread results count against another cap
                client.get(f"/submit/gradio_api/call/show_quota/{posted.json()['event_id']}")
        refused = client.post("/submit/gradio_api/call/show_quota", json={"data": []})
    assert statuses[0] == 200 and refused.status_code == 429 and "without signing in" in refused.text
    assert int(refused.headers["retry-after"]) <= 60
    assert web_api.call(url, "show_quota", [], signed_in).ok
