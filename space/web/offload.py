"""Heavy page work in child processes: file checks and Explorer drawings never hold the pages' interpreter.

Reading and validating a 64 MB file is seconds of CPU in pure Python: run in the app's own process,
holding the GIL, a burst of checks slowed every other visitor's page many times over. Here each check
runs in one of ``WORKERS`` spawned children below the pages on the CPU (``SCHED_IDLE`` like the scoring
process: ``leaderboard.runtime.cpu_priority``). The Submit tab's
check reads the uploaded file from its path (the 64 MB never cross a pipe, only the report comes
back); a submission's own check (``checked``) sends the bytes the service already read, capped at
the file limit before they are sent. A child whose resident memory passed ``RECYCLE_MB`` after a task is
replaced (a big file's memory goes back to the allocator but not always to the system); a checking
child holds little more after a 58 MB file than after its first check, so that is rare. It used to be
replaced every 20 checks, and each new child's start (imports, the public keys: 2-3 s of CPU beside the
pages) landed in the middle of a burst of uploads. For the same reason the app
starts its children once the public datasets are ready (``prepare``), not at a visitor's first check.

The child runs exactly the service's check (``intake.checked_upload``, the one ``submit`` runs), with
its own ``AnswerKeys`` reading the same public-key cache the app warmed up. The Explorer's drawing of
one row (``space.explorer.picture.picture``: one worst-case row took 6-7 s, and 8 at once starved the
board, attack 6) runs the same way in a child of its own (``Services.drawings``), so a heavy drawing
never delays a check and the other way round. Nothing here imports gradio: a child pays only for
``leaderboard``, ``scoring`` and the page logic.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

from leaderboard import Settings
from leaderboard.records import LeaderboardError, Rejected, Report
from leaderboard.runtime import Gauge, yield_to_pages

log = logging.getLogger(__name__)

WORKERS = 1  # one core for checks, one for the pages (and the scoring process) on a 2-core Space
RECYCLE_MB = 512  # a child holding more than this after a task is replaced

_keys = None  # the child's AnswerKeys
IMAGE_FORMAT = "webp"  # what gr.Image saves a PIL image as (its ``format`` default): the page looks the same


class CheckFailed(LeaderboardError):
    """The child process died (e.g. out of memory): nothing was stored; the user may try again."""


class Offload:
    """``validate(path, split)`` as ``Leaderboard.validate`` answers it, and ``picture(...)`` as
    ``explorer.picture`` draws it, computed in a child process."""

    def __init__(self, settings: Settings, workers: int = WORKERS, pages_busy: Gauge | None = None) -> None:
        """``pages_busy``: the app's count of requests being answered; a page event waiting here leaves it."""
        self._settings, self._workers = settings, workers
        self._waiting = pages_busy.away if pages_busy is not None else contextlib.nullcontext
        self._lock = threading.Lock()
        self._pool: ProcessPoolExecutor | None = None  # started on the first check

    def validate(self, path: str | Path, split: str) -> Report:
        """The report; ``Rejected`` with the report when the file cannot be scored, as the service says it."""
        outcome = self._run("the check of this file", _check, str(path), split)
        if outcome[0] == "rejected":
            raise Rejected(outcome[1], outcome[2])
        return outcome[1]

    def checked(self, data: bytes, split: str) -> tuple[Report, int]:
        """``intake.checked_upload`` of a submission's bytes: its report and cost, or ``Rejected`` as there."""
        outcome = self._run("the check of this file", _check_bytes, data, split)
        if outcome[0] == "rejected":
            raise Rejected(outcome[1], outcome[2])
        return outcome[1], outcome[2]

    def picture(  # noqa: ANN201
        self,
        sample_id: str,
        embodiment: str,
        prediction: object,
        layers: object,
        baseline_raw: float | None,
        save_in: str | None = None,
    ):
        """``explorer.picture`` of the validation split's row; its errors (``NotFound``...) come back as raised.

        With ``save_in`` (a Gradio component's cache folder), the child also encodes the drawing as Gradio would
        (WebP, in a folder named by its hash) and the picture's ``image`` is that file's path: the app's
        interpreter then neither receives the pixels nor spends ~150 ms on its event loop encoding them."""
        args = (sample_id, embodiment, prediction, layers, baseline_raw, save_in)
        return self._run("drawing this row", _picture, *args)

    def prepare(self, splits: tuple[str, ...]) -> Future:
        """Start the child now and load the public keys of ``splits`` in it (the app calls this once they are
        cached): the first visitor's check then costs what the later ones do. Returns at once."""
        return self._executor().submit(_load_keys, splits)

    def _run(self, what: str, function, *args):  # noqa: ANN001, ANN202 (a module-level function of this module)
        try:
            pool = self._executor()
            with self._waiting():  # the child works, the page event only waits: background work need not yield
                result, resident_mb = pool.submit(_measured, function, *args).result()
        except BrokenProcessPool:
            self._restart()
            raise CheckFailed(
                f"{what} stopped unexpectedly on the server (perhaps out of memory); nothing was stored: try "
                "again, or send a smaller file"
            ) from None
        if resident_mb > RECYCLE_MB:
            self._recycle(pool, resident_mb)
        return result

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
                    initargs=(self._settings, os.getpid()),
                )
            return self._pool

    def _restart(self) -> None:
        log.error("a child process of the pages died; starting new ones")
        self.close()

    def _recycle(self, pool: ProcessPoolExecutor, resident_mb: float) -> None:
        """A new child for the next tasks; the old one ends once the tasks it has are done."""
        with self._lock:
            if self._pool is not pool:  # another task's answer replaced it already
                return
            self._pool = None
        log.info("a child process of the pages holds %.0f MB after a task; replacing it", resident_mb)
        pool.shutdown(wait=False)


