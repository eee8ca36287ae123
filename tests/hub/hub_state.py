"""What the local Hub holds: users and their tokens, dataset and model repositories with full history
(and pull requests: ``refs/pr/N``, commits off ``main``; tags: ``refs/tags/NAME``), LFS objects.

Pure Python and thread-safe (one lock); ``emulator.py`` puts HTTP in front of it and the tests read
it directly (``files``, ``history``). Hashes are git's: a regular file's ``oid`` is the git blob
sha1 of its bytes; an LFS file's ``oid`` is the blob sha1 of its pointer file, and its ``lfs.oid`` the
sha256 of its bytes (what ``huggingface_hub.RepoFile`` parses).
"""

from __future__ import annotations

import fnmatch
import hashlib
import itertools
import math
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

LFS_THRESHOLD = 10 * 1024 * 1024  # the Hub stores larger files through LFS/Xet, never inline
# A subset of the .gitattributes the Hub writes into every new dataset repository.
GITATTRIBUTES_PATTERNS = (
    "*.7z *.arrow *.bin *.bz2 *.ckpt *.ftz *.gz *.h5 *.joblib *.lfs.* *.lz4 *.mds *.mlmodel *.model *.msgpack *.npy "
    "*.npz *.onnx *.ot *.parquet *.pb *.pickle *.pkl *.pt *.pth *.rar *.safetensors *.tar.* *.tar *.tflite *.tgz "
    "*.wasm *.xz *.zip *.zst *tfevents* *.mp3 *.ogg *.wav *.jpg *.jpeg *.png *.webp *.mp4 *.webm"
).split()
GITATTRIBUTES = "".join(f"{p} filter=lfs diff=lfs merge=lfs -text\n" for p in GITATTRIBUTES_PATTERNS).encode()
# HUB-FACTS.md: the body of the Hub's 429 for the per-repository commit quota.
COMMIT_QUOTA_MESSAGE = (
    "You have exceeded the rate limit for repository commits ({limit} per hour). "
    "You can retry this action in about 1 hour."
)


def git_blob_sha1(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def lfs_pointer(sha256: str, size: int) -> bytes:
    return f"version https://git-lfs.github.com/spec/v1\noid sha256:{sha256}\nsize {size}\n".encode()


@dataclass(frozen=True)
class Blob:
    data: bytes
    lfs: bool

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.data).hexdigest()

    @property
    def oid(self) -> str:
        return git_blob_sha1(lfs_pointer(self.sha256, len(self.data)) if self.lfs else self.data)

    def entry(self, path: str) -> dict:
        """The JSON of a file in the tree / paths-info listings."""
        found: dict = {"type": "file", "oid": self.oid, "size": len(self.data), "path": path}
        if self.lfs:
            pointer = lfs_pointer(self.sha256, len(self.data))
            found["lfs"] = {"oid": self.sha256, "size": len(self.data), "pointerSize": len(pointer)}
        return found


@dataclass(frozen=True)
class Commit:
    sha: str
    parent: str | None
    message: str
    description: str
    files: Mapping[str, Blob]  # the whole tree at this commit
    at: float  # time.time()
    author: str


@dataclass
class PullRequest:
    """A pull request: discussion ``num``, its commits on ``refs/pr/{num}`` (branched off ``main``)."""

    num: int
    title: str
    author: str
    created_at: float  # time.time()
    commits: list[Commit] = field(default_factory=list)
    status: str = "open"


