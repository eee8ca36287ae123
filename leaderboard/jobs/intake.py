"""Intake: check a submission, then store it durably before acknowledging it.

Order of business for ``submit``:

1. the metadata and the file are checked (``check_file`` against the *public* key); a bad file
   is refused with its report and costs nothing;
2. under the intake lock: the same file (by SHA-256) from the same user for the same split
   within ``dedupe_window_s`` is the same submission, and its receipt is returned again;
3. the quota: at most ``TEST_SUBMISSIONS_PER_DAY`` test submissions per user in any rolling
   24 hours, counted by user (renaming the model does not help), not counting submissions that
   failed because of the server or that their submitter cancelled before scoring; and, for
   either split, at most ``queued_per_user`` submissions of a user waiting or being scored at
   once (validation is not limited per day, and one file can hold the worker for minutes, so one
   user cannot fill the queue); and the compute budget of ``leaderboard/jobs/compute_budget.py``: one file's
   points, and a user's points a day over both splits;
4. one commit stores the request, the file and an audit entry; only when it returned is the id
   handed out. A ``StorageError`` means nothing was acknowledged; the id is derived from the user,
   split and file, so a retry rewrites the same submission rather than adding one.
"""

from __future__ import annotations

import hashlib
import logging
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime

from leaderboard.config import Settings
from leaderboard.jobs.compute_budget import check_daily_budget, check_job_cost
from leaderboard.records import (
    CANCELLED,
    PENDING,
    RUNNING,
    SPLITS,
    Declarations,
    Metadata,
    QuotaExceeded,
    Rejected,
    Report,
    Request,
    Split,
    check_file_and_cost,
    iso,
    model_key,
    quoted,
    request_path,
    upload_path,
)
from leaderboard.storage import AnswerKeys, Entry, Registry, audit_entry, check_share, process_lock
from scoring import MAX_FILE_BYTES

log = logging.getLogger(__name__)

# (file bytes, split) -> (report, scoring cost in points); raises ``Rejected`` when the file cannot be scored.
Checker = Callable[[bytes, str], "tuple[Report, int]"]

DAY_S = 24 * 3600.0
ID_LENGTH = 16  # hex digits: 64 bits, unguessable enough for ids that grant nothing by themselves
_USER = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,95}$")


@dataclass(frozen=True)
class Receipt:
    """What a submitter gets back: the id, the report, and whether it was a repeat of an earlier upload."""

    submission_id: str
    split: str
    created_at: str
    report: Report
    duplicate: bool = False
    quota_left: int | None = None  # test submissions left in the rolling 24 h (None for validation)


@dataclass(frozen=True)
class Quota:
    """A user's test submissions in the rolling 24 hours: how many are left, and when the next one frees."""

    left: int
    limit: int
    next_free: float | None  # epoch when the oldest counted submission leaves the window (None: none counted)


def when_words(at: float, now: float) -> str:
    """A moment in local words, no ISO stamp: ``14:05 UTC, in 3 h 10 min`` (a date only when not today).

    >>> import calendar; t = calendar.timegm((2026, 11, 25, 10, 55, 0))
    >>> when_words(t + 3 * 3600 + 600, t)
    '14:05 UTC, in 3 h 10 min'
    >>> when_words(t + 30, t), when_words(t + 86400, t)
    ('10:55 UTC, in 1 min', '26 Nov 10:55 UTC, in 24 h')
    """
    moment = datetime.fromtimestamp(at, UTC)
    day = "" if moment.date() == datetime.fromtimestamp(now, UTC).date() else f"{moment:%-d %b} "
    minutes = max(1, math.ceil((at - now) / 60))
    hours, rest = divmod(minutes, 60)
    span = " ".join(part for part in (f"{hours} h" if hours else "", f"{rest} min" if rest else "") if part)
    return f"{day}{moment:%H:%M} UTC, in {span}"


