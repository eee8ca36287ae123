"""Where work runs: the worker process, the scheduler, pages first, CPU priority."""

from __future__ import annotations

from typing import TYPE_CHECKING

from leaderboard.runtime.cpu_priority import yield_to_pages
from leaderboard.runtime.health import Health, Problem, Status, stamp
from leaderboard.runtime.health_monitor import ErrorNote, HealthMonitor
from leaderboard.runtime.pages_first import PAGES_BUSY_ENV, Gauge
from leaderboard.runtime.scheduler import Wakeup, start_hub_jobs, start_worker

if TYPE_CHECKING:
    from leaderboard.runtime.worker_process import WorkerProcess

__all__ = [
    "ErrorNote",
    "Gauge",
    "Health",
    "HealthMonitor",
    "PAGES_BUSY_ENV",
    "Problem",
    "Status",
    "Wakeup",
    "WorkerProcess",
    "stamp",
    "start_hub_jobs",
    "start_worker",
    "yield_to_pages",
]


def __getattr__(name: str) -> object:
    """``WorkerProcess`` on first use: the child runs that module as ``__main__``, which must not be imported before."""
    if name == "WorkerProcess":
        from leaderboard.runtime.worker_process import WorkerProcess

        return WorkerProcess
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
