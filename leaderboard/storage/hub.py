"""``HubStorage``: the storage interface over one Hugging Face Hub dataset repository.

One ``commit`` is one Hub commit on ``main``, made with ``parent_commit`` set to the head it
was built on, so a commit that lost a race is refused (412) and re-based on the new head.
Rate limits (429) and server errors (5xx, timeouts) are retried with exponential backoff and
jitter, honouring ``Retry-After``, within a bounded time budget; after it ``StorageError``.

A commit whose response was lost (5xx or timeout after the Hub may have applied it) is not
blindly repeated: before each retry the new head is checked, and when it already holds every
written file byte for byte and none of the deleted ones, the change has landed and is
acknowledged without a second commit.

``parent_commit`` is a compare-and-swap on the branch: ``commit(..., expect={path: bytes})`` is
re-based after a 412 only when the new head still holds the expected bytes, and otherwise raises
``Conflict`` (the caller re-reads and decides again). See docs/HUB.md.

The write is in ``hub_commit.py`` (a mixin); with ``hub_calls.py`` (timeouts, retries) these are the only
modules of ``leaderboard`` that import ``huggingface_hub``.
"""

from __future__ import annotations

import builtins  # the class's own method `list` shadows the builtin in annotations
import errno
import logging
import random
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from huggingface_hub import HfApi, RepoFile
from huggingface_hub.errors import RemoteEntryNotFoundError

from leaderboard.storage.base import HubCallsState, Storage, StorageError, check_path, check_tag
from leaderboard.storage.commit_log import CommitLog, CommitQuota, QuotaState
from leaderboard.storage.hub_cache import ReadCache
from leaderboard.storage.hub_calls import (
    RetryPolicy,
    bound_client_timeouts,
    brief,
    classify,
    is_transient,
    retry_after,
)
from leaderboard.storage.hub_commit import REPO_TYPE, HubCommits, top_folder
from leaderboard.storage.hub_health import HubCalls

log = logging.getLogger(__name__)
T = TypeVar("T")
_retry_after = retry_after  # its name before it moved to hub_calls (the tests use it)
DEFAULT_RETRY = RetryPolicy()
HUB_QUOTA = CommitQuota()  # 128 commits per repository per hour
__all__ = ["HubStorage", "RetryPolicy", "is_transient"]

# Files the Hub itself puts in every new repository; not part of the shared layout.
HUB_OWN_FILES = frozenset({".gitattributes"})


