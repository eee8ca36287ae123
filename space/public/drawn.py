"""Page bodies drawn once per results version and view: a small bounded cache (least recently used out).

When the results change, every reader asks for the new board at once: the first request draws it and the
others wait for that drawing, rather than each drawing it again."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import Future

BODIES = 512  # kept drawings: board views, entries, comparisons (each a few to some hundreds of KB)
CHARACTERS = 16_000_000  # and at most this much text in all (a board of many entries draws large bodies)


class TooManyFresh(Exception):
    """This caller asked for too many views nobody had asked for before: a 429 after ``retry_after`` s."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"too many new views; try again in {retry_after} s")
        self.retry_after = retry_after


class Drawn:
    def __init__(self, size: int = BODIES, characters: int = CHARACTERS) -> None:
        self.size, self.characters = size, characters
        self._held = 0  # characters kept
        self._lock = threading.Lock()
        self._kept: OrderedDict[tuple[int, Hashable], str] = OrderedDict()
        self._drawing: dict[tuple[int, Hashable], Future[str]] = {}  # views being drawn now
        self._version = 0  # the newest results version drawn; older drawings are never asked for again
        self.drawings = 0  # how many were drawn (what the cache saves shows in tests)

    def get(
        self, version: int, key: Hashable, draw: Callable[[], str], admit: Callable[[], int | None] | None = None
    ) -> str:
        """The drawing of ``key`` for results ``version``; ``draw()`` runs only when it is not kept, and then only
        if ``admit()`` says so (``None``; else the seconds to wait: ``TooManyFresh``)."""
        wanted = (version, key)
        with self._lock:
            if wanted in self._kept:
                self._kept.move_to_end(wanted)
                return self._kept[wanted]
            drawing = self._drawing.get(wanted)
            if drawing is None:
                self._drawing[wanted] = drawing = Future()
                mine = True
            else:
                mine = False
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
            if version < self._version:  # a request that read the rows before they changed: not kept
                return made
            if version > self._version:
                self._kept.clear()
                self._held, self._version = 0, version
            if wanted not in self._kept:
                self._kept[wanted] = made
                self._held += len(made)
            while self._kept and (len(self._kept) > self.size or self._held > self.characters):
                self._held -= len(self._kept.popitem(last=False)[1])
        return made
