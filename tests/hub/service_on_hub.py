"""The service deployed on a ``LocalHub`` as on the real one: its four repositories, settings and helpers.

- ``org/navitrace`` (private): the answer key, the synthetic dataset with the test ground truth;
- ``org/navitrace-public`` (public): the copy users may see;
- ``org/requests`` (private) and ``org/results`` (public): created by the service on first use.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from leaderboard.config import Settings
from leaderboard.service import Leaderboard
from leaderboard.storage.hub import HubStorage
from tests.hub.clock import FakeClock
from tests.hub.conftest import BOSS, BOSS_TOKEN
from tests.hub.server import LocalHub

ANSWER_KEY, PUBLIC, REQUESTS, RESULTS = "org/navitrace", "org/navitrace-public", "org/requests", "org/results"
UNLIMITED = {"TEST_SUBMISSIONS_PER_DAY": "1000000", "LEADERBOARD_QUEUED_PER_USER": "1000000"}  # for long runs


def seed_datasets(hub: LocalHub, private: Path, public: Path) -> None:
    hub.state.seed_folder(ANSWER_KEY, private, private=True)
    hub.state.seed_folder(PUBLIC, public, private=False)


def hub_environ(home: Path, **extra: str) -> dict[str, str]:
    """The Space's variables for Hub storage (docs/SERVICE.md), as a maintainer sets them."""
    return {
        "LEADERBOARD_HOME": str(home),
        "ANSWER_KEY_DATASET": ANSWER_KEY,
        "PUBLIC_DATASET": PUBLIC,
        "REQUESTS_REPO": REQUESTS,
        "RESULTS_REPO": RESULTS,
        "HF_TOKEN": BOSS_TOKEN,
        "MAINTAINERS": BOSS,
        **extra,
    }


def hub_settings(home: Path, key_cache: Path, **extra: str) -> Settings:
    return dataclasses.replace(Settings.from_env(hub_environ(home, **extra)), answer_key_cache=key_cache)


def service_on(settings: Settings, clock: FakeClock | None = None, timeout_s: float = 60.0) -> Leaderboard:
    """The service as ``Leaderboard(settings)`` builds it, but with its Hub retries on ``clock`` when given."""
    if clock is None:
        return Leaderboard(settings)

    def store(repo: str, private: bool) -> HubStorage:
        return HubStorage(repo, token=settings.hf_token, private=private, cache_dir=settings.home / repo,
                          clock=clock.now, sleep=clock.sleep, timeout_s=timeout_s)  # fmt: skip

    service = Leaderboard(settings, requests_store=store(REQUESTS, True), results_store=store(RESULTS, False))
    service.keys._sleep = clock.sleep  # the answer key's own retries, too
    return service
