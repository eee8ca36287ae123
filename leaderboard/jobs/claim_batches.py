"""Several jobs' claims, heartbeats and outcomes in one commit each, still compare-and-swap per job.

The Hub's hourly commit quota (``commit_budget``) makes one commit per job state change too dear
under a deadline burst. A batch commit writes several job files at once with ``expect`` on every
one of them, so it lands only where each job file is still what this worker read or last wrote.
When it is refused (``Conflict``), each job is read again: a job another worker took (or settled)
drops out of the batch, a job of ours whose earlier write landed without an answer is adopted
(``Claim.adopt``), and the rest is committed again. As with single claims, a job is never taken
twice and never written back over another worker's state.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping, Sequence

from leaderboard.jobs.claims import Claim, read_job, started
from leaderboard.jobs.queue import Decision, Holder, decide
from leaderboard.records import FAILED, FINISHED, RUNNING, Job, job_path
from leaderboard.storage import Conflict, Entry, Storage, StorageError

log = logging.getLogger(__name__)
Change = tuple[Claim, Job, Mapping[str, bytes]]  # a claim, its job's new state, the files that go with it

ROUNDS = 5  # re-reads after refusals before a batch gives up (each refusal means another writer moved)


def claim_batch(
    store: Storage, entries: list[Entry], holder: Holder, now: float, lease_s: float, max_attempts: int
) -> list[tuple[Entry, Claim]]:
    """Take every job of ``entries`` that still needs a worker, in one commit; the ones taken, in order."""
    for _ in range(ROUNDS):
        taken: list[tuple[Entry, Claim]] = []
        decided: list[tuple[Entry, bytes | None, Job]] = []
        for entry in entries:
            current, raw = read_job(store, entry.submission_id)
            if raw is not None and _held_by(current, holder.token):  # our own claim, whose answer was lost
                taken.append((entry, Claim(store, current, raw, holder.token)))
                continue
            fresh = Entry(entry.request, current, entry.review, entry.generation)
            if decide(fresh, now, max_attempts) is Decision.RUN:
                decided.append((fresh, raw, started(fresh, holder, now, lease_s)))
        if not decided:
            return taken
        puts = {job_path(e.submission_id): job.to_bytes() for e, _, job in decided}
        expect = {job_path(e.submission_id): raw for e, raw, _ in decided}
        try:
            store.commit(puts, message=_message("claim", [e.submission_id for e, _, _ in decided]), expect=expect)
        except Conflict:
            log.info("a job of the batch changed while it was being claimed; reading them again")
            continue
        taken += [(e, Claim(store, job, puts[job_path(e.submission_id)], holder.token)) for e, _, job in decided]
        order = {e.submission_id: i for i, e in enumerate(entries)}
        return sorted(taken, key=lambda pair: order[pair[0].submission_id])
    return []


def commit_claims(store: Storage, changes: Sequence[Change], action: str) -> list[Claim]:
    """Write each claim's new job file (and its other files) in one commit, only while the job is still
    that claim's. Returns the claims whose change landed; one whose lease went elsewhere is left out."""
    pending = list(changes)
    for _ in range(ROUNDS):
        if not pending:
            return []
        files: dict[str, bytes] = {}
        for held, job, puts in pending:
            files.update(puts)
            files[held.path] = job.to_bytes()
        expect: dict[str, bytes | None] = {held.path: held.raw for held, _, _ in pending}
        ids = [held.job.submission_id for held, _, _ in pending]
        try:
            store.commit(files, message=_message(action, ids), expect=expect)
        except Conflict:
            kept = [c for c in pending if _still_ours(store, c[0])]
            for held, _, _ in pending:
                if not any(held is k[0] for k in kept):
                    log.warning("lost the lease on %s; leaving it to its new worker", held.job.submission_id)
            pending = kept
            continue
        for held, job, _ in pending:
            held.job, held.raw = job, files[held.path]
        return [held for held, _, _ in pending]
    raise Conflict(f"{action} of {len(pending)} jobs: refused {ROUNDS} times; nothing was stored")


def _still_ours(store: Storage, held: Claim) -> bool:
    """After a refused batch: whether this claim's job file is still the one it last wrote (or a lost write of it)."""
    _, raw = read_job(store, held.job.submission_id)
    return raw == held.raw or held.adopt()


def _held_by(job: Job, token: str) -> bool:
    return job.status == RUNNING and job.lease is not None and job.lease.token == token


def _message(action: str, ids: list[str]) -> str:
    """``claim 0123abcd`` for one job, as before; ``claim 3 jobs: a, b, c`` for several."""
    return f"{action} {ids[0]}" if len(ids) == 1 else f"{action} {len(ids)} jobs: {', '.join(ids)}"


class Batch:
    """The jobs of one batch while they are scored: the claims still waiting for an outcome (their leases are
    renewed), and the outcomes scored but not yet written. A heartbeat writes both in one commit."""

    def __init__(self, store: Storage, claims: list[Claim]) -> None:
        self.store = store
        self.lock = threading.Lock()  # the heartbeat thread and the scoring thread
        self.waiting = list(claims)
        self.done: list[Change] = []

    def add(self, held: Claim, job: Job, files: Mapping[str, bytes]) -> None:
        with self.lock:
            self.waiting = [c for c in self.waiting if c is not held]
            self.done.append((held, job, files))

    def beat(self, renewed: Callable[[Claim], Job]) -> None:
        """One commit: the waiting claims' leases renewed (``renewed``), and the outcomes so far."""
        with self.lock:
            changes: list[Change] = [(c, renewed(c), {}) for c in self.waiting] + self.done
            action = f"heartbeat and {_action(self.done)}" if self.done else "heartbeat"  # the ids: all of them
            landed = commit_claims(self.store, changes, action)
            kept = [c for c in self.waiting if any(c is k for k in landed)]  # a lost lease is not renewed
            lost = len(self.waiting) - len(kept)
            self.waiting, self.done = kept, []
        if lost and not kept:  # nothing left to keep alive: the heartbeat stops
            raise Conflict(f"the lease of {lost} job(s) went to another worker")

    def write(self) -> None:
        """The outcomes not yet written, in one commit; on ``StorageError`` they stay in ``done`` (to release)."""
        with self.lock:
            if self.done:
                commit_claims(self.store, self.done, _action(self.done))
                self.done = []


def _action(changes: Sequence[Change]) -> str:
    statuses = {job.status for _, job, _ in changes}
    return "finished" if statuses == {FINISHED} else "failed" if statuses == {FAILED} else "scored"


class Heartbeat:
    """Calls ``renew`` every ``interval`` seconds in a thread until the block ends."""

    def __init__(self, renew: Callable[[], None], interval: float) -> None:
        self.renew, self.interval = renew, interval
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._beat, name="lease-heartbeat", daemon=True)

    def __enter__(self) -> Heartbeat:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopped.set()
        self.thread.join()  # an in-flight renewal lands before the outcome is committed

    def _beat(self) -> None:
        while not self.stopped.wait(self.interval):
            try:
                self.renew()
            except Conflict as error:  # the lease went to another worker: writing on would undo its work
                log.warning("lease lost, heartbeats stop: %s", error)
                return
            except StorageError as error:
                log.warning("lease heartbeat failed: %s", error)
