"""``LocalStorage``: the storage interface over a folder, safe against SIGKILL and a second process.

A commit is all-or-nothing through a small write-ahead journal under ``{root}/.store/``:

1. every new file is written to a staging folder ``.store/journal/.tmp-{tx}/`` and fsynced,
   with a ``manifest.json`` naming its target path (and the paths to delete);
2. the staging folder is renamed to ``.store/journal/{tx}`` and the journal folder fsynced:
   **this rename is the commit point**; before it nothing counts, after it everything does;
3. each staged file is renamed onto its target (atomic per file), deletes are applied, and the
   touched folders are fsynced; then the entry is renamed to ``.done-{tx}`` and deleted.

A process killed during step 3 leaves a committed journal entry; the next ``read``, ``list``
or ``commit`` (of any process) replays it first. Step 3 failing (a full disk refusing a new
folder) does not fail the commit either: it is durable, and reads raise ``StorageError`` until a
replay succeeds, so nobody sees the store without it. Replay is idempotent: a staged file that is
already gone was already moved. All of this runs under ``filelock.FileLock`` on
``.store/lock`` (released by the kernel when its holder dies), so two processes never
interleave their steps.
"""

from __future__ import annotations

import builtins  # the class's own method `list` shadows the builtin in annotations
import json
import logging
import os
import shutil
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from filelock import FileLock, Timeout

from leaderboard.storage.base import INTERNAL, Conflict, Storage, StorageError, check_path, check_tag

log = logging.getLogger(__name__)

TAG_MESSAGE = ".message"  # a tag's message, beside its copy of the tree
LOCK_TIMEOUT_S = 120.0  # a commit holds the lock for milliseconds; this long means something is stuck


