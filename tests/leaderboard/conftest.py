"""Fixtures of the service tests: stores of every backend, settings on a fresh home, the service, files.

The datasets are the session's tiny synthetic ones (``tests/conftest.py``: 6 samples at 96x72);
answer-key caches are shared by every home of the session, so each test starts in milliseconds.

Storage backends: ``STORE_OPENERS`` maps a backend name to ``opener(tmp_path, request) -> open()``,
where each ``open()`` returns a *new handle* on the same backing store (a restart).
``test_storage_contract.py`` runs against every entry; add a backend by adding an entry.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path

import pytest

from leaderboard.config import Settings
from leaderboard.service import Leaderboard
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


class Clock:
    """A clock the test moves: starts now, ``advance(seconds)``."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


MAINTAINER = "boss"


@pytest.fixture(scope="session")
def service_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("service-key-cache")


@pytest.fixture
def environ(tmp_path: Path, demo_dataset: Path, demo_public: Path) -> dict[str, str]:
    """The environment of a fresh deployment on the session's synthetic datasets."""
    return {
        "LEADERBOARD_HOME": str(tmp_path / "home"),
        "ANSWER_KEY_DATASET": str(demo_dataset),
        "PUBLIC_DATASET": str(demo_public),
        "MAINTAINERS": f"{MAINTAINER}, Carol",
    }


@pytest.fixture
def settings(environ: dict[str, str], service_cache: Path) -> Settings:
    return dataclasses.replace(Settings.from_env(environ), answer_key_cache=service_cache)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def service(settings: Settings, clock: Clock) -> Leaderboard:
    return Leaderboard(settings, clock=clock)


@pytest.fixture(scope="session")
def files(tmp_path_factory: pytest.TempPathFactory, test_key, validation_key) -> dict[str, Path]:
    """Submission files: ``{split}-{kind}`` for kinds perfect, noisy, straight, and ``test-noisy{seed}``."""
    from scoring.examples import write_example

    folder = tmp_path_factory.mktemp("submissions")
    made = {}
    for split, key in (("test", test_key), ("validation", validation_key)):
        for kind in ("perfect", "noisy", "straight"):
            made[f"{split}-{kind}"] = folder / f"{split}-{kind}.tsv"
            write_example(key, kind, made[f"{split}-{kind}"])
    for seed in range(1, 8):
        made[f"test-noisy{seed}"] = folder / f"test-noisy{seed}.tsv"
        write_example(test_key, "noisy", made[f"test-noisy{seed}"], seed=seed)
    return made


def submit(service: Leaderboard, path: Path, user: str = "alice", split: str = "test", **kwargs: object):
    """Submit with small valid metadata (``model`` and more may be overridden)."""
    metadata = {"model": kwargs.pop("model", "Model"), "contact_email": "alice@example.org"}
    metadata.update(kwargs.pop("metadata", {}))  # type: ignore[arg-type]
    return service.submit(path, split=split, user=user, metadata=metadata, **kwargs)  # type: ignore[arg-type]
