"""The worker: takes the next job (fair across users), scores it with the private answer key, records the outcome.

Exactly once, even under SIGKILL at any moment:

- one worker at a time per machine (a process lock; a second one finds it taken and returns);
- a job is *claimed* by a commit (RUNNING, attempts + 1, a lease); a heartbeat renews the lease
  while scoring; a job whose worker died is taken up again (see ``queue``), a bounded number
  of times. Every change to a job file is a compare-and-swap on what was read (``claims``), so
  workers on several machines sharing one store never take one job twice;
- the outcome is *one* commit: the job's FINISHED state, the summary, the per-row scores and
  the audit entry land together or not at all, and only while the lease is still ours. Result
  files are keyed by submission id, so a redo replaces rather than adds;
- an outcome the store refuses (a full disk, a Hub outage) puts the job back in the queue
  without using up an attempt, and an answer key that cannot be loaded *now* leaves the job
  unclaimed: both end the round with ``StorageError``, and the next round tries again;
- the public table is derived and re-synced after every job and at the end of every drain;
- a long job lets other users through: every ``YIELD_EVERY_S`` of scoring it scores, in its
  middle, the waiting job the fair order puts first (``fairness.overtaker``), then goes on. Its
  lease stays renewed and its work is kept in memory, so a SIGKILL then leaves both RUNNING
  with a dead holder and both are taken up again, as after any crash.

``Worker.drain`` is the APScheduler job inside the app; ``python -m leaderboard work`` runs the
same worker standalone.
"""

from __future__ import annotations

import itertools
import logging
import random
import threading
import time
from collections.abc import Callable
from dataclasses import replace

from filelock import Timeout

from leaderboard.config import Settings
from leaderboard.jobs.claim_batches import Batch, Change, claim_batch, commit_claims
from leaderboard.jobs.claim_batches import Heartbeat as _Heartbeat  # its name here before it moved
from leaderboard.jobs.claims import Claim, claim, read_job
from leaderboard.jobs.fairness import YIELD_EVERY_S, overtaker
from leaderboard.jobs.queue import Decision, Holder, decide, next_job
from leaderboard.publishing import Publisher, Releases
from leaderboard.records import FAILED, FINISHED, PENDING, Job, iso, job_path, upload_path
from leaderboard.statistics import CopyFinder, disclosed_summary
from leaderboard.storage import (
    AnswerKeys,
    AnswerKeyUnavailable,
    CommitBudget,
    Conflict,
    Entry,
    Registry,
    StorageError,
    audit_entry,
    process_lock,
    result_files,
)
from scoring import AnswerKeyError, SubmissionError, score_submission

log = logging.getLogger(__name__)

WORKER = "worker"  # the "who" of the worker's audit entries
LOOK_AHEAD = 4  # after losing a job to another worker, take one of the next few waiting ones
SERVER_PROBLEM = "it does not count against your quota, and the maintainers can score it again"


