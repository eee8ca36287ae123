"""The order the worker takes waiting jobs in: fair across users, not first-in-first-out.

Every job carries a cost estimate from intake (``Request.cost``: the points of its valid rows,
rows x points; scoring time grows linearly with them, ~0.35 ms a point for the costliest traces
at 1440x1080, see ``benchmarks/bench_fair_queue.py``). A user's *service* is the cost of their
jobs started in the last 24 hours. The next job is the head of the queue of the user whose
service *plus that job's cost* is least (fair queueing's finish tag): a user who has been served
little goes first, and among users served alike a small file passes a big one. Ties go to the
user served least recently, then to the oldest submission. Within one user, first in first out.

A job being scored lets through the first waiting job when its user's service plus its cost is
less than the running job's user's service (``overtaker``; the worker looks every
``YIELD_EVERY_S``). So three accounts with three huge files each cannot make a fourth user wait
for more than a few seconds of the job running when it arrives.
``order`` is a pure function of the entries, so the queue position and ETA a submitter sees are
the order the worker will really take.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable
from dataclasses import dataclass

from leaderboard.records import FINISHED, PENDING, RUNNING, Request, epoch
from leaderboard.storage import Entry

DAY_S = 24 * 3600.0
BYTES_PER_POINT = 16  # "[731.5, 880.25], ": records from before costs were kept are estimated from their size
# The ETA's model of one job: a fixed part (answer key, reading, committing) plus a rate per point.
# Measured on a quiet 2-core machine (benchmarks/bench_fair_queue.py prints both): 2000-point zigzags
# across 1440x1080 images took 0.31-0.37 ms a point; ordinary traces take less, so the ETA errs long.
JOB_OVERHEAD_S = 1.0
SECONDS_PER_POINT = 0.00035
YIELD_EVERY_S = 3.0  # how often a job being scored looks for another user's job to let through
MIN_POINTS_TO_LEARN = 20_000  # a finished job this big measures the rate on this machine (smaller: overhead)


def cost_of(request: Request) -> int:
    """The request's cost in points: as estimated at intake, or from the file's size for older records."""
    return request.cost if request.cost is not None else max(1, request.size // BYTES_PER_POINT)


def _key(user: str) -> str:
    return user.casefold()


def _started(entry: Entry, now: float) -> float | None:
    """When the entry's job last started, if within the last 24 hours."""
    started = entry.job.started_at
    if started is None:
        return None
    at = epoch(started)
    return at if now - at < DAY_S else None


def served(entries: Iterable[Entry], now: float) -> tuple[dict[str, int], dict[str, float]]:
    """Per user (case-folded): the cost of their jobs started in the last 24 hours, and when the latest started."""
    cost: dict[str, int] = {}
    latest: dict[str, float] = {}
    for entry in entries:
        at = _started(entry, now)
        if at is None:
            continue
        user = _key(entry.user)
        cost[user] = cost.get(user, 0) + cost_of(entry.request)
        latest[user] = max(latest.get(user, at), at)
    return cost, latest


def order(entries: list[Entry], now: float) -> list[Entry]:
    """The waiting (PENDING) entries in the order the worker will take them."""
    queues: dict[str, list[Entry]] = {}
    for entry in entries:  # the registry lists them oldest first: each user's queue is FIFO
        if entry.status == PENDING:
            queues.setdefault(_key(entry.user), []).append(entry)
    service, latest = served(entries, now)
    taken: list[Entry] = []
    while queues:
        user = min(queues, key=lambda u: _rank(queues[u][0], service.get(u, 0), latest.get(u)))
        entry = queues[user].pop(0)
        taken.append(entry)
        service[user] = service.get(user, 0) + cost_of(entry.request)
        latest[user] = now + len(taken)  # picked in this plan: served after everyone served before now
        if not queues[user]:
            del queues[user]
    return taken


def _rank(head: Entry, service: int, latest: float | None) -> tuple[int, float, str, str]:
    """Least (service + the job's cost) first; then served least recently (never: first); then oldest."""
    finish = service + cost_of(head.request)
    return finish, float("-inf") if latest is None else latest, head.request.created_at, head.submission_id


def overtaker(entries: list[Entry], current: Entry, now: float) -> Entry | None:
    """The waiting job of another user that should be scored before ``current`` goes on, if any.

    The first job of the fair order, when its user's service plus its cost is less than the
    service of ``current``'s user (which counts ``current`` from its start): a newcomer's small
    file passes a big file already being scored; big files of users served alike do not pass each other.
    """
    waiting = order(entries, now)
    if not waiting or _key(waiting[0].user) == _key(current.user):
        return None
    return waiting[0] if _passes(waiting[0], current, served(entries, now)[0]) else None


