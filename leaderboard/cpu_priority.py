"""Background processes (scoring, file checks, drawings) run below the pages on the CPU.

They are niced (``NICENESS``): when the pages want both cores, the kernel gives a niced process about
a tenth of the CPU the app gets, so a job waits a little and a visitor does not.

Not Linux's ``SCHED_IDLE``, though it looks made for this (tried 2026-11-27): such a process runs
only when no ordinary one wants the core, and can wait indefinitely. The scoring process takes the
store's lock to commit an outcome (``leaderboard/storage/local.py``), and a page that reads the store
while a commit is being applied waits for that lock; a lock holder that may never run again is a
page that may never answer (priority inversion). A niced process always gets its share and finishes
its commit. ``SCHED_IDLE`` also made no difference the load test could measure.
"""

from __future__ import annotations

import os

NICENESS = 10


def yield_to_pages() -> str:
    """Nice the calling process (call it before starting threads: Linux nices a thread, and new threads
    inherit it); returns how, for the log."""
    try:
        os.nice(NICENESS)
    except OSError as error:  # a sandbox that forbids it: the pages share the CPU evenly with us
        return f"niceness unchanged ({error})"
    return f"niceness {NICENESS}"


def is_background(pid: int) -> bool:
    """Whether ``pid`` runs below the pages."""
    return os.getpriority(os.PRIO_PROCESS, pid) >= NICENESS
