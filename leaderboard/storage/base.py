"""The one storage interface of the service, and the layout both backends share.

A store is a flat namespace of files addressed by POSIX paths relative to its root, like a
Hub dataset repository. Two stores are used:

- the *requests* store (private): ``requests/{id}.json``, ``uploads/{id}.tsv``, ``jobs/{id}.json``,
  ``private/{id}/rows.tsv``, ``private/{id}/summary.json``, ``reviews/{id}.json``,
  ``reported/{rid}.json``, ``control/rescore.json``, ``control/releases.json``,
  ``audit/{yyyy-mm}/{stamp}-{n}.json``
  (who writes which: ``leaderboard/records/entries.py``; docs/SERVICE.md)
- the *results* store (public): ``data/leaderboard.jsonl`` and ``README.md``, loadable with
  ``datasets.load_dataset`` and readable without the service; ``releases/`` (the list of the board's
  releases, each closed release's frozen board) and a tag per closed release (``Storage.tag``).

Backends: ``LocalStorage`` (a folder) and ``HubStorage`` (a Hub dataset repo). Both pass
``tests/leaderboard/test_storage_contract.py``.
"""

from __future__ import annotations

import builtins  # the class's own method `list` shadows the builtin in annotations
import math
import re
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from leaderboard.records import LeaderboardError

if TYPE_CHECKING:
    from leaderboard.storage.commit_log import QuotaState


# What a Hub store's own calls said lately (``hub_health.HubCalls`` notes them; the health route reads them).
@dataclass(frozen=True)
class HubFailure:
    """A call that failed after its retries (for maintainers: the message names the repository)."""

    at: float  # wall-clock seconds
    kind: str  # ``hub_calls.classify``: throttled, unreachable, unavailable, fatal
    message: str


@dataclass(frozen=True)
class HubCallsState:
    last_ok: float | None  # wall-clock seconds of the last call that worked
    last_failure: float | None
    last_kind: str | None  # the last failure's kind
    failures: tuple[HubFailure, ...]  # the latest, oldest first

    @property
    def reachable(self) -> bool | None:
        """Whether the last call worked; ``None`` before any call."""
        if self.last_failure is None:
            return None if self.last_ok is None else True
        return self.last_ok is not None and self.last_ok >= self.last_failure


class StorageError(Exception):
    """A write could not be stored (after retries); nothing was acknowledged.

    ``outcome_unknown``: the change may still appear (a Hub commit whose answer was lost, then
    silence), so the caller must not write over it as if it had never happened.
    """

    def __init__(self, message: str, *, outcome_unknown: bool = False) -> None:
        super().__init__(message)
        self.outcome_unknown = outcome_unknown


class Conflict(StorageError):
    """A conditional commit found a path no longer as expected: nothing was stored.

    The caller reads again and decides again (another writer got there first). ``outcome_unknown``:
    an earlier attempt of this commit may have landed and been overwritten since.
    """


class CommitLimitReached(StorageError, LeaderboardError):
    """The repository's hourly commit quota is used up (the Hub answered 429): nothing was stored.

    Its message is for people (no Hub text, no URL); ``retry_at`` is the time (``time.time``) from
    which a commit fits again. A ``LeaderboardError`` too, so the pages show the message as it is.
    """

    def __init__(self, retry_at: float) -> None:
        when = clock_time(retry_at)
        super().__init__(
            f"the Hub's hourly commit limit is reached, so nothing was stored; please try again after {when}"
        )
        self.retry_at = retry_at


def clock_time(at: float) -> str:
    """``14:05 UTC`` (and the date when it is not today's), for people; rounded up, so "after" holds."""
    moment = datetime.fromtimestamp(math.ceil(at / 60) * 60, UTC)
    today = datetime.now(UTC).date()
    return moment.strftime("%H:%M UTC") if moment.date() == today else moment.strftime("%Y-%m-%d %H:%M UTC")


