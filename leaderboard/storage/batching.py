"""``DeferredWriter``: coalesce non-urgent writes into one commit at most every ``interval_s``.

``Storage.commit`` is immediate and durable; use it for anything acknowledged to a person.
Writes that may wait (status heartbeats, audit entries) are *staged* here instead and flushed
together, so a Hub-backed store makes one commit per interval rather than one per write. A
later write to a path replaces an earlier staged one (ten heartbeats, one file). Staged writes
are not durable: a crash loses at most one interval of them, which is what "non-urgent" means.

Flushing happens when ``maybe_flush()`` finds the interval elapsed (call it from a scheduler
job, or ``start()`` a background thread), on ``flush()`` (which can also carry an urgent change,
so staged writes ride along in the same commit), and on ``close()`` at shutdown. A flush that
fails keeps its writes staged for the next one.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Mapping

from leaderboard.storage.base import Storage, StorageError
from leaderboard.storage.local import check_path

log = logging.getLogger(__name__)

DEFAULT_INTERVAL_S = 30.0


class DeferredWriter:
    """Staged writes over ``store``, committed together at most every ``interval_s`` seconds."""

    def __init__(
        self,
        store: Storage,
        interval_s: float = DEFAULT_INTERVAL_S,
        *,
        message: str = "deferred writes",
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if interval_s <= 0:
            raise ValueError(f"interval_s={interval_s!r}: expected a positive number of seconds")
        self.store = store
        self.interval_s = interval_s
        self.message = message
        self._clock = clock
        self._staged: dict[str, bytes | None] = {}  # path -> new bytes, or None to delete
        self._last_flush = clock()
        self._lock = threading.Lock()  # guards _staged and _last_flush
        self._flushing = threading.Lock()  # one flush at a time
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def __enter__(self) -> DeferredWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def pending(self) -> int:
        """How many paths have staged changes."""
        with self._lock:
            return len(self._staged)

    def stage(self, puts: Mapping[str, bytes], deletes: Iterable[str] = ()) -> None:
        """Record writes to commit later; a later write to a path replaces an earlier one."""
        with self._lock:
            self._staged.update({check_path(path): bytes(data) for path, data in puts.items()})
            self._staged.update(dict.fromkeys(check_path(path) for path in deletes))

    def read(self, path: str) -> bytes | None:
        """``path`` as it will be after the next flush: staged if staged, else from the store."""
        with self._lock:
            if path in self._staged:
                return self._staged[path]
        return self.store.read(path)

    def due(self) -> bool:
        with self._lock:
            return bool(self._staged) and self._clock() - self._last_flush >= self.interval_s

    def maybe_flush(self) -> bool:
        """Flush when writes are staged and the interval has elapsed; whether a commit was made."""
        if not self.due():
            return False
        self.flush()
        return True

    def flush(self, puts: Mapping[str, bytes] | None = None, deletes: Iterable[str] = (), message: str = "") -> None:
        """Commit the staged writes now, with ``puts``/``deletes`` (which win over staged ones) if given.

        Durable when it returns, like ``Storage.commit``; on ``StorageError`` the staged writes
        stay staged (newer stagings win over them) and the error propagates.
        """
        urgent: dict[str, bytes | None] = {check_path(p): bytes(d) for p, d in (puts or {}).items()}
        urgent.update(dict.fromkeys(check_path(p) for p in deletes))
        with self._flushing:
            with self._lock:
                staged, self._staged = self._staged, {}
            batch = staged | urgent
            if not batch:
                return
            writes = {p: d for p, d in batch.items() if d is not None}
            removals = [p for p, d in batch.items() if d is None]
            try:
                self.store.commit(writes, removals, message or self.message)
            except BaseException:
                with self._lock:
                    self._staged = staged | self._staged  # put back; anything staged meanwhile is newer
                raise
            finally:
                with self._lock:
                    self._last_flush = self._clock()

    # -- background flushing ------------------------------------------------------------------

    def start(self, tick_s: float | None = None) -> None:
        """Flush from a daemon thread whenever due, checking every ``tick_s`` (default: interval/4)."""
        if self._thread is not None:
            raise RuntimeError("DeferredWriter already started")
        tick = tick_s if tick_s is not None else self.interval_s / 4
        self._thread = threading.Thread(target=self._run, args=(tick,), name="deferred-writer", daemon=True)
        self._thread.start()

    def _run(self, tick: float) -> None:
        while not self._stop.wait(tick):
            try:
                self.maybe_flush()
            except StorageError:
                log.exception("deferred writes not flushed; they stay staged for the next try")

    def close(self) -> None:
        """Stop the background thread (if any) and flush what is staged."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        self.flush()
