"""Scoring in a child process that the app starts and supervises, so a job never holds the pages' interpreter.

The parent (the app) holds a ``WorkerProcess``::

    worker = WorkerProcess(environ, on_scored=...)   # environ: what the app's settings were read from
    worker.start()                                    # the child starts; restarted with backoff if it dies
    start_worker(worker, settings.score_interval_s)   # APScheduler asks for a round every interval
    worker.drain()                                    # "score now" (a submit's wake-up): returns at once
    worker.stop()                                     # SIGTERM: the child ends, and the supervisor with it

The child is ``python -m leaderboard.runtime.worker_process --parent PID``: a plain subprocess (never a
fork of the app's threads) running the same ``Worker`` as ``python -m leaderboard work``. The two
talk over the child's standard input and output, one word a line:

- parent to child: ``drain`` (score until the queue is empty; requests that arrive during a round
  are coalesced into one more round, so a wake-up is never lost);
- child to parent: ``scored ID`` after each job's outcome is committed (the app then shows it at
  once), ``idle`` after each round.

Nothing is lost when the child dies at any moment: a job is claimed and finished by commits and
its lease names the child's pid, so the next child takes it up again at once (``leaderboard.jobs.queue``).
The child never outlives the app: its standard input closes when the app dies (even by SIGKILL),
and it also checks every second that its parent is still the app; either way it stops itself.
Its log lines go to the app's standard error, tagged ``[worker-process:<thread>]``. It runs below
the app on the CPU (``SCHED_IDLE``: ``leaderboard.runtime.cpu_priority``), so on a small machine scoring
uses the CPU the pages leave rather than competing with them, and between two scored rows it waits
while the app answers requests (``leaderboard.runtime.pages_first``, the file named in ``PAGES_BUSY_FILE``).
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import IO, Any

from leaderboard.runtime.cpu_priority import yield_to_pages
from leaderboard.runtime.pages_first import PAGES_BUSY_ENV, StepAside
from leaderboard.runtime.worker_pulse import Pulse

log = logging.getLogger("leaderboard.runtime.worker_process")  # the same name when run as __main__

ROOT = Path(__file__).resolve().parents[2]  # the folder holding the ``leaderboard`` package
LOG_FORMAT = "%(asctime)s %(levelname)s [worker-process:%(threadName)s] %(name)s: %(message)s"
FIRST_BACKOFF_S, MAX_BACKOFF_S = 1.0, 60.0  # restart delays after a death: doubling, capped
STABLE_S = 60.0  # a child that lived this long starts the backoff afresh
STOP_TIMEOUT_S = 10.0  # SIGTERM, then SIGKILL after this long
PARENT_CHECK_S = 1.0


def child_command(parent_pid: int) -> list[str]:
    """The child's command line (the fault-injection tests wrap it in their kill-point launcher)."""
    return [sys.executable, "-m", "leaderboard.runtime.worker_process", "--parent", str(parent_pid)]


