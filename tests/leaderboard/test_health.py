"""The service's health: the assessment from the facts and the worker's pulse, the queue's facts read
from a real store, the scoring process's lines, and the Hub store's notes of its own calls."""

from __future__ import annotations

import json
from types import SimpleNamespace

import httpx2
import pytest

from leaderboard.records.entries import FAILED, Job, job_path
from leaderboard.runtime.health import Facts, Limits, Problem, QueueFacts, Status, assess, overdue_after
from leaderboard.runtime.health_monitor import HealthMonitor
from leaderboard.runtime.worker_pulse import Pulse, PulseState
from leaderboard.storage.base import HubCallsState
from leaderboard.storage.commit_quota import BudgetState, Level
from leaderboard.storage.hub_calls import RetryPolicy
from tests.service_fixtures import MAINTAINER, submit

NOW = 1_800_000_000.0
OPEN = BudgetState(Level.OPEN, 0, 0, 0.0, None, None)
LIMITS = Limits(overdue_after_s=330.0)


def facts(waiting: int = 0, **changes: object) -> Facts:
    queue = QueueFacts(waiting, 0, NOW - 20 if waiting else None, 10.0 * waiting, 2.0, NOW - 600, None)
    made = Facts(NOW - 5, queue, OPEN, None)
    return Facts(**{**made.__dict__, **changes})  # type: ignore[arg-type]


def pulse(running: bool = True, beat: float | None = NOW - 30, failed: bool = False) -> PulseState:
    return PulseState(True, running, NOW - 3600, beat, failed, 1, ())


def test_a_live_worker_with_a_queue_is_ok_and_says_when_a_new_file_is_scored():
    health = assess(facts(waiting=3), pulse(), NOW, LIMITS)
    assert health.status is Status.OK and health.problems == ()
    # 3 waiting jobs of 10 s each, read 5 s ago (25 s left), plus the new one's 2 s
    assert health.estimated_wait_s == pytest.approx(27.0)
    assert health.oldest_wait_s == pytest.approx(20.0)
    public = health.public()
    assert public["worker"] == {"running": True, "last_heartbeat": "2027-01-15T07:59:30Z", "heartbeat_age_s": 30,
                                "overdue": False, "overdue_after_s": 330, "restarts": 0}  # fmt: skip
    assert public["last_result"] == {"at": "2027-01-15T07:50:00Z", "age_s": 600}


def test_a_stopped_worker_is_down():
    health = assess(facts(waiting=2), pulse(running=False), NOW, LIMITS)
    assert health.status is Status.DOWN and Problem.WORKER_STOPPED in health.problems
    assert health.paused and health.estimated_wait_s is None


def test_a_silent_worker_is_overdue_once_the_silence_is_longer_than_the_limit():
    assert assess(facts(), pulse(beat=NOW - 329), NOW, LIMITS).status is Status.OK
    late = assess(facts(), pulse(beat=NOW - 331), NOW, LIMITS)
    assert late.status is Status.DOWN and late.problems == (Problem.WORKER_OVERDUE,) and late.overdue


def test_a_lease_renewed_in_the_store_is_a_heartbeat_while_a_long_job_is_scored():
    queue = QueueFacts(0, 1, None, 100.0, 2.0, None, NOW - 60)  # renewed a minute ago, no round ended for long
    health = assess(facts(queue=queue), pulse(beat=NOW - 3000), NOW, LIMITS)
    assert health.status is Status.OK and health.last_heartbeat == NOW - 60


def test_without_a_watched_worker_only_jobs_left_waiting_say_it_is_overdue():
    unwatched = PulseState(False, False, None, None, False, 0, ())
    assert assess(facts(), unwatched, NOW, LIMITS).status is Status.OK  # nothing waits: nothing to say
    stuck = QueueFacts(1, 0, NOW - 400, 10.0, 2.0, NOW - 5000, None)
    health = assess(facts(queue=stuck), unwatched, NOW, LIMITS)
    assert health.problems == (Problem.WORKER_OVERDUE,) and health.running is None


def test_the_hub_and_the_budget_degrade_or_bring_down():
    failing = HubCallsState(NOW - 100, NOW - 10, "unreachable", ())
    assert assess(facts(hub=failing), pulse(), NOW, LIMITS).status is Status.DOWN
    throttled = HubCallsState(NOW - 100, NOW - 10, "throttled", ())
    assert assess(facts(hub=throttled), pulse(), NOW, LIMITS).problems == (Problem.HUB_THROTTLED,)
    low = BudgetState(Level.LOW, 100, 128, 3600.0, NOW + 600, "…")
    health = assess(facts(waiting=1, budget=low), pulse(), NOW, LIMITS)
    assert health.status is Status.DEGRADED and health.problems == (Problem.BUDGET_LOW,)
    assert health.estimated_wait_s == pytest.approx(600 + 5 + 2)  # the pause, the work left, the new file
    assert health.public()["commit_budget"] == {"level": "low", "left": 28, "commits": 128, "window_s": 3600,
                                                "resumes_at": "2027-01-15T08:10:00Z"}  # fmt: skip


def test_old_facts_and_a_failed_round_degrade():
    assert assess(facts(read_at=NOW - 100), pulse(), NOW, LIMITS).problems == (Problem.STALE,)
    assert assess(facts(), pulse(failed=True), NOW, LIMITS).problems == (Problem.WORKER_FAILING,)


