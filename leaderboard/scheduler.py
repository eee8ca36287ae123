"""Driving the worker from the app: an APScheduler background job.

``start_worker(worker, settings.score_interval_s)`` starts a ``BackgroundScheduler`` that calls
``worker.drain`` at once and then every interval. In the app ``worker`` is a
``leaderboard.worker_process.WorkerProcess``, whose ``drain`` asks the scoring process for a round
and returns at once; a ``Worker`` itself works too (it then scores in the scheduler's thread).
A run still going when the next is due is not doubled (``max_instances=1``, ``coalesce``).
Stop it with ``scheduler.shutdown()``.
``Wakeup`` lets a request (a new submission, a rescore) start a round now rather than at the
next interval, so a submitter does not wait up to ``SCORE_INTERVAL_S`` for scoring to begin.
"""

from __future__ import annotations

import datetime as dt
import logging
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from apscheduler.schedulers.background import BackgroundScheduler


class Drains(Protocol):
    def drain(self) -> int: ...


log = logging.getLogger(__name__)
JOB_ID = "navitrace-worker"


def start_worker(worker: Drains, interval_s: float) -> BackgroundScheduler:
    from apscheduler.schedulers.background import BackgroundScheduler

    scheduler = BackgroundScheduler(daemon=True)
    scheduler.add_job(
        worker.drain,
        "interval",
        seconds=interval_s,
        id=JOB_ID,
        max_instances=1,
        coalesce=True,
        next_run_time=dt.datetime.now(dt.UTC),
    )
    scheduler.start()
    log.info("worker scheduled every %s s", interval_s)
    return scheduler


class Wakeup:
    """``wakeup()`` runs the worker's job now; a no-op until ``attach``ed to a started scheduler.

    A round already running is not doubled (``max_instances=1``): ``drain`` keeps taking jobs until
    the queue is empty, so it picks up whatever the wake-up was for.
    """

    def __init__(self) -> None:
        self._scheduler: BackgroundScheduler | None = None

    def attach(self, scheduler: BackgroundScheduler) -> None:
        self._scheduler = scheduler

    def __call__(self) -> None:
        scheduler = self._scheduler
        if scheduler is not None and scheduler.running:
            scheduler.modify_job(JOB_ID, next_run_time=dt.datetime.now(dt.UTC))
