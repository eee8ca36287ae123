"""File checks in child processes, so a 64 MB check never holds the interpreter that serves the pages.

Reading and validating a 64 MB file is seconds of CPU in pure Python (issue 14: 24 checks, 4 at a
time, pushed other visitors' board to 13x its idle latency while they ran in the app's own process,
holding the GIL). Here each check runs in one of ``WORKERS`` spawned children at a lower priority
(niceness 10, like the scoring process), reading the uploaded file from its path: the 64 MB never
cross a pipe, only the report comes back. A child is replaced after ``CHECKS_PER_CHILD`` checks, since
a big file's memory goes back to the allocator but not always to the system.

The child runs exactly the service's check (``intake.checked_upload``, the one ``submit`` runs), with
its own ``AnswerKeys`` reading the same public-key cache the app warmed up. This module imports no
gradio: a child pays only for ``leaderboard`` and ``scoring``.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

from leaderboard import Settings
from leaderboard.errors import LeaderboardError, Rejected
from leaderboard.report import Report

log = logging.getLogger(__name__)

WORKERS = 1  # one core for checks, one for the pages (and the scoring process) on a 2-core Space
CHECKS_PER_CHILD = 20
NICENESS = 10

_keys = None  # the child's AnswerKeys


class CheckFailed(LeaderboardError):
    """The checking process died (e.g. out of memory): nothing was stored; the user may try again."""


class CheckProcesses:
    """``validate(path, split)`` as ``Leaderboard.validate`` answers it, computed in a child process."""

    def __init__(self, settings: Settings, workers: int = WORKERS) -> None:
        self._settings, self._workers = settings, workers
        self._lock = threading.Lock()
        self._pool: ProcessPoolExecutor | None = None  # started on the first check

    def validate(self, path: str | Path, split: str) -> Report:
        """The report; ``Rejected`` with the report when the file cannot be scored, as the service says it."""
        try:
            outcome = self._executor().submit(_check, str(path), split).result()
        except BrokenProcessPool:
            self._restart()
            raise CheckFailed(
                "the check of this file stopped unexpectedly on the server (perhaps out of memory); nothing "
                "was stored: try again, or send a smaller file"
            ) from None
        if outcome[0] == "rejected":
            raise Rejected(outcome[1], outcome[2])
        return outcome[1]

    def close(self) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def _executor(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                self._pool = ProcessPoolExecutor(
                    max_workers=self._workers,
                    mp_context=multiprocessing.get_context("spawn"),  # no copy of the app's threads and sockets
                    initializer=_start,
                    initargs=(self._settings,),
                    max_tasks_per_child=CHECKS_PER_CHILD,
                )
            return self._pool

    def _restart(self) -> None:
        log.error("a checking process died; starting new ones")
        self.close()


def _start(settings: Settings) -> None:
    global _keys
    try:
        os.nice(NICENESS)  # pages first: a check may wait, a visitor should not
    except OSError:
        pass
    from leaderboard.answer_keys import AnswerKeys

    _keys = AnswerKeys(settings)


def _check(path: str, split: str) -> tuple:
    """``("ok", report)`` or ``("rejected", message, report | None)``: plain values across the pipe."""
    from leaderboard.intake import checked_upload

    assert _keys is not None, "the checking process was not initialised"
    try:
        report, _ = checked_upload(Path(path).read_bytes(), split, _keys)
    except Rejected as error:
        return ("rejected", str(error), error.report)
    return ("ok", report)
