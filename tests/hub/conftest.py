"""Fixtures of the HTTP-level Hub tests: a ``LocalHub`` per test, the clients pointed at it, tokens.

Users: ``boss`` (a maintainer; token ``BOSS_TOKEN``, member of the ``org`` organisation, which owns
every repository here) and ``mallory`` (a valid token, no membership). A stranger sends no token.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.hub.clients import point_clients_at
from tests.hub.server import LocalHub

ORG = "org"
BOSS, BOSS_TOKEN = "boss", "hf_boss_token_0123456789"
MALLORY, MALLORY_TOKEN = "mallory", "hf_mallory_token_0123456789"


@pytest.fixture
def start_hub(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., LocalHub]]:
    """``start_hub(**options)``: a fresh local Hub (``LocalHub`` options), this process's clients pointed at it."""
    with ExitStack() as stack:

        def start(**options: object) -> LocalHub:
            local = stack.enter_context(LocalHub.start(**options))  # type: ignore[arg-type]
            local.add_user(BOSS, BOSS_TOKEN, orgs=(ORG,))
            local.add_user(MALLORY, MALLORY_TOKEN)
            point_clients_at(local, monkeypatch, tmp_path / "client")
            return local

        yield start


@pytest.fixture
def hub(start_hub: Callable[..., LocalHub]) -> LocalHub:
    """A fresh local Hub, with this process's clients pointed at it."""
    return start_hub()


@pytest.fixture(autouse=True)
def default_client_timeout() -> Iterator[None]:
    """A test may shorten the Hub client's timeout (``HubStorage(timeout_s=...)``): put the default back after."""
    yield
    from leaderboard.storage.hub_calls import bound_client_timeouts

    bound_client_timeouts(60.0)


@pytest.fixture
def client_sleeps(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The client's own backoff sleeps (``http_backoff``), recorded instead of waited for."""
    from huggingface_hub.utils import _http

    slept: list[float] = []
    shim = SimpleNamespace(**{name: getattr(time, name) for name in dir(time) if not name.startswith("_")})
    shim.sleep = slept.append
    monkeypatch.setattr(_http, "time", shim)
    return slept
