"""An in-memory Hugging Face Hub for offline tests: the few ``HfApi`` methods ``HubStorage`` uses.

``FakeHub`` is the server (repositories with real-looking commit shas and full history);
``FakeHub.api()`` returns a client, and several clients sharing one hub are several writers.
Errors are the real client's: each failure is an ``httpx2.Response`` passed through
``huggingface_hub.utils.hf_raise_for_status``, so a stale ``parent_commit`` raises the same
``HfHubHTTPError`` with status 412 that the Hub returns, a missing file ``RemoteEntryNotFoundError``,
a missing repository ``RepositoryNotFoundError``; ``hf_hub_download`` wraps 5xx and dropped
connections in ``LocalEntryNotFoundError`` as the real one does. Behaviour copied from the
installed client (huggingface_hub 2.4.0): ``create_commit`` validates ``parent_commit`` and the
message, refuses re-used ``CommitOperationAdd`` objects, drops additions identical to ``main`` and
returns the head without committing when nothing is left (before the parent check), and a
delete of a missing file is a 404. A new repository holds one commit with ``.gitattributes``.

Faults, consumed one per call of the named method (``hub.inject``) or drawn at random
(``hub.chaos``):

- ``Http(status, retry_after)``: the call is refused before anything happens (429, 500, 502, 503…);
- ``Disconnect()``: the connection drops before the request is sent;
- ``Race(puts, deletes)``: another writer commits just before the call is processed;
- ``LostResponse(status)``: the call is processed (the commit lands), then the answer is lost,
  as a 5xx (``status``) or a read timeout (``status=None``).

``commit_limit=(n, window_s)`` makes the hub answer 429 with ``Retry-After`` once ``n`` commits
landed in the last ``window_s`` seconds of ``clock`` (the Hub's commit quota, with made-up numbers).
"""

from __future__ import annotations

import hashlib
import itertools
import math
import random
import threading
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

import httpx2
from huggingface_hub import (
    CommitInfo,
    CommitOperationAdd,
    CommitOperationDelete,
    DatasetInfo,
    RepoFile,
    RepoFolder,
    constants,
)
from huggingface_hub.errors import HfHubHTTPError, LocalEntryNotFoundError, RepositoryNotFoundError
from huggingface_hub.hf_api import RepoUrl
from huggingface_hub.utils import hf_raise_for_status
from huggingface_hub.utils.sha import git_hash

ENDPOINT = "https://huggingface.co"
GITATTRIBUTES = b"*.parquet filter=lfs diff=lfs merge=lfs -text\n*.arrow filter=lfs diff=lfs merge=lfs -text\n"
BRANCH_MOVED = "The branch was updated since you opened this page. Please refresh and try again."


# -- faults ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Http:
    status: int
    retry_after: int | None = None


@dataclass(frozen=True)
class Disconnect:
    pass


@dataclass(frozen=True)
class Race:
    puts: Mapping[str, bytes] = field(default_factory=dict)
    deletes: tuple[str, ...] = ()


@dataclass(frozen=True)
class LostResponse:
    status: int | None = 502


Fault = Http | Disconnect | Race | LostResponse


class FakeClock:
    """Monotonic time that moves only when someone sleeps; records the sleeps."""

    def __init__(self, start: float = 1000.0) -> None:
        self.t = start
        self.sleeps: list[float] = []

    def now(self) -> float:
        return self.t

    def sleep(self, seconds: float) -> None:
        assert seconds >= 0, seconds
        self.sleeps.append(seconds)
        self.t += seconds


# -- server state ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Commit:
    sha: str
    parent: str | None
    message: str
    description: str
    files: dict[str, bytes]  # the whole tree at this commit
    at: float


@dataclass
class Repo:
    repo_id: str
    repo_type: str
    private: bool
    commits: list[Commit] = field(default_factory=list)

    @property
    def head(self) -> Commit:
        return self.commits[-1]

    def at(self, revision: str | None) -> Commit | None:
        if revision in (None, constants.DEFAULT_REVISION):
            return self.head
        return next((c for c in self.commits if c.sha == revision), None)


