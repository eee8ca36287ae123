"""The service on a ``LocalHub`` that enforces the commit quota, its stores told the same (scaled) quota.

A Space's stores count against the Hub's 128 commits per hour; a test or a benchmark scales the
hour down (``CommitQuota(commits, window_s)``) and sets the emulator to the same figures
(``LocalHub.set_quota``), so that a run of seconds crosses the limit as a deadline hour would.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from leaderboard.service import Leaderboard
from leaderboard.storage.commit_log import CommitQuota
from leaderboard.storage.hub import HubStorage
from tests.hub.conftest import BOSS_TOKEN
from tests.hub.server import LocalHub
from tests.hub.service_on_hub import REQUESTS, RESULTS, UNLIMITED, hub_settings


def quota_store(
    home: Path, repo: str, quota: CommitQuota, private: bool = True, clock: Callable[[], float] = time.time
) -> HubStorage:
    """A Hub store as ``open_store`` makes it (its commit log beside its cache), with ``quota``."""
    cache = home / repo.replace("/", "--")
    return HubStorage(repo, token=BOSS_TOKEN, private=private, cache_dir=cache, quota=quota, wall_clock=clock,
                      commit_log=cache.with_name(cache.name + "-commits.json"), head_ttl_s=2.0)  # fmt: skip


def quota_service(
    hub: LocalHub, home: Path, key_cache: Path, quota: CommitQuota, clock: Callable[[], float] | None = None
) -> Leaderboard:
    """The service, with the emulator and both stores on ``quota``; no per-user limits (many submissions).

    ``clock``: the quota's time (the emulator's window, the stores' count, the budget's plan), for a
    test that moves the hour on by hand; real time otherwise.
    """
    hub.set_quota(quota.commits, quota.window_s)
    if clock is not None:
        hub.state.clock = clock
    now = clock or time.time
    settings = hub_settings(home, key_cache, **UNLIMITED)
    requests = quota_store(home, REQUESTS, quota, clock=now)
    results = quota_store(home, RESULTS, quota, private=False, clock=now)
    service = Leaderboard(settings, requests_store=requests, results_store=results)
    service.worker.budget.clock = now
    return service


def commits_in(hub: LocalHub, repo: str, since: int = 0) -> list[str]:
    """The messages of ``repo``'s commits after its first ``since`` (its history as the Hub keeps it)."""
    return [c.message for c in hub.history(repo)[since:]]
