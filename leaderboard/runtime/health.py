"""The service's health: is scoring alive, how long is the queue, is the Hub answering, how much commit budget is left.

``assess(facts, pulse, now, limits)`` turns what was read last (``Facts``: the queue, the commit budget and the
stores' notes of their Hub calls, read by ``health_monitor.HealthMonitor`` every ``REFRESH_S``) and what the app
hears from its scoring process (``worker_pulse.PulseState``, live) into a ``Health``. It is pure and cheap:
the health route, the board's status line and the maintainers' desk all call it per request.

``Health.public()`` is the JSON of ``GET /api/health``, the contract uptime checks read. It holds counts,
times, fixed words and numbers only: no submission id, user, file name, e-mail or error message (those are
the desk's: ``Facts.failed``, ``PulseState.failures``, ``HubCallsState.failures``).

``status`` is ``down`` when scoring does not run (the scoring process is stopped, or nothing was heard from it
for ``overdue_after_s``) or the Hub cannot be reached; ``degraded`` when scoring waits for the Hub's commit
budget, the last round failed, the Hub throttles us, or the facts are old (their reading fails); else ``ok``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum

from leaderboard.runtime.worker_pulse import PulseState
from leaderboard.storage import BudgetState, HubCallsState, Level

REFRESH_S = 15.0  # how often the facts are read: one read of the requests store (one Hub call when idle)


class Status(StrEnum):
    OK = "ok"
    DEGRADED = "degraded"
    DOWN = "down"


class Problem(StrEnum):
    """Why the status is not ``ok`` (the JSON's ``problems``: these words only)."""

    WORKER_STOPPED = "worker_stopped"  # the scoring process is not running
    WORKER_OVERDUE = "worker_overdue"  # nothing heard from scoring for ``overdue_after_s``
    WORKER_FAILING = "worker_failing"  # its latest round failed (it tries again at the next)
    HUB_UNREACHABLE = "hub_unreachable"  # the last Hub call failed after its retries
    HUB_THROTTLED = "hub_throttled"  # the Hub's request rate limit outlasted our retries
    BUDGET_LOW = "commit_budget_low"  # scoring waits for the hourly commit budget; submissions are stored
    BUDGET_FULL = "commit_budget_full"  # the Hub refuses commits until the window frees up
    STALE = "status_stale"  # the facts could not be read lately


DOWN = frozenset({Problem.WORKER_STOPPED, Problem.WORKER_OVERDUE, Problem.HUB_UNREACHABLE})
PAUSED = frozenset({Problem.WORKER_STOPPED, Problem.WORKER_OVERDUE})  # scoring does not run


@dataclass(frozen=True)
class FailedJob:
    """A job that failed (maintainers only: its message was written for its submitter)."""

    at: float
    submission_id: str
    user: str
    failure: str | None  # "submission" or "server"
    message: str


@dataclass(frozen=True)
class QueueFacts:
    waiting: int
    running: int
    oldest_since: float | None  # when the longest-waiting job started waiting (at the latest)
    work_s: float  # seconds of scoring ahead at ``read_at``: the running jobs' rest and every waiting job
    typical_job_s: float  # what one more job of the usual size takes
    last_result: float | None  # the newest outcome (any submission)
    last_lease_beat: float | None  # the newest lease renewal of a job being scored


@dataclass(frozen=True)
class Facts:
    read_at: float
    queue: QueueFacts
    budget: BudgetState
    hub: HubCallsState | None  # the stores' notes together; None off the Hub
    failed: tuple[FailedJob, ...] = ()  # the latest, newest first
    read_error: str | None = None  # the last reading failed (the facts are the ones read before)


@dataclass(frozen=True)
class Limits:
    """``overdue_after_s``: silence after which scoring is said to have stopped (``overdue_after``)."""

    overdue_after_s: float
    stale_after_s: float = 3 * REFRESH_S


def overdue_after(score_interval_s: float, lease_s: float) -> float:
    """An idle worker ends a round every ``score_interval_s``; a busy one renews its leases every ``lease_s / 3``
    (seen within ``REFRESH_S``): three intervals, or half a lease, plus two readings, without a sign is silence."""
    return max(3 * score_interval_s, lease_s / 2) + 2 * REFRESH_S


@dataclass(frozen=True)
class Health:
    status: Status
    problems: tuple[Problem, ...]
    now: float
    checked_at: float
    running: bool | None  # None: this app runs no scoring process (scoring is judged from the store alone)
    last_heartbeat: float | None
    overdue: bool
    overdue_after_s: float
    restarts: int
    waiting: int
    being_scored: int
    oldest_wait_s: float | None
    estimated_wait_s: float | None  # for a new submission; None while scoring is paused
    last_result: float | None
    hub_used: bool
    hub_reachable: bool | None
    hub_last_ok: float | None
    hub_last_failure: float | None
    budget: BudgetState

    @property
    def paused(self) -> bool:
        return bool(PAUSED & set(self.problems))

    def public(self) -> dict[str, object]:
        """The JSON of ``GET /api/health`` (README: "Uptime checks")."""
        budget = self.budget
        return {
            "status": self.status.value,
            "problems": [p.value for p in self.problems],
            "checked_at": stamp(self.checked_at),
            "worker": {
                "running": self.running,
                "last_heartbeat": stamp(self.last_heartbeat),
                "heartbeat_age_s": self.age(self.last_heartbeat),
                "overdue": self.overdue,
                "overdue_after_s": round(self.overdue_after_s),
                "restarts": self.restarts,
            },
            "queue": {
                "waiting": self.waiting,
                "running": self.being_scored,
                "oldest_wait_s": _whole(self.oldest_wait_s),
                "estimated_wait_s": _whole(self.estimated_wait_s),
            },
            "last_result": {"at": stamp(self.last_result), "age_s": self.age(self.last_result)},
            "hub": {
                "used": self.hub_used,
                "reachable": self.hub_reachable,
                "last_ok": stamp(self.hub_last_ok),
                "last_failure": stamp(self.hub_last_failure),
            },
            "commit_budget": {
                "level": budget.level.value,
                "left": max(0, budget.commits - budget.used) if budget.commits else None,
                "commits": budget.commits or None,
                "window_s": round(budget.window_s) if budget.commits else None,
                "resumes_at": stamp(budget.resumes_at),
            },
        }

    def age(self, at: float | None) -> int | None:
        return None if at is None else _whole(max(0.0, self.now - at))


def assess(facts: Facts, pulse: PulseState, now: float, limits: Limits) -> Health:
    queue, problems = facts.queue, []
    oldest = None if queue.oldest_since is None else max(0.0, now - queue.oldest_since)
    beats = [t for t in (pulse.last_beat, queue.last_lease_beat, queue.last_result) if t is not None]
    heartbeat = max(beats, default=None)
    silence = limits.overdue_after_s
    if pulse.watched:
        running: bool | None = pulse.running
        since = max([t for t in (heartbeat, pulse.started_at) if t is not None], default=now)
        overdue = pulse.running and now - since > silence
        if not pulse.running:
            problems.append(Problem.WORKER_STOPPED)
    else:  # nobody here scores: jobs left waiting with no sign of a worker anywhere say it
        running = None
        overdue = oldest is not None and oldest > silence and (heartbeat is None or now - heartbeat > silence)
    if overdue:
        problems.append(Problem.WORKER_OVERDUE)
    elif pulse.watched and pulse.running and pulse.last_round_failed:
        problems.append(Problem.WORKER_FAILING)
    hub = facts.hub
    if hub is not None and hub.reachable is False:
        problems.append(Problem.HUB_THROTTLED if hub.last_kind == "throttled" else Problem.HUB_UNREACHABLE)
    if facts.budget.level is Level.FULL:
        problems.append(Problem.BUDGET_FULL)
    elif facts.budget.level is Level.LOW:
        problems.append(Problem.BUDGET_LOW)
    if now - facts.read_at > limits.stale_after_s:
        problems.append(Problem.STALE)
    status = Status.DOWN if DOWN & set(problems) else Status.DEGRADED if problems else Status.OK
    return Health(
        status=status,
        problems=tuple(problems),
        now=now,
        checked_at=facts.read_at,
        running=running,
        last_heartbeat=heartbeat,
        overdue=bool(overdue),
        overdue_after_s=silence,
        restarts=max(0, pulse.starts - 1),
        waiting=queue.waiting,
        being_scored=queue.running,
        oldest_wait_s=oldest,
        estimated_wait_s=None if PAUSED & set(problems) else _wait(facts, now),
        last_result=queue.last_result,
        hub_used=hub is not None,
        hub_reachable=None if hub is None else hub.reachable,
        hub_last_ok=None if hub is None else hub.last_ok,
        hub_last_failure=None if hub is None else hub.last_failure,
        budget=facts.budget,
    )


def _wait(facts: Facts, now: float) -> float:
    """A new submission's wait: the work ahead of it (as read, less the time since), its own scoring, and the
    commit budget's pause. Every waiting job counts as ahead, so it errs long: the fair order
    (``fairness.order``) takes a newcomer's file before the jobs of users already served."""
    queue = facts.queue
    ahead = max(0.0, queue.work_s - (now - facts.read_at))
    pause = max(0.0, (facts.budget.resumes_at or now) - now)
    return pause + ahead + queue.typical_job_s


def stamp(at: float | None) -> str | None:
    """``2026-03-01T12:00:00Z`` (UTC, whole seconds), or ``None``."""
    return None if at is None else datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _whole(seconds: float | None) -> int | None:
    return None if seconds is None else round(seconds)
