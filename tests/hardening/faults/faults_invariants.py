"""What must hold after any fault: nothing acknowledged lost, nothing recorded twice.

``Upload`` is one file a user tries to submit until a receipt comes back. The checks read the
stores through a second ``Leaderboard`` on the same home (as the maintainers' CLI would), so
they also replay whatever commit a killed writer left in the journal.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from leaderboard.records.entries import FAILED, FINISHED, rows_path, summary_path, upload_path
from leaderboard.service import Leaderboard
from leaderboard.storage import audit
from scoring import score_submission
from tests.service_fixtures import kept_summary


@dataclass
class Upload:
    path: Path
    split: str
    user: str
    model: str
    publish: bool
    approve: bool  # the maintainers approve it once it is acknowledged
    acknowledged: str | None = None  # the id on the receipt
    tries: int = 0
    in_flight: bool = False

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.path.read_bytes()).hexdigest()


@dataclass
class Audited:
    """Audit entries counted by (action, target)."""

    counts: Counter = field(default_factory=Counter)

    @classmethod
    def read(cls, service: Leaderboard) -> Audited:
        return cls(Counter((e.action, e.target) for e in audit.read_audit(service.requests)))

    def __call__(self, action: str, target: str) -> int:
        return self.counts[(action, target)]


def check_nothing_lost_or_doubled(service: Leaderboard, uploads: list[Upload], where: str) -> dict[str, int]:
    """The invariants after a kill; returns what the store holds (for the figures)."""
    entries = {e.submission_id: e for e in service.registry.entries()}
    by_file = Counter((e.user, e.request.split, e.request.sha256) for e in entries.values())
    assert max(by_file.values(), default=1) == 1, f"{where}: one file stored as two submissions: {by_file}"
    known = {(u.user, u.split, u.sha256): u for u in uploads}
    audited = Audited.read(service)
    for submission_id, entry in entries.items():
        upload = known.get((entry.user, entry.request.split, entry.request.sha256))
        assert upload is not None, f"{where}: {submission_id} was never uploaded"
        if upload.acknowledged is not None:
            assert upload.acknowledged == submission_id, f"{where}: receipt {upload.acknowledged} != {submission_id}"
        assert service.requests.read(upload_path(submission_id)) == upload.path.read_bytes(), f"{where}: upload damaged"
        assert audited("submit", submission_id) == 1, f"{where}: {submission_id} submit audited {audited.counts}"
        assert audited("finished", submission_id) <= 1, f"{where}: {submission_id} finished twice"
        assert entry.job.status != FAILED, f"{where}: {submission_id} failed: {entry.job.message}"
        if entry.job.status == FINISHED:
            assert audited("finished", submission_id) == 1, f"{where}: {submission_id} finished unaudited"
            assert service.requests.read(summary_path(submission_id)) is not None, (
                f"{where}: finished without a summary"
            )
    lost = [u.acknowledged for u in uploads if u.acknowledged and u.acknowledged not in entries]
    assert not lost, f"{where}: acknowledged submissions lost: {lost}"
    acknowledged = {u.acknowledged for u in uploads if u.acknowledged}
    return {
        "stored": len(entries),
        "stored_unacknowledged": len(set(entries) - acknowledged),
        "running": sum(e.job.status == "RUNNING" for e in entries.values()),
    }


def check_every_submission_finished_once(
    service: Leaderboard, uploads: list[Upload], keys: dict, baseline_raw: float
) -> Counter:
    """The end state: each stored submission FINISHED exactly once with the scorer's numbers, its rows
    once each, and the public table holding each approved one exactly once. Returns starts per submission."""
    entries = {e.submission_id: e for e in service.registry.entries()}
    assert {u.acknowledged for u in uploads} <= set(entries), "acknowledged submissions lost"
    audited = Audited.read(service)
    by_id = {u.acknowledged: u for u in uploads}
    for submission_id, entry in entries.items():
        assert entry.job.status == FINISHED, f"{submission_id} ended {entry.job.status}: {entry.job.message}"
        assert audited("finished", submission_id) == 1, (
            f"{submission_id} finished {audited('finished', submission_id)}x"
        )
        assert audited("submit", submission_id) == 1, f"{submission_id} submitted twice"
        assert audited("failed", submission_id) == 0, f"{submission_id} failed on the way"
        upload = by_id[submission_id]
        expected = score_submission(upload.path, keys[upload.split], baseline_raw=baseline_raw)
        assert service.status(submission_id).summary == kept_summary(expected, upload.split), (
            f"{submission_id}: not the scorer's numbers"
        )
        lines = service.requests.read(rows_path(submission_id)).decode().splitlines()
        assert len(lines) == 1 + len(expected.rows) == 1 + len(set(lines[1:])), f"{submission_id}: rows doubled"
    approved = {u.acknowledged for u in uploads if u.approve}
    published = Counter(r["submission_id"] for r in service.published_table() if r["kind"] == "submission")
    assert published == Counter(approved), f"published {published}, approved {approved}"
    assert service.published_table() == service.public_table()
    return Counter(e.job.attempts for e in entries.values())
