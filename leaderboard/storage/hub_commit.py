"""``HubStorage``'s one write: a commit on ``parent_commit``, retried, re-based, checked when its answer was lost.

A mixin of ``HubStorage`` (``hub.py``), which holds the state it uses (the client, the head, the read
cache, the retry policy, the commit log); see that module and docs/HUB.md for the guarantees.
"""

from __future__ import annotations

import builtins
import hashlib
import logging
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from huggingface_hub import CommitOperationAdd, CommitOperationDelete, RepoFile
from huggingface_hub.utils.sha import git_hash

from leaderboard.storage.base import CommitLimitReached, Conflict, StorageError
from leaderboard.storage.hub_calls import RetryPolicy, brief, classify, is_commit_quota, retry_after

if TYPE_CHECKING:
    from leaderboard.storage.commit_log import CommitLog
    from leaderboard.storage.hub_cache import ReadCache

log = logging.getLogger("leaderboard.storage.hub")
T = TypeVar("T")
REPO_TYPE = "dataset"


def _same_content(info: RepoFile, data: bytes) -> bool:
    if info.lfs is not None:
        return info.lfs.sha256 == hashlib.sha256(data).hexdigest()
    return info.blob_id == git_hash(data)


class HubCommits:
    """The commit side of ``HubStorage``."""

    repo_id: str
    _api: Any
    _commits: CommitLog
    _commit_lock: threading.Lock
    _lock: threading.Lock
    _head: str | None
    _head_at: float
    _reads: ReadCache
    _retry: RetryPolicy
    _clock: Callable[[], float]
    _sleep: Callable[[float], None]

    if TYPE_CHECKING:  # HubStorage's, shared with the reads

        def _ensure_repo(self) -> None: ...
        def _fetch_head(self) -> str: ...
        def _try(self, fn: Callable[[], T]) -> T | None: ...
        def _wait(self, kind: str, attempt: int, err: Exception) -> float: ...

    # -- the one write -----------------------------------------------------------------------

    def _commit(
        self, puts: dict[str, bytes], deletes: builtins.list[str], message: str, expect: dict[str, bytes | None] | None
    ) -> None:
        with self._commit_lock:
            refused_until = self._commits.state().refused_until
            if refused_until is not None:  # the Hub said no commit fits before then: do not ask again
                raise CommitLimitReached(refused_until)
            self._ensure_repo()
            self._commit_with_retries(puts, deletes, message or "update", expect)

    def _commit_with_retries(
        self,
        puts: dict[str, bytes],
        deletes: builtins.list[str],
        message: str,
        expect: dict[str, bytes | None] | None = None,
    ) -> None:
        start = self._clock()
        parent = self._head  # last known head: a stale one costs a 412 and a re-base
        unanswered: str | None = None  # parent of the last commit sent without an answer: it may have landed
        attempt = 0
        while True:
            attempt, sent = attempt + 1, None
            try:
                if parent is None:
                    parent = self._fetch_head()
                if unanswered is not None and parent != unanswered and self._holds(parent, puts, deletes):
                    log.info("%s: a commit whose response was lost had landed", self.repo_id)
                    self._commits.record()
                    return self._landed(parent, puts, deletes)
                if expect is not None and not self._expected(parent, expect):
                    raise Conflict(
                        f"commit {message!r} to {self.repo_id}: {', '.join(sorted(expect))} changed since it was "
                        "read; nothing was stored",
                        outcome_unknown=unanswered is not None,  # it may have landed and been overwritten
                    )
                operations = self._operations(parent, puts, deletes)
                if not operations:  # only deletes, of files already gone
                    return self._landed(parent, puts, deletes)
                sent = parent
                info = self._api.create_commit(
                    self.repo_id, operations, commit_message=message, repo_type=REPO_TYPE, parent_commit=parent
                )
                if info.oid != parent:  # the client skips a commit that changes nothing and answers the head
                    self._commits.record()
                return self._landed(info.oid, puts, deletes)
            except Exception as err:
                kind = classify(err)
                if kind is None:
                    raise
                if kind == "fatal":
                    raise StorageError(
                        f"commit to {self.repo_id}: the Hub refused it: {brief(err)}",
                        outcome_unknown=unanswered is not None,  # an earlier attempt may have landed
                    ) from err
                if kind == "unavailable" and sent is not None:
                    unanswered = sent
                if kind == "throttled" and sent is not None and is_commit_quota(err):
                    # An hour-long window: waiting within a minute's budget cannot help. Refuse at once, in words.
                    self._commits.refused(retry_after(err))
                    if unanswered is None:
                        raise CommitLimitReached(self._commits.state().free_at(1, self._commits.clock())) from err
                    return self._give_up(attempt, start, err, True, puts, deletes)
                wait = self._wait(kind, attempt, err)
                if attempt >= self._retry.max_attempts or self._clock() + wait > start + self._retry.budget_s:
                    return self._give_up(attempt, start, err, unanswered is not None, puts, deletes)
                log.warning("%s: commit attempt %d failed (%s); retrying in %.1f s", self.repo_id, attempt, kind, wait)
                self._sleep(wait)
                parent = self._try(self._fetch_head) or parent

    def _operations(self, parent: str, puts: dict[str, bytes], deletes: builtins.list[str]) -> builtins.list[Any]:
        """Fresh operations for one attempt (the client refuses to reuse them); deletes of absent files dropped."""
        present = self._present(parent, deletes) if deletes else set()
        operations: builtins.list[Any] = [
            CommitOperationAdd(path_in_repo=p, path_or_fileobj=d) for p, d in puts.items()
        ]
        return operations + [CommitOperationDelete(path_in_repo=p, is_folder=False) for p in deletes if p in present]

    def _give_up(
        self,
        attempts: int,
        start: float,
        err: Exception,
        maybe_landed: bool,
        puts: dict[str, bytes],
        deletes: builtins.list[str],
    ) -> None:
        """Acknowledge a change found at the head after all, or raise ``StorageError``."""
        outcome, unknown = "nothing was stored", False
        if maybe_landed:  # one last look, outside the budget
            head = self._try(self._fetch_head)
            found = self._try(lambda: self._holds(head, puts, deletes)) if head is not None else None
            if found:
                log.info("%s: a commit whose response was lost had landed after all", self.repo_id)
                self._commits.record()
                return self._landed(str(head), puts, deletes)
            if found is None:
                outcome, unknown = "the Hub did not answer, so the change may still appear, unacknowledged", True
        if not unknown and is_commit_quota(err):
            log.warning("%s: commit refused, the hourly commit limit is reached: %s", self.repo_id, brief(err))
            raise CommitLimitReached(self._commits.state().free_at(1, self._commits.clock())) from err
        spent = self._clock() - start
        raise StorageError(
            f"commit to {self.repo_id}: gave up after {attempts} attempts in {spent:.0f} s ({brief(err)}); {outcome}",
            outcome_unknown=unknown,
        ) from err

    def _present(self, sha: str, paths: builtins.list[str]) -> set[str]:
        infos = self._api.get_paths_info(self.repo_id, paths, revision=sha, repo_type=REPO_TYPE)
        return {i.path for i in infos if isinstance(i, RepoFile)}

    def _expected(self, sha: str, expect: dict[str, bytes | None]) -> bool:
        """Whether each path in ``expect`` holds exactly those bytes at ``sha`` (``None``: absent).

        Answered from the listings when the caller read the paths at ``sha`` (the usual case: read,
        decide, commit on that head); otherwise by one ``get_paths_info`` call.
        """
        files: dict[str, RepoFile] = {}
        unknown = []
        for path in expect:
            listed = self._reads.folder(sha, top_folder(path))
            if listed is None:
                unknown.append(path)
            elif path in listed:
                files[path] = listed[path]
        if unknown:
            infos = self._api.get_paths_info(self.repo_id, unknown, revision=sha, repo_type=REPO_TYPE)
            files.update({i.path: i for i in infos if isinstance(i, RepoFile)})
        for path, data in expect.items():
            if (path in files) != (data is not None) or (data is not None and not _same_content(files[path], data)):
                return False
        return True

    def _holds(self, sha: str, puts: dict[str, bytes], deletes: builtins.list[str]) -> bool:
        """Whether the tree at ``sha`` has every put byte for byte and none of the deletes."""
        infos = self._api.get_paths_info(self.repo_id, [*puts, *deletes], revision=sha, repo_type=REPO_TYPE)
        files = {i.path: i for i in infos if isinstance(i, RepoFile)}
        return all(p in files and _same_content(files[p], d) for p, d in puts.items()) and not (
            files.keys() & set(deletes)
        )

    def _landed(self, sha: str, puts: dict[str, bytes], deletes: builtins.list[str]) -> None:
        with self._lock:
            self._head, self._head_at = sha, self._clock()
        for data in puts.values():  # a writer reads its own writes without downloading them
            self._reads.keep_blob(git_hash(data), data)


def top_folder(path: str) -> str:
    """The top-level folder whose listing holds ``path`` (``""`` for a file at the top level)."""
    return path.split("/", 1)[0] if "/" in path else ""
