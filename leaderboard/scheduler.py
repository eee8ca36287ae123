"""Running the worker inside the app: an APScheduler background job.

``start_worker(service.worker, settings.score_interval_s)`` starts a ``BackgroundScheduler``
that calls ``Worker.drain`` at once and then every interval; a run still going when the next is
due is not doubled (``max_instances=1``, ``coalesce``). Stop it with ``scheduler.shutdown()``.
"""

from __future__ import annotations

import datetime as dt
import logging
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from apscheduler.schedulers.background import BackgroundScheduler

    from leaderboard.worker import Worker

log = logging.getLogger(__name__)
JOB_ID = "navitrace-worker"


def start_worker(worker: Worker, interval_s: float) -> BackgroundScheduler:
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
