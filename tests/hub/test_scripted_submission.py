"""Submitting from a script with one's own token, over HTTP: the app (``python app.py``) asks the local
Hub's ``whoami`` who the token is, and submits as that user through the Submit tab's own path.

One app for the module (local storage, ``HF_ENDPOINT`` at a ``LocalHub``); each test uses its own
user, so quotas and limits do not mix. How long the Hub's answer is kept (``TOKEN_CACHE_S``) is tried on
the same route served in this process (``clocked``): its cache reads a ``FakeClock``, so the answer is
kept up to the last second of its time and not one second more, however slow the machine.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient

from leaderboard import Leaderboard, Settings
from scoring import MAX_FILE_BYTES, load_answer_key
from scoring.examples import write_example
from space.web.guard import Guard
from space.web.script_api import routes as script_routes
from space.web.services import Services
from space.web.settings import SpaceSettings
from space.web.tokens import WhoAmI, hub_lookup
from tests.browser.conftest import ROOT, RunningApp, start_app, stop_app
from tests.hub.clock import FakeClock
from tests.hub.hub_faults import Http
from tests.hub.server import LocalHub

PATH = "/script-api/submit"
USERS = {name: f"hf_{name}_token_0123456789" for name in ("alice", "bob", "carol", "dave", "erin", "frank", "gina")}
UPLOADS_PER_MINUTE = 4


@pytest.fixture(scope="module")
def hub() -> Iterator[LocalHub]:
    with LocalHub.start() as local:
        for name, token in USERS.items():
            local.add_user(name, token)
        yield local


@pytest.fixture(scope="module")
def app(hub: LocalHub, tmp_path_factory: pytest.TempPathFactory, browser_datasets) -> Iterator[RunningApp]:
    folder = tmp_path_factory.mktemp("scripted")
    running = start_app(
        folder,
        *browser_datasets,
        HF_ENDPOINT=hub.url,
        HF_HOME=str(folder / "hf-home"),
        HF_HUB_DISABLE_TELEMETRY="1",
        TEST_SUBMISSIONS_PER_DAY="1",
        UPLOADS_PER_MINUTE=str(UPLOADS_PER_MINUTE),
    )
    yield running
    stop_app(running)


@pytest.fixture(scope="module")
def files(app: RunningApp, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("scripted-files")
    made = {}
    for name, split, kind in (("validation", "validation", "noisy"), ("test", "test", "straight")):
        made[name] = folder / f"{name}.tsv"
        write_example(load_answer_key(app.public, split, folder / "cache"), kind, made[name])
    made["test-2"] = folder / "test-2.tsv"
    write_example(load_answer_key(app.private, "test", folder / "cache-private"), "noisy", made["test-2"])
    made["bad"] = folder / "bad.tsv"
    made["bad"].write_text("sample_id\tembodiment\ttrace\nval_0000\tHuman\t[[1, 2], [3, 4]]\n", "utf-8")
    made["useless"] = folder / "useless.tsv"
    made["useless"].write_text("sample_id\tembodiment\tprediction\nval_0000\tHuman\t[[1, 2]]\n", "utf-8")
    return made


def request(file: Path | None, token: str | None, headers: dict | None, form: dict[str, str]) -> dict:
    """The scripted submission's parts: the token's header, the form, the file."""
    sent = dict(headers or {})
    if token is not None:
        sent["Authorization"] = f"Bearer {token}"
    files = {"file": (file.name, file.read_bytes(), "text/tab-separated-values")} if file else None
    return {"headers": sent, "data": {"split": "validation", "model": "Scripted VLM", **form}, "files": files}


def post(app: RunningApp, file: Path | None, token: str | None = None, headers: dict | None = None, **form: str):
    return httpx.post(app.url + PATH, **request(file, token, headers, form), timeout=60)


@dataclass
class Clocked:
    """The scripted route served in this process, asking the same local Hub; its token cache reads ``clock``."""

    client: TestClient
    clock: FakeClock
    ttl_s: int  # TOKEN_CACHE_S, the default

    def post(self, file: Path, token: str, **form: str) -> httpx.Response:
        return self.client.post(PATH, **request(file, token, None, form))


@pytest.fixture(scope="module")
def services_here(browser_datasets, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Services]:
    """The app's services in this process, on a store of their own and the app's datasets."""
    folder = tmp_path_factory.mktemp("scripted-here")
    private, public = browser_datasets
    env = {"LEADERBOARD_HOME": str(folder / "home"), "ANSWER_KEY_DATASET": str(private), "PUBLIC_DATASET": str(public)}
    services = Services.create(Settings.from_env(env), SpaceSettings(), examples=folder / "examples")
    services.warmup.run()  # the public keys, here rather than in a thread
    yield services
    services.close()
    shutil.rmtree(services.scratch, ignore_errors=True)


@pytest.fixture
def clocked(hub: LocalHub, services_here: Services) -> Iterator[Clocked]:
    """``POST /script-api/submit`` as ``space.web.script_api.routes`` builds it, a fresh cache on a ``FakeClock``."""
    space, clock = services_here.space, FakeClock()
    whoami = WhoAmI(hub_lookup(hub.url), space.token_cache_s, space.token_lookups_per_minute, clock=clock.now)
    site = Starlette(routes=script_routes(services_here, Guard(space, MAX_FILE_BYTES), whoami))
    with TestClient(site) as client:
        yield Clocked(client, clock, space.token_cache_s)


def stored(app: RunningApp, submission_id: str):
    """The submission as the service stored it (read from the app's own folder)."""
    env = {"LEADERBOARD_HOME": str(app.home), "ANSWER_KEY_DATASET": str(app.private), "PUBLIC_DATASET": str(app.public)}
    return Leaderboard(Settings.from_env(env)).status(submission_id)


def whoami_calls(hub: LocalHub, user: str | None = None) -> list:
    return [c for c in hub.calls("whoami") if user is None or c.user == user]


def test_a_token_submits_as_its_owner_and_a_user_field_is_ignored(app, hub, files):
    answer = post(app, files["validation"], USERS["alice"], user="boss", organization="Lab A")
    assert answer.status_code == 200, answer.text
    reply = answer.json()
    assert reply["user"] == "alice"
    assert "the field 'user' is ignored: you submit as alice" in reply["notes"][0]
    assert reply["message"].startswith(f"Submitted: {reply['submission_id']} (validation split)")
    view = stored(app, reply["submission_id"])
    assert (view.user, view.metadata["model"], view.metadata["organization"]) == ("alice", "Scripted VLM", "Lab A")
    asked = whoami_calls(hub, "alice")
    assert len(asked) == 1 and asked[0].token_sent and asked[0].status == 200
    assert "hf_alice" not in answer.text  # the token is never echoed


def test_the_whoami_answer_is_kept_for_its_time_and_no_longer(clocked, hub, files):
    def refused_file() -> None:  # the token passed: bob's file is checked (and refused: it is not a submission)
        answer = clocked.post(files["bad"], USERS["bob"])
        assert (answer.status_code, answer.json()["user"]) == (400, "bob"), answer.text

    for _ in range(3):
        refused_file()
    assert len(whoami_calls(hub, "bob")) == 1
    clocked.clock.sleep(clocked.ttl_s - 1)  # its last second
    refused_file()
    assert len(whoami_calls(hub, "bob")) == 1
    clocked.clock.sleep(1)  # TOKEN_CACHE_S after the answer: expired
    refused_file()
    assert len(whoami_calls(hub, "bob")) == 2  # asked again


def test_the_same_validation_messages_as_the_browser(app, files):
    answer = post(app, files["bad"], USERS["frank"])
    assert answer.status_code == 400
    assert answer.json()["error"] == (
        'Not submitted: Line 1: missing required column prediction; found "sample_id", "embodiment", "trace"; '
        "expected at least sample_id, embodiment, prediction"
    )
    answer = post(app, files["useless"], USERS["frank"])
    assert answer.status_code == 400
    reply = answer.json()
    assert reply["error"].startswith("Not submitted: No valid prediction in the file"), reply
    assert reply["report"]["n_valid"] == 0 and reply["report"]["split"] == "validation"
    answer = post(app, files["validation"], USERS["frank"], model="")
    assert answer.json()["error"] == "Not submitted: Model is required: expected a non-empty name"
    answer = post(app, files["validation"], USERS["frank"], colour="blue")
    assert answer.status_code == 400 and "Unknown metadata field 'colour'; expected model," in answer.json()["error"]


def test_no_token_or_an_invalid_one_is_refused_without_storing(app, hub, files):
    before = len(whoami_calls(hub))
    answer = post(app, files["validation"])
    assert answer.status_code == 401
    assert answer.headers["WWW-Authenticate"].startswith("Bearer")
    assert "Authorization: Bearer hf_" in answer.json()["error"]
    assert len(whoami_calls(hub)) == before  # nothing to ask the Hub
    answer = post(app, files["validation"], "hf_made_up_token_0000000")
    assert answer.status_code == 401
    assert "does not know this token (invalid or revoked)" in answer.json()["error"]
    refused = whoami_calls(hub)[before:]
    assert len(refused) == 1 and refused[0].status == 401 and refused[0].user is None
    assert post(app, files["validation"], "not a token!").status_code == 401
    assert len(whoami_calls(hub)) == before + 1  # a malformed token is not even asked about


def test_a_revoked_token_stops_working_when_its_answer_expires(clocked, hub, files):
    answer = clocked.post(files["validation"], USERS["dave"])
    assert (answer.status_code, answer.json()["user"]) == (200, "dave"), answer.text
    hub.revoke(USERS["dave"])
    clocked.clock.sleep(clocked.ttl_s - 1)
    kept = clocked.post(files["bad"], USERS["dave"])  # the cache's price: still dave's for the rest of its time
    assert (kept.status_code, kept.json()["user"]) == (400, "dave"), kept.text
    clocked.clock.sleep(1)
    answer = clocked.post(files["test"], USERS["dave"], split="test")
    assert answer.status_code == 401, answer.text
    assert "invalid or revoked" in answer.json()["error"]


def test_a_page_from_another_site_or_ours_is_refused_before_the_token_is_checked(app, hub, files):
    before = len(whoami_calls(hub))
    for origin in ("https://evil.example", app.url):
        answer = post(app, files["validation"], USERS["alice"], headers={"Origin": origin})
        assert answer.status_code == 403, answer.text
        assert "is for scripts with a Hugging Face token" in answer.text
        assert "access-control-allow-origin" not in answer.headers
    assert len(whoami_calls(hub)) == before


def test_the_daily_quota_is_enforced_with_the_browsers_message(app, files):
    undeclared = post(app, files["test"], USERS["carol"], split="test", publish="true")
    assert undeclared.status_code == 400, undeclared.text  # a public test entry needs its declarations
    assert "missing: trained_on, test_images_beyond_inference, best_of" in undeclared.json()["error"]
    declared = {"trained_on": "none", "test_images_beyond_inference": "no", "best_of": "2", "share_on_hub": "true"}
    first = post(app, files["test"], USERS["carol"], split="test", publish="true", **declared)
    assert first.status_code == 200, first.text
    assert (first.json()["quota_left"], first.json()["publish"]) == (0, True)
    second = post(app, files["test-2"], USERS["carol"], split="test")
    assert second.status_code == 429, second.text
    assert second.json()["error"].startswith("Not submitted: Daily limit reached: carol has made 1 test submission")
    assert second.json()["retry_at"]


def test_upload_limits_apply_per_resolved_user(app, files):
    for _ in range(UPLOADS_PER_MINUTE):
        assert post(app, files["bad"], USERS["erin"]).status_code == 400
    answer = post(app, files["bad"], USERS["erin"])
    assert answer.status_code == 429
    assert answer.json()["error"] == f"Too many uploads: {UPLOADS_PER_MINUTE} a minute per user."
    assert int(answer.headers["Retry-After"]) > 0
    assert post(app, files["bad"], USERS["gina"]).status_code == 400  # another user is not held back


def test_the_hub_down_is_a_503_not_a_refusal(app, hub, files):
    hub.faults.add("whoami", *[Http(503)] * 6)
    try:
        answer = post(app, files["validation"], "hf_another_unknown_token_1")
    finally:
        hub.faults.clear()
    assert answer.status_code == 503, answer.text
    assert "did not say who this token is" in answer.json()["error"]
    answer = post(app, files["validation"], "hf_another_unknown_token_1")  # not cached: asked again
    assert answer.status_code == 401


def test_the_cli_submits_with_the_token_from_the_environment(app, files, tmp_path):
    env = {"PATH": "/usr/bin:/bin", "HF_TOKEN": USERS["gina"], "HF_HOME": str(tmp_path)}
    command = [sys.executable, "-m", "leaderboard", "submit-remote", str(files["validation"]), "--space", app.url]
    done = subprocess.run([*command, "--split", "validation", "--model", "CLI VLM"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    submission_id = done.stdout.strip().splitlines()[-1]
    assert stored(app, submission_id).user == "gina"
    env["HF_TOKEN"] = "hf_wrong_token_123456"
    done = subprocess.run([*command, "--split", "validation", "--model", "CLI VLM"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.startswith("rejected: HTTP 401: Not submitted: the Hugging Face Hub does not know this token")
    del env["HF_TOKEN"]
    done = subprocess.run([*command, "--split", "validation", "--model", "CLI VLM"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert (done.returncode, done.stderr) == (2, "rejected: no Hugging Face token: set HF_TOKEN to one of your "
                                                 "tokens (a read token is enough)\n")  # fmt: skip
