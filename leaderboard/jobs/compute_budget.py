"""What one user may ask the worker to do: one file's size, and a day's compute (both splits).

Costs are in points (``Request.cost``, the points of a file's valid rows, from intake). Two bounds:

- one file may ask for at most ``max_job_points``: the longest a job holds the worker (the
  worker also lets other users' jobs through a long one, ``fairness.YIELD_EVERY_S``, but the
  file's own submitter waits for all of it, and so does a second big file);
- a user's submissions of the last 24 hours (validation ones too; failures of the server's own
  making do not count) may ask for at most ``daily_points`` together.
"""

from __future__ import annotations

from datetime import UTC, datetime

from leaderboard.config import Settings
from leaderboard.jobs.fairness import DAY_S, cost_of, duration_words
from leaderboard.records import QuotaExceeded, Rejected, iso
from leaderboard.storage import Entry


def check_job_cost(settings: Settings, cost: int, valid_rows: int) -> None:
    """``Rejected`` when one file asks for more scoring than any single file may."""
    limit = settings.max_job_points
    if cost > limit:
        per_row = limit // max(1, valid_rows)
        raise Rejected(
            f"the file asks for too much scoring: its {valid_rows:,} valid rows hold {cost:,} points together, and "
            f"one submission may hold at most {limit:,} (so that one file cannot hold the queue for long): expected "
            f"about {per_row:,} points a row or fewer (resample each trace to fewer points)"
        )


def counted(mine: list[Entry], now: float) -> list[Entry]:
    """The user's submissions that count against the daily compute budget now (oldest first)."""
    return [e for e in mine if now - e.created < DAY_S and e.job.failure != "server"]


def points_left(settings: Settings, mine: list[Entry], now: float) -> int:
    return max(0, settings.daily_points - sum(cost_of(e.request) for e in counted(mine, now)))


def check_daily_budget(settings: Settings, user: str, mine: list[Entry], now: float, cost: int) -> None:
    """``QuotaExceeded`` when ``cost`` more points would take ``user`` over the rolling 24-hour budget."""
    spent = counted(mine, now)
    left = points_left(settings, mine, now)
    if cost <= left:
        return
    freed, when = left, None
    for entry in spent:  # oldest first: each leaves the window 24 hours after it was submitted
        freed += cost_of(entry.request)
        if freed >= cost:
            when = entry.created + DAY_S
            break
    retry_at = iso(when) if when is not None else None
    clock = datetime.fromtimestamp(when, UTC).strftime("%H:%M UTC") if when is not None else ""
    free = f"; enough frees up in {duration_words(when - now)} (at {clock})" if when is not None else ""
    raise QuotaExceeded(
        f"daily compute limit reached: this file asks for {cost:,} points of scoring (the points of its valid rows) "
        f"and {user} has {left:,} of the {settings.daily_points:,} points a day left (validation and test together, "
        f"rolling 24 hours){free}",
        retry_at,
    )
