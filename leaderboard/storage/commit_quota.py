"""The commit budget: how each Hub repository's hourly commit quota is shared out.

The Hub allows 128 commits per repository per hour (/work/shared/HUB-FACTS.md). Every acknowledgement
(a submission, a maintainer's action) is a commit that must land *now*; scoring can wait. So:

- a share of every quota (``INTAKE_SHARE``) is kept for acknowledgements: the worker does not start
  a batch that would eat into it. Scoring waits ("queued") rather than fails, and the pages say until
  when (``state``);
- the worker claims up to ``MAX_BATCH`` waiting jobs in one commit, writes their outcomes in one
  commit and publishes the table once per batch: about 3 commits per batch instead of 3 per job;
- nothing is written blind: batched claims and outcomes are compare-and-swap commits, as single ones
  are (``claim_batches``).

The count itself is the stores' (``Storage.commit_quota``: commits this machine made in the rolling
hour, and the Hub's own 429s); a store without a quota (a local folder) is never short.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from leaderboard.storage.base import Storage, clock_time
from leaderboard.storage.commit_log import QuotaState

INTAKE_SHARE = 0.25  # of each quota: 32 of the Hub's 128 an hour stay free for acknowledgements
# Jobs claimed together. More saves commits but delays the batch's first result until the batch ends
# (outcomes are written at each heartbeat and at the end); 8 small files score in well under a minute.
MAX_BATCH = 8
BATCH_COMMITS = {"requests": 2, "results": 1}  # a claim and the outcomes; one table update


class Level(StrEnum):
    OPEN = "open"  # scoring and submissions go on
    LOW = "low"  # submissions are stored; scoring waits until the window frees up
    FULL = "full"  # the Hub refuses commits: nothing can be stored until then


@dataclass(frozen=True)
class BudgetState:
    """What the pages say about the commit budget (no repository names, no Hub text)."""

    level: Level
    used: int  # commits to the requests repository in the rolling window
    commits: int  # its quota
    window_s: float
    resumes_at: float | None  # when scoring (LOW) or storing (FULL) goes on; None when OPEN
    message: str | None  # a line for people; None when OPEN

    def as_dict(self) -> dict:
        return {
            "level": self.level.value,
            "used": self.used,
            "commits": self.commits,
            "window_s": self.window_s,
            "resumes_at": self.resumes_at,
            "message": self.message,
        }


class CommitBudget:
    """Plans the worker's commits on ``requests`` and ``results`` so that acknowledgements always fit."""

    def __init__(
        self,
        requests: Storage,
        results: Storage,
        intake_share: float = INTAKE_SHARE,
        max_batch: int = MAX_BATCH,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if not 0 <= intake_share < 1 or max_batch < 1:
            raise ValueError(f"intake share {intake_share}, batch {max_batch}: expected 0 <= share < 1, batch >= 1")
        self.stores = {"requests": requests, "results": results}
        self.intake_share, self.max_batch, self.clock = intake_share, max_batch, clock

    def reserve(self, quota: QuotaState) -> int:
        """Commits of ``quota`` the worker leaves to acknowledgements."""
        return math.ceil(quota.commits * self.intake_share)

    def batch_size(self, waiting: int) -> int:
        """How many of ``waiting`` jobs to claim at once now: 0 when a batch would eat into the intake share."""
        quotas = self._quotas()
        if not quotas:  # local folders: one job at a time, as ever (nothing to save)
            return min(waiting, 1)
        if self.worker_resumes_at(quotas) is not None:
            return 0
        return min(waiting, self.max_batch)

    def worker_resumes_at(self, quotas: dict[str, QuotaState] | None = None) -> float | None:
        """When the next batch fits beside the intake share; ``None`` when it fits now."""
        quotas = self._quotas() if quotas is None else quotas
        now = self.clock()
        at = max((q.free_at(BATCH_COMMITS[k] + self.reserve(q), now) for k, q in quotas.items()), default=now)
        return at if at > now else None

    def state(self) -> BudgetState:
        """The budget as the pages show it."""
        quotas = self._quotas()
        requests = quotas.get("requests")
        if requests is None:
            return BudgetState(Level.OPEN, 0, 0, 0.0, None, None)
        now = self.clock()
        if requests.refused_until is not None or requests.left == 0:
            at = requests.free_at(1, now)
            message = (
                f"The Hub's hourly commit limit is reached: new submissions can be stored again after "
                f"{clock_time(at)}; submissions already acknowledged are safe and will be scored after that."
            )
            return BudgetState(Level.FULL, requests.used, requests.commits, requests.window_s, at, message)
        resumes = self.worker_resumes_at(quotas)
        if resumes is None:
            return BudgetState(Level.OPEN, requests.used, requests.commits, requests.window_s, None, None)
        message = (
            f"The Hub's hourly commit limit is nearly used up: submissions are still accepted and stored safely, "
            f"and they will be scored after {clock_time(resumes)}."
        )
        return BudgetState(Level.LOW, requests.used, requests.commits, requests.window_s, resumes, message)

    def _quotas(self) -> dict[str, QuotaState]:
        found = {name: store.commit_quota() for name, store in self.stores.items()}
        return {name: quota for name, quota in found.items() if quota is not None}
