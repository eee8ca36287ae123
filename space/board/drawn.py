"""Bodies drawn once per results version and view: a small bounded cache (least recently used out).

Two versions are kept: the newest, which the board's refresher draws before readers move to it
(``BoardCache.on_change``), and the one readers hold until then; an older one is never asked for again.
When a view is not kept, the first request draws it and the others asking for it wait for that drawing,
rather than each drawing it again."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import Future
from typing import Generic, TypeVar

BODIES = 512  # kept drawings: board views, entries, comparisons (each a few to some hundreds of KB)
CHARACTERS = 16_000_000  # and at most this much text in all (a board of many entries draws large bodies)
T = TypeVar("T")


class TooManyFresh(Exception):
    """This caller asked for too many views nobody had asked for before: a 429 after ``retry_after`` s."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"too many new views; try again in {retry_after} s")
        self.retry_after = retry_after


class Drawn(Generic[T]):
    """``weigh(body)`` is what a body counts against ``budget`` (characters of a page, bytes of a JSON body)."""

    def __init__(self, size: int = BODIES, budget: int = CHARACTERS, weigh: Callable[[T], int] = len) -> None:  # type: ignore[assignment]
        self.size, self.budget, self.weigh = size, budget, weigh
        self._held = 0  # weight kept
        self._lock = threading.Lock()
        self._kept: OrderedDict[tuple[int, Hashable], T] = OrderedDict()
        self._drawing: dict[tuple[int, Hashable], Future[T]] = {}  # views being drawn now
        self._version = 0  # the newest results version drawn
        self.drawings = 0  # how many were drawn (what the cache saves shows in tests)

    def get(
        self, version: int, key: Hashable, draw: Callable[[], T], admit: Callable[[], int | None] | None = None
    ) -> T:
        """The drawing of ``key`` for results ``version``; ``draw()`` runs only when it is not kept, and then only
        if ``admit()`` says so (``None``; else the seconds to wait: ``TooManyFresh``)."""
        wanted = (version, key)
        with self._lock:
            if wanted in self._kept:
                self._kept.move_to_end(wanted)
                return self._kept[wanted]
            drawing = self._drawing.get(wanted)
            mine = drawing is None
            if drawing is None:
                self._drawing[wanted] = drawing = Future()
        if not mine:  # another request draws the same view: its drawing serves both (a new version meets many)
            return drawing.result()
        try:
            wait = admit() if admit is not None else None
            if wait is not None:
                raise TooManyFresh(wait)
            made = draw()
        except BaseException as error:
            with self._lock:
                del self._drawing[wanted]
            drawing.set_exception(error)
            raise
        with self._lock:
            del self._drawing[wanted]
            drawing.set_result(made)
            self.drawings += 1
            self._keep(wanted, made)
        return made

    def kept(self, version: int, key: Hashable) -> T | None:
        """The drawing of ``key`` for ``version`` when it is kept, else ``None`` (never draws, never waits)."""
        with self._lock:
            found = self._kept.get((version, key))
            if found is not None:
                self._kept.move_to_end((version, key))
            return found

    def recent(self, version: int, limit: int) -> list[Hashable]:
        """The keys of ``version`` most recently asked for, the latest first: what to draw again for the next."""
        with self._lock:
            keys = [key for (v, key) in reversed(self._kept) if v == version]
        return keys[:limit]

    def _keep(self, wanted: tuple[int, Hashable], made: T) -> None:
        version = wanted[0]
        if version < self._version - 1:  # a request that read the rows two changes ago: answered, not kept
            return
        if version > self._version:
            self._version = version
            for old in [k for k in self._kept if k[0] < version - 1]:
                self._held -= self.weigh(self._kept.pop(old))
        self._held += self.weigh(made) - (self.weigh(self._kept.pop(wanted)) if wanted in self._kept else 0)
        self._kept[wanted] = made
        while self._kept and (len(self._kept) > self.size or self._held > self.budget):
            self._held -= self.weigh(self._kept.popitem(last=False)[1])
