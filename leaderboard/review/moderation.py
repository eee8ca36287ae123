"""Maintainer actions: approve, reject, hide, unhide, edit metadata, rescore, reported rows, flags.

Every action is checked against ``MAINTAINERS`` here, on the server side, whatever the UI shows,
and lands in the audit log in the same commit as the change (who, what, when, before/after).
An action that would change nothing writes nothing.
"""

from __future__ import annotations

import json
import logging
import math
import secrets
from collections.abc import Callable, Mapping
from dataclasses import replace

from leaderboard.config import Settings
from leaderboard.publishing import Publisher
from leaderboard.records import (
    APPROVAL_PENDING,
    APPROVED,
    FAILED,
    FINISHED,
    REJECTED,
    RESCORE_PATH,
    SPLITS,
    InvalidAction,
    Metadata,
    NotAuthorised,
    NotFound,
    Rejected,
    Reported,
    Review,
    dump,
    flag_path,
    iso,
    reported_path,
    review_path,
)
from leaderboard.storage import Flag, Registry, audit_entry, process_lock

log = logging.getLogger(__name__)

PRIVATE = "private, nothing to decide"  # what a submission that did not ask to be published awaits: nothing


def decision_text(decision: str, publish: bool) -> str:
    """The decision as maintainers read it: a private submission (a private score, a validation file kept to
    oneself) is not "pending", since nobody has anything to approve.

    >>> decision_text("pending", False), decision_text("pending", True), decision_text("rejected", False)
    ('private, nothing to decide', 'pending', 'rejected · private')
    """
    if publish:
        return str(decision)
    return PRIVATE if decision == APPROVAL_PENDING else f"{decision} · private"


class Moderation:
    def __init__(
        self, settings: Settings, registry: Registry, publisher: Publisher, clock: Callable[[], float]
    ) -> None:
        self.settings = settings
        self.registry = registry
        self.store = registry.store
        self.publisher = publisher
        self.clock = clock

    def require_maintainer(self, by: str | None) -> str:
        if not self.settings.is_maintainer(by):
            who = repr(by) if by else "an anonymous user"
            raise NotAuthorised(f"{who} is not a maintainer: only users listed in MAINTAINERS may moderate")
        return str(by).strip()

    def approve(self, submission_id: str, by: str) -> Review:
        def change(review: Review) -> Review:
            if not self.registry.entry(submission_id).publish:  # as asked at intake, or chosen since
                raise InvalidAction(
                    f"submission {submission_id} asked for a private score only (publish was not chosen), or its "
                    "submitter withdrew it: there is nothing to approve"
                )
            return replace(review, decision=APPROVED, reason=None)

        return self._review(submission_id, by, "approve", change)

    def reject(self, submission_id: str, by: str, reason: str) -> Review:
        reason = (reason or "").strip()
        if not reason:
            raise InvalidAction("a rejection needs a reason: the submitter sees it")
        return self._review(submission_id, by, "reject", lambda r: replace(r, decision=REJECTED, reason=reason))

    def hide(self, submission_id: str, by: str) -> Review:
        return self._review(submission_id, by, "hide", lambda r: replace(r, hidden=True))

    def unhide(self, submission_id: str, by: str) -> Review:
        return self._review(submission_id, by, "unhide", lambda r: replace(r, hidden=False))

    def edit(self, submission_id: str, by: str, changes: Mapping[str, object]) -> Review:
        """Change metadata fields (checked like intake input); the original request stays as it was."""

        def change(review: Review) -> Review:
            original = self.registry.request(submission_id).metadata
            current = Metadata.from_dict({**original.to_dict(), **review.edits})
            try:
                edited = current.edited(changes).to_dict()
            except Rejected as error:
                raise InvalidAction(str(error)) from None
            return replace(review, edits={k: v for k, v in edited.items() if v != original.to_dict()[k]})

        return self._review(submission_id, by, "edit", change)

    def _review(self, submission_id: str, by: str, action: str, change: Callable[[Review], Review]) -> Review:
        by = self.require_maintainer(by)
        with process_lock(self.settings.locks_folder, "moderation"):
            entry = self.registry.entry(submission_id)
            before = entry.review
            after = change(before)
            if after == before:
                return before
            now = self.clock()
            after = replace(after, updated_at=iso(now), updated_by=by)
            path, data = audit_entry(by, action, submission_id, now, _public(before), _public(after))
            self.store.commit(
                {review_path(submission_id): after.to_bytes(), path: data}, message=f"{action} {submission_id}"
            )
        log.info("%s: %s %s", by, action, submission_id)
        self.publisher.sync()
        return after

    def flag(self, submission_id: str, by: str, kind: str, reason: str, link: str | None = None) -> Flag:
        """Flag an entry with the evidence (``flags.Flag.checked``); flagging it again replaces the flag."""
        by = self.require_maintainer(by)
        with process_lock(self.settings.locks_folder, "moderation"):
            self.registry.request(submission_id)  # NotFound for an unknown id
            before = self.store.read(flag_path(submission_id))
            now = self.clock()
            flag = Flag.checked(submission_id, kind, reason, link, iso(now), by)
            old = Flag.from_bytes(before) if before else None
            if old is not None and (old.kind, old.reason, old.link) == (flag.kind, flag.reason, flag.link):
                return old  # the same flag again: nothing to write
            path, data = audit_entry(by, "flag", submission_id, now, old and old.to_dict(), flag.to_dict())
            self.store.commit({flag_path(submission_id): flag.to_bytes(), path: data}, message=f"flag {submission_id}")
        log.info("%s: flag %s (%s)", by, submission_id, flag.kind)
        self.publisher.sync()
        return flag

    def unflag(self, submission_id: str, by: str) -> bool:
        """Remove an entry's flag; False when it had none (nothing written)."""
        by = self.require_maintainer(by)
        with process_lock(self.settings.locks_folder, "moderation"):
            self.registry.request(submission_id)
            before = self.store.read(flag_path(submission_id))
            if before is None:
                return False
            path, data = audit_entry(by, "unflag", submission_id, self.clock(), json.loads(before), None)
            self.store.commit({path: data}, deletes=[flag_path(submission_id)], message=f"unflag {submission_id}")
        log.info("%s: unflag %s", by, submission_id)
        self.publisher.sync()
        return True

    def rescore(self, by: str, note: str | None = None) -> int:
        """Queue every scored or failed submission again (after a scorer or answer-key change).

        Returns how many were queued. Results stay published until their new ones replace them.
        """
        by = self.require_maintainer(by)
        with process_lock(self.settings.locks_folder, "moderation"):
            entries = self.registry.entries()
            generation, files = self.rescore_files(by, note, self.clock())
            self.store.commit(files, message=f"rescore (generation {generation})")
        queued = sum(1 for e in entries if e.job.status in (FINISHED, FAILED))
        log.info("%s: rescore requested, generation %d, %d submission(s) queued again", by, generation, queued)
        return queued

    def rescore_files(self, by: str, note: str | None, now: float) -> tuple[int, dict[str, bytes]]:
        """The new rescore generation and the files that request it (with the audit entry), for a commit made
        under the moderation lock by a checked maintainer ``by`` (``rescore``; opening a release adds its own)."""
        before = self.registry.generation()
        record = {"generation": before + 1, "requested_at": iso(now), "requested_by": by}
        path, data = audit_entry(by, "rescore", None, now, {"generation": before}, record, note)
        return before + 1, {RESCORE_PATH: dump(record), path: data}

    def add_reported(self, by: str, values: Mapping[str, object]) -> Reported:
        """Add a reported row: ``model``, ``score``, ``source`` (a link) required; see ``Reported``."""
        by = self.require_maintainer(by)
        now = self.clock()
        row = _reported(dict(values), secrets.token_hex(4), iso(now), by)
        after = json.loads(row.to_bytes())
        path, data = audit_entry(by, "add-reported", f"reported-{row.row_id}", now, None, after)
        self.store.commit({reported_path(row.row_id): row.to_bytes(), path: data}, message=f"add reported {row.model}")
        self.publisher.sync()
        return row

    def remove_reported(self, by: str, row_id: str) -> None:
        by = self.require_maintainer(by)
        row_id = row_id.removeprefix("reported-")
        data = self.store.read(reported_path(row_id)) if row_id.isalnum() else None
        if data is None:
            raise NotFound(f"no reported row {row_id!r}")
        before = json.loads(data)
        path, entry = audit_entry(by, "remove-reported", f"reported-{row_id}", self.clock(), before, None)
        self.store.commit({path: entry}, deletes=[reported_path(row_id)], message=f"remove reported {row_id}")
        self.publisher.sync()