class WorkerProcess:
    """The parent's side: starts the child, restarts it when it dies (with backoff, logged), stops it."""

    def __init__(
        self, environ: Mapping[str, str], on_scored: Callable[[str], None] | None = None, pulse: Pulse | None = None
    ) -> None:
        path = os.pathsep.join(p for p in (str(ROOT), environ.get("PYTHONPATH", "")) if p)
        self.environ = {**environ, "PYTHONPATH": path, "PYTHONUNBUFFERED": "1"}
        self.on_scored = on_scored or (lambda submission_id: None)
        self.restarts = 0  # deaths the supervisor has restarted the child after
        self.pulse = pulse or Pulse()  # its starts, stops and lines, for the health route (runtime/health.py)
        self._process: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()  # the process handle and writes to its standard input
        self._stopping = threading.Event()
        self._supervisor = threading.Thread(target=self._supervise, name="worker-supervisor", daemon=True)

    @property
    def pid(self) -> int | None:
        process = self._process
        return process.pid if process is not None and process.poll() is None else None

    def start(self) -> None:
        self._supervisor.start()

    def drain(self) -> int:
        """Ask the child for a round now (the scheduler's job and a submit's wake-up); returns at once.

        A child that is down drains when it starts, so nothing is lost while it restarts."""
        with self._lock:
            process = self._process
            if process is None or process.stdin is None or process.poll() is not None:
                return 0
            try:
                process.stdin.write(b"drain\n")
                process.stdin.flush()
            except (BrokenPipeError, ValueError, OSError):  # it is dying: the supervisor restarts it
                pass
        return 0

    def stop(self, timeout_s: float = STOP_TIMEOUT_S) -> int | None:
        """End the child (its stdin closed and SIGTERM; SIGKILL after ``timeout_s``); its exit status."""
        self._stopping.set()
        with self._lock:
            process = self._process
        if process is None:
            return None
        _close(process.stdin)
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
        try:
            code = process.wait(timeout_s)
        except subprocess.TimeoutExpired:
            log.error("the worker process (pid %d) did not stop within %.0f s: killing it", process.pid, timeout_s)
            process.kill()
            code = process.wait()
        self._supervisor.join(timeout_s)
        log.info("worker process (pid %d) stopped (status %s)", process.pid, code)
        return code

    # -- supervision ------------------------------------------------------------------------------

    def _supervise(self) -> None:
        backoff = FIRST_BACKOFF_S
        while not self._stopping.is_set():
            started = time.monotonic()
            try:
                process = self._spawn()
            except OSError as error:
                log.error("could not start the worker process (%s); trying again in %.0f s", error, backoff)
                self._stopping.wait(backoff)
                backoff = min(2 * backoff, MAX_BACKOFF_S)
                continue
            events = threading.Thread(target=self._read_events, args=(process,), name="worker-events", daemon=True)
            events.start()
            code = process.wait()
            self.pulse.stopped()
            events.join(5)
            if self._stopping.is_set():
                return
            lived = time.monotonic() - started
            backoff = FIRST_BACKOFF_S if lived >= STABLE_S else backoff
            self.restarts += 1
            log.error(
                "the worker process (pid %d) exited with status %s after %.1f s; restarting it in %.0f s",
                process.pid,
                code,
                lived,
                backoff,
            )
            self._stopping.wait(backoff)
            backoff = min(2 * backoff, MAX_BACKOFF_S)

    def _spawn(self) -> subprocess.Popen[bytes]:
        with self._lock:
            if self._stopping.is_set():
                raise OSError("stopping")
            process = subprocess.Popen(
                child_command(os.getpid()), env=self.environ, stdin=subprocess.PIPE, stdout=subprocess.PIPE
            )
            self._process = process
        self.pulse.started()
        log.info("worker process started (pid %d)", process.pid)
        return process

    def _read_events(self, process: subprocess.Popen[bytes]) -> None:
        assert process.stdout is not None
        for line in process.stdout:
            word, _, argument = line.decode("utf-8", errors="replace").strip().partition(" ")
            self.pulse.heard(word, argument)
            if word == "scored":
                try:
                    self.on_scored(argument)
                except Exception:  # a listener's bug must not stop the events of later jobs
                    log.exception("handling 'scored %s' failed", argument)
        _close(process.stdout)


def _close(stream: IO[Any] | None) -> None:
    if stream is not None:
        try:
            stream.close()
        except OSError:
            pass


# -- the child ------------------------------------------------------------------------------------


