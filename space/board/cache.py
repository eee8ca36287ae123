"""The public rows read once per change of the results, not once per request.

``BoardCache`` reads the rows at most once every ``max_age_s`` (one reader at a time; the others
are served the rows already read) and gives each distinct set of rows a ``version``: the public
pages and the JSON API draw once per version (``space/board/drawn.py``), and the CSV file of each
split is written once per version here.

In the app, ``keep_fresh()`` moves the reading off the requests: a thread of its own reads the rows
every ``max_age_s``, and ``refresh()`` reads them at once where the worker's outcome or a moderation
action is heard. When the rows change, the ``on_change`` listeners draw the views readers ask for
most *before* readers are given the new version, so no reader waits for a read or a drawing while
files are scored. Without the thread (a test, a script), ``invalidate()`` makes the next request read.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from space.board import csv_rows

log = logging.getLogger(__name__)

Rows = list[dict[str, object]]
MAX_AGE_S = 1.0  # changes made by another process (a maintainer's CLI) show within this long


@dataclass(frozen=True)
class Snapshot:
    version: int  # changes whenever the rows do
    rows: Rows
    changed_at: float | None = None  # wall-clock seconds when this process saw the rows change (None: first read)


@dataclass(frozen=True)
class CsvFile:
    """The CSV download of one split, written for one version of the rows."""

    version: int
    path: Path


class BoardCache:
    def __init__(
        self,
        load: Callable[[], Rows],
        folder: Path,
        max_age_s: float = MAX_AGE_S,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
    ) -> None:
        self._load, self.folder, self.max_age_s, self._clock, self._wall = load, folder, max_age_s, clock, wall
        self._snapshot: Snapshot | None = None
        self._read_at = float("-inf")
        self._invalidated = 0  # bumped by invalidate(): a read that began before it does not count as fresh
        self._reading = threading.Lock()  # one reader of the store at a time
        self._lock = threading.Lock()  # the CSV files
        self._csv: dict[str, CsvFile] = {}
        self.reads = 0  # store reads so far (what the cache saves is visible in tests)
        self._listeners: list[Callable[[Snapshot], None]] = []
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._reader: threading.Thread | None = None

    def on_change(self, listener: Callable[[Snapshot], None]) -> None:
        """``listener(snapshot)`` runs when the rows change, before readers are given ``snapshot``."""
        self._listeners.append(listener)

    def keep_fresh(self) -> None:
        """Read the rows every ``max_age_s`` in a thread of its own, from now on: requests never read them."""
        if self._reader is None:
            self._reader = threading.Thread(target=self._read_forever, name="board-rows", daemon=True)
            self._reader.start()

    def close(self) -> None:
        """Stop the reading thread (the app's stop; a test's end)."""
        self._stop.set()
        self._wake.set()
        if self._reader is not None:
            self._reader.join(5)

    def refresh(self) -> None:
        """Read the rows now, in this thread (the worker reported an outcome, a maintainer acted)."""
        with self._reading:
            try:
                self._reread()
            except Exception:  # nothing read yet and the store failed: the next read tries again
                log.warning("could not read the public table", exc_info=True)

    def _read_forever(self) -> None:
        while not self._stop.is_set():
            self.refresh()
            self._wake.wait(self.max_age_s)
            self._wake.clear()

    def invalidate(self) -> None:
        with self._lock:
            self._invalidated += 1
            self._read_at = float("-inf")
        self._wake.set()

    def in_hand(self) -> Snapshot | None:
        """The current rows when a thread keeps them fresh (``keep_fresh``), else ``None``: no wait, no read."""
        return self._snapshot if self._reader is not None else None

    def snapshot(self) -> Snapshot:
        """The current rows: re-read when older than ``max_age_s`` or invalidated, else the ones in hand."""
        current = self._snapshot
        if current is not None and (self._reader is not None or self._clock() - self._read_at < self.max_age_s):
            return current
        # Someone else is reading already: serve the rows in hand rather than queue behind the store.
        if not self._reading.acquire(blocking=current is None):
            return current  # type: ignore[return-value]  # acquire(blocking=False) fails only when current is set
        try:
            if self._snapshot is not None and self._clock() - self._read_at < self.max_age_s:
                return self._snapshot
            return self._reread()
        finally:
            self._reading.release()

    def _reread(self) -> Snapshot:
        invalidated, started = self._invalidated, self._clock()
        current = self._snapshot
        try:
            rows = self._load()
        except Exception:
            if current is None:
                raise
            log.warning("could not read the public table; showing the rows read before", exc_info=True)
            self._read_at = started
            return current
        self.reads += 1
        if current is None or rows != current.rows:
            changed = None if current is None else self._wall()  # the first read says nothing of when
            fresh = Snapshot((current.version + 1) if current else 1, rows, changed)
            for listener in self._listeners:
                try:
                    listener(fresh)
                except Exception:  # a view that cannot be drawn ahead is drawn on its request, as before
                    log.warning("could not draw ahead for results version %d", fresh.version, exc_info=True)
            self._snapshot = fresh
        with self._lock:
            if self._invalidated == invalidated:
                self._read_at = started
        return self._snapshot  # type: ignore[return-value]

    def csv_file(self, split: str) -> CsvFile:
        """The CSV of ``split``, written once per version."""
        snapshot = self.snapshot()
        with self._lock:
            kept = self._csv.get(split)
            if kept is not None and kept.version == snapshot.version:
                return kept
        path = self.folder / f"navitrace_leaderboard_{split}.csv"
        _write(path, csv_rows.csv_bytes(snapshot.rows, split))
        made = CsvFile(snapshot.version, path)
        with self._lock:
            self._csv[split] = made
        return made


def _write(path: Path, data: bytes) -> None:
    """Replace ``path`` atomically: a download being copied never sees half a file."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}")
    temporary.write_bytes(data)
    os.replace(temporary, path)