def _public(review: Review) -> dict:
    return json.loads(review.to_bytes())


def _reported(values: dict, row_id: str, now: str, by: str) -> Reported:
    try:
        meta = Metadata.parse(
            {
                "model": values.pop("model", None),
                "organization": values.pop("organization", None),
                "model_link": values.pop("model_link", None),
                "paper_link": values.pop("source", None),
            }
        )
    except Rejected as error:
        raise InvalidAction(str(error).replace("paper_link", "source")) from None
    if not meta.paper_link:
        raise InvalidAction("a reported row needs its source: a link to where the figure was published")
    split = str(values.pop("split", None) or "test")
    if split not in SPLITS:
        raise InvalidAction(f"split {split!r}: expected one of {', '.join(SPLITS)}")
    numbers = {name: _number(name, values.pop(name, None)) for name in ("score", "score_valid_only", "coverage")}
    score = numbers.pop("score")
    if score is None:
        raise InvalidAction("a reported row needs its score")
    if values:
        raise InvalidAction(f"unknown field {sorted(values)[0]!r} for a reported row")
    return Reported(
        row_id,
        meta.model,
        score,
        meta.paper_link,
        split,
        meta.organization,
        meta.model_link,
        added_at=now,
        added_by=by,
        **numbers,
    )


def _number(name: str, value: object) -> float | None:
    if value is None or value == "":
        return None
    try:
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise InvalidAction(f"{name}={value!r}: expected a number") from None
    if not math.isfinite(number):
        raise InvalidAction(f"{name}={value!r}: expected a finite number")
    if name == "coverage" and not 0 <= number <= 1:
        raise InvalidAction(f"coverage={value!r}: expected a fraction between 0 and 1")
    return number
