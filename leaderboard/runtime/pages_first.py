"""Background work steps aside while the app answers requests: a count of requests in flight, shared.

``SCHED_IDLE`` (``leaderboard.runtime.cpu_priority``) keeps a background process off the core a page wants, not
off the machine: under the load test, one idle-class process beside the app on the other core (a
Python loop, a numpy loop streaming memory, or scoring) still slowed the page's p95 measurably
(``benchmarks/JOURNAL.md``). The cores share more than the scheduler sees (caches, memory bandwidth,
on a cloud VM perhaps one physical core's two hyperthreads); only not running at the same moment avoids it.

So the app counts the requests and Gradio events it is answering in a small file mapped into memory
(``Gauge``), and a background process calls a ``StepAside`` between two small units of work (a scored
row): while the count is not zero, it sleeps. Sleeping is paid from credit earned by working, ``RATIO``
seconds per second of work and at most ``MAX_CREDIT_S`` at a time, so however busy the pages are, the
background process keeps at least 1/(1 + ``RATIO``) of the time: a flood of requests (or one held open
forever) slows scoring down at most that much, it never stops it. Requests that only wait count for
nothing: an event stream stops counting when it starts streaming, and a page event waiting for a child
process (a file check, a drawing) steps out of the count while it waits (``Gauge.away``).

    gauge = Gauge(folder / "pages_busy")          # the app; its path goes to children in PAGES_BUSY_FILE
    gauge.enter(); ...; gauge.leave()             # around each request and event
    step_aside = StepAside.named(path)            # a background process (None without a gauge)
    waited_s = step_aside()                       # between two units of work
"""

from __future__ import annotations

import contextlib
import logging
import mmap
import struct
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

log = logging.getLogger(__name__)

PAGES_BUSY_ENV = "PAGES_BUSY_FILE"
RATIO = 4.0  # seconds a background process may wait per second it worked: it keeps >= 1/5 of the time
MAX_CREDIT_S = 0.05  # the longest single wait
POLL_S = 0.0005  # how often a waiting process looks again: a page event takes a few milliseconds
_COUNT = struct.Struct("<i")  # one aligned 32-bit count: a reader sees the old value or the new one


class Gauge:
    """The app's side: how many requests and events it is answering now, in a file others can map."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.path.write_bytes(bytes(_COUNT.size))
        with open(self.path, "r+b") as handle:
            self._map = mmap.mmap(handle.fileno(), _COUNT.size)
        self._count = 0
        self._lock = threading.Lock()  # the event loop and the request threads both count

    @property
    def count(self) -> int:
        return self._count

    def enter(self) -> None:
        self._add(1)

    def leave(self) -> None:
        self._add(-1)

    @contextlib.contextmanager
    def away(self) -> Iterator[None]:
        """Out of the count meanwhile: the caller waits for another process and uses no CPU."""
        self.leave()
        try:
            yield
        finally:
            self.enter()

    def _add(self, step: int) -> None:
        with self._lock:
            self._count += step
            _COUNT.pack_into(self._map, 0, self._count)


class StepAside:
    """A background process's side: ``step_aside()`` waits while the app answers requests, within its credit."""

    def __init__(
        self,
        path: Path,
        ratio: float = RATIO,
        max_credit_s: float = MAX_CREDIT_S,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        with open(path, "rb") as handle:
            self._map = mmap.mmap(handle.fileno(), _COUNT.size, access=mmap.ACCESS_READ)
        self.ratio, self.max_credit_s = ratio, max_credit_s
        self._clock, self._sleep = clock, sleep
        self._since = clock()  # when the work since the last call began
        self._credit = 0.0

    @classmethod
    def named(cls, path: str | None) -> StepAside | None:
        """The app's gauge at ``path`` (what ``PAGES_BUSY_FILE`` says); None without one (a CLI, a test)."""
        if not path:
            return None
        try:
            return cls(Path(path))
        except (OSError, ValueError) as error:  # work on without it: only the pages' latency suffers
            log.warning("cannot read the pages' gauge %s (%s): background work will not step aside", path, error)
            return None

    def busy(self) -> bool:
        return _COUNT.unpack_from(self._map, 0)[0] > 0

    def __call__(self) -> float:
        """Wait while the pages are busy, as long as the credit lasts; the seconds waited."""
        start = now = self._clock()
        self._credit = min(self._credit + (start - self._since) * self.ratio, self.max_credit_s)
        while self._credit > 0 and self.busy():
            self._sleep(POLL_S)
            later = self._clock()
            self._credit -= later - now
            now = later
        self._since = now
        return now - start
