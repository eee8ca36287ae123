"""Fixtures of the service tests: stores of every backend (the service itself: ``tests/service_fixtures.py``).

Storage backends: ``STORE_OPENERS`` maps a backend name to ``opener(tmp_path, request) -> open()``,
where each ``open()`` returns a *new handle* on the same backing store (a restart).
``test_storage_contract.py`` runs against every entry; add a backend by adding an entry.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path

import pytest

from leaderboard.storage import LocalStorage, Storage

Opener = Callable[[], Storage]


def _local(tmp_path: Path, request: pytest.FixtureRequest) -> Opener:
    return lambda: LocalStorage(tmp_path / "store")


# -- hub backend (HubStorage over HTTP on the local Hub of tests/hub, real client) --
def _hub(tmp_path: Path, request: pytest.FixtureRequest) -> Opener:
    from leaderboard.storage.hub import HubStorage
    from tests.hub.clients import point_clients_at
    from tests.hub.server import LocalHub

    stack = ExitStack()
    request.addfinalizer(stack.close)
    hub = stack.enter_context(LocalHub.start())
    hub.add_user("contract", "hf_contract_token", orgs=("navitrace",))
    point_clients_at(hub, request.getfixturevalue("monkeypatch"), tmp_path / "client")
    return lambda: HubStorage("navitrace/contract", token="hf_contract_token")


# -- end hub backend --

STORE_OPENERS: dict[str, Callable[[Path, pytest.FixtureRequest], Opener]] = {"local": _local, "hub": _hub}


@pytest.fixture(params=sorted(STORE_OPENERS))
def open_store(request: pytest.FixtureRequest, tmp_path: Path) -> Opener:
    """``open()`` -> a new handle on one backing store of the parametrised backend."""
    return STORE_OPENERS[request.param](tmp_path, request)


@pytest.fixture
def store(open_store: Opener) -> Storage:
    return open_store()
