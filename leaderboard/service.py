"""``Leaderboard``: the service's Python API, what the Gradio app and the CLI call.

Every method either returns plain data (dataclasses, dicts of JSON values) or raises one of the
domain errors of ``leaderboard.records.errors`` with a one-line message for the person who asked:
``Rejected``, ``QuotaExceeded``, ``NotAuthorised``, ``NotFound``, ``InvalidAction``
(and ``StorageError`` when the store cannot be reached: nothing was acknowledged).

Who may see what:

- anyone: ``public_table()`` (approved, unhidden rows; aggregates only, no e-mails);
- a submitter: their own submissions' status and summary; per-row scores of their *validation*
  submissions only;
- maintainers (``MAINTAINERS``): everything in the requests store, and every moderation action.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import BinaryIO

from leaderboard.config import Settings
from leaderboard.jobs import Intake, QueuePosition, Quota, Receipt, Worker, check_user, position
from leaderboard.publishing import (
    Edition,
    Publisher,
    ReleaseSetting,
    is_released,
    maintainer_note,
    read_release,
    submitter_note,
)
from leaderboard.records import (
    APPROVAL_PENDING,
    FINISHED,
    Declarations,
    InvalidAction,
    Metadata,
    NotAuthorised,
    NotFound,
    Rejected,
    ReleasePolicy,
    Report,
    Reported,
    Review,
    Split,
    upload_path,
)
from leaderboard.review import Editions, Moderation, Opened, Ownership, SubmissionView
from leaderboard.statistics import read_copy
from leaderboard.storage import (
    AnswerKeys,
    BudgetState,
    Entry,
    Flag,
    Registry,
    Storage,
    open_store,
    read_audit,
    read_rows,
    read_summary,
)
from scoring import MAX_FILE_BYTES

FileInput = str | Path | bytes | BinaryIO


class Leaderboard:
    """The submission service over a requests store (private) and a results store (public)."""

    def __init__(
        self,
        settings: Settings,
        *,
        requests_store: Storage | None = None,
        results_store: Storage | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        s = settings
        self.settings = settings
        self.requests = requests_store or open_store(s.requests_repo, s.requests_folder, s.hf_token, private=True)
        self.results = results_store or open_store(s.results_repo, s.results_folder, s.hf_token, private=False)
        self.registry = Registry(self.requests)
        self.keys = AnswerKeys(settings)
        self.publisher = Publisher(self.registry, self.results)
        self.intake = Intake(settings, self.registry, self.keys, clock)
        self.moderation = Moderation(settings, self.registry, self.publisher, clock)
        self.worker = Worker(settings, self.registry, self.keys, self.publisher, clock)
        self.ownership = Ownership(settings, self.registry, self.publisher, clock)
        self.releases = ReleaseSetting(settings, self.requests, clock, self.moderation.require_maintainer)
        policy = self.releases.current
        self.editions = Editions(
            settings, self.registry, self.publisher, self.keys, self.moderation, lambda: policy().value, clock
        )
        self.clock = clock

    # -- submitters ---------------------------------------------------------------------------

    def validate(self, file: FileInput, split: str) -> Report:
        """Check a file without submitting it (no quota used)."""
        return self.intake.validate(_read(file), split)

    def submit(
        self,
        file: FileInput,
        *,
        split: str,
        user: str,
        metadata: Metadata | Mapping[str, object],
        publish: bool = False,
        filename: str | None = None,
        declarations: Declarations | Mapping[str, object] | None = None,
    ) -> Receipt:
        """Validate, dedupe, check the quota, store durably; the receipt carries the id and the report.

        ``declarations`` (``records/declarations.py``) are required for a test submission with ``publish``."""
        meta = metadata if isinstance(metadata, Metadata) else Metadata.parse(metadata)
        name = filename or (Path(file).name if isinstance(file, str | Path) else getattr(file, "name", ""))
        return self.intake.submit(_read(file), str(name), split, user, meta, publish, declarations)

    def status(self, submission_id: str, user: str | None = None) -> SubmissionView:
        """The submission's state. ``user=None`` is the trusted caller (the maintainer CLI)."""
        entry = self.registry.entry(submission_id.strip())
        self._check_owner(entry, user)
        return self._view(entry, maintainer=user is None or self.is_maintainer(user))

    def my_submissions(self, user: str) -> list[SubmissionView]:
        """The user's submissions, newest first."""
        user = check_user(user)
        entries = self.registry.entries()
        views = [self._view(e, maintainer=False) for e in reversed(entries) if e.same_user(user)]
        now, fair = self.clock(), self.settings.fair_queue
        return [
            replace(v, queue=position(entries, v.submission_id, now, fair)) if v.status in ("PENDING", "RUNNING") else v
            for v in views
        ]

    def queue_position(self, submission_id: str, user: str | None = None) -> QueuePosition:
        """Where the submission waits among the jobs in the order the worker takes them, and a rough ETA."""
        entry = self.registry.entry(submission_id.strip())
        self._check_owner(entry, user)
        return position(self.registry.entries(), entry.submission_id, self.clock(), self.settings.fair_queue)

    def rows(self, submission_id: str, user: str | None = None) -> list[dict[str, str]]:
        """Per-row scores with their components: validation submissions to their submitter, any to maintainers."""
        entry = self.registry.entry(submission_id.strip())
        self._check_owner(entry, user)
        if entry.request.split == Split.TEST and not (user is None or self.is_maintainer(user)):
            raise NotAuthorised("per-row scores of test submissions stay private; the summary has the aggregates")
        if entry.job.status != FINISHED:
            raise InvalidAction(f"submission {submission_id} is {entry.status}: there are no row scores yet")
        return read_rows(self.requests, entry.submission_id)

    def uploaded_file(self, submission_id: str, user: str | None = None) -> bytes:
        """The file exactly as its submitter sent it: to them (test or validation) and to maintainers."""
        entry = self.registry.entry(submission_id.strip())
        self._check_owner(entry, user)
        data = self.requests.read(upload_path(entry.submission_id))
        if data is None:
            raise NotFound(f"the file of submission {entry.submission_id} is missing")
        return data

    def quota_left(self, user: str) -> int:
        """Test submissions the user may still make in the rolling 24 hours."""
        user = check_user(user)
        mine = [e for e in self.registry.entries() if e.same_user(user)]
        used = len(self.intake.counted(mine, self.clock()))
        return max(0, self.settings.test_submissions_per_day - used)

    def quota(self, user: str) -> Quota:
        """The quota left, the limit, and when the next test submission frees (``Quota.next_free``)."""
        user = check_user(user)
        return self.intake.quota([e for e in self.registry.entries() if e.same_user(user)], self.clock())

    def choose_public(self, submission_id: str, user: str) -> list[str]:
        """Make the user's finished test entry their public one; the ids of their entries that left the board."""
        return self.ownership.choose_public(submission_id, user)

    def withdraw(self, submission_id: str, user: str) -> None:
        """Take the user's entry off the board (the audit log and the maintainers keep it)."""
        self.ownership.withdraw(submission_id, user)

    def cancel(self, submission_id: str, user: str) -> None:
        """Cancel the user's submission still waiting to be scored (its test quota comes back)."""
        self.ownership.cancel(submission_id, user)

    # -- everyone -----------------------------------------------------------------------------

    def commit_budget(self) -> BudgetState:
        """The Hub's hourly commit budget: whether scoring waits for it, until when, and a line saying so."""
        return self.worker.budget.state()

    def public_table(self) -> list[dict[str, object]]:
        """The public rows, computed from the requests store (best first; see ``table.COLUMNS``)."""
        return self.publisher.rows()

    def published_table(self) -> list[dict[str, object]]:
        """The rows as published in the results store (one file read; empty before the first publish)."""
        return self.publisher.read()

    def publish(self) -> bool:
        """Bring the results store up to date; True when it changed."""
        return self.publisher.sync()

    def release_history(self) -> list[Edition]:
        """The board's releases, oldest first; the last is the current one (leaderboard/publishing/editions.py)."""
        return self.editions.history()

    def frozen_table(self, name: str) -> list[dict[str, object]] | None:
        """The rows of a closed release's board, as frozen when the next one opened; ``None`` for the current
        release or one never opened (``InvalidAction`` for a name that is not a release name)."""
        return self.editions.frozen_table(name)

    # -- maintainers --------------------------------------------------------------------------

    def is_maintainer(self, user: str | None) -> bool:
        return self.settings.is_maintainer(user)

    def submissions(self, by: str) -> list[SubmissionView]:
        """Every submission, newest first, with contact e-mails (maintainers only)."""
        self.moderation.require_maintainer(by)
        return [self._view(e, maintainer=True) for e in reversed(self.registry.entries())]

    def pending(self, by: str) -> list[SubmissionView]:
        """Submissions that asked to be published and await a decision, oldest first."""
        self.moderation.require_maintainer(by)
        entries = self.registry.entries()
        waiting = [e for e in entries if e.publish and e.review.decision == APPROVAL_PENDING and not e.cancelled]
        return [v for v in (self._view(e, maintainer=True) for e in waiting) if v.released]

    def approve(self, submission_id: str, by: str) -> Review:
        self.moderation.require_maintainer(by)
        entry = self.registry.entry(submission_id.strip())  # NotFound for an unknown id
        if not is_released(self.requests, entry.submission_id):
            raise InvalidAction(
                f"submission {entry.submission_id} is withheld under the ladder release policy (not a significant "
                "improvement over its submitter's best): it cannot reach the public board"
            )
        return self.moderation.approve(submission_id.strip(), by)

    def reject(self, submission_id: str, by: str, reason: str) -> Review:
        return self.moderation.reject(submission_id.strip(), by, reason)

    def hide(self, submission_id: str, by: str) -> Review:
        return self.moderation.hide(submission_id.strip(), by)

    def unhide(self, submission_id: str, by: str) -> Review:
        return self.moderation.unhide(submission_id.strip(), by)

    def edit(self, submission_id: str, by: str, changes: Mapping[str, object]) -> Review:
        return self.moderation.edit(submission_id.strip(), by, changes)

    def flag(self, submission_id: str, by: str, kind: str, reason: str, link: str | None = None) -> Flag:
        """Flag an entry (contamination, unverified, duplicate, other) with a reason and a link to the evidence."""
        return self.moderation.flag(submission_id.strip(), by, kind, reason, link)

    def unflag(self, submission_id: str, by: str) -> bool:
        """Remove an entry's flag; False when it had none."""
        return self.moderation.unflag(submission_id.strip(), by)

    def rescore(self, by: str, note: str | None = None) -> int:
        """Queue every scored submission again; the worker rescores them with the current key and scorer."""
        queued = self.moderation.rescore(by, note)
        self.keys.refresh()
        return queued

    def open_release(self, note: str | None, by: str | None) -> Opened:
        """Open the next release (maintainers only; audited): freeze the current board, rescore every entry
        under the new one (leaderboard/review/edition_open.py). ``note``: what changed and why, for the changelog."""
        return self.editions.open(note, by)

    def add_reported(self, by: str, **values: object) -> Reported:
        """A reported row: ``model``, ``score``, ``source`` (link); optional ``organization``, ``model_link``,
        ``split``, ``score_valid_only``, ``coverage``."""
        return self.moderation.add_reported(by, values)

    def remove_reported(self, row_id: str, by: str) -> None:
        self.moderation.remove_reported(by, row_id)

    def release_policy(self) -> ReleasePolicy:
        """The score release policy in force: ``exact`` or ``ladder`` (leaderboard/publishing/score_release.py)."""
        return self.releases.current()

    def set_release_policy(self, policy: str, by: str) -> ReleasePolicy:
        """Switch the score release policy (maintainers only; audited); it applies to jobs finishing from now on."""
        return self.releases.set(policy, by)

    def audit_log(self, by: str, target: str | None = None, limit: int | None = 100) -> list[dict]:
        self.moderation.require_maintainer(by)
        return [e.as_dict() for e in read_audit(self.requests, target, limit)]

    # -- helpers ------------------------------------------------------------------------------

    def _check_owner(self, entry: Entry, user: str | None) -> None:
        if user is not None and not entry.same_user(user) and not self.is_maintainer(user):
            raise NotAuthorised(f"submission {entry.submission_id} belongs to another user")

    def _view(self, entry: Entry, maintainer: bool) -> SubmissionView:
        summary = read_summary(self.requests, entry.submission_id) if entry.job.status == FINISHED else None
        metadata = entry.metadata.to_dict() if maintainer else entry.metadata.public()
        release = read_release(self.requests, entry.submission_id) if summary is not None else None
        withheld, note = release is not None and not release.released, None
        if release is not None and withheld:  # the figure stays with the maintainers (score_release.py)
            note = maintainer_note(release) if maintainer else submitter_note(release)
            summary = summary if maintainer else None
        return SubmissionView(
            submission_id=entry.submission_id,
            user=entry.user,
            split=entry.request.split,
            status=entry.status,
            created_at=entry.request.created_at,
            metadata=metadata,
            publish=entry.publish,
            decision=entry.review.decision,
            reason=entry.review.reason,
            hidden=entry.review.hidden,
            public=entry.public and summary is not None and not withheld,
            attempts=entry.job.attempts,
            message=entry.job.message,
            summary=summary,
            report=entry.request.report,
            withdrawn=entry.request.publish and not entry.publish,
            cancelled=entry.cancelled,
            likely_copy=self._likely_copy(entry) if maintainer else None,
            released=not withheld,
            release_note=note,
        )

    def _likely_copy(self, entry: Entry) -> dict | None:
        """The earlier entry of another user this test submission copies (``leaderboard.statistics.copies``), if any."""
        found = read_copy(self.requests, entry.submission_id) if entry.request.split == Split.TEST else None
        return dict(found) if found else None


def _read(file: FileInput) -> bytes:
    """The bytes of an upload, refusing files over the scorer's size limit before reading them."""
    if isinstance(file, bytes):
        return file
    if isinstance(file, str | Path):
        path = Path(file)
        try:
            size = path.stat().st_size
            if size > MAX_FILE_BYTES:
                raise Rejected(f"{path.name} has {size} bytes, over the {MAX_FILE_BYTES} bytes limit")
            return path.read_bytes()
        except (FileNotFoundError, IsADirectoryError, PermissionError) as error:
            raise Rejected(f"{path}: cannot read the file ({error.strerror or error})") from None
    data = file.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise Rejected(f"the file is over the {MAX_FILE_BYTES} bytes limit")
    return data
