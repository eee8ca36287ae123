"""The records the service keeps, one JSON file each, and where they live in the requests store.

Each file has exactly one kind of writer, so writers never overwrite each other's changes
(a Hub commit that lost a race is re-applied on the new head, i.e. last writer wins per file):

=================================  =====================  ============================================
path                               written by             holds
=================================  =====================  ============================================
``requests/{id}.json``             intake, once           who, when, split, file hash, metadata, report
``uploads/{id}.tsv``               intake, once           the file exactly as uploaded
``jobs/{id}.json``                 the worker             status, attempts, lease, message
``private/{id}/summary.json``      the worker             the scoring summary (aggregates)
``private/{id}/rows.tsv``          the worker             per-row scores (never published for test)
``reviews/{id}.json``              maintainers            approved/rejected, reason, hidden, edits
``owner/{id}.json``                the submitter          their later choice: published or withdrawn
``reported/{rid}.json``            maintainers            a published figure shown as a reported row
``flags/{id}.json``                maintainers            a flag with its evidence (leaderboard/storage/flags.py)
``control/rescore.json``           maintainers            the rescore generation
``control/releases.json``          maintainers            the board's releases (leaderboard/publishing/editions.py)
``audit/{yyyy-mm}/{stamp}.json``   everyone, append-only  who did what, when, before/after
=================================  =====================  ============================================
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from leaderboard.records.declarations import Declarations
from leaderboard.records.metadata import Metadata


class JobStatus(StrEnum):
    """Where a submission is in scoring (stored as these words)."""

    PENDING = "PENDING"
    RUNNING = "RUNNING"
    FINISHED = "FINISHED"
    FAILED = "FAILED"


class ReviewDecision(StrEnum):
    """The maintainers' decision on a submission (stored as these words)."""

    PENDING = "pending"
    APPROVED = "approved"
    REJECTED = "rejected"


class Split(StrEnum):
    VALIDATION = "validation"
    TEST = "test"


# Short names for the members, as the service's modules use them.
PENDING, RUNNING, FINISHED, FAILED = JobStatus
APPROVAL_PENDING, APPROVED, REJECTED = ReviewDecision
SPLITS: tuple[str, ...] = tuple(split.value for split in Split)


def iso(epoch: float) -> str:
    """``2025-11-23T09:12:00.123456Z``: UTC, sortable as text."""
    return datetime.fromtimestamp(epoch, UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def epoch(text: str) -> float:
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC).timestamp()


def dump(record: Any) -> bytes:
    return (
        json.dumps(record if isinstance(record, dict) else asdict(record), indent=1, sort_keys=True) + "\n"
    ).encode()


def request_path(submission_id: str) -> str:
    return f"requests/{submission_id}.json"


def upload_path(submission_id: str) -> str:
    return f"uploads/{submission_id}.tsv"


def job_path(submission_id: str) -> str:
    return f"jobs/{submission_id}.json"


def review_path(submission_id: str) -> str:
    return f"reviews/{submission_id}.json"


def summary_path(submission_id: str) -> str:
    return f"private/{submission_id}/summary.json"


def rows_path(submission_id: str) -> str:
    return f"private/{submission_id}/rows.tsv"


def owner_path(submission_id: str) -> str:
    return f"owner/{submission_id}.json"


def reported_path(row_id: str) -> str:
    return f"reported/{row_id}.json"


def flag_path(submission_id: str) -> str:
    return f"flags/{submission_id}.json"


RESCORE_PATH = "control/rescore.json"


