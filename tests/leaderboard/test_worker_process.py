"""The scoring process the app supervises: woken at once, restarted after a SIGKILL mid-job without
losing or doubling the job, stopped cleanly, and never outliving the app.

The test process plays the app: it holds the ``WorkerProcess`` (the child is a real
``python -m leaderboard.runtime.worker_process``), submits and reads the store through its own ``Leaderboard``.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import leaderboard.runtime.worker_process as worker_process
from leaderboard.config import Settings
from leaderboard.jobs.queue import process_exists
from leaderboard.records.entries import FINISHED, PENDING, RUNNING
from leaderboard.runtime.cpu_priority import is_background, threads_in_front
from leaderboard.runtime.pages_first import PAGES_BUSY_ENV, Gauge
from leaderboard.runtime.worker_process import WorkerProcess
from leaderboard.service import Leaderboard
from leaderboard.storage import audit
from tests.service_fixtures import submit

SLOW_CHILD = Path(__file__).with_name("slow_worker_process.py")


def wait(condition: Callable[[], bool], timeout_s: float, what: str) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, f"not within {timeout_s} s: {what}"
        time.sleep(0.01)


def gone(pid: int) -> bool:
    """The process no longer runs (a zombie waiting for its reaper counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return not process_exists(pid)


@pytest.fixture
def child_environ(environ: dict[str, str]) -> dict[str, str]:
    return {**os.environ, **environ}  # the parent's environment, as the app passes it


@pytest.fixture
def service(settings: Settings) -> Leaderboard:
    return Leaderboard(settings)


@pytest.fixture
def slow_children(monkeypatch: pytest.MonkeyPatch) -> None:
    def command(parent_pid: int) -> list[str]:
        return [sys.executable, str(SLOW_CHILD), "--parent", str(parent_pid)]

    monkeypatch.setattr(worker_process, "child_command", command)


@pytest.fixture
def supervised(child_environ: dict[str, str]) -> Iterator[Callable[..., WorkerProcess]]:
    started: list[WorkerProcess] = []

    def start(scored: list[str] | None = None, **extra: str) -> WorkerProcess:
        worker = WorkerProcess({**child_environ, **extra}, on_scored=(scored if scored is not None else []).append)
        worker.start()
        started.append(worker)
        wait(lambda: worker.pid is not None, 30, "the worker process started")
        return worker

    yield start
    for worker in started:
        worker.stop()


def test_a_submission_is_scored_when_the_app_asks_and_not_before(service, files, supervised):
    scored: list[str] = []
    worker = supervised(scored)
    # Its start-up round is over: that round ends by publishing the table (the first time: it did not exist).
    wait(lambda: service.published_table() != [], 60, "the start-up round's table")
    first = submit(service, files["test-noisy"]).submission_id
    time.sleep(1.0)
    assert service.status(first).status == PENDING  # nobody asked: the child waits for requests, it does not poll
    worker.drain()  # what a submit's wake-up does
    wait(lambda: service.status(first).status == FINISHED, 30, f"{first} FINISHED after a wake-up")
    wait(lambda: scored == [first], 5, "the child told the app about the outcome")
    pid = worker.pid
    assert pid is not None and is_background(pid)  # it takes only the CPU the pages leave
    assert threads_in_front(pid) == []  # every thread: numpy's and pyarrow's own ones too
    assert worker.stop() == 0  # SIGTERM: a clean exit
    assert pid is not None and gone(pid)
    assert worker.restarts == 0


def test_sigkill_of_the_worker_process_mid_job_loses_and_doubles_nothing(service, files, supervised, slow_children):
    scored: list[str] = []
    sid = submit(service, files["test-noisy1"]).submission_id
    worker = supervised(scored, SLOW_SCORING_S="3")  # drains at start: the job is claimed, then scored slowly
    wait(lambda: service.registry.job(sid).status == RUNNING, 30, f"{sid} RUNNING")
    first = worker.pid
    assert first is not None
    os.kill(first, signal.SIGKILL)  # mid-job: its scoring takes 3 s more
    wait(lambda: gone(first), 10, "the killed child gone")
    assert service.registry.job(sid).status == RUNNING  # left as it was, its lease naming a dead pid

    # The supervisor restarts the child (after a backoff), which takes the job up again at once.
    wait(lambda: service.status(sid).status == FINISHED, 60, f"{sid} FINISHED after the restart")
    assert worker.restarts == 1 and worker.pid not in (None, first)
    job = service.registry.job(sid)
    assert job.attempts == 2  # claimed by the killed child, then by its successor
    entries = audit.read_audit(service.requests, sid, None)
    assert [e.action for e in entries].count("finished") == 1
    assert service.status(sid).summary is not None
    wait(lambda: scored == [sid], 5, "one outcome reported, by the new child")


PARENT = textwrap.dedent(
    """
    import os, sys, time
    from leaderboard.runtime.worker_process import WorkerProcess
    worker = WorkerProcess(dict(os.environ))
    worker.start()
    while worker.pid is None:
        time.sleep(0.01)
    print(worker.pid, flush=True)
    time.sleep(600)
    """
)


def test_the_worker_process_dies_with_the_app_even_when_the_app_is_sigkilled(child_environ):
    app = subprocess.Popen(
        [sys.executable, "-c", PARENT], env=child_environ, stdout=subprocess.PIPE, cwd=Path(__file__).parents[2]
    )
    try:
        assert app.stdout is not None
        child = int(app.stdout.readline())
        assert not gone(child)
        app.kill()
        app.wait()
        wait(lambda: gone(child), 10, f"the orphaned worker process {child} stopped by itself")
    finally:
        if app.poll() is None:
            app.kill()


def test_scoring_steps_aside_for_the_pages_yet_finishes_however_busy_they_are(
    service, files, supervised, tmp_path, capfd
):
    gauge = Gauge(tmp_path / "pages_busy")
    gauge.enter()  # the pages never stop answering (a flood, or a request held open)
    worker = supervised(**{PAGES_BUSY_ENV: str(gauge.path)})
    first = submit(service, files["test-noisy"]).submission_id
    worker.drain()
    wait(lambda: service.status(first).status == FINISHED, 120, f"{first} FINISHED while the pages were busy")
    assert "steps aside for the pages" in capfd.readouterr().err