class LocalStorage(Storage):
    """Files under the folder ``root`` (created when missing)."""

    def __init__(self, root: str | Path, lock_timeout_s: float = LOCK_TIMEOUT_S) -> None:
        self.root = Path(root)
        self._internal = self.root / INTERNAL
        self._journal = self._internal / "journal"
        self._journal.mkdir(parents=True, exist_ok=True)
        self._lock = FileLock(str(self._internal / "lock"), timeout=lock_timeout_s)

    def __repr__(self) -> str:
        return f"LocalStorage({str(self.root)!r})"

    def read(self, path: str) -> bytes | None:
        check_path(path)
        self._recover_if_needed()
        return self._read_file(path)

    def _read_file(self, path: str) -> bytes | None:
        try:
            return (self.root / path).read_bytes()
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
            return None

    def list(self, prefix: str = "") -> list[str]:
        prefix = prefix.rstrip("/")
        base = self.root / check_path(prefix) if prefix else self.root
        self._recover_if_needed()
        if not base.is_dir():
            return []
        found = []
        for folder, dirs, files in os.walk(base):
            if Path(folder) == self.root:
                dirs[:] = [d for d in dirs if d != INTERNAL]
            relative = Path(folder).relative_to(self.root)
            found += [(relative / name).as_posix() for name in files]
        return sorted(found)

    # -- tags: a frozen copy of the tree, ``.store/tags/{name}/`` ----------------------------------

    def tag(self, name: str, message: str = "") -> None:
        """Copy the tree to ``.store/tags/{name}/`` (hard links: a commit replaces files, never edits them), then
        put it in place with one rename: a reader of the tag sees the old copy or the new one, never a mix."""
        check_tag(name)
        tags = self._internal / "tags"
        staging = tags / f".tmp-{uuid.uuid4().hex}"
        with self._locked(f"tag {name!r}"):
            self._recover()
            try:
                staging.mkdir(parents=True)
                for path in self.list():
                    target = staging / path
                    target.parent.mkdir(parents=True, exist_ok=True)
                    _link_or_copy(self.root / path, target)
                (staging / TAG_MESSAGE).write_text(message, "utf-8")  # not a path of the namespace: ".store"
                fsync_dir(staging)
                old = tags / name
                if old.exists():
                    os.rename(old, tags / f".old-{uuid.uuid4().hex}")
                os.rename(staging, old)
                fsync_dir(tags)
            except OSError as error:
                raise StorageError(f"{self}: cannot tag {name!r}: {error.strerror or error}") from error
            finally:
                for leftover in tags.glob(".*"):
                    shutil.rmtree(leftover, ignore_errors=True)
        log.debug("%s: tagged %s", self, name)

    def read_tagged(self, name: str, path: str) -> bytes | None:
        check_tag(name), check_path(path)
        try:
            return (self._internal / "tags" / name / path).read_bytes()
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
            return None

    def tags(self) -> builtins.list[str]:
        folder = self._internal / "tags"
        return sorted(p.name for p in folder.iterdir() if not p.name.startswith(".")) if folder.is_dir() else []

    def _commit(
        self, puts: dict[str, bytes], deletes: builtins.list[str], message: str, expect: dict[str, bytes | None] | None
    ) -> None:
        with self._locked(f"commit {message or 'update'!r}"):
            self._recover()
            for path, expected in (expect or {}).items():  # under the lock: nobody writes in between
                if self._read_file(path) != expected:
                    raise Conflict(f"{self}: commit {message!r}: {path} is no longer as read; nothing was stored")
            entry = self._stage(puts, deletes, message)
            try:
                self._apply(entry)
            except StorageError as error:
                # Past the commit point the change is durable: it counts, and the next reader replays it
                # (until then reads fail loudly, so nobody sees a state without it). A full disk can do this.
                log.error("%s", error)
        log.debug("%s: committed %d file(s), %d delete(s): %s", self, len(puts), len(deletes), message)

    # -- the journal --------------------------------------------------------------------------

    def _stage(self, puts: dict[str, bytes], deletes: Sequence[str], message: str) -> Path:
        """Write the change to a journal entry and make it durable; return the committed entry."""
        tx = uuid.uuid4().hex
        staging, entry = self._journal / f".tmp-{tx}", self._journal / tx
        try:
            staging.mkdir()
            names = {}
            for index, (path, data) in enumerate(puts.items()):
                _write_synced(staging / str(index), data)
                names[str(index)] = path
            manifest = {"puts": names, "deletes": deletes, "message": message}
            _write_synced(staging / "manifest.json", json.dumps(manifest).encode())
            fsync_dir(staging)
            os.rename(staging, entry)  # the commit point
        except OSError as error:
            shutil.rmtree(staging, ignore_errors=True)
            # strerror: the staging file's name means nothing to whoever reads the message
            raise StorageError(f"{self}: cannot stage commit {message!r}: {error.strerror or error}") from error
        try:
            fsync_dir(self._journal)
        except OSError as error:  # readers will apply the entry, but a crash might undo the rename
            raise StorageError(
                f"{self}: commit {message!r} may not be durable ({error.strerror or error}); it may still appear",
                outcome_unknown=True,
            ) from error
        return entry

    def _apply(self, entry: Path) -> None:
        """Move a committed entry's files into place and remove it. Idempotent."""
        try:
            manifest = json.loads((entry / "manifest.json").read_text("utf-8"))
            touched = set()
            for name, path in manifest["puts"].items():
                staged, target = entry / name, self.root / path
                if staged.exists():  # gone means a replay already moved it
                    target.parent.mkdir(parents=True, exist_ok=True)
                    os.replace(staged, target)
                touched.add(target.parent)
            for path in manifest["deletes"]:
                target = self.root / path
                target.unlink(missing_ok=True)
                touched.add(target.parent)
            for folder in touched:
                if folder.is_dir():
                    fsync_dir(folder)
            # Retire the entry with one atomic rename before deleting it: a writer killed while
            # deleting leaves a ".done-" folder to drop, never a committed entry missing its manifest.
            retired = self._journal / f".done-{entry.name}"
            os.rename(entry, retired)
            fsync_dir(self._journal)
            shutil.rmtree(retired)
        except OSError as error:
            raise StorageError(f"{self}: commit {entry.name} is durable but not yet applied: {error}") from error

    def _recover_if_needed(self) -> None:
        # Cheap check first: a committed entry only exists while a commit is applying or after a crash.
        if any(not name.startswith(".") for name in os.listdir(self._journal)):
            with self._locked("recover"):
                self._recover()

    def _recover(self) -> None:
        """Under the lock: finish committed entries, drop staging and retired entries left by a crash."""
        for entry in sorted(self._journal.iterdir()):
            if entry.name.startswith("."):  # ".tmp-": never committed; ".done-": fully applied
                shutil.rmtree(entry, ignore_errors=True)
            else:
                log.info("%s: replaying commit %s left by an interrupted writer", self, entry.name)
                self._apply(entry)

    @contextmanager
    def _locked(self, what: str) -> Iterator[None]:
        try:
            self._lock.acquire()
        except Timeout as error:
            raise StorageError(
                f"{self}: {what}: the lock {self._lock.lock_file} was held elsewhere for over {self._lock.timeout} s"
            ) from error
        try:
            yield
        finally:
            self._lock.release()


def _link_or_copy(source: Path, target: Path) -> None:
    try:
        os.link(source, target)
    except OSError:  # a file system without hard links
        shutil.copyfile(source, target)


def _write_synced(path: Path, data: bytes) -> None:
    with open(path, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())


def fsync_dir(folder: Path) -> None:
    """Make a rename or new entry in ``folder`` durable (POSIX needs the directory itself fsynced)."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
