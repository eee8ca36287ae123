"""Driving the worker from the app: an APScheduler background job.

``start_worker(worker, settings.score_interval_s)`` starts a ``BackgroundScheduler`` that calls
``worker.drain`` at once and then every interval. In the app ``worker`` is a
``leaderboard.runtime.worker_process.WorkerProcess``, whose ``drain`` asks the scoring process for a round
and returns at once; a ``Worker`` itself works too (it then scores in the scheduler's thread).
A run still going when the next is due is not doubled (``max_instances=1``, ``coalesce``).
Stop it with ``scheduler.shutdown()``.
``start_hub_jobs(scheduler, service)`` adds, when ``HUB_BENCHMARK_DATASET`` is set, the two jobs of
results that travel to the Hub: the eval-results pull requests (``hub_eval_prs``, every
``HUB_PR_INTERVAL_S``) and the copy of the benchmark's leaderboard on the Hub (``hub_eval_board``,
every ``HUB_REFRESH_S``). Both start at once and run in the scheduler's thread, never in a page request.
``Wakeup`` lets a request (a new submission, a rescore) start a round now rather than at the
next interval, so a submitter does not wait up to ``SCORE_INTERVAL_S`` for scoring to begin.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from apscheduler.schedulers.background import BackgroundScheduler

    from leaderboard.service import Leaderboard


class Drains(Protocol):
    def drain(self) -> int: ...


log = logging.getLogger(__name__)
JOB_ID = "navitrace-worker"
HUB_PR_JOB_ID, HUB_BOARD_JOB_ID = "navitrace-hub-pull-requests", "navitrace-hub-leaderboard"


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


def start_hub_jobs(scheduler: BackgroundScheduler, service: Leaderboard) -> bool:
    """Schedule the Hub jobs on a started ``scheduler``; False (nothing scheduled) without ``HUB_BENCHMARK_DATASET``."""
    settings = service.settings
    if not settings.hub_benchmark_dataset:
        return False
    from leaderboard.publishing import HubBoard, PullRequests
    from leaderboard.publishing.hub_eval_client import HubEvalClient  # the Hub client: imported only when it is used

    client = HubEvalClient(settings.hf_token)
    pull_requests = PullRequests(settings, service.registry, service.publisher, client)
    board = HubBoard(settings, service.registry.store, service.publisher, client)
    now = dt.datetime.now(dt.UTC)
    for job_id, job, interval_s in (
        (HUB_PR_JOB_ID, pull_requests.round, settings.hub_pr_interval_s),
        (HUB_BOARD_JOB_ID, board.refresh, settings.hub_refresh_s),
    ):
        scheduler.add_job(_logged(job_id, job), "interval", seconds=interval_s, id=job_id, max_instances=1,
                          coalesce=True, next_run_time=now)  # fmt: skip
    log.info("Hub jobs scheduled: pull requests every %s s, the Hub's leaderboard every %s s",
             settings.hub_pr_interval_s, settings.hub_refresh_s)  # fmt: skip
    return True


def _logged(job_id: str, job: Callable[[], object]) -> Callable[[], None]:
    """A failed run (a store error, a full commit budget) is logged and the job runs again at its next time."""

    def run() -> None:
        try:
            job()
        except Exception:  # noqa: BLE001  # the job must survive to its next run; the traceback is logged
            log.exception("%s failed; it runs again at its next interval", job_id)

    return run
