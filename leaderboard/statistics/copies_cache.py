"""A bounded, least-recently-used cache of parsed traces (``copies_traces.Traces``), by submission.

Checking a new test submission against every earlier one would parse each earlier upload again
every time (the CSV and a JSON decode per row: ~0.3 s for a 1,000-row notebook file); uploads never
change, so each is parsed once and kept here while it fits. The cap counts the arrays' bytes
(``Traces.nbytes``: 16 bytes a point plus 148 a row, its resampled curve included); the least recently
used go first when it is exceeded. A file larger than the whole cap is parsed for the one check and not kept.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable

from leaderboard.statistics.copies_traces import Traces

DEFAULT_CACHE_BYTES = 128 * 1024 * 1024  # ~200 notebook files of 1,000 rows at ~30 points a trace
UNREADABLE_BYTES = 64  # what remembering "this upload cannot be read" costs


class TraceCache:
    def __init__(self, max_bytes: int = DEFAULT_CACHE_BYTES) -> None:
        self.max_bytes = max_bytes
        self.bytes = 0
        self.hits = self.misses = 0
        self._items: OrderedDict[Hashable, Traces | None] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, load: Callable[[], Traces | None]) -> Traces | None:
        """The cached traces of ``key``, else ``load()``'s (kept when they fit; ``None``: unreadable)."""
        with self._lock:
            if key in self._items:
                self.hits += 1
                self._items.move_to_end(key)
                return self._items[key]
            self.misses += 1
        value = load()  # outside the lock: parsing takes a while, and nothing here depends on another key
        with self._lock:
            if key not in self._items and _size(value) <= self.max_bytes:
                self._items[key] = value
                self.bytes += _size(value)
                while self.bytes > self.max_bytes:
                    _, dropped = self._items.popitem(last=False)
                    self.bytes -= _size(dropped)
        return value

    def __len__(self) -> int:
        return len(self._items)


def _size(value: Traces | None) -> int:
    return UNREADABLE_BYTES if value is None else value.nbytes