def test_overdue_after_covers_an_idle_round_and_a_lease_renewal():
    assert overdue_after(60, 600) == 300 + 30  # half a lease (renewed every third) and two readings
    assert overdue_after(300, 600) == 900 + 30  # three rounds when they are rare


def test_the_pulse_counts_a_round_that_failed_as_no_heartbeat():
    now = [100.0]
    beat = Pulse(clock=lambda: now[0])
    beat.started()
    now[0] = 110.0
    beat.heard("idle")
    now[0] = 120.0
    beat.heard("failed", "StorageError: org/requests: could not read")
    beat.heard("idle")
    state = beat.state()
    assert state.last_beat == 110.0 and state.last_round_failed and state.failures[0].at == 120.0
    now[0] = 130.0
    beat.heard("scored", "abc")
    beat.heard("idle")
    beat.stopped()
    state = beat.state()
    assert state.last_beat == 130.0 and not state.last_round_failed and not state.running and state.starts == 1


def test_the_monitor_reads_the_queue_and_the_failed_jobs_from_the_store(settings, clock, files):
    from leaderboard.service import Leaderboard

    service = Leaderboard(settings, clock=clock)
    first = submit(service, files["test-noisy1"], model="A").submission_id
    service.worker.drain()
    clock.advance(700)
    submit(service, files["test-noisy2"], model="B", user="bob")
    broken = submit(service, files["test-noisy3"], model="C", user="carol").submission_id
    failed = Job(broken, FAILED, attempts=1, message="could not read /home/carol/run.tsv", failure="server",
                 finished_at="2030-01-01T00:00:00.000000Z")  # fmt: skip
    service.requests.commit({job_path(broken): failed.to_bytes()})
    clock.advance(30)
    monitor = HealthMonitor(service, clock=clock)
    health = monitor.health()
    assert (health.waiting, health.being_scored) == (1, 0)
    assert health.oldest_wait_s == pytest.approx(30, abs=1)
    assert health.last_result is not None and clock() - health.last_result == pytest.approx(730, abs=1)
    assert health.running is None and health.status is Status.OK  # nothing watched, nothing left waiting long
    notes = monitor.recent_errors(MAINTAINER)
    assert [(n.source, n.submission_id) for n in notes] == [("job", broken)]
    assert "/home/carol/run.tsv" in notes[0].message and first not in json.dumps(health.public())
    from leaderboard.records.errors import NotAuthorised

    with pytest.raises(NotAuthorised):
        monitor.recent_errors("alice")


class _Api:
    """The few ``HfApi`` calls a read makes; ``down`` makes every one fail as a refused connection would."""

    def __init__(self) -> None:
        self.down = False

    def _check(self) -> None:
        if self.down:
            raise httpx2.ConnectError("[Errno 111] Connection refused: https://hub.example/api/datasets/org/secret")

    def create_repo(self, *args: object, **kwargs: object) -> None:
        self._check()

    def repo_info(self, *args: object, **kwargs: object) -> SimpleNamespace:
        self._check()
        return SimpleNamespace(sha="a" * 40)

    def list_repo_tree(self, *args: object, **kwargs: object) -> list:
        self._check()
        return []


def test_a_hub_store_notes_its_own_calls_without_any_call_of_its_own():
    from leaderboard.storage.hub import HubStorage

    api, now = _Api(), [1000.0]
    store = HubStorage("org/secret", api=api, retry=RetryPolicy(budget_s=0, max_attempts=1), sleep=lambda s: None,
                       wall_clock=lambda: now[0])  # fmt: skip
    assert store.hub_calls().reachable is None  # no call yet: nothing known
    assert store.read("jobs/x.json") is None
    assert store.hub_calls().reachable is True and store.hub_calls().last_ok == 1000.0
    api.down, now[0] = True, 1010.0
    with pytest.raises(Exception, match="could not"):
        store.read("jobs/y.json")
    noted = store.hub_calls()
    assert noted.reachable is False and noted.last_kind == "unreachable" and noted.last_failure == 1010.0
    assert "org/secret" in noted.failures[-1].message  # for the desk: it names the repository


def test_the_scoring_process_tells_a_failed_round_on_one_line_then_idle():
    import io
    import threading
    import time

    from leaderboard.runtime.worker_process import _Child
    from leaderboard.storage import StorageError

    class Failing:
        on_scored = None

        def run_once(self) -> None:
            raise StorageError("org/requests: could not read\n'jobs' (3 attempts)")

    events = io.StringIO()
    child = _Child(parent_pid=0, events=events)
    keys = SimpleNamespace(private=lambda split: None)
    threading.Thread(target=child.serve, args=(Failing(), keys), daemon=True).start()  # waits for the next round after
    deadline = time.monotonic() + 30
    while "idle" not in events.getvalue():
        assert time.monotonic() < deadline, events.getvalue()
        time.sleep(0.01)
    assert events.getvalue() == "failed org/requests: could not read 'jobs' (3 attempts)\nidle\n"
    heard = Pulse(clock=lambda: 5.0)
    heard.started()
    for line in events.getvalue().splitlines():
        word, _, argument = line.partition(" ")
        heard.heard(word, argument)
    state = heard.state()
    assert state.last_round_failed and state.last_beat is None and state.failures[0].message.startswith("org/")