class _Child:
    """The child's side: rounds of ``Worker.drain`` on request, events to the parent."""

    def __init__(self, parent_pid: int, events: IO[str]) -> None:
        self.parent_pid, self.events = parent_pid, events
        self.wanted = threading.Event()
        self.wanted.set()  # a round at start, as the scheduler's first run

    def listen(self, commands_fd: int) -> None:
        """Requests from the parent; end of input means the parent is gone or stopping us.

        It reads the file descriptor with ``os.read``, never through ``sys.stdin``: a daemon thread
        blocked inside a buffered reader holds that reader's lock, and the interpreter's shutdown
        then aborts the process (SIGABRT, "could not acquire lock for <stdin>") instead of exiting 0."""
        pending = b""
        while True:
            try:
                chunk = os.read(commands_fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            *lines, pending = (pending + chunk).split(b"\n")
            if any(line.strip() == b"drain" for line in lines):
                self.wanted.set()
            pending = pending[-64:]  # a request is one short word: a line without an end is noise
        self._end("the app closed the pipe")

    def watch_parent(self) -> None:
        while os.getppid() == self.parent_pid:
            time.sleep(PARENT_CHECK_S)
        self._end(f"the app (pid {self.parent_pid}) is gone")

    def _end(self, why: str) -> None:
        log.info("stopping: %s", why)
        os.kill(os.getpid(), signal.SIGTERM)  # the main thread stops wherever it is (see main)

    @staticmethod
    def _load_keys(keys) -> None:
        """The answer keys, loaded (built on a first start) before any submission waits for them."""
        for split in ("test", "validation"):
            try:
                keys.private(split)
            except Exception as error:  # the job that needs it will say why, on the submission
                log.warning("the answer key of the %s split is not loaded yet: %s", split, error)

    def emit(self, line: str) -> None:
        try:
            self.events.write(line + "\n")
            self.events.flush()
        except (BrokenPipeError, ValueError, OSError):
            pass  # the parent is gone; listen() or watch_parent() ends us

    def serve(self, worker, keys) -> None:
        from leaderboard.storage import StorageError

        self._load_keys(keys)
        worker.on_scored = lambda submission_id: self.emit(f"scored {submission_id}")  # a job let through another
        while True:
            self.wanted.wait()
            self.wanted.clear()
            try:
                while worker.run_once() is not None:
                    for submission_id in worker.scored:  # a batch (on the Hub) scores several at once
                        self.emit(f"scored {submission_id}")
                worker.drain()  # the queue is empty: this re-syncs the public table (and takes a late arrival)
            except StorageError as error:  # the store is unreachable: the next round tries again
                log.error("worker round failed: %s", error)
                self.emit(f"failed {_one_line(error)}")
            except Exception as error:  # a background loop carries on; the traceback goes to the log
                log.exception("worker round failed")
                self.emit(f"failed {type(error).__name__}: {_one_line(error)}")
            self.emit("idle")


def _one_line(error: BaseException) -> str:
    """The error on one short line (the app keeps it for the maintainers' desk)."""
    return " ".join(str(error).split())[:500] or type(error).__name__


def _on_sigterm(*_: object) -> None:
    """Unwind the job (its lease names a dead pid now) and exit 0. Later SIGTERMs are ignored: a stop
    often brings two (the app's, and our own when the app closes our stdin), and a second one
    raised during the unwinding or the interpreter's shutdown turned the clean exit into status 1."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    sys.exit(0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m leaderboard.runtime.worker_process")
    parser.add_argument("--parent", type=int, required=True, help="the app's pid: the child stops when it is gone")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format=LOG_FORMAT, stream=sys.stderr)
    for chatty in ("httpx", "filelock"):
        logging.getLogger(chatty).setLevel(logging.WARNING)
    events = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # a stray print goes to the log, never into the events
    signal.signal(signal.SIGTERM, _on_sigterm)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C in a terminal reaches the app, which stops us
    priority = yield_to_pages()  # scoring takes the CPU the pages leave: a job waits a little, a visitor does not
    child = _Child(args.parent, events)
    if os.getppid() != args.parent:
        return 0
    threading.Thread(target=child.listen, args=(sys.stdin.fileno(),), name="commands", daemon=True).start()
    threading.Thread(target=child.watch_parent, name="parent-watch", daemon=True).start()
    from leaderboard.config import Settings
    from leaderboard.service import Leaderboard

    try:
        service = Leaderboard(Settings.from_env(os.environ))
        step_aside = StepAside.named(os.environ.get(PAGES_BUSY_ENV))
        if step_aside is not None:  # between two rows, scoring waits while the app answers requests
            service.worker.step_aside = step_aside
        pages = "steps aside for the pages" if step_aside else "no pages' gauge"
        log.info("worker process ready (pid %d, app pid %d, %s, %s)", os.getpid(), args.parent, priority, pages)
        child.serve(service.worker, service.keys)
    except SystemExit:
        log.info("worker process stopped")
    # The job has unwound and every commit is on disk. Skip the interpreter's shutdown: it would run
    # beside the daemon threads (one may be writing a log line), and a lock one of them holds turns
    # a clean stop into an abort.
    logging.shutdown()
    _close(events)
    os._exit(0)


if __name__ == "__main__":
    sys.exit(main())
