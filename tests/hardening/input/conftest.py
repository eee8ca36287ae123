"""Fixtures of the bad-input tests: the service on the session's synthetic datasets, and the CLI as a call.

The datasets and answer keys are ``tests/conftest.py``'s (6 samples at 96x72, private and public
copies); the service here is the one intake uses, with its own fresh home.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
from collections.abc import Callable
from pathlib import Path

import pytest

from leaderboard.config import Settings
from leaderboard.service import Leaderboard
from scoring.cli import main as scoring_main


@pytest.fixture(scope="session")
def input_service(
    tmp_path_factory: pytest.TempPathFactory, demo_dataset: Path, demo_public: Path, key_cache: Path
) -> Leaderboard:
    home = tmp_path_factory.mktemp("input-service")
    environ = {
        "LEADERBOARD_HOME": str(home / "home"),
        "ANSWER_KEY_DATASET": str(demo_dataset),
        "PUBLIC_DATASET": str(demo_public),
        "MAINTAINERS": "boss",
    }
    settings = dataclasses.replace(Settings.from_env(environ), answer_key_cache=key_cache)
    return Leaderboard(settings)


@dataclasses.dataclass(frozen=True)
class CliRun:
    code: int
    out: str
    err: str


@pytest.fixture(scope="session")
def run_cli(demo_dataset: Path, key_cache: Path) -> Callable[..., CliRun]:
    """``run_cli(path, *extra)``: ``python -m scoring score path --dataset ... --split validation``, in process."""

    def run(path: Path, *extra: str, split: str = "validation") -> CliRun:
        out, err = io.StringIO(), io.StringIO()
        argv = ["score", str(path), "--dataset", str(demo_dataset), "--split", split, *extra]
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = scoring_main(argv, environ={"NAVITRACE_CACHE": str(key_cache)})
        return CliRun(code, out.getvalue(), err.getvalue())

    return run
