"""Submissions as jobs: intake, the fair queue, compute budgets, claims and the worker."""

from __future__ import annotations

from leaderboard.jobs.claims import read_job
from leaderboard.jobs.fairness import JOB_OVERHEAD_S, QueuePosition, cost_of, position, seconds_per_point
from leaderboard.jobs.intake import (
    REQUIRED_DECLARATIONS,
    Intake,
    Quota,
    Receipt,
    check_user,
    checked_upload,
    when_words,
)
from leaderboard.jobs.queue import process_exists
from leaderboard.jobs.worker import Worker

__all__ = [
    "Intake",
    "JOB_OVERHEAD_S",
    "QueuePosition",
    "Quota",
    "REQUIRED_DECLARATIONS",
    "Receipt",
    "Worker",
    "check_user",
    "checked_upload",
    "cost_of",
    "position",
    "process_exists",
    "read_job",
    "seconds_per_point",
    "when_words",
]
