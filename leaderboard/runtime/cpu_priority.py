"""Background processes (scoring, file checks, drawings) take only the CPU the pages leave.

A lower niceness is not quite enough on a 2-core machine: Linux runs a ``SCHED_IDLE`` process only
when no ordinary one wants the core and preempts it as soon as one wakes, where a niced process
keeps the core until its slice ends (and a page load wakes the app dozens of times). In
``benchmarks/load_test.py`` the page fared somewhat better while files were scored at ``SCHED_IDLE``
than at niceness 10: a tendency within the noise of a shared machine, not a proof
(``benchmarks/JOURNAL.md``).

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
    """Put every thread of the calling process below every ordinary one; returns how, for the log.

    Linux sets both the niceness and the policy per thread, and a new thread inherits its creator's. So
    every thread alive now is moved, not only the caller: importing numpy starts OpenBLAS's threads and
    pyarrow starts jemalloc's, before any code of ours runs. Moving only the calling thread left three
    of the scoring process's threads ordinary (as ``/proc/<pid>/task/*/stat`` showed), and
    whatever scoring ran on them competed with the pages on equal terms."""
    how = "SCHED_IDLE"
    for thread in _threads():
        try:
            os.setpriority(os.PRIO_PROCESS, thread, NICENESS)
        except OSError:
            pass
        try:
            os.sched_setscheduler(thread, os.SCHED_IDLE, os.sched_param(0))  # type: ignore[attr-defined]
        except (AttributeError, OSError) as error:  # not Linux, or a sandbox that forbids it: niced only
            how = f"niceness {NICENESS} ({error})"
    return how


def _threads() -> list[int]:
    """The ids of this process's threads; where ``/proc`` does not list them, [0] (the process itself)."""
    try:
        return _thread_ids("self")
    except OSError:
        return [0]


def _thread_ids(pid: int | str) -> list[int]:
    """The ids of process ``pid``'s threads (Linux: ``/proc/<pid>/task``); ``OSError`` elsewhere or once gone."""
    return [int(name) for name in os.listdir(f"/proc/{pid}/task")]


def is_background(pid: int) -> bool:
    """Whether ``pid`` (a process, or one thread's id) runs below the pages (idle-class, or niced where that
    class does not exist)."""
    try:
        return os.sched_getscheduler(pid) == os.SCHED_IDLE  # type: ignore[attr-defined]
    except AttributeError:
        return os.getpriority(os.PRIO_PROCESS, pid) >= NICENESS


def threads_in_front(pid: int) -> list[int]:
    """The threads of process ``pid`` that still run as ordinary work (Linux; [] elsewhere): none should."""
    try:
        threads = _thread_ids(pid)
    except OSError:
        return []
    return [thread for thread in threads if not is_background(thread)]
