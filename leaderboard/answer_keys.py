"""The two answer keys the service uses, and the synthetic default generated on first start.

- the *public* key (``PUBLIC_DATASET``): what users may see; intake validates files against it
  (its test split has no ground truth, which ``check_submission`` does not need);
- the *private* key (``ANSWER_KEY_DATASET``): holds the test ground truth; only the worker scores
  with it, and nothing read from it is shown except aggregates.

With neither variable set, both are generated once under ``LEADERBOARD_HOME/demo`` with
``scoring.synthetic.write_demo_dataset`` (the private copy, and the public copy with test
ground truth null).
"""

from __future__ import annotations

import logging
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import scoring
from leaderboard.config import DEMO_SAMPLES, DEMO_SIZE, Settings
from leaderboard.locks import process_lock
from scoring import AnswerKey, AnswerKeyError, load_answer_key

log = logging.getLogger(__name__)

DEMO_PRIVATE, DEMO_PUBLIC = "navitrace", "navitrace-public"
DEMO_SEED = 0
GENERATION_TIMEOUT_S = 900.0  # generous: a slow disk, a busy machine


def ensure_demo_datasets(
    folder: Path, locks: Path, samples: int = DEMO_SAMPLES, size: tuple[int, int] = DEMO_SIZE
) -> tuple[Path, Path]:
    """The synthetic ``(private, public)`` datasets under ``folder``, generated when missing.

    Both copies are written at once by two ``python -m scoring demo-data`` processes (the copies
    differ only in the test ground truth, and each takes seconds), each into a staging folder
    renamed into place, under a process lock: two processes starting together (the app and a
    worker) generate them once, and nobody ever sees half a dataset.
    """
    private, public = folder / DEMO_PRIVATE, folder / DEMO_PUBLIC
    if private.is_dir() and public.is_dir():
        return private, public
    with process_lock(locks, "demo-data", timeout=GENERATION_TIMEOUT_S):
        missing = [(target, target == public) for target in (private, public) if not target.is_dir()]
        if missing:
            log.info("first start: generating the synthetic datasets in %s (%d samples at %s)", folder, samples, size)
            _generate(missing, samples, size)
    return private, public


def _generate(targets: list[tuple[Path, bool]], samples: int, size: tuple[int, int]) -> None:
    folder = targets[0][0].parent.resolve()
    folder.mkdir(parents=True, exist_ok=True)
    for leftover in folder.glob(".navitrace*-*"):  # staging of a generation that was killed
        shutil.rmtree(leftover, ignore_errors=True)
    runs = []
    try:
        for target, public in targets:
            staging = Path(tempfile.mkdtemp(prefix=f".{target.name}-", dir=folder))
            runs.append((folder / target.name, staging, _start_demo_data(staging / target.name, samples, size, public)))
        for target, staging, process in runs:
            _, errors = process.communicate(timeout=GENERATION_TIMEOUT_S)
            if process.returncode != 0:
                last = (errors.strip().splitlines() or ["no message"])[-1]
                raise AnswerKeyError(f"generating the synthetic dataset {target} failed: {last}")
            (staging / target.name).rename(target)
    finally:
        for _, staging, process in runs:
            if process.poll() is None:
                process.kill()
            shutil.rmtree(staging, ignore_errors=True)


def _start_demo_data(out: Path, samples: int, size: tuple[int, int], public: bool) -> subprocess.Popen[str]:
    """``python -m scoring demo-data`` in a child process, run from where ``scoring`` is importable."""
    command = [sys.executable, "-m", "scoring", "demo-data", str(out), "--samples", str(samples)]
    command += ["--size", f"{size[0]}x{size[1]}", "--seed", str(DEMO_SEED)] + (["--public"] if public else [])
    where = Path(scoring.__file__).resolve().parents[1]
    return subprocess.Popen(command, cwd=where, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


class AnswerKeys:
    """Loads and keeps the answer keys for this process; ``refresh()`` forgets them (after a rescore)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._keys: dict[tuple[str, str], AnswerKey] = {}
        self._lock = threading.Lock()

    def datasets(self) -> tuple[str, str]:
        """``(private, public)`` dataset ids or folders."""
        s = self.settings
        if s.answer_key_dataset and s.public_dataset:
            return s.answer_key_dataset, s.public_dataset
        private, public = ensure_demo_datasets(s.demo_folder, s.locks_folder, s.demo_samples, s.demo_size)
        return str(private), str(public)

    def public(self, split: str) -> AnswerKey:
        return self._load("public", split)

    def private(self, split: str) -> AnswerKey:
        return self._load("private", split)

    def refresh(self) -> None:
        with self._lock:
            self._keys.clear()

    def _load(self, which: str, split: str) -> AnswerKey:
        with self._lock:  # one build at a time: building a key is heavy, and the cache is shared
            if (which, split) not in self._keys:
                private, public = self.datasets()
                dataset = private if which == "private" else public
                self._keys[(which, split)] = load_answer_key(
                    dataset, split, self.settings.cache_folder, token=self.settings.hf_token
                )
            return self._keys[(which, split)]
