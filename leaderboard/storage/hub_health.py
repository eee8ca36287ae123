"""What a Hub store knows of the Hub from its own calls: the last one that worked, the last one that failed.

``HubStorage`` notes the final outcome of every call it makes (after its retries): a read, a listing, a
tag, a commit. Nothing here calls the Hub; the health route (``leaderboard.runtime.health``) reads these notes, so
asking whether the Hub is reachable costs nothing. A refusal the Hub meant (a lost race, the hourly commit
limit) is an answer, not an outage: a race counts as a call that worked and the limit is the commit
budget's to report. The failures' messages name the repository and quote the Hub: they are for the
maintainers' desk only.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from leaderboard.storage.base import CommitLimitReached, Conflict, HubCallsState, HubFailure, StorageError

KEPT_FAILURES = 20  # the latest failures kept for the desk


class HubCalls:
    """The notes of one store's calls (thread-safe, bounded)."""

    def __init__(self, clock: Callable[[], float] = time.time, kept: int = KEPT_FAILURES) -> None:
        self.clock = clock
        self._lock = threading.Lock()
        self._ok: float | None = None
        self._failed: float | None = None
        self._kind: str | None = None
        self._failures: deque[HubFailure] = deque(maxlen=kept)

    def ok(self) -> None:
        with self._lock:
            self._ok = self.clock()

    def failed(self, error: BaseException, kind: str | None = None) -> None:
        """``error`` ended a call; ``kind`` as ``hub_calls.classify`` says (else found in its causes)."""
        kind = kind or _kind_of(error)
        with self._lock:
            self._failed, self._kind = self.clock(), kind
            self._failures.append(HubFailure(self._failed, kind, " ".join(str(error).split())[:500]))

    @contextmanager
    def noted(self) -> Iterator[None]:
        """The outcome of the block: a ``StorageError`` (but a lost race or the commit limit) is a failure."""
        try:
            yield
        except CommitLimitReached:
            raise
        except Conflict:
            self.ok()
            raise
        except StorageError as error:
            self.failed(error)
            raise
        self.ok()

    def state(self) -> HubCallsState:
        with self._lock:
            return HubCallsState(self._ok, self._failed, self._kind, tuple(self._failures))


def _kind_of(error: BaseException) -> str:
    from leaderboard.storage.hub_calls import classify  # the Hub client: imported only where a Hub store is

    cause: BaseException | None = error
    while cause is not None:
        kind = classify(cause)
        if kind is not None:
            return kind
        cause = cause.__cause__
    return "fatal"
