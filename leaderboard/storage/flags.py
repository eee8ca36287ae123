"""Flags with evidence: a maintainer marks an entry (contamination, unverified, duplicate, other) with a
reason and a link to where the evidence is, as the Open LLM Leaderboard does.

A flag does not take the entry off the table: the board marks it and hides it behind a default-on
"Hide flagged" filter, so a reader sees why with one click. ``flags/{id}.json`` holds the current flag
(written by ``Moderation.flag``, deleted by ``Moderation.unflag``; both are in the audit log).
"""

from __future__ import annotations

import json
import logging
from dataclasses import asdict, dataclass
from enum import StrEnum

from leaderboard.records import InvalidAction, Rejected, checked_link, dump, quoted
from leaderboard.storage.base import Storage

log = logging.getLogger(__name__)

MAX_REASON = 1000  # characters: a sentence or two, the evidence itself is behind the link
PREFIX = "flags"


class FlagKind(StrEnum):
    CONTAMINATION = "contamination"
    UNVERIFIED = "unverified"
    DUPLICATE = "duplicate"
    OTHER = "other"


KINDS: tuple[str, ...] = tuple(kind.value for kind in FlagKind)


@dataclass(frozen=True)
class Flag:
    """A maintainer's flag on one submission (the record in ``flags/{id}.json``)."""

    submission_id: str
    kind: FlagKind
    reason: str
    link: str | None
    flagged_at: str  # ISO time (records.iso)
    flagged_by: str

    @classmethod
    def checked(cls, submission_id: str, kind: str, reason: str, link: str | None, at: str, by: str) -> Flag:
        """A flag from a maintainer's input; ``InvalidAction`` says which field is wrong and what was expected."""
        kind_text = str(kind or "").strip().lower()
        if kind_text not in KINDS:
            raise InvalidAction(f"flag kind {quoted(kind_text)}: expected one of {', '.join(KINDS)}")
        text = str(reason or "")
        if len(text) > MAX_REASON:  # before any work on it
            raise InvalidAction(f"the flag's reason has {len(text)} characters: expected at most {MAX_REASON}")
        reason = " ".join(text.split())
        if not reason:
            raise InvalidAction("a flag needs a reason: readers see it on the board and the entry page")
        try:
            checked_link_ = checked_link("link", link or None)
        except Rejected as error:
            raise InvalidAction(str(error)) from None
        return cls(submission_id, FlagKind(kind_text), reason, checked_link_, at, by)

    def public(self) -> dict[str, object]:
        """The table's ``flag`` column: who flagged stays in the audit log."""
        return {"kind": self.kind.value, "reason": self.reason, "link": self.link, "flagged_at": self.flagged_at[:10]}

    def to_dict(self) -> dict[str, object]:
        data = asdict(self)
        data["kind"] = self.kind.value
        return data

    def to_bytes(self) -> bytes:
        return dump(self.to_dict())

    @classmethod
    def from_bytes(cls, data: bytes) -> Flag:
        raw = json.loads(data)
        raw["kind"] = FlagKind(raw["kind"])
        return cls(**raw)


def read_flags(store: Storage) -> dict[str, Flag]:
    """Every current flag by submission id; an unreadable file is logged and left out (the entry shows unflagged)."""
    found = {}
    for path in store.list(PREFIX):
        data = store.read(path) if path.endswith(".json") else None
        if data is None:
            continue
        try:
            flag = Flag.from_bytes(data)
        except (ValueError, KeyError, TypeError) as error:
            log.error("flag file %s is unreadable, left out: %r", path, error)
            continue
        found[flag.submission_id] = flag
    return found