@dataclass
class Repo:
    repo_id: str
    private: bool
    repo_type: str = "dataset"  # or "model"
    discussions_disabled: bool = False  # its owner turned the Community tab off: no pull requests
    pull_requests: list[PullRequest] = field(default_factory=list)
    commits: list[Commit] = field(default_factory=list)
    lfs_objects: dict[str, bytes] = field(default_factory=dict)  # sha256 -> bytes (uploaded, committed or not)
    commit_times: deque[float] = field(default_factory=deque)  # monotonic times of recent commits (quota)
    tags: dict[str, str] = field(default_factory=dict)  # tag name -> the sha of the commit on main it names

    @property
    def namespace(self) -> str:
        return self.repo_id.split("/", 1)[0]

    @property
    def head(self) -> Commit:
        return self.commits[-1]

    def at(self, revision: str) -> Commit | None:
        """The commit ``revision`` names, as the Hub resolves one: the branch ``main`` (or ``refs/heads/main``),
        a pull request ``refs/pr/N``, a tag (``v1`` or ``refs/tags/v1``; a branch of that name would win), a
        full sha."""
        if revision in ("main", "refs/heads/main"):
            return self.head
        if revision.startswith("refs/pr/") and revision[8:].isdigit():
            found = [p for p in self.pull_requests if p.num == int(revision[8:])]
            return found[0].commits[-1] if found else None
        tagged = self.tags.get(revision.removeprefix("refs/tags/"))
        if tagged is not None:
            return self.commit(tagged)
        if len(revision) == 40:
            return self.commit(revision)
        return None  # other branches, short shas: not served

    def commit(self, sha: str) -> Commit | None:
        return next((c for c in reversed(self.commits) if c.sha == sha), None)

    def is_lfs_path(self, path: str) -> bool:
        """Whether .gitattributes at the head routes ``path`` to LFS (its ``filter=lfs`` patterns)."""
        attributes = self.head.files.get(".gitattributes")
        name = PurePosixPath(path).name
        for line in (attributes.data.decode("utf-8", "replace") if attributes else "").splitlines():
            pattern, _, rest = line.strip().partition(" ")
            if "filter=lfs" in rest and (fnmatch.fnmatchcase(name, pattern) or fnmatch.fnmatchcase(path, pattern)):
                return True
        return False


@dataclass(frozen=True)
class User:
    name: str
    token: str
    orgs: frozenset[str]
    role: str = "write"  # "read" tokens may read private repos of their orgs but write nothing

    def member_of(self, namespace: str) -> bool:
        return namespace == self.name or namespace in self.orgs


@dataclass(frozen=True)
class Quota:
    """At most ``commits`` per repository in any ``window_s`` seconds (the Hub: 128 per hour)."""

    commits: int
    window_s: float
    retry_after: bool = True  # send Retry-After (seconds until the oldest commit leaves the window)


class QuotaExceeded(Exception):
    def __init__(self, message: str, retry_after_s: int) -> None:
        super().__init__(message)
        self.retry_after_s = retry_after_s


