"""The facts behind the health route, read in the background and held in memory.

``HealthMonitor(service)`` reads the queue from the requests store, the commit budget and the stores' notes
of their own Hub calls (``Facts``) in ``refresh()``. In the app the scheduler calls it every ``REFRESH_S``
(``schedule``), so a request only reads memory: ``health()`` assesses the facts in hand with the scoring
process's pulse (``leaderboard/runtime/health.py``) in microseconds. Without the scheduler (a test, a script) the
first ``health()`` reads the facts itself, and facts older than twice ``REFRESH_S`` are read again in a thread of
their own while the ones in hand are answered. No Hub call is ever made for a request: the store's reads
happen in ``refresh``, and whether the Hub answers is what the stores noted of their own calls.

``recent_errors(by)`` is for maintainers only: the latest failed jobs, failed scoring rounds and failed Hub
calls, with their messages.
"""

from __future__ import annotations

import datetime as dt
import logging
import statistics
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from leaderboard.jobs import JOB_OVERHEAD_S, cost_of, seconds_per_point
from leaderboard.records import FAILED, FINISHED, PENDING, RUNNING, epoch
from leaderboard.runtime.health import REFRESH_S, Facts, FailedJob, Health, Limits, QueueFacts, assess, overdue_after
from leaderboard.runtime.worker_pulse import Pulse
from leaderboard.storage import Entry, HubCallsState

if TYPE_CHECKING:
    from apscheduler.schedulers.background import BackgroundScheduler

    from leaderboard.service import Leaderboard

log = logging.getLogger(__name__)

JOB_ID = "navitrace-health"
KEPT_FAILED_JOBS = 10  # the latest failed jobs the desk lists
TYPICAL_OF = 20  # the latest submissions whose median size is "the usual size"


@dataclass(frozen=True)
class ErrorNote:
    """One line of the desk's "last errors" (maintainers only)."""

    at: float
    source: str  # "job", "scoring round", "Hub (requests)", "Hub (results)", "status"
    message: str
    submission_id: str | None = None


class HealthMonitor:
    def __init__(self, service: Leaderboard, clock: Callable[[], float] = time.time) -> None:
        self.service, self.clock = service, clock
        settings = service.settings
        self.limits = Limits(overdue_after(settings.score_interval_s, settings.lease_s))
        self.pulse = Pulse(clock)  # the app hands it to its WorkerProcess
        self._facts: Facts | None = None
        self._reading = threading.Lock()
        self._read_error: tuple[float, str] | None = None
        self._aside, self._aside_running = threading.Lock(), False  # one reading aside at a time

    # -- answers (memory only, once the facts are read) --------------------------------------------

    def health(self) -> Health:
        """The service's health now; reads the facts only when none were read yet (or they are old and no
        scheduler keeps them: then in a thread, answering with the ones in hand)."""
        facts = self._facts
        if facts is None:
            facts = self.refresh()
        elif self.clock() - facts.read_at > 2 * REFRESH_S:  # the scheduler's reading is late, or there is none
            self.read_aside()
        return assess(facts, self.pulse.state(), self.clock(), self.limits)

    def ready(self) -> bool:
        """Whether ``health()`` answers from memory now (facts are in hand)."""
        return self._facts is not None

    def recent_errors(self, by: str, limit: int = 20) -> list[ErrorNote]:
        """The latest failures, newest first: jobs, scoring rounds, Hub calls (``NotAuthorised`` but to maintainers)."""
        self.service.moderation.require_maintainer(by)
        facts = self._facts or self.refresh()
        notes = [ErrorNote(j.at, "job", j.message, j.submission_id) for j in facts.failed]
        notes += [ErrorNote(f.at, "scoring round", f.message) for f in self.pulse.state().failures]
        for name, store in (("requests", self.service.requests), ("results", self.service.results)):
            calls = store.hub_calls()
            failures = calls.failures if calls is not None else ()
            notes += [ErrorNote(f.at, f"Hub ({name})", f"{f.kind}: {f.message}") for f in failures]
        if self._read_error is not None:
            notes.append(ErrorNote(self._read_error[0], "status", self._read_error[1]))
        return sorted(notes, key=lambda n: n.at, reverse=True)[:limit]

    # -- reading -------------------------------------------------------------------------------------

    def refresh(self) -> Facts:
        """Read the facts now (one reader at a time); on a failure keep the ones read before."""
        with self._reading:
            try:
                self._facts = self._read()
            except Exception as error:  # the store is unreachable: the facts in hand stand, and age
                log.warning("could not read the service's health: %s", error)
                self._read_error = (self.clock(), " ".join(str(error).split())[:500] or type(error).__name__)
                if self._facts is None:
                    self._facts = _nothing_read(self.service, self.clock())
            return self._facts

    def schedule(self, scheduler: BackgroundScheduler) -> None:
        """Read the facts every ``REFRESH_S`` in ``scheduler`` (started), from now on."""
        scheduler.add_job(self.refresh, "interval", seconds=REFRESH_S, id=JOB_ID, max_instances=1, coalesce=True,
                          next_run_time=dt.datetime.now(dt.UTC))  # fmt: skip

    def read_aside(self) -> None:
        """Read the facts in a thread of its own (none when one is under way already)."""
        with self._aside:
            if self._aside_running:
                return
            self._aside_running = True

        def read() -> None:
            try:
                self.refresh()
            finally:
                self._aside_running = False

        threading.Thread(target=read, name="health-facts", daemon=True).start()

    def _read(self) -> Facts:
        service, now = self.service, self.clock()
        entries = service.registry.entries()
        return Facts(now, queue_facts(entries, now, service.settings.lease_s), service.commit_budget(),
                     hub_state(service), failed_jobs(entries))  # fmt: skip