@dataclass(frozen=True)
class Request:
    """A submission as received. Never changes after intake (maintainer edits live in its ``Review``)."""

    submission_id: str
    user: str
    split: Split
    created_at: str
    sha256: str
    filename: str
    size: int
    publish: bool
    metadata: Metadata
    report: dict = field(default_factory=dict)
    # The scoring work the file asks for, in points (the points of its valid rows: rows x points),
    # estimated at intake; None on records written before it existed (``fairness.cost_of`` estimates).
    cost: int | None = None
    # How a public test entry was obtained (leaderboard/records/declarations.py); None when not asked
    # (validation, private submissions, records written before it existed).
    declarations: Declarations | None = None

    def to_dict(self) -> dict:
        return asdict(self)

    def to_bytes(self) -> bytes:
        return dump(asdict(self))

    @classmethod
    def from_bytes(cls, data: bytes) -> Request:
        raw = json.loads(data)
        raw["metadata"] = Metadata.from_dict(raw["metadata"])
        raw["split"] = Split(raw["split"])
        if raw.get("declarations") is not None:
            raw["declarations"] = Declarations.from_dict(raw["declarations"])
        return cls(**raw)


@dataclass(frozen=True)
class Lease:
    """Who is scoring a job, and until when their claim holds without a heartbeat."""

    token: str  # one per worker run
    host: str
    pid: int
    process_start: str | None  # the holder's start time as the OS reports it, to spot a reused pid
    expires_at: str


@dataclass(frozen=True)
class Job:
    """The worker's state of one submission. No file means PENDING, never started."""

    submission_id: str
    status: JobStatus = JobStatus.PENDING
    attempts: int = 0  # starts, including ones whose worker died
    generation: int = 0  # the rescore generation this state belongs to
    lease: Lease | None = None
    message: str | None = None  # for the submitter: why it failed, or what is going on
    failure: str | None = None  # "submission" (counts against the quota); "server" or CANCELLED (do not)
    updated_at: str | None = None
    started_at: str | None = None
    finished_at: str | None = None
    scorer_version: str | None = None
    dataset_revision: str | None = None

    def to_bytes(self) -> bytes:
        return dump(asdict(self))

    @classmethod
    def from_bytes(cls, data: bytes) -> Job:
        raw = json.loads(data)
        raw["lease"] = Lease(**raw["lease"]) if raw.get("lease") else None
        raw["status"] = JobStatus(raw["status"])
        return cls(**raw)


@dataclass(frozen=True)
class Review:
    """The maintainers' decisions on one submission. No file means not yet reviewed."""

    submission_id: str
    decision: ReviewDecision = ReviewDecision.PENDING
    reason: str | None = None  # shown to the submitter when rejected
    hidden: bool = False
    edits: dict = field(default_factory=dict)  # metadata fields changed by a maintainer
    updated_at: str | None = None
    updated_by: str | None = None

    def to_bytes(self) -> bytes:
        return dump(asdict(self))

    @classmethod
    def from_bytes(cls, data: bytes) -> Review:
        raw = json.loads(data)
        raw["decision"] = ReviewDecision(raw.get("decision", ReviewDecision.PENDING))
        return cls(**raw)


CANCELLED = "cancelled"  # ``Job.failure`` of a submission its submitter cancelled before it was scored


@dataclass(frozen=True)
class OwnerChoice:
    """The submitter's later word on one submission. No file means the choice made at intake stands."""

    submission_id: str
    publish: bool | None = None  # None: as asked at intake; False: withdrawn; True: chosen as the public one
    updated_at: str | None = None

    def to_bytes(self) -> bytes:
        return dump(asdict(self))

    @classmethod
    def from_bytes(cls, data: bytes) -> OwnerChoice:
        return cls(**json.loads(data))


@dataclass(frozen=True)
class Reported:
    """A published figure (e.g. from the NaviTrace paper), shown as a reported row with its source."""

    row_id: str
    model: str
    score: float
    source: str  # link to where the figure was published
    split: str = "test"
    organization: str | None = None
    model_link: str | None = None
    score_valid_only: float | None = None
    coverage: float | None = None
    added_at: str | None = None
    added_by: str | None = None

    def to_bytes(self) -> bytes:
        return dump(asdict(self))

    @classmethod
    def from_bytes(cls, data: bytes) -> Reported:
        return cls(**json.loads(data))