class HubStorage(HubCommits, Storage):
    """Files of the Hub dataset repository ``repo_id`` (branch ``main``); created on first use.

    ``api`` is any object with the ``HfApi`` methods used here (tests pass a fake).
    ``head_ttl_s`` > 0 lets reads reuse the last known head for that long (fewer Hub calls,
    but another writer's commit may be seen up to that late); 0 checks the head on every read.
    ``timeout_s`` bounds every request of the Hub client in this process (whose default is to
    wait forever), see ``hub_calls.bound_client_timeouts``.
    """

    def __init__(
        self,
        repo_id: str,
        token: str | None = None,
        api: Any | None = None,
        private: bool = True,
        *,
        cache_dir: str | Path | None = None,
        retry: RetryPolicy = DEFAULT_RETRY,
        head_ttl_s: float = 0.0,
        cache_entries: int = 4096,
        cache_max_bytes: int = 1 << 20,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
        rng: random.Random | None = None,
        timeout_s: float = 60.0,
        quota: CommitQuota = HUB_QUOTA,
        commit_log: Path | None = None,
        wall_clock: Callable[[], float] = time.time,
    ) -> None:
        bound_client_timeouts(timeout_s)
        self.repo_id = repo_id
        self.private = private
        self._api = api if api is not None else HfApi(token=token)
        self._cache_dir = cache_dir
        self._retry = retry
        self._head_ttl_s = head_ttl_s
        self._clock = clock
        self._sleep = sleep
        self._rng = rng if rng is not None else random.Random()
        self._repo_ready = False
        self._head: str | None = None
        self._head_at = float("-inf")
        self._reads = ReadCache(cache_entries, cache_max_bytes)
        self._lock = threading.Lock()  # the head
        self._commit_lock = threading.Lock()  # one commit at a time per instance: no self-inflicted races
        self._commits = CommitLog(repo_id, quota, commit_log, wall_clock)
        self.calls = HubCalls(wall_clock)  # the last call that worked and the last that failed

    def commit_quota(self) -> QuotaState:
        return self._commits.state()

    def hub_calls(self) -> HubCallsState:
        return self.calls.state()

    def _commit(
        self, puts: dict[str, bytes], deletes: builtins.list[str], message: str, expect: dict[str, bytes | None] | None
    ) -> None:
        with self.calls.noted():  # a commit's outcome after its retries (a lost race and the hourly limit are answers)
            super()._commit(puts, deletes, message, expect)

    def __repr__(self) -> str:
        return f"HubStorage({self.repo_id!r})"

    # -- reads -------------------------------------------------------------------------------

    def head(self) -> str:
        """The commit sha of ``main`` (fetched unless known for less than ``head_ttl_s``)."""
        self._ensure_repo()
        with self._lock:
            if self._head is not None and self._clock() - self._head_at < self._head_ttl_s:
                return self._head
        return self._call("resolve the head of main", self._fetch_head)

    def read(self, path: str) -> bytes | None:
        check_path(path)
        return self._read_at(self.head(), path)

    def _read_at(self, sha: str, path: str) -> bytes | None:
        info = self._folder(sha, top_folder(path)).get(path)
        if info is None:
            return None
        cached = self._reads.blob(info.blob_id)
        if cached is not None:  # the same content as last read, whatever the commit
            return cached

        def download() -> bytes | None:
            try:
                local = self._api.hf_hub_download(
                    self.repo_id, path, repo_type=REPO_TYPE, revision=sha, cache_dir=self._cache_dir
                )
                return Path(local).read_bytes()
            except RemoteEntryNotFoundError:
                return None
            except OSError as error:
                if classify(error) is not None:  # the network: retried by _call
                    raise
                raise self._cache_error(path, error) from error

        data = self._call(f"read {path!r}", download)
        if data is not None:
            self._reads.keep_blob(info.blob_id, data)
        return data

    def list(self, prefix: str = "") -> builtins.list[str]:
        prefix = prefix.rstrip("/")
        if prefix:
            check_path(prefix)
        files = self._folder(self.head(), top_folder(prefix + "/") if prefix else _EVERYTHING)
        under = prefix + "/" if prefix else ""
        return sorted(p for p in files if p.startswith(under))

    # -- tags ----------------------------------------------------------------------------------

    def tag(self, name: str, message: str = "") -> None:
        """Tag the head of ``main`` (fetched now) ``name``; an existing tag of that name is moved there."""
        check_tag(name)
        self._ensure_repo()
        sha = self._call("resolve the head of main", self._fetch_head)
        if name in self.tags():
            self._call(
                f"move the tag {name!r}", lambda: self._api.delete_tag(self.repo_id, tag=name, repo_type=REPO_TYPE)
            )
        self._call(
            f"tag {name!r}",
            lambda: self._api.create_tag(
                self.repo_id, tag=name, tag_message=message or None, revision=sha, repo_type=REPO_TYPE, exist_ok=True
            ),
        )
        log.info("%s: tagged %s at %s", self.repo_id, name, sha[:12])

    def read_tagged(self, name: str, path: str) -> bytes | None:
        check_tag(name), check_path(path)
        if name not in self.tags():
            return None
        sha = self._call(
            f"resolve the tag {name!r}",
            lambda: str(self._api.repo_info(self.repo_id, repo_type=REPO_TYPE, revision=name).sha),
        )
        return self._read_at(sha, path)

    def tags(self) -> builtins.list[str]:
        self._ensure_repo()
        refs = self._call("list the tags", lambda: self._api.list_repo_refs(self.repo_id, repo_type=REPO_TYPE))
        return sorted(t.name for t in refs.tags)

    def _folder(self, sha: str, folder: str) -> dict[str, RepoFile]:
        """``{path: RepoFile}`` of the files under the top-level ``folder`` at ``sha`` (``""``: the root's own
        files; ``_EVERYTHING``: all), listed once per commit."""
        cached = self._reads.folder(sha, folder)
        if cached is not None:
            return cached

        def tree() -> dict[str, RepoFile]:
            recursive, where = (True, None) if folder == _EVERYTHING else (bool(folder), folder or None)
            try:
                entries = self._api.list_repo_tree(
                    self.repo_id, path_in_repo=where, recursive=recursive, revision=sha, repo_type=REPO_TYPE
                )
                return {e.path: e for e in entries if isinstance(e, RepoFile) and e.path not in HUB_OWN_FILES}
            except RemoteEntryNotFoundError:  # no such folder
                return {}

        files = self._call(f"list {folder or 'the top level'!r}", tree)
        self._reads.keep_folder(sha, folder, files)
        return files

    # -- helpers -----------------------------------------------------------------------------

    def _wait(self, kind: str, attempt: int, err: Exception) -> float:
        if kind == "conflict":
            return self._rng.uniform(0, self._retry.conflict_pause_s)
        wait = self._retry.backoff(attempt, self._rng)
        asked = retry_after(err)
        return max(wait, asked) if asked is not None else wait

    def _call(self, what: str, fn: Callable[[], T]) -> T:
        """``fn()`` retried on 429/5xx/network errors within the budget; ``StorageError`` after."""
        start = self._clock()
        attempt = 0
        while True:
            attempt += 1
            try:
                answer = fn()
                self.calls.ok()
                return answer
            except Exception as err:
                kind = classify(err)
                if kind is None:
                    raise
                wait = self._wait(kind, attempt, err)
                too_late = self._clock() + wait > start + self._retry.budget_s
                if kind == "fatal" or too_late or attempt >= self._retry.max_attempts:
                    failed = StorageError(f"{self.repo_id}: could not {what} ({attempt} attempts): {brief(err)}")
                    self.calls.failed(failed, kind)  # noted for the health route, which never calls the Hub
                    raise failed from err
                log.warning("%s: %s failed (%s); retrying in %.1f s", self.repo_id, what, kind, wait)
                self._sleep(wait)

    def _try(self, fn: Callable[[], T]) -> T | None:
        """``fn()``, or ``None`` when the Hub did not answer (used between commit attempts)."""
        try:
            return fn()
        except Exception as err:
            if classify(err) is None:
                raise
            return None

    def _ensure_repo(self) -> None:
        if not self._repo_ready:
            self._call(
                "create the repository",
                lambda: self._api.create_repo(self.repo_id, repo_type=REPO_TYPE, private=self.private, exist_ok=True),
            )
            self._repo_ready = True

    def _fetch_head(self) -> str:
        sha = str(self._api.repo_info(self.repo_id, repo_type=REPO_TYPE).sha)
        with self._lock:
            self._head, self._head_at = sha, self._clock()
        return sha

    def _cache_error(self, path: str, error: OSError) -> StorageError:
        """A download that could not be written to the Hub download cache, said plainly."""
        where = self._cache_dir or "the default Hub cache"
        problem = "is full" if error.errno == errno.ENOSPC else f"cannot be written ({error.strerror or error})"
        return StorageError(f"{self.repo_id}: cannot read {path!r}: the Hub download cache {where} {problem}")


_EVERYTHING = "/"  # the key of a full, recursive listing (no folder is named "/")
