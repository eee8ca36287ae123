"""The public board computed once per change of the results, not once per request.

Fifty viewers opening the page used to cost fifty reads of the published table and fifty
renderings of the same HTML, CSV and charts, all in the interpreter that serves the pages.
``BoardCache`` reads the rows at most once every ``max_age_s`` (one reader at a time; the others
are served the rows already read), gives each distinct set of rows a ``version``, and keeps what
is drawn from them per version: the table HTML per view (a bounded LRU), and per split the summary
line, the CSV file and the charts. ``invalidate()`` (called when the worker reports an
outcome, or after a moderation action) makes the next request read the rows again at once.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from space.pages import board, board_csv, charts

log = logging.getLogger(__name__)

Rows = list[dict[str, object]]
MAX_AGE_S = 1.0  # changes made by another process (a maintainer's CLI) show within this long
VIEWS = 256  # table renderings kept (split x sort x columns x filters x recent searches)


@dataclass(frozen=True)
class Snapshot:
    version: int  # changes whenever the rows do
    rows: Rows
    changed_at: float | None = None  # wall-clock seconds when this process saw the rows change (None: first read)


@dataclass(frozen=True)
class Extras:
    """What the page shows below the table for one split: the CSV download and the charts (HTML, "" when none)."""

    csv_path: Path
    by_embodiment: str
    by_category: str
    progress: str

    @property
    def has_charts(self) -> bool:
        return bool(self.by_embodiment or self.progress)


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
        self._lock = threading.Lock()  # the drawn caches
        self._views: OrderedDict[tuple[int, board.BoardView], tuple[str, str]] = OrderedDict()
        self._extras: dict[tuple[int, str], Extras] = {}
        self.reads = 0  # store reads so far (what the cache saves is visible in tests)

    def invalidate(self) -> None:
        with self._lock:
            self._invalidated += 1
            self._read_at = float("-inf")

    def snapshot(self) -> Snapshot:
        """The current rows: re-read when older than ``max_age_s`` or invalidated, else the ones in hand."""
        current = self._snapshot
        if current is not None and self._clock() - self._read_at < self.max_age_s:
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
        with self._lock:
            if current is None or rows != current.rows:
                changed = None if current is None else self._wall()  # the first read says nothing of when
                self._snapshot = Snapshot((current.version + 1) if current else 1, rows, changed)
                self._views.clear()
                self._extras.clear()
            if self._invalidated == invalidated:
                self._read_at = started
        return self._snapshot  # type: ignore[return-value]

    def table(self, view: board.BoardView) -> tuple[str, str]:
        """The summary line and the table HTML of ``view``."""
        snapshot = self.snapshot()
        key = (snapshot.version, view)
        with self._lock:
            if key in self._views:
                self._views.move_to_end(key)
                return self._views[key]
        drawn = board.summary_line(snapshot.rows, view), board.render(snapshot.rows, view)
        with self._lock:
            if self._snapshot is not None and self._snapshot.version == snapshot.version:
                self._views[key] = drawn
                while len(self._views) > VIEWS:
                    self._views.popitem(last=False)
        return drawn

    def extras(self, split: str) -> Extras:
        """The CSV file (written once per version) and the charts of ``split``."""
        snapshot = self.snapshot()
        key = (snapshot.version, split)
        with self._lock:
            if key in self._extras:
                return self._extras[key]
        path = self.folder / f"navitrace_leaderboard_{split}.csv"
        _write(path, board_csv.csv_bytes(snapshot.rows, split))
        # The charts draw what the default board shows: no flagged entry, no figure reported on the Hub.
        rows = [r for r in snapshot.rows if board.shown_kind(r, board.BoardView(split=split))]
        made = Extras(
            path, charts.per_embodiment(rows, split), charts.per_category(rows, split), charts.progress(rows, split)
        )
        with self._lock:
            if self._snapshot is not None and self._snapshot.version == snapshot.version:
                self._extras[key] = made
        return made


def _write(path: Path, data: bytes) -> None:
    """Replace ``path`` atomically: a download being copied never sees half a file."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}")
    temporary.write_bytes(data)
    os.replace(temporary, path)
