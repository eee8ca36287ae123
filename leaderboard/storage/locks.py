"""Named locks shared by the processes on one machine (the app, a standalone worker, the CLI).

``filelock`` locks are released by the kernel when their holder dies, so a SIGKILLed process
never leaves one behind. They serialise read-modify-write sequences of the service (intake's
quota check and commit, one worker at a time); the stores' own atomicity is the stores' job.

A lock not acquired in time raises ``Busy``: a ``filelock.Timeout`` (what callers that try once
catch) and a ``LeaderboardError`` whose message is for people, so parallel maintainer actions
behind a slow store end with a sentence, not a traceback.
"""

from __future__ import annotations

from pathlib import Path

from filelock import FileLock, Timeout

from leaderboard.records import LeaderboardError

DEFAULT_TIMEOUT_S = 60.0
# What each lock guards, as people would say it.
_WHAT = {"intake": "submission", "moderation": "maintainer action", "worker": "scoring round"}


class Busy(LeaderboardError, Timeout):
    """Another process held the lock for longer than the timeout; nothing was done."""

    def __init__(self, lock_file: str, name: str, timeout: float) -> None:
        Timeout.__init__(self, lock_file)
        self.name, self.timeout = name, timeout
        self.message = (
            f"the server is busy with another {_WHAT.get(name, name)} (waited {timeout:g} s); "
            "nothing was changed, please try again in a minute"
        )
        self.args = (self.message,)

    def __str__(self) -> str:
        return self.message

    def __reduce__(self) -> tuple:  # type: ignore[override]  # Timeout's passes the lock file only
        return Busy, (self.lock_file, self.name, self.timeout)


class NamedLock:
    """A ``FileLock`` whose timeout is a ``Busy`` error (use as a context manager, or acquire/release)."""

    def __init__(self, path: Path, name: str, timeout: float) -> None:
        self.name, self.timeout = name, timeout
        self.lock = FileLock(str(path), timeout=timeout)

    def acquire(self) -> None:
        try:
            self.lock.acquire()
        except Timeout as error:
            raise Busy(self.lock.lock_file, self.name, self.timeout) from error

    def release(self) -> None:
        self.lock.release()

    def __enter__(self) -> NamedLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def process_lock(folder: Path, name: str, timeout: float | None = None) -> NamedLock:
    """The lock ``{folder}/{name}.lock``; use as a context manager (``timeout=0``: try once; ``None``: the default)."""
    folder.mkdir(parents=True, exist_ok=True)
    return NamedLock(folder / f"{name}.lock", name, DEFAULT_TIMEOUT_S if timeout is None else timeout)
