"""What the app hears from its scoring process: when it started, each round that ended well, each failed round.

``WorkerProcess`` (``leaderboard/runtime/worker_process.py``) feeds a ``Pulse`` with the child's events: ``started``
and ``stopped`` as it supervises it, and every line the child writes (``scored ID``, ``failed TEXT``,
``idle``). A round that ended without ``failed`` is a heartbeat; so is an outcome. The health route
(``leaderboard/runtime/health.py``) reads ``state()``: in memory, no store or process is asked.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

KEPT_FAILURES = 20  # the latest failed rounds kept for the maintainers' desk
MAX_MESSAGE = 500  # characters of a failed round's message kept


@dataclass(frozen=True)
class RoundFailure:
    """A scoring round that failed (for maintainers: the message may name paths and repositories)."""

    at: float  # wall-clock seconds
    message: str


@dataclass(frozen=True)
class PulseState:
    watched: bool  # a scoring process was ever started by this app
    running: bool  # it runs now
    started_at: float | None  # when the running one (or the last one) started
    last_beat: float | None  # the last round that ended well, or the last outcome
    last_round_failed: bool  # the latest round ended with ``failed``
    starts: int
    failures: tuple[RoundFailure, ...]  # oldest first


class Pulse:
    def __init__(self, clock: Callable[[], float] = time.time, kept: int = KEPT_FAILURES) -> None:
        self.clock = clock
        self._lock = threading.Lock()
        self._running = False
        self._started: float | None = None
        self._beat: float | None = None
        self._starts = 0
        self._failed_now = False  # ``failed`` heard since the last ``idle``
        self._last_failed = False
        self._failures: deque[RoundFailure] = deque(maxlen=kept)

    def started(self) -> None:
        with self._lock:
            self._running, self._started, self._failed_now = True, self.clock(), False
            self._starts += 1

    def stopped(self) -> None:
        with self._lock:
            self._running = False

    def heard(self, word: str, argument: str = "") -> None:
        """A line of the child's: ``scored ID``, ``failed TEXT``, ``idle`` (anything else is ignored)."""
        with self._lock:
            now = self.clock()
            if word == "scored":
                self._beat = now
            elif word == "failed":
                self._failed_now = True
                self._failures.append(RoundFailure(now, argument[:MAX_MESSAGE]))
            elif word == "idle":
                if not self._failed_now:
                    self._beat = now
                self._last_failed, self._failed_now = self._failed_now, False

    def state(self) -> PulseState:
        with self._lock:
            return PulseState(
                self._starts > 0,
                self._running,
                self._started,
                self._beat,
                self._last_failed,
                self._starts,
                tuple(self._failures),
            )
