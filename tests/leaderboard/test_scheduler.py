"""The app's background worker: it drains at start, and a wake-up starts a round before the interval."""

from __future__ import annotations

import datetime as dt
import threading
import time

from leaderboard.records.entries import FINISHED
from leaderboard.runtime.scheduler import JOB_ID, Wakeup, start_worker
from leaderboard.service import Leaderboard
from tests.service_fixtures import submit

HOUR = 3600.0


def wait_for(service: Leaderboard, submission_id: str, timeout: float = 30.0) -> str:
    deadline = time.monotonic() + timeout
    while (status := service.status(submission_id).status) != FINISHED and time.monotonic() < deadline:
        time.sleep(0.05)
    return status


def test_a_wakeup_scores_a_new_submission_without_waiting_for_the_interval(settings, files):
    service = Leaderboard(settings)
    first = submit(service, files["test-noisy"]).submission_id
    round_over = threading.Event()

    class Observed:  # the worker, telling the test when a round is over
        @staticmethod
        def drain() -> int:
            try:
                return service.worker.drain()
            finally:
                round_over.set()

    scheduler = start_worker(Observed(), HOUR)  # type: ignore[arg-type]
    wakeup = Wakeup()
    try:
        assert wait_for(service, first) == FINISHED  # the first round runs at start
        assert round_over.wait(30)  # and is over: it would otherwise take the next submission too
        second = submit(service, files["test-noisy1"]).submission_id
        planned = scheduler.get_job(JOB_ID).next_run_time
        wakeup()  # not attached yet: nothing happens, and nothing breaks
        assert scheduler.get_job(JOB_ID).next_run_time == planned  # the next round is still the one planned,
        assert planned - dt.datetime.now(dt.UTC) > dt.timedelta(seconds=HOUR / 2)  # an hour after the first
        assert service.status(second).status != FINISHED
        wakeup.attach(scheduler)
        wakeup()
        assert wait_for(service, second) == FINISHED
    finally:
        scheduler.shutdown(wait=True)
