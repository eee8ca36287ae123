"""Shared fixtures: a small synthetic NaviTrace dataset (private and public copies) and its keys."""

from __future__ import annotations

from pathlib import Path

import pytest

DEMO_SAMPLES = 6
DEMO_SIZE = (96, 72)


@pytest.fixture(scope="session")
def demo_dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from scoring.synthetic import write_demo_dataset

    return write_demo_dataset(tmp_path_factory.mktemp("demo") / "navitrace", samples=DEMO_SAMPLES, size=DEMO_SIZE)


@pytest.fixture(scope="session")
def demo_public(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from scoring.synthetic import write_demo_dataset

    folder = tmp_path_factory.mktemp("demo-public") / "navitrace"
    return write_demo_dataset(folder, samples=DEMO_SAMPLES, size=DEMO_SIZE, public=True)


@pytest.fixture(scope="session")
def key_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("navitrace-cache")


@pytest.fixture(scope="session")
def validation_key(demo_dataset: Path, key_cache: Path):
    from scoring import load_answer_key

    return load_answer_key(demo_dataset, "validation", key_cache)


@pytest.fixture(scope="session")
def test_key(demo_dataset: Path, key_cache: Path):
    from scoring import load_answer_key

    return load_answer_key(demo_dataset, "test", key_cache)
