"""Background processes (scoring, file checks, drawings) take only the CPU the pages leave.

A lower niceness is not quite enough on a 2-core machine: Linux runs a ``SCHED_IDLE`` process only
when no ordinary one wants the core and preempts it as soon as one wakes, where a niced process
keeps the core until its slice ends (and a page load wakes the app dozens of times). Measured with
``benchmarks/load_test.py`` on 2026-11-27 (a noisy machine, so read the spread): a viewer's page p50
while the 20 files scored was 2.3x and 2.6x its idle value in two runs with scoring at niceness 10,
and between 0.6x and 2.5x (median of eight runs 1.7x) at ``SCHED_IDLE``: a tendency, not a proof.

It is not starvation: the kernel still gives an idle-class process a weight of 3 against an ordinary
one's 1,024, so it always progresses. That matters because the scoring process takes the store's
lock to commit an outcome (``leaderboard/storage/local.py``), and a page that reads the store while
that commit is applied waits for it: with both cores saturated by ordinary work, a commit of a few
milliseconds of CPU could stretch to a second or so. Board reads do not wait for it (``BoardCache``
serves the rows in hand while one request re-reads). Any process may move itself to this policy
without privileges (a Space's container included); where it does not exist (macOS) the process is
niced instead, and it is niced as well so that ``top`` and ``ps`` show it as background work.
"""

from __future__ import annotations

import os

NICENESS = 10


def yield_to_pages() -> str:
    """Put the calling process below every ordinary one; returns how, for the log. Call it before the
    process starts threads: Linux sets both per thread, and new threads inherit them."""
    try:
        os.nice(NICENESS)
    except OSError:
        pass
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))  # type: ignore[attr-defined]
    except (AttributeError, OSError) as error:  # not Linux, or a sandbox that forbids it: niced only
        return f"niceness {NICENESS} ({error})"
    return "SCHED_IDLE"


def is_background(pid: int) -> bool:
    """Whether ``pid`` runs below the pages (idle-class, or niced where that class does not exist)."""
    try:
        return os.sched_getscheduler(pid) == os.SCHED_IDLE  # type: ignore[attr-defined]
    except AttributeError:
        return os.getpriority(os.PRIO_PROCESS, pid) >= NICENESS