class Worker:
    def __init__(
        self,
        settings: Settings,
        registry: Registry,
        keys: AnswerKeys,
        publisher: Publisher,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.settings = settings
        self.registry = registry
        self.store = registry.store
        self.keys = keys
        self.publisher = publisher
        self.clock = clock
        self._generation: int | None = None
        self.budget = CommitBudget(self.store, publisher.results)
        self.scored: list[str] = []  # the jobs of the last run_once
        self._limit: int | None = None  # drain's max_jobs, left
        self.on_scored: Callable[[str], None] = lambda submission_id: None  # a job let through a long one
        # Between two scored rows: the worker process waits while the app answers requests (pages_first.py).
        self.step_aside: Callable[[], float] = lambda: 0.0
        self.copies = CopyFinder(registry)  # duplicate detection of test submissions
        self.releases = Releases(settings, registry)

    def run_once(self) -> str | None:
        """Score the next job, or batch of jobs (``commit_budget``: on the Hub, several waiting jobs share
        their commits), if there is one: the last one's id (all: ``scored``), or ``None`` when idle, when
        another worker is busy, or when the commit budget keeps the jobs waiting."""
        lock = process_lock(self.settings.locks_folder, "worker", timeout=0)
        try:
            lock.acquire()
        except Timeout:
            log.debug("another worker is running on this machine")
            return None
        try:
            with Holder.here() as holder:
                self.scored = self._next(holder, self._limit)
                return self.scored[-1] if self.scored else None
        finally:
            lock.release()

    def drain(self, max_jobs: int | None = None) -> int:
        """Score jobs until the queue is empty (or ``max_jobs``); the number scored. The scheduled entry point."""
        done = 0
        while max_jobs is None or done < max_jobs:
            self._limit = None if max_jobs is None else max_jobs - done
            try:
                if self.run_once() is None:
                    break
            finally:
                self._limit = None
            done += len(self.scored)
        self._sync()
        return done

    def run_forever(self, stop: threading.Event | None = None) -> None:
        """Drain, wait ``SCORE_INTERVAL_S``, repeat, until ``stop`` is set."""
        stop = stop or threading.Event()
        while not stop.is_set():
            try:
                self.drain()
            except StorageError as error:  # the store is unreachable: try again next round
                log.error("worker round failed: %s", error)
            except Exception:  # a background loop carries on; the traceback goes to the log
                log.exception("worker round failed; trying again in %s s", self.settings.score_interval_s)
            stop.wait(self.settings.score_interval_s)

    # -- one job ----------------------------------------------------------------------------------

    def _next(self, holder: Holder, limit: int | None = None) -> list[str]:
        generation = self.registry.generation()
        if generation != self._generation:  # a rescore may follow a new answer key: reload it
            self.keys.refresh()
            self._generation = generation
        skip = 0
        while True:
            picks = self._waiting(skip)
            if not picks:
                return []
            if picks[0][1] is Decision.GIVE_UP:
                self._give_up(picks[0][0])
                continue
            batch = [entry for entry, decision in itertools.takewhile(lambda p: p[1] is Decision.RUN, picks)]
            size = min(self.budget.batch_size(len(batch)), len(batch) if limit is None else limit)
            if size == 0:  # the commit budget keeps its share for acknowledgements: the jobs wait, queued
                log.info("commit budget low: %d job(s) wait; %s", len(batch), self.budget.state().message)
                return []
            batch = batch[:size]
            for split in dict.fromkeys(e.request.split for e in batch):
                self._load_key(split)
            now, lease_s, attempts = self.clock(), self.settings.lease_s, self.settings.max_attempts
            if len(batch) == 1:
                held = claim(self.store, batch[0], holder, now, lease_s, attempts)
                taken = [(batch[0], held)] if held is not None else []
            else:
                taken = claim_batch(self.store, batch, holder, now, lease_s, attempts)
            if taken:
                return self._run(taken, holder)
            # Another worker took them or settled them meanwhile: look again, a little further down the queue.
            skip = random.randrange(LOOK_AHEAD)

    def _waiting(self, skip: int) -> list[tuple[Entry, Decision]]:
        """The next jobs that need the worker, in ``next_job``'s order, up to a batch."""
        entries, now, picked = self.registry.entries(), self.clock(), {}
        for i in range(self.budget.max_batch):
            found = next_job(entries, now, self.settings.max_attempts, skip + i, self.settings.fair_queue)
            if found is None or found[0].submission_id in picked:
                break
            picked[found[0].submission_id] = found
        return list(picked.values())

    def _run(self, taken: list[tuple[Entry, Claim]], holder: Holder, nested: bool = False) -> list[str]:
        """Score the batch; outcomes go out with each heartbeat and, the rest, in one commit at the end."""
        batch = Batch(self.store, [held for _, held in taken])
        yields = self.settings.fair_queue and not nested  # a job let through another lets nothing through itself
        with _Heartbeat(lambda: batch.beat(lambda held: self._renewed(held, holder)), self.settings.lease_s / 3):
            for entry, held in taken:
                let_through = (lambda current=entry: self._let_through(current, holder)) if yields else None
                outcome, files, score = self._score(entry, let_through)
                batch.add(held, *self._outcome(entry, held, outcome, files, score))
        try:
            batch.write()
        except Conflict as error:
            log.warning("lost the leases of a batch while scoring; leaving them to their new worker: %s", error)
        except StorageError as error:
            self._release(batch.done, error)
            raise
        self._sync()
        return [entry.submission_id for entry, _ in taken]

    def _outcome(
        self, entry: Entry, held: Claim, outcome: dict, files: dict[str, bytes], score: float | None
    ) -> tuple[Job, dict[str, bytes]]:
        """The job's final state and its files (with the audit entry)."""
        now = self.clock()
        done = replace(held.job, lease=None, updated_at=iso(now), finished_at=iso(now), **outcome)
        action = "finished" if done.status == FINISHED else "failed"
        after = {k: getattr(done, k) for k in ("status", "attempts", "generation", "message", "failure")}
        after["score"] = score
        path, data = audit_entry(WORKER, action, entry.submission_id, now, None, after)
        files[path] = data
        log.info("%s %s (attempt %d)", action, entry.submission_id, done.attempts)
        return done, files

    def _load_key(self, split: str) -> None:
        """Load the answer key before claiming: one that cannot be read or built *now* (a full disk)
        leaves the job queued; one that cannot be used at all fails the job in ``_score``, with the reason."""
        try:
            self.keys.private(split)
        except (OSError, AnswerKeyUnavailable) as error:
            raise StorageError(f"the answer key of the {split} split cannot be loaded now: {error}") from error
        except AnswerKeyError:
            return

    def _release(self, unwritten: list[Change], error: StorageError) -> None:
        """Back to the queue after outcomes the store refused, without using up an attempt.

        Attempts stop a file that keeps killing its worker; a full disk or a Hub outage is not the
        file's fault. An outcome that may still land is left alone: writing over it could score twice.
        """
        if error.outcome_unknown or not unwritten:
            return
        message = "it was scored, but the server could not store the result; it will be scored again"
        now = iso(self.clock())
        pending: list[Change] = [(held, _requeued(held.job, message, now), {}) for held, _, _ in unwritten]
        try:
            commit_claims(self.store, pending, "release")
        except StorageError as again:  # left RUNNING (or taken by another worker): as after a crash
            log.error("could not put %d job(s) back in the queue: %s", len(pending), again)
            return
        log.error("the results of %d job(s) could not be stored (%s); back in the queue", len(pending), error)

    def _renew(self, held: Claim, holder: Holder) -> None:
        """Extend one lease, only while the job is still ours (``Conflict`` otherwise: the heartbeat stops)."""
        held.commit(self._renewed(held, holder), {}, message=f"heartbeat {held.job.submission_id}")

    def _renewed(self, held: Claim, holder: Holder) -> Job:
        """The job with its lease extended (written by the batch's heartbeat, only while the job is still ours)."""
        now = self.clock()
        return replace(held.job, lease=holder.lease(now, self.settings.lease_s), updated_at=iso(now))

    def _let_through(self, current: Entry, holder: Holder) -> None:
        """Score, in the middle of ``current``, the waiting jobs the fair order puts before it."""
        while True:
            try:
                entry = overtaker(self.registry.entries(), current, self.clock())
                if entry is None:
                    return
                self._load_key(entry.request.split)
                s = self.settings
                held = claim(self.store, entry, holder, self.clock(), s.lease_s, s.max_attempts)
                if held is not None:
                    log.info("letting %s through while %s is being scored", entry.submission_id, current.submission_id)
                    for done in self._run([(entry, held)], holder, nested=True):
                        self.on_scored(done)
            except StorageError as error:  # the store hiccupped: carry on with the current job
                log.warning("could not let another job through %s: %s", current.submission_id, error)
                return

    def _score(
        self, entry: Entry, let_through: Callable[[], None] | None = None
    ) -> tuple[dict, dict[str, bytes], float | None]:
        """``(job fields, files, score)`` of the outcome; every failure is caught and described here."""
        submission_id, split = entry.submission_id, entry.request.split
        try:
            data = self.store.read(upload_path(submission_id))
            if data is None:
                raise FileNotFoundError(f"{upload_path(submission_id)} is missing from the requests store")
            budget = _Budget(self.settings.job_budget_s, let_through, self.step_aside)
            key = self.keys.private(split)
            evaluation = score_submission(data, key, baseline_raw=self.settings.baseline_raw, progress=budget.check)
        except OverBudget as error:
            return {"status": FAILED, "failure": "submission", "message": str(error)}, {}, None
        except SubmissionError as error:
            message = f"the file could not be scored: {error}"
            return {"status": FAILED, "failure": "submission", "message": message}, {}, None
        except Exception:  # any other failure is ours, not the submitter's: record it, keep going
            log.exception("scoring %s failed", submission_id)
            message = f"scoring failed because of a problem on the server; {SERVER_PROBLEM}"
            return {"status": FAILED, "failure": "server", "message": message}, {}, None
        # Test results say nothing over fewer than k valid rows (leaderboard/statistics/disclosure.py).
        summary = disclosed_summary(evaluation, split, self.settings.min_rows_per_figure)
        outcome = {
            "status": FINISHED,
            "failure": None,
            "message": None,
            "scorer_version": summary.scorer_version,
            "dataset_revision": summary.dataset_revision,
        }
        files = result_files(submission_id, evaluation, summary)
        # A likely copy of an earlier entry reaches the maintainers with the result (same commit).
        files.update(self.copies.files(entry, data, key))
        files.update(self.releases.files(entry, summary, files))  # the score release decision (score_release.py)
        return outcome, files, summary.score

    def _give_up(self, entry: Entry) -> None:
        now = self.clock()
        current, raw = read_job(self.store, entry.submission_id)  # decided again on what is stored now
        entry = Entry(entry.request, current, entry.review, entry.generation)
        if decide(entry, now, self.settings.max_attempts) is not Decision.GIVE_UP:
            return
        job = replace(
            entry.job,
            status=FAILED,
            lease=None,
            failure="server",
            message=f"scoring stopped {entry.job.attempts} times before it finished; {SERVER_PROBLEM}",
            updated_at=iso(now),
            finished_at=iso(now),
        )
        after = {"status": FAILED, "attempts": job.attempts, "generation": job.generation, "failure": "server"}
        path, data = audit_entry(WORKER, "failed", entry.submission_id, now, None, after)
        puts = {job_path(entry.submission_id): job.to_bytes(), path: data}
        try:
            self.store.commit(puts, message="give up", expect={job_path(entry.submission_id): raw})
        except Conflict:  # another worker acted on it meanwhile: the next look decides again
            return
        log.error("gave up on %s after %d attempts", entry.submission_id, entry.job.attempts)

    def _sync(self) -> None:
        try:
            self.publisher.sync()
        except StorageError as error:  # derived data: the next sync redoes it
            log.error("could not publish the leaderboard table: %s", error)


def _requeued(job: Job, message: str, now: str) -> Job:
    """``job`` back in the queue, its attempt given back (the store's fault, not the file's)."""
    return replace(job, status=PENDING, attempts=job.attempts - 1, lease=None, message=message, updated_at=now)


class OverBudget(Exception):
    """Scoring one file took longer than ``job_budget_s``: the file's cost, so it counts as the submitter's."""


class _Budget:
    """A ``score_submission`` progress callback that stops scoring once the time budget is spent.

    A valid file can cost minutes (2,000-point traces on every row make DTW and line drawing
    maximal); the budget keeps one file from holding the queue for longer than that worst case.
    """

    def __init__(
        self,
        seconds: float,
        let_through: Callable[[], None] | None = None,
        step_aside: Callable[[], float] = lambda: 0.0,
    ) -> None:
        self.seconds, self.start = seconds, time.monotonic()
        self.let_through, self.looked = let_through, self.start
        self.step_aside = step_aside

    def check(self, done: int, total: int) -> None:
        self.start += self.step_aside()  # time left to the pages is not this file's
        spent = time.monotonic() - self.start
        if spent > self.seconds and done < total:
            raise OverBudget(
                f"scoring stopped after {spent:.0f} s, over the time budget of {self.seconds:.0f} s per submission, "
                f"with {done} of {total} rows scored; traces with fewer points score much faster"
            )
        if self.let_through is not None and done < total and time.monotonic() - self.looked >= YIELD_EVERY_S:
            began = time.monotonic()
            self.let_through()
            self.looked = time.monotonic()
            self.start += self.looked - began  # time spent on other users' jobs is not this file's
