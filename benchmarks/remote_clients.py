"""A benchmark's own clients (uploaders, attackers) stand for people on other machines.

On a real Space the people who upload, or attack, do it from their own computers; here they are
threads of the benchmark on the app's 2 cores. ``gradio_client`` is not light: 20 uploaders took
a third of a core (as ``/proc`` showed), CPU the app would have to itself in
production. After the app and the viewers' process are started, ``as_other_machines()`` moves every
thread of this process (and all it starts meanwhile) to Linux's ``SCHED_IDLE``: the clients still do
all their work, over the same loopback HTTP, but only on CPU that the app and the viewers (the
measurement) leave; they share it with the app's scoring and checking processes, idle-class too
(``leaderboard.runtime.cpu_priority``).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

POLICY = "SCHED_IDLE"


@contextlib.contextmanager
def as_other_machines() -> Iterator[str]:
    """Every thread of this process at ``SCHED_IDLE`` inside the block (threads started meanwhile inherit
    it); yields what the report prints about it. On leaving, every thread goes back to ``SCHED_OTHER``:
    a test that runs a benchmark must not leave the rest of the test session at idle priority."""
    try:
        _every_thread(os.SCHED_IDLE)  # type: ignore[attr-defined]
    except (AttributeError, OSError) as error:  # not Linux: the clients compete with the app, as before
        yield f"the benchmark's clients competed with the app for the CPU ({error})"
        return
    try:
        yield f"the benchmark's clients ran at {POLICY} (they stand for other machines)"
    finally:
        _every_thread(os.SCHED_OTHER)  # type: ignore[attr-defined]


def _every_thread(policy: int) -> None:
    for task in Path("/proc/self/task").iterdir():
        try:
            os.sched_setscheduler(int(task.name), policy, os.sched_param(0))  # type: ignore[attr-defined]
        except ProcessLookupError:  # the thread ended meanwhile
            pass