class Intake:
    def __init__(self, settings: Settings, registry: Registry, keys: AnswerKeys, clock: Callable[[], float]) -> None:
        self.settings = settings
        self.registry = registry
        self.store = registry.store
        self.keys = keys
        self.clock = clock
        # Who reads and checks a file: here by default; the web app hands it to a checking process
        # (``space/web/offload.py``) so a burst of submissions never holds the pages' interpreter.
        self.checker: Checker = lambda data, split: checked_upload(data, split, self.keys)

    def validate(self, data: bytes, split: str) -> Report:
        """The report for ``data``; ``Rejected`` when the file cannot be scored at all."""
        return self._checked(data, split)[0]

    def _checked(self, data: bytes, split: str) -> tuple[Report, int]:
        _check_split(split)
        if len(data) > MAX_FILE_BYTES:  # before anything is handed on
            raise Rejected(f"the file has {len(data)} bytes, over the {MAX_FILE_BYTES} bytes limit")
        return self.checker(data, split)

    def submit(
        self,
        data: bytes,
        filename: str,
        split: str,
        user: str,
        metadata: Metadata,
        publish: bool = False,
        declarations: Declarations | Mapping[str, object] | None = None,
    ) -> Receipt:
        user = check_user(user)
        declared = checked_declarations(declarations, split, publish)
        report, cost = self._checked(data, split)
        check_job_cost(self.settings, cost, report.n_valid)
        split = Split(split)
        digest = hashlib.sha256(data).hexdigest()
        with process_lock(self.settings.locks_folder, "intake"):
            now = self.clock()
            entries = self.registry.entries()
            mine = [e for e in entries if e.same_user(user)]
            _check_look_alike(metadata.model, [e for e in entries if not e.same_user(user)])
            repeat = self._repeat(mine, split, digest, now)
            if repeat is not None:
                log.info("%s re-sent the file of %s: same submission", user, repeat.submission_id)
                return self._receipt(repeat.request, mine, now, duplicate=True)
            if split == Split.TEST:
                self._check_quota(user, mine, now)
            self._check_queue(user, mine)
            check_share(self.store.commit_quota(), user, [e.created for e in mine], now)  # validation counts too
            check_daily_budget(self.settings, user, mine, now, cost)
            earlier = sum(e.request.split == split and e.request.sha256 == digest for e in mine)
            request = Request(
                submission_id=submission_id_for(user, split, digest, earlier),
                user=user,
                split=split,
                created_at=iso(now),
                sha256=digest,
                filename=_safe_name(filename),
                size=len(data),
                publish=bool(publish),
                metadata=metadata,
                report=report.as_dict(),
                cost=cost,
                declarations=declared,
            )
            self._store(request, data, now)
            return self._receipt(request, mine, now)

    def _store(self, request: Request, data: bytes, now: float) -> None:
        """One commit: the request, the file and the audit entry, durable when it returns."""
        submission_id = request.submission_id
        entry_path, entry = audit_entry(request.user, "submit", submission_id, now, None, _audited(request))
        puts = {request_path(submission_id): request.to_bytes(), upload_path(submission_id): data, entry_path: entry}
        self.store.commit(puts, message=f"submission {submission_id} ({request.split})")
        log.info("%s submitted %s (%s, %d bytes)", request.user, submission_id, request.split, len(data))

    def _repeat(self, mine: list[Entry], split: str, digest: str, now: float) -> Entry | None:
        for entry in reversed(mine):
            recent = now - entry.created <= self.settings.dedupe_window_s
            if recent and entry.request.split == split and entry.request.sha256 == digest:
                return entry
        return None

    def counted(self, mine: list[Entry], now: float) -> list[Entry]:
        """The user's test submissions that count against the quota now (oldest first)."""
        free = ("server", CANCELLED)  # our failure, or never scored: the submitter learnt nothing
        return [
            e for e in mine if e.request.split == Split.TEST and now - e.created < DAY_S and e.job.failure not in free
        ]

    def quota(self, mine: list[Entry], now: float) -> Quota:
        counted = self.counted(mine, now)
        limit = self.settings.test_submissions_per_day
        return Quota(max(0, limit - len(counted)), limit, counted[0].created + DAY_S if counted else None)

    def _check_quota(self, user: str, mine: list[Entry], now: float) -> None:
        counted = self.counted(mine, now)
        limit = self.settings.test_submissions_per_day
        if len(counted) >= limit:
            free_at = counted[-limit].created + DAY_S if limit else None
            retry_at = iso(free_at) if free_at is not None else None
            when = f"; the next one frees at {when_words(free_at, now)}" if free_at is not None else ""
            raise QuotaExceeded(
                f"daily limit reached: {user} has made {len(counted)} test submission(s) in the last 24 hours "
                f"and the limit is {limit}{when}",
                retry_at,
            )

    def _check_queue(self, user: str, mine: list[Entry]) -> None:
        waiting = [e for e in mine if e.status in (PENDING, RUNNING)]
        limit = self.settings.queued_per_user
        if len(waiting) >= limit:
            raise QuotaExceeded(
                f"queue limit reached: {user} has {len(waiting)} submission(s) waiting to be scored and the limit "
                f"is {limit}; submit again once one of them has finished"
            )

    def _receipt(self, request: Request, mine: list[Entry], now: float, duplicate: bool = False) -> Receipt:
        left = None
        if request.split == "test":
            used = len(self.counted(mine, now)) + (0 if duplicate else 1)
            left = max(0, self.settings.test_submissions_per_day - used)
        report = Report.from_dict(request.report)
        return Receipt(request.submission_id, request.split, request.created_at, report, duplicate, left)