def end_children(grace_s: float = 2.0) -> int:
    """At the app's stop: end the checking and drawing processes, even mid-task, so the stop takes seconds
    (Python's exit would otherwise wait for a running check or drawing to finish); how many were ended.
    What they were doing was a page's request, which the stopping server has already cut."""
    children = multiprocessing.active_children()
    for child in children:
        child.terminate()
    for child in children:
        child.join(grace_s)
        if child.is_alive():
            child.kill()
    return len(children)


def _start(settings: Settings, parent: int) -> None:
    """``parent``: the app's pid, as the app read it. Read here with ``getppid``, it was 1 when the app died
    before this child started, and the child then watched for the death of init and lived on."""
    global _keys
    yield_to_pages()  # pages first: a check may wait, a visitor should not
    threading.Thread(target=_end_with, args=(parent,), name="parent-watch", daemon=True).start()
    from leaderboard.storage import AnswerKeys

    _keys = AnswerKeys(settings)


def _load_keys(splits: tuple[str, ...]) -> None:
    assert _keys is not None, "the child process was not initialised"
    for split in splits:
        _keys.public(split)


def _measured(function, *args) -> tuple:  # noqa: ANN001
    """``function(*args)`` and this child's resident memory afterwards, in MB (Linux; 0 elsewhere)."""
    result = function(*args)
    try:
        with open("/proc/self/statm") as statm:
            resident_mb = int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError):
        resident_mb = 0.0
    return result, resident_mb


def _end_with(parent: int) -> None:
    """A SIGKILLed app cannot shut its pool down: its children notice they were orphaned and end."""
    while os.getppid() == parent:
        time.sleep(2)
    os._exit(0)


def _check(path: str, split: str) -> tuple:
    """``("ok", report)`` or ``("rejected", message, report | None)``: plain values across the pipe."""
    outcome = _check_bytes(Path(path).read_bytes(), split)
    return outcome[:2] if outcome[0] == "ok" else outcome


def _check_bytes(data: bytes, split: str) -> tuple:
    """``("ok", report, cost)`` or ``("rejected", message, report | None)``."""
    from leaderboard.jobs import checked_upload

    assert _keys is not None, "the checking process was not initialised"
    try:
        report, cost = checked_upload(data, split, _keys)
    except Rejected as error:
        return ("rejected", str(error), error.report)
    return ("ok", report, cost)


def _picture(  # noqa: ANN202
    sample_id: str,
    embodiment: str,
    prediction: object,
    layers: object,
    baseline_raw: float | None,
    save_in: str | None,
):
    import dataclasses

    from leaderboard.records import Split
    from space.explorer.picture import picture

    assert _keys is not None, "the drawing process was not initialised"
    drawn = picture(_keys.public(Split.VALIDATION), sample_id, embodiment, prediction, layers, baseline_raw)  # type: ignore[arg-type]
    if save_in is None:
        return drawn
    from space.workspace.gradio_internals import save_picture

    return dataclasses.replace(drawn, image=save_picture(drawn.image, save_in, IMAGE_FORMAT))
