"""Background processes (scoring, file checks, drawings) take only the CPU the pages leave.

A lower niceness is not enough on a 2-core machine: a niced process still holds a core for up to a
scheduler slice when the app's event loop wakes, and a page load wakes it dozens of times (each
request, each hop to a handler thread). Linux's ``SCHED_IDLE`` policy is made for this: such a
process runs only when no ordinary process wants the core, and gives it up at once when one wakes.
Any process may move itself there (no privilege needed, also in a Space's container). Where the
policy does not exist (macOS), the process is niced instead.
"""

from __future__ import annotations

import logging
import os

log = logging.getLogger(__name__)

NICENESS = 10  # the fallback, and a second signal for tools that only show niceness (top, ps)


def yield_to_pages() -> str:
    """Put the calling process below every ordinary one; returns how (``"SCHED_IDLE"`` or ``"nice N"``)."""
    try:
        os.nice(NICENESS)
    except OSError:
        pass
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))  # type: ignore[attr-defined]
        return "SCHED_IDLE"
    except (AttributeError, OSError) as error:  # not Linux, or a sandbox that forbids it: niced only
        log.info("SCHED_IDLE is not available (%s): running at niceness %d", error, NICENESS)
        return f"nice {NICENESS}"


def is_background(pid: int) -> bool:
    """Whether ``pid`` runs below the pages (``SCHED_IDLE``, or niced where that policy does not exist)."""
    try:
        return os.sched_getscheduler(pid) == os.SCHED_IDLE  # type: ignore[attr-defined]
    except AttributeError:
        return os.getpriority(os.PRIO_PROCESS, pid) >= NICENESS
