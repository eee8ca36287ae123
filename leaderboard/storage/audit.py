"""The audit log: one immutable file per action, committed together with the change it records.

``audit/{yyyy-mm}/{stamp}-{random}.json`` holds ``at``, ``who``, ``action``, ``target`` (a
submission or reported-row id, or ``None``), ``before`` and ``after`` (the records the action
changed), and an optional ``note``. Files are never rewritten, so concurrent writers cannot
lose each other's entries, and the names sort by time.
"""

from __future__ import annotations

import json
import secrets
import threading
from dataclasses import dataclass
from datetime import UTC, datetime

from leaderboard.records import dump, iso
from leaderboard.storage.base import Storage

PREFIX = "audit"
_lock = threading.Lock()
_last = 0.0


@dataclass(frozen=True)
class AuditEntry:
    at: str
    who: str
    action: str
    target: str | None
    before: object = None
    after: object = None
    note: str | None = None

    def as_dict(self) -> dict[str, object]:
        return {k: getattr(self, k) for k in ("at", "who", "action", "target", "before", "after", "note")}


def audit_entry(
    who: str,
    action: str,
    target: str | None,
    now: float,
    before: object = None,
    after: object = None,
    note: str | None = None,
) -> tuple[str, bytes]:
    """The ``(path, bytes)`` of a new entry, to add to the commit that makes the change."""
    now = _after_the_last(now)
    moment = datetime.fromtimestamp(now, UTC)
    path = f"{PREFIX}/{moment:%Y-%m}/{moment:%Y%m%dT%H%M%S%fZ}-{secrets.token_hex(4)}.json"
    entry = AuditEntry(iso(now), who, action, target, before, after, note)
    return path, dump(entry.as_dict())


def _after_the_last(now: float) -> float:
    """``now``, or a microsecond after this process's previous entry: its entries sort in the order made."""
    global _last
    with _lock:
        _last = max(round(now, 6), round(_last + 1e-6, 6))
        return _last


def read_audit(store: Storage, target: str | None = None, limit: int | None = None) -> list[AuditEntry]:
    """Entries oldest first (the last ``limit`` of them), optionally only those about ``target``."""
    entries = []
    for path in store.list(PREFIX):
        data = store.read(path)
        if data is None:
            continue
        entry = AuditEntry(**json.loads(data))
        if target is None or entry.target == target:
            entries.append(entry)
    return entries[-limit:] if limit else entries