def _fail(
    status: int,
    method: str,
    url: str,
    *,
    code: str | None = None,
    message: str | None = None,
    headers: Mapping[str, str] | None = None,
) -> NoReturn:
    """Raise exactly what the real client raises for this HTTP answer."""
    all_headers = {"X-Request-Id": f"fake-{next(_request_ids)}", **(headers or {})}
    if code:
        all_headers["X-Error-Code"] = code
    response = httpx2.Response(
        status, headers=all_headers, json={"error": message} if message else None, request=httpx2.Request(method, url)
    )
    hf_raise_for_status(response)
    raise AssertionError(f"status {status} did not raise")  # pragma: no cover


_request_ids = itertools.count(1)


class FakeHub:
    def __init__(
        self,
        root: Path,
        *,
        clock: Callable[[], float] = lambda: 0.0,
        commit_limit: tuple[int, float] | None = None,
        lfs_threshold: int = 10 * 1024 * 1024,
    ) -> None:
        self.root = Path(root)
        self.clock = clock
        self.commit_limit = commit_limit
        self.lfs_threshold = lfs_threshold
        self.repos: dict[tuple[str, str], Repo] = {}
        self.calls: Counter[str] = Counter()
        self.faults_served: Counter[str] = Counter()
        self._scheduled: dict[str, deque[Fault]] = {}
        self._chaos: tuple[random.Random, dict[str, float], frozenset[str]] | None = None
        self._lock = threading.RLock()
        self._counter = itertools.count(1)

    def api(self, token: str | None = None) -> FakeHfApi:
        return FakeHfApi(self, token)

    # -- fault injection -----------------------------------------------------------------------

    def inject(self, method: str, *faults: Fault) -> None:
        """Serve ``faults`` to the next calls of ``method``, one per call, in order."""
        self._scheduled.setdefault(method, deque()).extend(faults)

    def chaos(self, seed: int, methods: Iterable[str] = ("create_commit",), **chances: float) -> None:
        """Random faults per call: chances named ``throttle``, ``unavailable``, ``race``, ``lost``, ``disconnect``."""
        unknown = set(chances) - {"throttle", "unavailable", "race", "lost", "disconnect"}
        assert not unknown, unknown
        self._chaos = (random.Random(seed), chances, frozenset(methods))

    def clear_faults(self) -> None:
        """No more faults: forget the schedule and stop the chaos."""
        self._scheduled.clear()
        self._chaos = None

    def _next_fault(self, method: str) -> Fault | None:
        queue = self._scheduled.get(method)
        if queue:
            return queue.popleft()
        if self._chaos is None or method not in self._chaos[2]:
            return None
        rng, chances, _ = self._chaos
        roll = rng.random()
        for name, chance in chances.items():
            if roll < chance:
                return {
                    "throttle": Http(429, retry_after=rng.randint(1, 5)),
                    "unavailable": Http(rng.choice([500, 502, 503])),
                    "race": Race({f"other/{next(self._counter)}.txt": b"other writer"}),
                    "lost": LostResponse(rng.choice([502, 504, None])),
                    "disconnect": Disconnect(),
                }[name]
            roll -= chance
        return None

    def _before(self, method: str, http_method: str, url: str, repo: tuple[str, str] | None) -> Fault | None:
        """Count the call and apply a fault that happens before processing; return a LostResponse."""
        self.calls[method] += 1
        fault = self._next_fault(method)
        if fault is None:
            return None
        self.faults_served[type(fault).__name__] += 1
        if isinstance(fault, Http):
            headers = {"Retry-After": str(fault.retry_after)} if fault.retry_after is not None else None
            _fail(fault.status, http_method, url, headers=headers)
        if isinstance(fault, Disconnect):
            raise httpx2.ConnectError("[Errno 111] Connection refused (fake)")
        if isinstance(fault, Race):
            assert repo is not None, f"Race makes no sense for {method}"
            self.external_commit(repo[1], fault.puts, fault.deletes, repo_type=repo[0], message="other writer")
            return None
        return fault

    @staticmethod
    def _after(fault: Fault | None, http_method: str, url: str) -> None:
        if isinstance(fault, LostResponse):
            if fault.status is None:
                raise httpx2.ReadTimeout("The read operation timed out (fake)")
            _fail(fault.status, http_method, url)

    # -- server operations (also the test's view) ----------------------------------------------

    def repo(self, repo_id: str, repo_type: str = "dataset", method: str = "GET", url: str = "") -> Repo:
        found = self.repos.get((repo_type, repo_id))
        if found is None:
            _fail(404, method, url or f"{ENDPOINT}/api/{repo_type}s/{repo_id}", code="RepoNotFound")
        return found

    def history(self, repo_id: str, repo_type: str = "dataset") -> list[Commit]:
        """Commits of ``main``, oldest first."""
        return list(self.repo(repo_id, repo_type).commits)

    def files(self, repo_id: str, repo_type: str = "dataset", revision: str | None = None) -> dict[str, bytes]:
        commit = self.repo(repo_id, repo_type).at(revision)
        assert commit is not None, revision
        return dict(commit.files)

    def create(self, repo_id: str, repo_type: str = "dataset", private: bool = False) -> Repo:
        with self._lock:
            repo = self.repos[(repo_type, repo_id)] = Repo(repo_id, repo_type, private)
            self._append(repo, None, {".gitattributes": GITATTRIBUTES}, "initial commit", "")
            return repo

    def external_commit(
        self,
        repo_id: str,
        puts: Mapping[str, bytes],
        deletes: Iterable[str] = (),
        *,
        repo_type: str = "dataset",
        message: str = "external",
    ) -> str:
        """Another writer's commit, straight onto ``main``."""
        with self._lock:
            repo = self.repo(repo_id, repo_type)
            files = {p: d for p, d in repo.head.files.items() if p not in set(deletes)} | dict(puts)
            return self._append(repo, repo.head.sha, files, message, "").sha

    def _append(
        self, repo: Repo, parent: str | None, files: dict[str, bytes], message: str, description: str
    ) -> Commit:
        tree = hashlib.sha1(b"".join(p.encode() + b"\0" + git_hash(d).encode() for p, d in sorted(files.items())))
        seed = f"{parent}\n{tree.hexdigest()}\n{message}\n{next(self._counter)}".encode()
        commit = Commit(hashlib.sha1(seed).hexdigest(), parent, message, description, files, self.clock())
        repo.commits.append(commit)
        return commit

    def entry(self, path: str, data: bytes) -> RepoFile:
        if len(data) >= self.lfs_threshold:
            sha256 = hashlib.sha256(data).hexdigest()
            pointer = f"version https://git-lfs.github.com/spec/v1\noid sha256:{sha256}\nsize {len(data)}\n".encode()
            lfs = {"size": len(data), "oid": sha256, "pointerSize": len(pointer)}
            return RepoFile(path=path, size=len(data), oid=git_hash(pointer), lfs=lfs)
        return RepoFile(path=path, size=len(data), oid=git_hash(data))

    def throttle_commit(self, repo: Repo, url: str) -> None:
        if self.commit_limit is None:
            return
        limit, window = self.commit_limit
        now = self.clock()
        recent = [c.at for c in repo.commits if now - c.at < window]
        if len(recent) >= limit:
            wait = math.ceil(min(recent) + window - now)
            _fail(
                429,
                "POST",
                url,
                message="You have exceeded our hourly quotas for action: commit. We invite you to retry later.",
                headers={"Retry-After": str(max(wait, 1))},
            )


