"""How many commits one Hub repository received in the rolling hour, remembered across restarts.

The Hub allows 128 commits per repository per hour and then answers 429 "You have exceeded the
rate limit for repository commits (128 per hour)" (/work/shared/HUB-FACTS.md). It does not say how
many are left, so the count is ours: the time of every commit this machine made, kept in a small
JSON file (every process of the machine shares it, under a file lock), corrected by the Hub's own
answers: a 429 means the window is full now, until its ``Retry-After`` (or a whole window when the
Hub sends none). Commits by other machines are not seen until the Hub refuses one of ours.

Wall-clock times (``time.time``), so that a restart, or another process, reads the same log.
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from filelock import FileLock, Timeout

log = logging.getLogger(__name__)

HUB_COMMITS_PER_HOUR = 128  # the Hub's 429 says so (HUB-FACTS.md)
HOUR_S = 3600.0


@dataclass(frozen=True)
class CommitQuota:
    """At most ``commits`` commits to one repository in any ``window_s`` seconds (the Hub: 128 an hour)."""

    commits: int = HUB_COMMITS_PER_HOUR
    window_s: float = HOUR_S

    def __post_init__(self) -> None:
        if self.commits < 1 or self.window_s <= 0:
            raise ValueError(
                f"commit quota {self.commits} per {self.window_s} s: expected at least 1 per a positive time"
            )


@dataclass(frozen=True)
class QuotaState:
    """One repository's commits in the window now, and when the next one fits."""

    repo_id: str
    used: int  # commits in the window (``commits`` when the Hub said the window is full)
    commits: int  # the quota
    window_s: float
    refused_until: float | None  # the Hub refused a commit (429): none fits before this time
    times: tuple[float, ...]  # the window's commit times, oldest first

    @property
    def left(self) -> int:
        return max(0, self.commits - self.used)

    def free_at(self, needed: int, now: float) -> float:
        """The time from which ``needed`` more commits fit in the window (``now`` when they fit now)."""
        at = max(now, self.refused_until or now)
        over = self.used + needed - self.commits
        if over > 0 and self.times:  # the oldest ``over`` commits have to leave the window first
            at = max(at, self.times[min(over, len(self.times)) - 1] + self.window_s)
        return at


class CommitLog:
    """The commit times of ``repo_id`` in the rolling window; persisted in ``path`` when given."""

    def __init__(
        self, repo_id: str, quota: CommitQuota, path: Path | None = None, clock: Callable[[], float] = time.time
    ) -> None:
        self.repo_id, self.quota, self.path, self.clock = repo_id, quota, path, clock
        self._lock = threading.Lock()
        self._times: list[float] = []
        self._refused_until: float | None = None

    def record(self, count: int = 1) -> None:
        """``count`` commits landed now."""
        with self._locked():
            now = self.clock()
            self._times += [now] * count

    def refused(self, retry_after_s: float | None) -> None:
        """The Hub answered 429 to a commit: its window is full until ``retry_after_s`` from now."""
        with self._locked():
            now = self.clock()
            until = now + (retry_after_s if retry_after_s is not None else self.quota.window_s)
            self._refused_until = max(until, self._refused_until or until)
            log.warning("%s: the Hub refused a commit (hourly limit) until %.0f s from now", self.repo_id, until - now)

    def state(self) -> QuotaState:
        with self._locked(write=False):
            now = self.clock()
            refused = self._refused_until if self._refused_until and self._refused_until > now else None
            used = self.quota.commits if refused else min(len(self._times), self.quota.commits)
            return QuotaState(self.repo_id, used, self.quota.commits, self.quota.window_s, refused, tuple(self._times))

    # -- the file ------------------------------------------------------------------------------

    def _locked(self, write: bool = True) -> _Session:
        return _Session(self, write)

    def _load(self) -> None:
        if self.path is None:
            return
        try:
            data = json.loads(self.path.read_text("utf-8"))
            times = [float(t) for t in data.get("commits", [])]
            refused = data.get("refused_until")
            self._times, self._refused_until = times, float(refused) if refused is not None else None
        except FileNotFoundError:
            pass
        except (OSError, ValueError, TypeError, AttributeError) as error:  # torn or foreign: what we knew stands
            log.warning("%s: the commit log %s cannot be read (%s); it is rewritten from this process's count",
                        self.repo_id, self.path, error)  # fmt: skip

    def _prune(self) -> None:
        horizon = self.clock() - self.quota.window_s
        self._times = sorted(t for t in self._times if t > horizon)[-self.quota.commits * 4 :]  # bounded file

    def _save(self) -> None:
        if self.path is None:
            return
        data = json.dumps({"repo": self.repo_id, "commits": self._times, "refused_until": self._refused_until})
        temporary = self.path.with_name(self.path.name + ".tmp")
        try:
            temporary.write_text(data, "utf-8")
            os.replace(temporary, self.path)  # a reader never sees half a file
        except OSError as error:  # the count is a plan, not a record: losing it must not stop a commit
            log.warning("%s: cannot write the commit log %s: %s", self.repo_id, self.path, error)


class _Session:
    """The log loaded from its file, pruned, and written back (under a file lock shared by the machine)."""

    def __init__(self, log_: CommitLog, write: bool) -> None:
        self.log, self.write = log_, write
        path = log_.path
        self.file_lock = FileLock(str(path) + ".lock", timeout=10) if path is not None else None

    def __enter__(self) -> None:
        self.log._lock.acquire()
        if self.file_lock is not None and self.log.path is not None:
            self.log.path.parent.mkdir(parents=True, exist_ok=True)
            try:
                self.file_lock.acquire()
            except Timeout:  # another process hangs on to it: count in memory this once rather than wait
                log.warning("%s: the commit log is busy; this count stays in memory", self.log.repo_id)
                self.file_lock, self.write = None, False
        if self.file_lock is not None:
            self.log._load()
        self.log._prune()

    def __exit__(self, *exc: object) -> None:
        try:
            if self.write:
                self.log._save()
        finally:
            if self.file_lock is not None:
                self.file_lock.release()
            self.log._lock.release()
