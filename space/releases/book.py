"""The board's releases as the pages read them: the list once per results version, each frozen board once.

``ReleaseBook.history(snapshot)`` reads ``Leaderboard.release_history()`` (one file of the requests store) once per
version of the public rows and at most every ``MAX_AGE_S``: opening a release changes the rows (the baseline
moves to the new release), so a page never names a release its rows do not know for longer than that.
``board_of(snapshot, name)`` is the board of a release: the live rows while it is current, its frozen rows
(``Leaderboard.frozen_table``, which never change: version ``FROZEN``) once the next one opened.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from leaderboard import Leaderboard
from leaderboard.publishing import Edition, is_name
from space.board.cache import Snapshot
from space.releases.moves import rescored_notes

MAX_AGE_S = 30.0
FROZEN = 1  # the results version of every frozen board: what is drawn of one is kept for good


class ReleaseBook:
    def __init__(self, service: Leaderboard, clock: Callable[[], float] = time.monotonic) -> None:
        self.service, self.clock = service, clock
        self._lock = threading.Lock()
        self._history: tuple[int, float, list[Edition]] | None = None
        self._notes: tuple[int, dict[str, str]] | None = None

    def history(self, snapshot: Snapshot) -> list[Edition]:
        """Every release, oldest first (the last is the current one)."""
        with self._lock:
            kept = self._history
        if kept is not None and kept[0] == snapshot.version and self.clock() - kept[1] < MAX_AGE_S:
            return kept[2]
        found = self.service.release_history()
        with self._lock:
            self._history = (snapshot.version, self.clock(), found)
        return found

    def current(self, snapshot: Snapshot) -> Edition:
        return self.history(snapshot)[-1]

    def find(self, snapshot: Snapshot, name: str) -> Edition | None:
        return next((e for e in self.history(snapshot) if e.name == name), None) if is_name(name) else None

    def previous(self, snapshot: Snapshot, edition: Edition) -> Edition | None:
        history = self.history(snapshot)
        at = next((i for i, e in enumerate(history) if e.name == edition.name), 0)
        return history[at - 1] if at > 0 else None

    def board_of(self, snapshot: Snapshot, name: str) -> Snapshot | None:
        """The rows of release ``name``'s board: ``snapshot`` itself for the current release, the frozen rows for
        a closed one, ``None`` for a name no release has."""
        edition = self.find(snapshot, name)
        if edition is None:
            return None
        if edition.name == self.current(snapshot).name:
            return snapshot
        rows = self.service.frozen_table(edition.name)
        return None if rows is None else Snapshot(FROZEN, rows)

    def rescored(self, snapshot: Snapshot) -> dict[str, str]:
        """Entry id -> "Rescored under v2: 41.20 → 40.80 (rank 3 → 4)" for each entry of the live board whose
        figure or rank changed from the previous release's frozen board (empty in v1)."""
        with self._lock:
            if self._notes is not None and self._notes[0] == snapshot.version:
                return self._notes[1]
        current = self.current(snapshot)
        before = self.previous(snapshot, current)
        old = self.board_of(snapshot, before.name) if before is not None else None
        notes = rescored_notes(old.rows, snapshot.rows, current.name) if old is not None else {}
        with self._lock:
            self._notes = (snapshot.version, notes)
        return notes