class HubState:
    def __init__(self, *, lfs_threshold: int = LFS_THRESHOLD, clock: Callable[[], float] = time.monotonic) -> None:
        self.lfs_threshold = lfs_threshold
        self.quota: Quota | None = None
        self.clock = clock
        self.repos: dict[str, Repo] = {}  # datasets
        self.models: dict[str, Repo] = {}
        self.users: dict[str, User] = {}  # token -> user
        self.lock = threading.RLock()
        self._counter = itertools.count(1)

    # -- users ---------------------------------------------------------------------------------

    def add_user(self, name: str, token: str, orgs: Iterable[str] = (), role: str = "write") -> User:
        with self.lock:
            user = self.users[token] = User(name, token, frozenset(orgs), role)
            return user

    def user(self, token: str) -> User | None:
        with self.lock:
            return self.users.get(token)

    def revoke(self, token: str) -> None:
        """The user deleted the token on the Hub: from now on it is invalid everywhere (401)."""
        with self.lock:
            self.users.pop(token, None)

    # -- repositories --------------------------------------------------------------------------

    def create(self, repo_id: str, private: bool, author: str = "hub", repo_type: str = "dataset") -> Repo:
        with self.lock:
            repo = self._kind(repo_type)[repo_id] = Repo(repo_id, private, repo_type)
            self._append(repo, {".gitattributes": Blob(GITATTRIBUTES, lfs=False)}, "initial commit", "", author)
            return repo

    def repo(self, repo_id: str, repo_type: str = "dataset") -> Repo | None:
        with self.lock:
            return self._kind(repo_type).get(repo_id)

    def _kind(self, repo_type: str) -> dict[str, Repo]:
        assert repo_type in ("dataset", "model"), f"emulator: no {repo_type!r} repositories"
        return self.repos if repo_type == "dataset" else self.models

    def files(self, repo_id: str, revision: str = "main", repo_type: str = "dataset") -> dict[str, bytes]:
        """The tree at ``revision`` (``main``, a sha, ``refs/pr/N``) as ``{path: bytes}`` (the test's view, no HTTP)."""
        with self.lock:
            commit = self._kind(repo_type)[repo_id].at(revision)
            assert commit is not None, revision
            return {path: blob.data for path, blob in commit.files.items()}

    def history(self, repo_id: str, repo_type: str = "dataset") -> list[Commit]:
        """The commits of ``main`` (a pull request's are in ``repo.pull_requests``)."""
        with self.lock:
            return list(self._kind(repo_type)[repo_id].commits)

    def seed_files(self, repo_id: str, files: Mapping[str, bytes], repo_type: str = "dataset") -> Commit:
        """A repository (created public if new) holding ``files`` (regular files) on ``main``, as its owner's push."""
        with self.lock:
            repo = self.repo(repo_id, repo_type) or self.create(repo_id, False, repo_type=repo_type)
            tree = {**repo.head.files, **{p: Blob(d, lfs=False) for p, d in files.items()}}
            return self._append(repo, tree, "upload files", "", repo.namespace)

    def open_pull_request(self, repo: Repo, base: Commit, files: dict[str, Blob], title: str, description: str,
                          author: str) -> tuple[PullRequest, Commit]:  # fmt: skip
        """A new pull request whose one commit changes ``base`` into ``files``; ``main`` does not move."""
        repo.commit_times.append(self.clock())
        pull = PullRequest(len(repo.pull_requests) + 1, title, author, time.time())
        seed = f"{base.sha}\nrefs/pr/{pull.num}\n{title}\n{next(self._counter)}".encode()
        commit = Commit(hashlib.sha1(seed).hexdigest(), base.sha, title, description, dict(files), time.time(), author)
        pull.commits.append(commit)
        repo.pull_requests.append(pull)
        return pull, commit

    def seed_folder(self, repo_id: str, folder: Path, private: bool, message: str = "upload dataset") -> Commit:
        """A repository holding every file under ``folder`` (LFS by .gitattributes or size), as an upload would."""
        with self.lock:
            repo = self.repos.get(repo_id) or self.create(repo_id, private)
            files = dict(repo.head.files)
            for file in sorted(p for p in Path(folder).rglob("*") if p.is_file()):
                path = file.relative_to(folder).as_posix()
                data = file.read_bytes()
                files[path] = Blob(data, lfs=self.wants_lfs(repo, path, len(data), data[:512]))
                if files[path].lfs:
                    repo.lfs_objects[files[path].sha256] = data
            return self._append(repo, files, message, "", "hub")

    def external_commit(self, repo_id: str, puts: Mapping[str, bytes], deletes: Iterable[str] = ()) -> Commit:
        """Another writer's commit straight onto ``main`` (regular files)."""
        with self.lock:
            repo = self.repos[repo_id]
            gone = set(deletes)
            files = {p: b for p, b in repo.head.files.items() if p not in gone}
            files.update({p: Blob(d, lfs=False) for p, d in puts.items()})
            return self._append(repo, files, "other writer", "", "other")

    def wants_lfs(self, repo: Repo, path: str, size: int, sample: bytes) -> bool:
        """The preupload decision: LFS for large files, for .gitattributes matches and for binary samples."""
        return size >= self.lfs_threshold or repo.is_lfs_path(path) or b"\0" in sample

    # -- commits -------------------------------------------------------------------------------

    def check_quota(self, repo: Repo) -> None:
        """``QuotaExceeded`` when ``repo`` had ``quota.commits`` commits in the last ``quota.window_s``."""
        quota = self.quota
        if quota is None:
            return
        now = self.clock()
        while repo.commit_times and now - repo.commit_times[0] >= quota.window_s:
            repo.commit_times.popleft()
        if len(repo.commit_times) >= quota.commits:
            wait = max(1, math.ceil(repo.commit_times[0] + quota.window_s - now))
            raise QuotaExceeded(COMMIT_QUOTA_MESSAGE.format(limit=quota.commits), wait)

    def apply(self, repo: Repo, files: dict[str, Blob], message: str, description: str, author: str) -> Commit:
        """A new head with tree ``files``; counts against the quota."""
        repo.commit_times.append(self.clock())
        return self._append(repo, files, message, description, author)

    def _append(self, repo: Repo, files: Mapping[str, Blob], message: str, description: str, author: str) -> Commit:
        parent = repo.commits[-1].sha if repo.commits else None
        tree = hashlib.sha1(b"".join(p.encode() + b"\0" + b.oid.encode() for p, b in sorted(files.items())))
        seed = f"{parent}\n{tree.hexdigest()}\n{message}\n{next(self._counter)}".encode()
        commit = Commit(hashlib.sha1(seed).hexdigest(), parent, message, description, dict(files), time.time(), author)
        repo.commits.append(commit)
        return commit

    def last_commit_of(self, repo: Repo, head: Commit, path: str) -> Commit:
        """The newest commit up to ``head`` that changed ``path`` (for ``expand`` listings)."""
        chain = [c for c in repo.commits[: repo.commits.index(head) + 1]]
        blob = head.files.get(path)
        for newer, older in zip(reversed(chain), reversed([None, *chain[:-1]])):
            if older is None or older.files.get(path) != blob:
                return newer
        return head
