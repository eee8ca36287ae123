"""``HubStorage``'s read cache: folder listings per commit, file contents per git blob.

Every commit moves the head, and the service reads a few hundred small files (one job file per
submission) on every look at the queue. Pinned to a commit sha, each would be a resolver call
at each new head. Instead a read looks its path up in the listing of its top-level folder at
that sha (one paginated ``list_repo_tree`` call per folder and head), and takes the content by
the listed git blob id: a file that did not change since it was last read costs no request,
whatever the head. Listings of an immutable commit and contents of a blob are never stale.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

FOLDERS_KEPT = 64  # (commit, folder) listings


class ReadCache:
    """Thread-safe LRU caches: listings by ``(sha, folder)``, contents by blob id (bounded in count and bytes)."""

    def __init__(self, entries: int = 4096, max_bytes: int = 1 << 20, total_bytes: int = 64 << 20) -> None:
        self.entries, self.max_bytes, self.total_bytes = entries, max_bytes, total_bytes
        self._folders: OrderedDict[tuple[str, str], dict[str, Any]] = OrderedDict()
        self._blobs: OrderedDict[str, bytes] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()

    def folder(self, sha: str, folder: str) -> dict[str, Any] | None:
        """``{path: RepoFile}`` of ``folder`` at ``sha`` if listed before."""
        with self._lock:
            found = self._folders.get((sha, folder))
            if found is not None:
                self._folders.move_to_end((sha, folder))
            return found

    def keep_folder(self, sha: str, folder: str, files: dict[str, Any]) -> None:
        with self._lock:
            self._folders[(sha, folder)] = files
            while len(self._folders) > FOLDERS_KEPT:
                self._folders.popitem(last=False)

    def blob(self, blob_id: str) -> bytes | None:
        with self._lock:
            found = self._blobs.get(blob_id)
            if found is not None:
                self._blobs.move_to_end(blob_id)
            return found

    def keep_blob(self, blob_id: str, data: bytes) -> None:
        """Keep ``data`` unless it is larger than ``max_bytes``; the least recently used go first."""
        if len(data) > self.max_bytes:
            return
        with self._lock:
            if blob_id in self._blobs:
                return
            self._blobs[blob_id] = data
            self._size += len(data)
            while len(self._blobs) > self.entries or self._size > self.total_bytes:
                _, dropped = self._blobs.popitem(last=False)
                self._size -= len(dropped)

    def blob_ids(self) -> list[str]:
        with self._lock:
            return list(self._blobs)
