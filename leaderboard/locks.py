"""Named locks shared by the processes on one machine (the app, a standalone worker, the CLI).

``filelock`` locks are released by the kernel when their holder dies, so a SIGKILLed process
never leaves one behind. They serialise read-modify-write sequences of the service (intake's
quota check and commit, one worker at a time); the stores' own atomicity is the stores' job.
"""

from __future__ import annotations

from pathlib import Path

from filelock import FileLock

DEFAULT_TIMEOUT_S = 60.0


def process_lock(folder: Path, name: str, timeout: float = DEFAULT_TIMEOUT_S) -> FileLock:
    """The lock ``{folder}/{name}.lock``; use as a context manager (``timeout=0``: try once)."""
    folder.mkdir(parents=True, exist_ok=True)
    return FileLock(str(folder / f"{name}.lock"), timeout=timeout)
