"""Reading the requests store: every submission as an ``Entry`` (request + job + review).

Requests never change after intake, so they are cached for the life of the ``Registry``; jobs,
reviews and the rescore generation are read fresh on every call.
"""

from __future__ import annotations

import json
import logging
import threading
from dataclasses import dataclass

from leaderboard.records import (
    APPROVED,
    CANCELLED,
    FAILED,
    FINISHED,
    PENDING,
    RESCORE_PATH,
    Job,
    JobStatus,
    Metadata,
    NotFound,
    OwnerChoice,
    Reported,
    Request,
    Review,
    epoch,
    job_path,
    owner_path,
    request_path,
    review_path,
)
from leaderboard.storage.base import Storage

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Entry:
    """One submission as the service sees it now."""

    request: Request
    job: Job
    review: Review
    generation: int  # the current rescore generation
    choice: OwnerChoice | None = None  # the submitter's later word (withdrawn, chosen as public)

    @property
    def submission_id(self) -> str:
        return self.request.submission_id

    @property
    def user(self) -> str:
        return self.request.user

    @property
    def created(self) -> float:
        return epoch(self.request.created_at)

    @property
    def stale(self) -> bool:
        """Scored (or failed) before the last rescore request: due to be scored again."""
        scored = self.job.status in (FINISHED, FAILED) and not self.cancelled
        return scored and self.job.generation < self.generation

    @property
    def cancelled(self) -> bool:
        """Cancelled by its submitter before scoring: never scored, not even by a rescore."""
        return self.job.status == FAILED and self.job.failure == CANCELLED

    @property
    def publish(self) -> bool:
        """Whether the submitter wants it on the board: their later choice, else what they asked at intake."""
        if self.choice is not None and self.choice.publish is not None:
            return self.choice.publish
        return self.request.publish

    @property
    def status(self) -> JobStatus:
        return PENDING if self.stale else self.job.status

    @property
    def metadata(self) -> Metadata:
        """The submitter's metadata with the maintainers' edits applied."""
        return Metadata.from_dict({**self.request.metadata.to_dict(), **self.review.edits})

    @property
    def public(self) -> bool:
        """Whether it belongs on the public leaderboard (once it has a result)."""
        return self.publish and self.review.decision == APPROVED and not self.review.hidden

    def same_user(self, user: str) -> bool:
        return self.user.casefold() == user.strip().casefold()


class Registry:
    """Entries of one requests store, oldest first (the queue's FIFO order)."""

    def __init__(self, store: Storage) -> None:
        self.store = store
        self._requests: dict[str, Request] = {}
        self._lock = threading.Lock()

    def ids(self) -> list[str]:
        return [p[len("requests/") : -len(".json")] for p in self.store.list("requests") if p.endswith(".json")]

    def generation(self) -> int:
        data = self.store.read(RESCORE_PATH)
        return int(json.loads(data)["generation"]) if data else 0

    def request(self, submission_id: str) -> Request:
        with self._lock:
            cached = self._requests.get(submission_id)
        if cached is not None:
            return cached
        data = self.store.read(request_path(submission_id)) if _plausible(submission_id) else None
        if data is None:
            raise NotFound(f"no submission {submission_id!r}")
        request = Request.from_bytes(data)
        with self._lock:
            self._requests[submission_id] = request
        return request

    def job(self, submission_id: str) -> Job:
        data = self.store.read(job_path(submission_id))
        return Job.from_bytes(data) if data else Job(submission_id)

    def review(self, submission_id: str) -> Review:
        data = self.store.read(review_path(submission_id))
        return Review.from_bytes(data) if data else Review(submission_id)

    def choice(self, submission_id: str) -> OwnerChoice | None:
        data = self.store.read(owner_path(submission_id))
        return OwnerChoice.from_bytes(data) if data else None

    def entry(self, submission_id: str, generation: int | None = None) -> Entry:
        request = self.request(submission_id)
        generation = self.generation() if generation is None else generation
        job, review = self.job(submission_id), self.review(submission_id)
        return Entry(request, job, review, generation, self.choice(submission_id))

    def entries(self) -> list[Entry]:
        generation = self.generation()
        jobs = set(self.store.list("jobs"))
        reviews = set(self.store.list("reviews"))
        owned = set(self.store.list("owner"))
        found = []
        for submission_id in self.ids():
            try:
                request = self.request(submission_id)
                job = self.job(submission_id) if job_path(submission_id) in jobs else Job(submission_id)
                review = self.review(submission_id) if review_path(submission_id) in reviews else Review(submission_id)
                choice = self.choice(submission_id) if owner_path(submission_id) in owned else None
            except (ValueError, KeyError, TypeError) as error:  # one damaged file must not stop the queue
                log.error("submission %s has an unreadable record, left out: %r", submission_id, error)
                continue
            found.append(Entry(request, job, review, generation, choice))
        return sorted(found, key=lambda e: (e.request.created_at, e.submission_id))

    def reported(self) -> list[Reported]:
        rows = []
        for path in self.store.list("reported"):
            data = self.store.read(path)
            if data is not None:
                rows.append(Reported.from_bytes(data))
        return rows


def _plausible(submission_id: str) -> bool:
    """An id that can name a file (ids come from users of the CLI and the UI)."""
    return bool(submission_id) and all(c.isalnum() or c in "-_" for c in submission_id)