# -- client ------------------------------------------------------------------------------------


class FakeHfApi:
    """The ``HfApi`` methods ``HubStorage`` calls, with the installed client's signatures."""

    def __init__(self, hub: FakeHub, token: str | None = None) -> None:
        self.hub = hub
        self.token = token
        self.endpoint = ENDPOINT

    def create_repo(
        self,
        repo_id: str,
        *,
        token: str | bool | None = None,
        private: bool | None = None,
        repo_type: str | None = None,
        exist_ok: bool = False,
        **_: Any,
    ) -> RepoUrl:
        hub, repo_type = self.hub, repo_type or "model"
        url = f"{ENDPOINT}/api/repos/create"
        with hub._lock:
            fault = hub._before("create_repo", "POST", url, None)
            if (repo_type, repo_id) in hub.repos:
                if not exist_ok:
                    _fail(409, "POST", url, message="You already created this dataset repo")
            else:
                hub.create(repo_id, repo_type, private=bool(private))
            hub._after(fault, "POST", url)
        prefix = "" if repo_type == "model" else f"{repo_type}s/"
        return RepoUrl(f"{ENDPOINT}/{prefix}{repo_id}", endpoint=ENDPOINT)

    def repo_info(
        self, repo_id: str, *, revision: str | None = None, repo_type: str | None = None, **_: Any
    ) -> DatasetInfo:
        assert repo_type == "dataset", "the fake serves dataset repositories"
        hub = self.hub
        url = f"{ENDPOINT}/api/datasets/{repo_id}" + (f"/revision/{revision}" if revision else "")
        with hub._lock:
            fault = hub._before("repo_info", "GET", url, ("dataset", repo_id))
            repo = hub.repo(repo_id, "dataset", url=url)
            commit = self._revision(repo, revision, url)
            hub._after(fault, "GET", url)
            return DatasetInfo(id=repo_id, sha=commit.sha, private=repo.private)

    def create_commit(
        self,
        repo_id: str,
        operations: Iterable[CommitOperationAdd | CommitOperationDelete],
        *,
        commit_message: str,
        commit_description: str | None = None,
        token: str | bool | None = None,
        repo_type: str | None = None,
        revision: str | None = None,
        create_pr: bool | None = None,
        num_threads: int = 5,
        parent_commit: str | None = None,
        run_as_future: bool = False,
    ) -> CommitInfo:
        # Client-side checks, in the installed client's order.
        if parent_commit is not None and not constants.REGEX_COMMIT_OID.fullmatch(parent_commit):
            raise ValueError(f"`parent_commit` is not a valid commit OID. It must match {constants.REGEX_COMMIT_OID}")
        if not commit_message:
            raise ValueError("`commit_message` can't be empty, please pass a value.")
        assert not create_pr and not run_as_future and revision in (None, "main"), "not faked"
        operations = list(operations)
        additions = [op for op in operations if isinstance(op, CommitOperationAdd)]
        if any(op._is_committed for op in additions):
            raise ValueError("CommitOperationAdd has already being committed and cannot be reused.")
        repo_type = repo_type or "model"
        hub = self.hub
        url = f"{ENDPOINT}/api/{repo_type}s/{repo_id}/commit/main"
        with hub._lock:
            fault = hub._before("create_commit", "POST", url, (repo_type, repo_id))
            repo = hub.repo(repo_id, repo_type, "POST", url)
            head = repo.head
            contents = {}
            for op in additions:
                with op.as_file() as f:
                    contents[op.path_in_repo] = f.read()
            deleted = {op.path_in_repo for op in operations if isinstance(op, CommitOperationDelete)}
            # The client drops additions identical to main, and skips the commit when nothing is left.
            changed = {p: d for p, d in contents.items() if head.files.get(p) != d or p in deleted}
            if not changed and not deleted:
                hub._after(fault, "POST", url)
                return self._info(repo_type, repo_id, head.sha, commit_message, commit_description)
            if parent_commit is not None and not head.sha.startswith(parent_commit.lower()):
                _fail(412, "POST", url, message=BRANCH_MOVED)
            hub.throttle_commit(repo, url)
            files = dict(head.files)
            for op in operations:
                if isinstance(op, CommitOperationDelete):
                    self._delete(files, op, url)
            files.update(changed)
            commit = hub._append(repo, head.sha, files, commit_message, commit_description or "")
            for op in additions:
                op._is_committed = True
            hub._after(fault, "POST", url)
            return self._info(repo_type, repo_id, commit.sha, commit_message, commit_description)

    def list_repo_tree(
        self,
        repo_id: str,
        path_in_repo: str | None = None,
        *,
        recursive: bool = False,
        expand: bool = False,
        revision: str | None = None,
        repo_type: str | None = None,
        token: str | bool | None = None,
    ) -> Iterator[RepoFile | RepoFolder]:
        # A generator, like the real one (paginated): errors surface on the first iteration.
        hub, repo_type = self.hub, repo_type or "model"
        folder = (path_in_repo or "").strip("/")
        url = f"{ENDPOINT}/api/{repo_type}s/{repo_id}/tree/{revision or 'main'}/{folder}"
        with hub._lock:
            fault = hub._before("list_repo_tree", "GET", url, (repo_type, repo_id))
            commit = self._revision(hub.repo(repo_id, repo_type, url=url), revision, url)
            under = {p: d for p, d in commit.files.items() if not folder or p.startswith(folder + "/")}
            if folder and not under:
                _fail(404, "GET", url, code="EntryNotFound")
            hub._after(fault, "GET", url)
        entries: dict[str, RepoFile | RepoFolder] = {}
        for path, data in under.items():
            parts = (path[len(folder) + 1 :] if folder else path).split("/")
            if recursive or len(parts) == 1:
                entries[path] = hub.entry(path, data)
            for depth in range(1, len(parts) if recursive else min(2, len(parts))):
                sub = "/".join([folder, *parts[:depth]] if folder else parts[:depth])
                entries[sub] = RepoFolder(path=sub, oid=hashlib.sha1(sub.encode()).hexdigest())
        yield from (entries[p] for p in sorted(entries))

    def list_repo_files(
        self, repo_id: str, *, revision: str | None = None, repo_type: str | None = None, **_: Any
    ) -> list[str]:
        tree = self.list_repo_tree(repo_id, recursive=True, revision=revision, repo_type=repo_type)
        return [f.path for f in tree if isinstance(f, RepoFile)]

    def get_paths_info(
        self,
        repo_id: str,
        paths: list[str] | str,
        *,
        expand: bool = False,
        revision: str | None = None,
        repo_type: str | None = None,
        token: str | bool | None = None,
    ) -> list[RepoFile | RepoFolder]:
        hub, repo_type = self.hub, repo_type or "model"
        url = f"{ENDPOINT}/api/{repo_type}s/{repo_id}/paths-info/{revision or 'main'}"
        with hub._lock:
            fault = hub._before("get_paths_info", "POST", url, (repo_type, repo_id))
            commit = self._revision(hub.repo(repo_id, repo_type, "POST", url), revision, url)
            found: list[RepoFile | RepoFolder] = []
            for path in [paths] if isinstance(paths, str) else paths:  # missing paths are ignored
                if path in commit.files:
                    found.append(hub.entry(path, commit.files[path]))
                elif any(p.startswith(path.rstrip("/") + "/") for p in commit.files):
                    found.append(RepoFolder(path=path, oid=hashlib.sha1(path.encode()).hexdigest()))
            hub._after(fault, "POST", url)
            return found

    def hf_hub_download(
        self,
        repo_id: str,
        filename: str,
        *,
        repo_type: str | None = None,
        revision: str | None = None,
        cache_dir: str | Path | None = None,
        **_: Any,
    ) -> str:
        hub, repo_type = self.hub, repo_type or "model"
        prefix = "" if repo_type == "model" else f"{repo_type}s/"
        url = f"{ENDPOINT}/{prefix}{repo_id}/resolve/{revision or 'main'}/{filename}"
        with hub._lock:
            try:
                fault = hub._before("hf_hub_download", "HEAD", url, (repo_type, repo_id))
                commit = self._revision(hub.repo(repo_id, repo_type, "HEAD", url), revision, url)
                if filename not in commit.files:
                    _fail(404, "HEAD", url, code="EntryNotFound")
                hub._after(fault, "HEAD", url)
            except (httpx2.ConnectError, httpx2.TimeoutException, HfHubHTTPError) as err:
                # What file_download does with a HEAD failure and nothing in the local cache.
                if isinstance(err, HfHubHTTPError) and (
                    err.response.status_code in (401, 404) or isinstance(err, RepositoryNotFoundError)
                ):
                    raise
                raise LocalEntryNotFoundError(
                    "An error happened while trying to locate the file on the Hub and we cannot find the requested"
                    " files in the local cache."
                ) from err
            local = hub.root / "downloads" / repo_type / repo_id / commit.sha / filename
            local.parent.mkdir(parents=True, exist_ok=True)
            local.write_bytes(commit.files[filename])
        return str(local)

    # -- helpers -------------------------------------------------------------------------------

    @staticmethod
    def _revision(repo: Repo, revision: str | None, url: str) -> Commit:
        commit = repo.at(revision)
        if commit is None:
            _fail(404, "GET", url, code="RevisionNotFound")
        return commit

    @staticmethod
    def _delete(files: dict[str, bytes], op: CommitOperationDelete, url: str) -> None:
        if op.is_folder:
            doomed = [p for p in files if p.startswith(op.path_in_repo.rstrip("/") + "/")]
        else:
            doomed = [op.path_in_repo] if op.path_in_repo in files else []
        if not doomed:
            _fail(404, "POST", url, code="EntryNotFound", message="A file with this name doesn't exist")
        for path in doomed:
            del files[path]

    @staticmethod
    def _info(repo_type: str, repo_id: str, sha: str, message: str, description: str | None) -> CommitInfo:
        prefix = "" if repo_type == "model" else f"{repo_type}s/"
        return CommitInfo(
            commit_url=f"{ENDPOINT}/{prefix}{repo_id}/commit/{sha}",
            commit_message=message,
            commit_description=description or "",
            oid=sha,
            _endpoint=ENDPOINT,
        )
