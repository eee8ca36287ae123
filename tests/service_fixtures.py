"""The service on a fresh deployment, for every test that needs one (registered in ``tests/conftest.py``).

The datasets are the session's tiny synthetic ones (``tests/conftest.py``: 6 samples at 96x72);
answer-key caches are shared by every home of the session, so each test starts in milliseconds.
``submit`` and ``MAINTAINER`` are imported by the tests that use them.
"""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path

import pytest

from leaderboard.config import Settings
from leaderboard.service import Leaderboard
from leaderboard.statistics.disclosure import disclosed_summary


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


DECLARED = {"trained_on": "none", "test_images_beyond_inference": "no", "best_of": 1}


def submit(service: Leaderboard, path: Path, user: str = "alice", split: str = "test", **kwargs: object):
    """Submit with small valid metadata (``model`` and more may be overridden)."""
    metadata = {"model": kwargs.pop("model", "Model"), "contact_email": "alice@example.org"}
    metadata.update(kwargs.pop("metadata", {}))  # type: ignore[arg-type]
    if split == "test" and kwargs.get("publish") and "declarations" not in kwargs:
        kwargs["declarations"] = DECLARED  # required of a public test entry; tests of declarations pass their own
    return service.submit(path, split=split, user=user, metadata=metadata, **kwargs)  # type: ignore[arg-type]


def kept_summary(evaluation, split: str = "test", settings: Settings | None = None):
    """The summary the service keeps of ``evaluation``: the scorer's numbers, with a test result's
    figures over fewer than ``min_rows_per_figure`` valid rows withheld (leaderboard/statistics/disclosure.py)."""
    return disclosed_summary(evaluation, split, (settings or Settings()).min_rows_per_figure)
