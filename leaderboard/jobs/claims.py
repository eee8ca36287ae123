"""A worker's hold on one job, kept by compare-and-swap commits on ``jobs/{id}.json``.

Several workers (each on its own machine or disk, all on one requests store) may look at the same
job at once. Every change a worker makes to a job file is a conditional commit,
``Storage.commit(..., expect={job file: the bytes it decided on})``; on the Hub that is a commit on
the parent it read, re-based after a 412 only when the job file did not change in between. So:

- a claim lands only on the state it was decided on; on ``Conflict`` the job is read again and
  the decision taken again: a job another worker took is not taken again;
- a heartbeat, the outcome and a release land only while the job file is still the one this
  worker last wrote: after a lost lease they are refused (``Conflict``), so they never turn
  another worker's FINISHED back into RUNNING;
- a change of ours whose answer was lost and that landed anyway is recognised by its lease token
  (``Claim.adopt``), so it is neither repeated nor mistaken for someone else's.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass

from leaderboard.jobs.queue import Decision, Holder, decide
from leaderboard.records import RUNNING, Job, iso, job_path
from leaderboard.storage import Conflict, Entry, Storage

log = logging.getLogger(__name__)


def read_job(store: Storage, submission_id: str) -> tuple[Job, bytes | None]:
    """The job as stored now, and its file's bytes (``None``: no file yet, PENDING)."""
    raw = store.read(job_path(submission_id))
    return (Job.from_bytes(raw) if raw else Job(submission_id)), raw


@dataclass
class Claim:
    """This worker's hold on a RUNNING job: the job as last written, and that file's exact bytes."""

    store: Storage
    job: Job
    raw: bytes
    token: str

    @property
    def path(self) -> str:
        return job_path(self.job.submission_id)

    def commit(self, job: Job | None, puts: Mapping[str, bytes], message: str) -> None:
        """``puts``, and ``job`` as the new job file, only while the job file is still ours; else ``Conflict``."""
        files = dict(puts)
        data = job.to_bytes() if job is not None else None
        if data is not None:
            files[self.path] = data
        try:
            self.store.commit(files, message=message, expect={self.path: self.raw})
        except Conflict:
            if not self.adopt():
                raise
            self.store.commit(files, message=message, expect={self.path: self.raw})
        if job is not None and data is not None:
            self.job, self.raw = job, data

    def adopt(self) -> bool:
        """After a ``Conflict``: whether the job file is still ours (a write of ours whose answer was lost)."""
        current, raw = read_job(self.store, self.job.submission_id)
        if raw is None or raw == self.raw or not _held_by(current, self.token):
            return False
        log.info("%s: a write of ours whose answer was lost had landed; carrying on from it", self.path)
        self.job, self.raw = current, raw
        return True


def claim(store: Storage, entry: Entry, holder: Holder, now: float, lease_s: float, max_attempts: int) -> Claim | None:
    """Take ``entry``'s job (RUNNING, attempts + 1, a lease), or ``None`` when it no longer needs this worker."""
    while True:
        current, raw = read_job(store, entry.submission_id)
        if raw is not None and _held_by(current, holder.token):
            return Claim(store, current, raw, holder.token)  # our own claim, whose answer was lost
        fresh = Entry(entry.request, current, entry.review, entry.generation)
        if decide(fresh, now, max_attempts) is not Decision.RUN:
            log.info("%s is no longer waiting (%s); leaving it", entry.submission_id, current.status)
            return None
        job = started(fresh, holder, now, lease_s)
        data = job.to_bytes()
        try:
            store.commit({job_path(entry.submission_id): data}, message=f"claim {entry.submission_id}",
                         expect={job_path(entry.submission_id): raw})  # fmt: skip
        except Conflict:
            log.info("%s changed while it was being claimed; reading it again", entry.submission_id)
            continue
        return Claim(store, job, data, holder.token)


def started(entry: Entry, holder: Holder, now: float, lease_s: float) -> Job:
    """The RUNNING job this worker writes when it takes ``entry``."""
    attempts = 0 if entry.stale else entry.job.attempts
    retry = entry.job.status == RUNNING
    return Job(
        entry.submission_id,
        status=RUNNING,
        attempts=attempts + 1,
        generation=entry.generation,
        lease=holder.lease(now, lease_s),
        message=f"scoring was interrupted (the worker stopped); started again, attempt {attempts + 1}"
        if retry
        else None,
        updated_at=iso(now),
        started_at=iso(now),
    )


def _held_by(job: Job, token: str) -> bool:
    return job.status == RUNNING and job.lease is not None and job.lease.token == token
