"""Refusals in the log: each kind once a minute, the rest counted, so that no caller can drown the log.

An attacker can make thousands of refused requests a minute; a line for each would bury what a maintainer
reads. The first refusal of each kind (the route and the reason's opening words) in a window is logged whole; the others
are counted and summed up in one line when the window ends (at the next refusal after it).

>>> now = [0.0]
>>> lines = []
>>> book = Refusals(window_s=60, clock=lambda: now[0], write=lines.append)
>>> for _ in range(500):
...     book.note("POST /x", "1.2.3.4", "Too many calls: 30 a minute without signing in.")
>>> now[0] = 61.0
>>> book.note("GET /y", "5.6.7.8", "Origin 'https://evil.example' is another site.")
>>> [line.split(":")[0] for line in lines]
['refused POST /x for 1.2.3.4', 'refused 499 more requests in the last 60 s', 'refused GET /y for 5.6.7.8']
"""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter
from collections.abc import Callable

log = logging.getLogger("space.web.guard")

KIND_CHARS = 24  # a reason's opening words ("Too many calls", "Origin '...") and the route name its kind
MAX_KINDS = 64  # kinds told apart in one window; the rest are "other"


class Refusals:
    def __init__(
        self,
        window_s: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
        write: Callable[[str], None] | None = None,
    ) -> None:
        self.window_s, self.clock = window_s, clock
        self.write = write or log.warning
        self._started = clock()
        self._seen: Counter[str] = Counter()
        self._lock = threading.Lock()

    def note(self, what: str, who: str, why: str) -> None:
        """One refusal of ``what`` (method and path) for ``who`` (may be empty) because ``why``."""
        kind = f"{what[:130]}: {why[:KIND_CHARS]}"  # the route too: a line says where, the count says how often
        kind = kind if len(self._seen) < MAX_KINDS or kind in self._seen else "other"
        with self._lock:
            now = self.clock()
            summary = self._roll(now)
            first = kind not in self._seen
            self._seen[kind] += 1
        if summary:
            self.write(summary)
        if first:
            by = f" for {who[:64]}" if who else ""
            self.write(f"refused {what[:130]}{by}: {why[:300]}")

    def _roll(self, now: float) -> str | None:
        """The last window's summary when it has ended (the lock held)."""
        if now - self._started < self.window_s:
            return None
        more = {kind: n - 1 for kind, n in self._seen.items() if n > 1}
        self._started, self._seen = now, Counter()
        if not more:
            return None
        top = ", ".join(f"{kind.strip()}… ×{n}" for kind, n in Counter(more).most_common(5))
        return f"refused {sum(more.values())} more requests in the last {self.window_s:.0f} s: {top}"
