"""One submission as its submitter (or a maintainer) sees it: what the service's views return."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from leaderboard.jobs import QueuePosition
from leaderboard.records import JobStatus, ReviewDecision, Split
from scoring.summary import Summary


@dataclass(frozen=True)
class SubmissionView:
    """One submission as its submitter (or a maintainer) sees it."""

    submission_id: str
    user: str
    split: Split
    status: JobStatus
    created_at: str
    metadata: dict  # public fields; plus contact_email in maintainers' views
    publish: bool
    decision: ReviewDecision
    reason: str | None  # why it was rejected
    hidden: bool
    public: bool  # on the public leaderboard now
    attempts: int
    message: str | None  # why it failed, or what is going on
    summary: Summary | None = None  # the scoring summary (aggregates) once scored
    report: dict = field(default_factory=dict)  # the intake report
    queue: QueuePosition | None = None  # where it waits, and roughly when it is scored (My submissions)
    withdrawn: bool = False  # asked to be published, then withdrawn by its submitter
    cancelled: bool = False  # cancelled by its submitter before it was scored (status FAILED)
    # Maintainers' views only: the earlier entry of another user this one copies (leaderboard/statistics/copies.py).
    likely_copy: dict | None = None
    # Under the ladder policy a test figure within noise of the submitter's best is withheld (score_release.py):
    # their view then has summary=None and this note; maintainers' views keep the figure and say why.
    released: bool = True
    release_note: str | None = None

    def as_dict(self) -> dict:
        data = asdict(self)
        data["summary"] = self.summary.to_dict() if self.summary else None  # its stored JSON form
        return data