def submission_id_for(user: str, split: str, digest: str, earlier: int) -> str:
    """The id of the user's ``earlier + 1``-th submission of this file to this split.

    Deterministic, so a submit retried after a store error whose outcome was unknown (the Hub
    may apply a commit whose answer was lost) writes the same paths again instead of a second
    submission; ``earlier`` keeps a resubmission after the dedupe window a new one.
    """
    key = f"{user.casefold()}\n{split}\n{digest}\n{earlier}".encode()
    return hashlib.sha256(key).hexdigest()[:ID_LENGTH]


# The answers a public test entry cannot go without; ``code_link`` is asked too, but a closed model may have none.
REQUIRED_DECLARATIONS = ("trained_on", "test_images_beyond_inference", "best_of")


def checked_declarations(
    values: Declarations | Mapping[str, object] | None, split: str, publish: bool
) -> Declarations | None:
    """The declarations to store: required (every answer of ``REQUIRED_DECLARATIONS``) for a test submission
    asking to be published, kept otherwise only when some answer was given; ``Rejected`` names what is missing."""
    if isinstance(values, Declarations):
        return values
    given = {k: v for k, v in (values or {}).items() if v is not None and v != ""}
    if split == Split.TEST and publish:
        missing = [name for name in REQUIRED_DECLARATIONS if name not in given]
        if missing:
            raise Rejected(
                f"a public test submission needs its declarations; missing: {', '.join(missing)} "
                "(trained_on: none, validation or test; test_images_beyond_inference: yes or no; "
                "best_of: 1 for a single run, n for the best of n runs)"
            )
    return Declarations.parse(given) if given else None


def check_user(user: str | None) -> str:
    user = (user or "").strip()
    if not _USER.match(user):
        raise Rejected(f"user {user!r}: expected a Hugging Face user name (letters, digits, '-', '_', '.')")
    return user


def _check_look_alike(model: str, others: list[Entry]) -> None:
    """Refuse a model name that looks exactly like another submitter's but is not the same text
    (``ＡＬＩＣＥ`` for ``alice``): on the board nobody could tell the two entries apart."""
    key = model_key(model)  # confusables folded too: "Ladder‐A" (U+2010) is another user's "Ladder-A"
    alike = sorted({e.metadata.model for e in others if model_key(e.metadata.model) == key})
    if alike and model not in alike:
        raise Rejected(
            f"model name {quoted(model)} looks the same as {quoted(alike[0])}, another submitter's entry: "
            "expected a name readers can tell apart (or the exact same spelling, if it is the same model)"
        )


def checked_upload(data: bytes, split: str, keys: AnswerKeys) -> tuple[Report, int]:
    """The report and the scoring cost in points (``validation.check_file_and_cost``); ``Rejected`` when the
    file cannot be scored. What every check and every submission runs, in the app or in a checking process."""
    _check_split(split)
    if len(data) > MAX_FILE_BYTES:
        raise Rejected(f"the file has {len(data)} bytes, over the {MAX_FILE_BYTES} bytes limit")
    return check_file_and_cost(data, keys.public(split))


def _check_split(split: str) -> Split:
    if split not in SPLITS:
        raise Rejected(f"split {quoted(split)}: expected one of {', '.join(SPLITS)}")
    return Split(split)


def _safe_name(filename: str) -> str:
    name = (filename or "").replace("\\", "/").rsplit("/", 1)[-1]
    return re.sub(r"[^A-Za-z0-9._-]", "_", name)[:200] or "submission.tsv"


def _audited(request: Request) -> dict:
    """The request as the audit log keeps it: without the report (it can be long) and the e-mail."""
    record = {k: v for k, v in request.to_dict().items() if k != "report"}
    record["metadata"] = request.metadata.public()
    return record