INTERNAL = ".store"  # a local store's lock and journal; never a path of the namespace


def check_path(path: str) -> str:
    """``path`` when it is a relative POSIX path inside the namespace; ``ValueError`` otherwise."""
    parts = path.split("/")
    if not path or path.startswith("/") or "\\" in path or any(p in ("", ".", "..") for p in parts):
        raise ValueError(f"storage path {path!r}: expected a relative POSIX path without '.', '..' or empty parts")
    if parts[0] == INTERNAL:
        raise ValueError(f"storage path {path!r}: {INTERNAL}/ is reserved for the store's own lock and journal")
    return path


TAG = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")


def check_tag(name: str) -> str:
    """``name`` when it can name a tag (a letter or digit, then letters, digits, ``.``, ``_``, ``-``; at most 64)."""
    if not isinstance(name, str) or not TAG.fullmatch(name) or ".." in name or name.endswith((".", ".lock")):
        raise ValueError(f"tag {str(name)[:80]!r}: expected letters, digits, '.', '_' or '-' (at most 64)")
    return name


class Storage(ABC):
    """Files by path. ``commit`` is the only write: all its changes land, durably, or none."""

    @abstractmethod
    def read(self, path: str) -> bytes | None:
        """The file's bytes, or ``None`` when there is no such file."""

    @abstractmethod
    def list(self, prefix: str = "") -> list[str]:
        """Sorted paths of the files under ``prefix`` (a folder path, without trailing slash)."""

    def commit(
        self,
        puts: Mapping[str, bytes],
        deletes: Iterable[str] = (),
        message: str = "",
        *,
        expect: Mapping[str, bytes | None] | None = None,
    ) -> None:
        """Write ``puts`` and remove ``deletes`` as one change; return only once it is durable.

        ``expect`` makes it a compare-and-swap: the change lands only if each of its paths holds
        exactly those bytes (``None``: no such file) in the state the change is applied to;
        otherwise ``Conflict`` and nothing is stored. Raises ``StorageError`` when the change could
        not be stored; then none of it counts; ``ValueError`` for a bad path, before anything is sent.
        """
        puts = {check_path(p): bytes(data) for p, data in puts.items()}
        deletes = sorted({check_path(p) for p in deletes})
        if both := set(puts) & set(deletes):
            raise ValueError(f"paths {sorted(both)} are both written and deleted in one commit")
        if not puts and not deletes:
            return
        expected = (
            None if expect is None else {check_path(p): None if d is None else bytes(d) for p, d in expect.items()}
        )
        self._commit(puts, deletes, message, expected)

    def tag(self, name: str, message: str = "") -> None:
        """Name the store's current state ``name`` (a tag on a Hub repository), moving a tag of that name.

        What was tagged stays readable by its name (``read_tagged``) whatever is committed later. A backend
        without tags raises ``StorageError``; ``ValueError`` for a name that is not ``check_tag``'s."""
        raise StorageError(f"{self}: this store keeps no tags (cannot tag {check_tag(name)!r})")

    def read_tagged(self, name: str, path: str) -> bytes | None:
        """``path`` as it was when the store was tagged ``name``; ``None`` when the tag or the file is missing."""
        check_tag(name), check_path(path)
        return None

    def tags(self) -> builtins.list[str]:
        """The names of the store's tags, sorted."""
        return []

    def commit_quota(self) -> QuotaState | None:
        """This store's commits in the rolling hour and its quota; ``None`` when it has no quota (a folder)."""
        return None

    def hub_calls(self) -> HubCallsState | None:
        """What this store's own Hub calls said lately (``storage/hub_health.py``); ``None`` off the Hub."""
        return None

    @abstractmethod
    def _commit(
        self, puts: dict[str, bytes], deletes: builtins.list[str], message: str, expect: dict[str, bytes | None] | None
    ) -> None:
        """The backend's commit of a checked, non-empty change (see ``commit``)."""
