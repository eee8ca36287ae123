"""Fixtures of the service tests: stores of every backend (the service itself: ``tests/service_fixtures.py``).

Storage backends: ``STORE_OPENERS`` maps a backend name to ``opener(tmp_path) -> open()``,
where each ``open()`` returns a *new handle* on the same backing store (a restart).
``test_storage_contract.py`` runs against every entry; add a backend by adding an entry.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from leaderboard.storage import LocalStorage, Storage

Opener = Callable[[], Storage]


def _local(tmp_path: Path) -> Opener:
    return lambda: LocalStorage(tmp_path / "store")


# -- hub backend (HubStorage over the offline fake Hub, tests/leaderboard/fake_hub.py) --
def _hub(tmp_path: Path) -> Opener:
    from fake_hub import FakeClock, FakeHub

    from leaderboard.storage.hub import HubStorage

    clock = FakeClock()  # retries sleep on it: no test really waits
    hub = FakeHub(tmp_path / "hub", clock=clock.now)
    return lambda: HubStorage("navitrace/contract", api=hub.api(), clock=clock.now, sleep=clock.sleep)


# -- end hub backend --

STORE_OPENERS: dict[str, Callable[[Path], Opener]] = {"local": _local, "hub": _hub}


@pytest.fixture(params=sorted(STORE_OPENERS))
def open_store(request: pytest.FixtureRequest, tmp_path: Path) -> Opener:
    """``open()`` -> a new handle on one backing store of the parametrised backend."""
    return STORE_OPENERS[request.param](tmp_path)


@pytest.fixture
def store(open_store: Opener) -> Storage:
    return open_store()
