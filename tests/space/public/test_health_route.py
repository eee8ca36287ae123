"""``GET /api/health``: its fields and their types, its codes, its refusal to tell anything private,
its cost (memory only once the facts are read), and the board's status line beside "Last updated"."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.routing import Route
from starlette.testclient import TestClient

from leaderboard import Leaderboard
from leaderboard.records.entries import FAILED, Job, job_path
from leaderboard.storage.base import HubCallsState, HubFailure
from space.site.health_route import PATH
from space.site.health_route import routes as health_routes
from space.site.routes import routes as page_routes
from space.site.shell import Viewer
from space.web.services import Services
from space.web.settings import SpaceSettings
from tests.service_fixtures import submit

TOKEN = "hf_SeCrEtToKeN0123456789"
SECRET_PATH = "/home/zoe/secret-work/run_zoe.tsv"
SECRETS = ("zoe-private-user", "zoe.private@example.org", "ZoeSecretModel", "zoe_private_traces.tsv",
           "val-private-user", "org/private-requests", TOKEN, SECRET_PATH, "secret-work")  # fmt: skip
KEYS = {
    "status": str,
    "problems": list,
    "checked_at": str,
    "worker": {"running": (bool, type(None)), "last_heartbeat": (str, type(None)),
               "heartbeat_age_s": (int, type(None)), "overdue": bool, "overdue_after_s": int, "restarts": int},
    "queue": {"waiting": int, "running": int, "oldest_wait_s": (int, type(None)),
              "estimated_wait_s": (int, type(None))},
    "last_result": {"at": (str, type(None)), "age_s": (int, type(None))},
    "hub": {"used": bool, "reachable": (bool, type(None)), "last_ok": (str, type(None)),
            "last_failure": (str, type(None))},
    "commit_budget": {"level": str, "left": (int, type(None)), "commits": (int, type(None)),
                      "window_s": (int, type(None)), "resumes_at": (str, type(None))},
}  # fmt: skip


@dataclass
class Site:
    client: TestClient
    services: Services
    ids: list[str]  # every submission: none of them is public


def _site(services: Services) -> TestClient:
    def viewer_of(request: Request) -> Viewer:
        return Viewer()

    app = Starlette(routes=[*page_routes(services, viewer_of), *health_routes(services)])
    return TestClient(app, follow_redirects=False)


@pytest.fixture
def site(settings, files, tmp_path: Path) -> Iterator[Site]:
    """A store of private entries only (a private test file, a validation file, a failed job whose message names a
    path and a token), a Hub store whose notes quote a private repository and the token, a failed scoring round."""
    service = Leaderboard(settings)
    named = tmp_path / "zoe_private_traces.tsv"
    shutil.copy(files["test-noisy1"], named)
    metadata = {"contact_email": "zoe.private@example.org"}
    ids = [submit(service, named, user="zoe-private-user", model="ZoeSecretModel", publish=False,
                  metadata=metadata).submission_id]  # fmt: skip
    ids.append(submit(service, files["validation-noisy"], user="val-private-user", split="validation").submission_id)
    service.worker.drain()
    broken = submit(service, files["test-noisy2"], user="zoe-private-user", model="ZoeSecretModel").submission_id
    message = f"could not open {SECRET_PATH} with the token {TOKEN}"
    failed = Job(broken, FAILED, attempts=1, message=message, failure="server",
                 finished_at="2030-01-01T00:00:00.000000Z")  # fmt: skip
    service.requests.commit({job_path(broken): failed.to_bytes()})
    ids.append(broken)
    submit(service, files["test-noisy3"], user="zoe-private-user", model="ZoeSecretModel")  # waits, unscored
    ids.append(service.registry.ids()[-1])
    quoted = HubFailure(1.0, "unavailable", f"org/private-requests: 503 for {TOKEN}")
    service.requests.hub_calls = lambda: HubCallsState(2.0, 1.0, "unavailable", (quoted,))  # type: ignore[method-assign]
    services = Services.create(settings, SpaceSettings(anonymous_calls_per_minute=1000), leaderboard=service,
                               examples=tmp_path / "examples")  # fmt: skip
    assert services.health is not None
    services.health.pulse.started()
    services.health.pulse.heard("failed", f"StorageError: cannot write {SECRET_PATH} ({TOKEN})")
    services.health.pulse.heard("idle")
    services.health.pulse.heard("idle")
    yield Site(_site(services), services, sorted(set(ids)))
    services.close()


def _typed(value: object, spec: object, where: str = "") -> None:
    if isinstance(spec, dict):
        assert isinstance(value, dict) and set(value) == set(spec), f"{where}: {value}"
        for key, inner in spec.items():
            _typed(value[key], inner, f"{where}.{key}")
        return
    kinds = spec if isinstance(spec, tuple) else (spec,)
    if isinstance(value, bool):  # a bool is an int in Python: a count must not be one
        assert bool in kinds, f"{where}: {value!r} is not {kinds}"
    else:
        assert isinstance(value, kinds), f"{where}: {value!r} is not {kinds}"


def test_the_fields_and_their_types(site: Site):
    answer = site.client.get(PATH)
    assert answer.status_code == 200 and answer.headers["content-type"] == "application/json"
    assert answer.headers["cache-control"] == "no-store"
    body = answer.json()
    _typed(body, KEYS)
    assert body["status"] == "ok" and body["problems"] == []  # the failed round was followed by a good one
    assert body["worker"]["running"] is True and body["worker"]["overdue"] is False
    assert body["queue"]["waiting"] == 1 and body["queue"]["running"] == 0
    assert body["queue"]["oldest_wait_s"] >= 0 and body["queue"]["estimated_wait_s"] >= 1
    assert body["last_result"]["at"].endswith("Z") and body["last_result"]["age_s"] >= 0
    assert body["hub"] == {"used": True, "reachable": True, "last_ok": "1970-01-01T00:00:02Z",
                           "last_failure": "1970-01-01T00:00:01Z"}  # fmt: skip
    assert body["commit_budget"] == {"level": "open", "left": None, "commits": None, "window_s": None,
                                     "resumes_at": None}  # fmt: skip


def test_head_answers_the_code_without_a_body(site: Site):
    answer = site.client.head(PATH)
    assert answer.status_code == 200 and answer.content == b""
    assert site.services.health is not None
    site.services.health.pulse.stopped()
    assert site.client.head(PATH).status_code == 503


def test_a_stopped_worker_is_down_with_503(site: Site):
    assert site.services.health is not None
    site.services.health.pulse.stopped()
    answer = site.client.get(PATH)
    assert answer.status_code == 503 and answer.headers["retry-after"] == "60"
    body = answer.json()
    assert body["status"] == "down" and body["problems"] == ["worker_stopped"]
    assert body["worker"]["running"] is False and body["queue"]["estimated_wait_s"] is None


@pytest.mark.parametrize("state", ["running", "stopped", "hub down"])
def test_nothing_private_is_told(site: Site, state: str):
    health = site.services.health
    assert health is not None
    if state == "stopped":
        health.pulse.stopped()
    if state == "hub down":
        quoted = HubFailure(3.0, "unreachable", f"org/private-requests: refused, token {TOKEN}")
        site.services.leaderboard.requests.hub_calls = (  # type: ignore[method-assign]
            lambda: HubCallsState(2.0, 3.0, "unreachable", (quoted,))
        )
        health.refresh()
    text = site.client.get(PATH).text
    board = site.client.get("/").text
    status = board.split('id="scoring-status">', 1)[1].split("</span>", 1)[0]
    for secret in (*SECRETS, *site.ids):
        assert secret not in text, f"{secret!r} is in the health route's answer"
        assert secret not in status, f"{secret!r} is in the board's status line"
    assert set(json.loads(text)["problems"]) <= {"worker_stopped", "hub_unreachable"}
    assert "Errno" not in text and "/home" not in text and "hf_" not in text


def test_answers_come_from_memory_once_the_facts_are_read(site: Site, monkeypatch: pytest.MonkeyPatch):
    registry = site.services.leaderboard.registry
    reads = []
    entries = registry.entries

    def counted() -> list:
        reads.append(1)
        return entries()

    monkeypatch.setattr(registry, "entries", counted)
    assert site.services.health is not None
    site.services.health.refresh()
    before = len(reads)
    for _ in range(50):
        assert site.client.get(PATH).status_code == 200
        assert site.client.head(PATH).status_code == 200
    assert len(reads) == before, "a request read the store"


def test_callers_are_limited_per_address(site: Site, tmp_path: Path):
    services = Services.create(site.services.leaderboard.settings, SpaceSettings(anonymous_calls_per_minute=3),
                               leaderboard=site.services.leaderboard, examples=tmp_path / "ex2")  # fmt: skip
    client = _site(services)
    codes = [client.get(PATH).status_code for _ in range(4)]
    assert codes[:3] != [429] * 3 and codes[3] == 429
    assert int(client.get(PATH).headers["retry-after"]) >= 1
    services.close()


def test_the_board_says_the_queue_and_a_stopped_worker_plainly_without_drawing_again(site: Site):
    health = site.services.health
    assert health is not None
    health.refresh()
    first = site.client.get("/").text
    assert 'id="board-updated"' in first or 'id="board-summary"' in first
    line = first.split('id="scoring-status">', 1)[1].split("</span>", 1)[0]
    assert line.startswith("Scoring: 1 waiting, about ") and "· last result " in line and line.endswith(" ago.")
    app = site.client.app
    assert isinstance(app, Starlette)
    board = next(r.endpoint for r in app.routes if isinstance(r, Route) and r.path == "/")
    pages = board.__self__  # type: ignore[attr-defined]  # the bound method's Pages
    drawn = pages.drawn.drawings
    health.pulse.stopped()
    again = site.client.get("/").text
    line = again.split('id="scoring-status">', 1)[1].split("</span>", 1)[0]
    assert line == "Scoring is paused: submissions are queued and kept (1 waiting)."
    assert pages.drawn.drawings == drawn, "the status line drew the board again"
    embed = site.client.get("/embed").text
    assert "scoring-status" not in embed and "nt-scoring-status" not in embed


def test_the_line_says_each_state_in_words():
    from leaderboard.runtime.health import Facts, Limits, QueueFacts, assess
    from leaderboard.runtime.worker_pulse import PulseState
    from leaderboard.storage.commit_quota import BudgetState, Level
    from space.board.status_line import line

    now = 1_800_000_000.0
    live = PulseState(True, True, now - 100, now - 10, False, 1, ())
    idle = QueueFacts(0, 0, None, 0.0, 2.0, None, None)
    busy = QueueFacts(3, 1, now - 60, 38.0, 2.0, now - 720, now - 5)
    open_ = BudgetState(Level.OPEN, 0, 0, 0.0, None, None)

    def said(queue=busy, budget=open_, hub=None, pulse=live) -> str:  # noqa: ANN001
        return line(assess(Facts(now, queue, budget, hub), pulse, now, Limits(330.0)))

    assert said(idle) == "Scoring: nothing waiting · no result yet."
    assert said() == "Scoring: 1 being scored, 3 waiting, about 40 s · last result 12 min ago."
    stopped = PulseState(True, False, now - 100, now - 10, False, 1, ())
    assert said(pulse=stopped) == "Scoring is paused: submissions are queued and kept (1 being scored, 3 waiting)."
    silent = PulseState(True, True, now - 1000, now - 400, False, 1, ())
    assert said(idle, pulse=silent) == "Scoring is paused: submissions are queued and kept."
    assert said(hub=HubCallsState(now - 60, now - 5, "unreachable", ())).startswith("Scoring waits: the Hub cannot")
    low = BudgetState(Level.LOW, 100, 128, 3600.0, now + 600, "…")
    assert said(budget=low).startswith("Scoring resumes after ") and "queued and kept" in said(budget=low)
    full = BudgetState(Level.FULL, 128, 128, 3600.0, now + 600, "…")
    assert said(budget=full).startswith("The Hub's hourly commit limit is reached: new submissions can be stored")