def _passes(waiting: Entry, running: Entry, service: dict[str, int]) -> bool:
    """Whether ``waiting`` passes ``running``: its user's service plus its cost is below ``running``'s user's."""
    return service.get(_key(waiting.user), 0) + cost_of(waiting.request) < service.get(_key(running.user), 0)


def fifo(entries: list[Entry]) -> list[Entry]:
    """The waiting entries first in, first out (the order before fairness; kept for the benchmark's "before")."""
    return [e for e in entries if e.status == PENDING]


@dataclass(frozen=True)
class QueuePosition:
    """Where a submission stands: ``position`` 1 is next; 0 is being scored; ``None`` once scored."""

    submission_id: str
    position: int | None
    ahead: int  # jobs the worker takes before this one (the running ones included)
    eta_s: float | None  # seconds until it is likely scored; None when not waiting

    def words(self) -> str:
        """One line for My submissions."""
        if self.position is None:
            return ""
        if self.position == 0:
            return f"being scored now; done in {_about(self.eta_s)}"
        place = "next in the queue" if self.position == 1 else f"number {self.position} in the queue"
        return f"{place}; scored in {_about(self.eta_s)}"


def position(entries: list[Entry], submission_id: str, now: float, fair: bool = True) -> QueuePosition:
    """Where ``submission_id`` stands among the jobs the worker will take, and roughly when it is scored."""
    rate = seconds_per_point(entries)
    running = [e for e in entries if e.status != PENDING and e.job.status == RUNNING]
    if any(e.submission_id == submission_id for e in running):
        own = next(e for e in running if e.submission_id == submission_id)
        started = epoch(own.job.started_at or own.request.created_at)
        return QueuePosition(submission_id, 0, 0, max(1.0, _seconds(own, rate) - (now - started)))
    waiting = order(entries, now) if fair else fifo(entries)
    for index, entry in enumerate(waiting):
        if entry.submission_id == submission_id:
            ahead = waiting[:index]
            left = sum(_running_left(r, entry, entries, now, rate, fair) for r in running)
            eta = left + sum(_seconds(e, rate) for e in ahead) + _seconds(entry, rate)
            return QueuePosition(submission_id, index + 1, index + len(running), eta)
    return QueuePosition(submission_id, None, 0, None)


def _running_left(running: Entry, waiting: Entry, entries: list[Entry], now: float, rate: float, fair: bool) -> float:
    """How long ``waiting`` waits for ``running``: the rest of it, or a look's interval when it is let through."""
    left = max(0.0, _seconds(running, rate) - (now - epoch(running.job.started_at or running.request.created_at)))
    passes = fair and _passes(waiting, running, served(entries, now)[0])
    return min(left, YIELD_EVERY_S) if passes else left


def seconds_per_point(entries: Iterable[Entry]) -> float:
    """The rate on this machine: the median of recent big finished jobs', else the measured default."""
    rates = []
    for entry in entries:
        job, cost = entry.job, cost_of(entry.request)
        if job.status == FINISHED and job.started_at and job.finished_at and cost >= MIN_POINTS_TO_LEARN:
            took = epoch(job.finished_at) - epoch(job.started_at) - JOB_OVERHEAD_S
            if took > 0:
                rates.append(took / cost)
    return statistics.median(rates[-20:]) if rates else SECONDS_PER_POINT


def _seconds(entry: Entry, rate: float) -> float:
    return JOB_OVERHEAD_S + cost_of(entry.request) * rate


def _about(seconds: float | None) -> str:
    if seconds is None:
        return "an unknown time"
    return "about " + duration_words(seconds)


def duration_words(seconds: float) -> str:
    """``45 seconds``, ``3 minutes``, ``2 hours 10 minutes``: a rough duration a person reads at a glance."""
    seconds = max(0.0, seconds)
    if seconds < 60:
        value = max(1, round(seconds / 5) * 5) if seconds >= 10 else max(1, round(seconds))
        return f"{value} second{'s' if value != 1 else ''}"
    minutes = round(seconds / 60)
    if minutes < 60:
        return f"{minutes} minute{'s' if minutes != 1 else ''}"
    hours, rest = divmod(minutes, 60)
    text = f"{hours} hour{'s' if hours != 1 else ''}"
    return text + (f" {rest} minute{'s' if rest != 1 else ''}" if rest else "")