def queue_facts(entries: list[Entry], now: float, lease_s: float) -> QueueFacts:
    """The queue as the worker sees it (``Entry.status``: a stale entry waits again)."""
    rate = seconds_per_point(entries)
    waiting = [e for e in entries if e.status == PENDING and not e.cancelled]
    running = [e for e in entries if e.status == RUNNING]
    work = sum(JOB_OVERHEAD_S + cost_of(e.request) * rate for e in waiting)
    for entry in running:
        started = epoch(entry.job.started_at) if entry.job.started_at else now
        work += max(0.0, JOB_OVERHEAD_S + cost_of(entry.request) * rate - (now - started))
    recent = [cost_of(e.request) for e in entries[-TYPICAL_OF:]]
    typical = JOB_OVERHEAD_S + (statistics.median(recent) * rate if recent else 0.0)
    finished = [epoch(e.job.finished_at) for e in entries if e.job.status == FINISHED and e.job.finished_at]
    beats = [epoch(e.job.lease.expires_at) - lease_s for e in running if e.job.lease is not None]
    return QueueFacts(
        waiting=len(waiting),
        running=len(running),
        oldest_since=min((_waiting_since(e) for e in waiting), default=None),
        work_s=work,
        typical_job_s=typical,
        last_result=max(finished, default=None),
        last_lease_beat=max(beats, default=None),
    )


def _waiting_since(entry: Entry) -> float:
    """A new submission waits since it came; one queued again by a rescore at the latest since its last outcome."""
    job = entry.job
    if entry.stale and (job.finished_at or job.updated_at):
        return epoch(str(job.finished_at or job.updated_at))
    return entry.created


def failed_jobs(entries: list[Entry], kept: int = KEPT_FAILED_JOBS) -> tuple[FailedJob, ...]:
    failed = [e for e in entries if e.job.status == FAILED and not e.cancelled]
    notes = []
    for entry in failed:
        job = entry.job
        at = epoch(job.finished_at or job.updated_at or entry.request.created_at)
        notes.append(FailedJob(at, entry.submission_id, entry.user, job.failure, job.message or ""))
    return tuple(sorted(notes, key=lambda n: n.at, reverse=True)[:kept])


def hub_state(service: Leaderboard) -> HubCallsState | None:
    """The two stores' notes as one: a store whose last call failed speaks for both; else the latest of each."""
    found = [s for s in (service.requests.hub_calls(), service.results.hub_calls()) if s is not None]
    if not found:
        return None
    broken = [s for s in found if s.reachable is False]
    if broken:
        return max(broken, key=lambda s: s.last_failure or 0.0)
    last = max((s for s in found if s.last_failure is not None), key=lambda s: s.last_failure or 0.0, default=None)
    oks = [s.last_ok for s in found if s.last_ok is not None]
    if last is None:
        return HubCallsState(max(oks, default=None), None, None, ())
    return HubCallsState(max(oks, default=None), last.last_failure, last.last_kind, ())


def _nothing_read(service: Leaderboard, now: float) -> Facts:
    """Facts before any reading worked: an empty queue, read long ago (so they are said to be stale)."""
    empty = QueueFacts(0, 0, None, 0.0, JOB_OVERHEAD_S, None, None)
    return Facts(now - 10 * REFRESH_S, empty, service.commit_budget(), hub_state(service))


__all__ = ["ErrorNote", "Health", "HealthMonitor", "queue_facts"]
