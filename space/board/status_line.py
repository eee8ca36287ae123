"""The board's one line on scoring: "Scoring: 3 waiting, about 40 s · last result 12 min ago".

The board's body is drawn once per results version (``space/board/drawn.py``) with ``SLOT`` beside its "Last
updated"; the route puts this line there per request (``fill``), from the health in memory
(``leaderboard/runtime/health.py``): a string replacement, so the line is as fresh as the facts (``REFRESH_S``) while
the drawing is kept. When scoring does not run it says so plainly, and that nothing is lost.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from leaderboard.runtime import Health, Problem
from leaderboard.storage import clock_time
from space.site.html import esc

if TYPE_CHECKING:
    from leaderboard.runtime import HealthMonitor

SLOT = "<!--nt-scoring-status-->"  # where the line goes in the board's drawn body
ELEMENT_ID = "scoring-status"
PAUSED = "Scoring is paused: submissions are queued and kept"


def fill(body: str, monitor: HealthMonitor | None) -> str:
    """``body`` with the line in its slot. Never waits for a store: before the first facts are read (a process
    without the scheduler) the slot is emptied and the reading starts aside."""
    if SLOT not in body:
        return body
    if monitor is not None and not monitor.ready():
        monitor.read_aside()
    said = html(monitor.health()) if monitor is not None and monitor.ready() else ""
    return body.replace(SLOT, said, 1)


def html(health: Health) -> str:
    marked = " nt-status-problem" if health.problems else ""
    return f' <span class="nt-status{marked}" id="{ELEMENT_ID}">{esc(line(health))}</span>'


def line(health: Health) -> str:
    """The line for people (no figure of anybody's submission, only counts and times)."""
    problems, waiting = set(health.problems), _waiting(health)
    if health.paused:
        return f"{PAUSED}{f' ({waiting})' if waiting else ''}."
    if Problem.HUB_UNREACHABLE in problems:
        return "Scoring waits: the Hub cannot be reached just now. Submissions already received are kept."
    if Problem.BUDGET_FULL in problems and health.budget.resumes_at is not None:
        when = clock_time(health.budget.resumes_at)
        return f"The Hub's hourly commit limit is reached: new submissions can be stored again after {when}."
    if Problem.BUDGET_LOW in problems and health.budget.resumes_at is not None:
        when = clock_time(health.budget.resumes_at)
        return f"Scoring resumes after {when} (the Hub's hourly commit limit): submissions are queued and kept."
    parts = [waiting or "nothing waiting"]
    if health.waiting and health.estimated_wait_s is not None:
        parts[0] += f", about {short_duration(health.estimated_wait_s)}"
    last = health.age(health.last_result)
    parts.append("no result yet" if last is None else f"last result {short_duration(last)} ago")
    return "Scoring: " + " · ".join(parts) + "."


def _waiting(health: Health) -> str:
    said = []
    if health.being_scored:
        said.append(f"{health.being_scored} being scored")
    if health.waiting:
        said.append(f"{health.waiting} waiting")
    return ", ".join(said)


def short_duration(seconds: float) -> str:
    """``8 s``, ``40 s``, ``12 min``, ``3 h``, ``2 days``: what a glance needs.

    >>> [short_duration(s) for s in (3.4, 42, 730, 3 * 3600 + 900, 2e5)]
    ['3 s', '40 s', '12 min', '3 h', '2 days']
    """
    seconds = max(0.0, seconds)
    if seconds < 10:
        return f"{max(1, round(seconds))} s"
    if seconds < 60:
        return f"{min(55, round(seconds / 5) * 5)} s"
    if seconds < 3600:
        return f"{round(seconds / 60)} min"
    if seconds < 48 * 3600:
        return f"{round(seconds / 3600)} h"
    return f"{round(seconds / 86400)} days"
