"""The queue: which job runs next, and whether a RUNNING job's worker is still alive.

Jobs whose worker died are taken up first (oldest first); then waiting jobs in the fair order of
``fairness.order`` (round-robin over users by the compute they were served; FIFO with
``fair=False``). A worker that lost a race for a job looks a few jobs further. A RUNNING
job belongs to the worker holding its lease; the lease is renewed by a heartbeat and is void
once it expires, or at once when its holder is provably dead: a process on this host that no
longer exists (or whose pid now belongs to a newer process).
A job is started at most ``max_attempts`` times; after that it fails as a server problem.
"""

from __future__ import annotations

import os
import secrets
import socket
from dataclasses import dataclass
from enum import Enum

from leaderboard.jobs.fairness import fifo, order
from leaderboard.records import PENDING, RUNNING, Lease, epoch, iso
from leaderboard.storage import Entry

_LIVE_TOKENS: set[str] = set()  # leases held by workers running in this process


class Decision(Enum):
    SKIP = "skip"  # finished, failed, or running elsewhere
    RUN = "run"
    GIVE_UP = "give up"  # its workers died too often


@dataclass(frozen=True)
class Holder:
    """This process as a lease holder."""

    token: str
    host: str
    pid: int
    process_start: str | None

    @classmethod
    def here(cls) -> Holder:
        pid = os.getpid()
        return cls(secrets.token_hex(8), socket.gethostname(), pid, process_start(pid))

    def lease(self, now: float, lease_s: float) -> Lease:
        return Lease(self.token, self.host, self.pid, self.process_start, iso(now + lease_s))

    def __enter__(self) -> Holder:
        _LIVE_TOKENS.add(self.token)
        return self

    def __exit__(self, *exc: object) -> None:
        _LIVE_TOKENS.discard(self.token)


def process_start(pid: int) -> str | None:
    """The start time of ``pid`` in clock ticks since boot (Linux), or ``None`` when unknown."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
        return fields[19]  # field 22 of stat(5); fields[0] is field 3
    except (OSError, IndexError):
        return None


def process_exists(pid: int) -> bool:
    """Whether a process ``pid`` exists on this machine (it may be someone else's)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # exists, owned by someone else
    return True


def holder_alive(lease: Lease, now: float) -> bool:
    """False when the lease has expired or its holder is known to be dead."""
    if epoch(lease.expires_at) <= now:
        return False
    if lease.host != socket.gethostname():
        return True  # another machine: only the expiry tells
    if lease.pid == os.getpid():
        return lease.token in _LIVE_TOKENS
    if not process_exists(lease.pid):
        return False
    if lease.process_start is not None:
        return process_start(lease.pid) == lease.process_start
    return True


def decide(entry: Entry, now: float, max_attempts: int) -> Decision:
    """What the worker should do with ``entry`` now."""
    if entry.status == PENDING:
        return Decision.RUN
    job = entry.job
    if job.status != RUNNING or (job.lease is not None and holder_alive(job.lease, now)):
        return Decision.SKIP
    return Decision.RUN if job.attempts < max_attempts else Decision.GIVE_UP


def next_job(
    entries: list[Entry], now: float, max_attempts: int, skip: int = 0, fair: bool = True
) -> tuple[Entry, Decision] | None:
    """The entry that needs the worker first, and what to do with it.

    Jobs whose worker died (to take up again, or to give up on) come first: they were already
    given their turn. Then the waiting ones, in fair order (``fair=False``: first in, first out).
    ``skip`` passes over that many such entries when there are more (the last one otherwise): a
    worker that just lost a claim to another worker looks a little further down the queue, so
    that several workers stop racing for the same job.
    """
    needing: list[tuple[Entry, Decision]] = []
    for entry in entries:
        if entry.status != PENDING:
            decision = decide(entry, now, max_attempts)
            if decision is not Decision.SKIP:
                needing.append((entry, decision))
    waiting = order(entries, now) if fair else fifo(entries)
    needing.extend((entry, Decision.RUN) for entry in waiting)
    if not needing:
        return None
    return needing[min(skip, len(needing) - 1)]
