"""The two answer keys the service uses, and the synthetic default generated on first start.

- the *public* key (``PUBLIC_DATASET``): what users may see; intake validates files against it
  (its test split has no ground truth, which ``check_submission`` does not need);
- the *private* key (``ANSWER_KEY_DATASET``): holds the test ground truth; only the worker scores
  with it, and nothing read from it is shown except aggregates.

With neither variable set, both are generated once under ``LEADERBOARD_HOME/demo`` with
``synthetic.write_demo_dataset`` (the private copy, and the public copy with test
ground truth null).

A Hub dataset is opened again, with backoff, when the Hub fails in passing (429, 5xx, a dropped
connection): one 500 on the dataset-info request must not refuse a submission. Its two steps,
resolving the split (card, info, file listing) and downloading its files, are retried apart: a
retry starts its own step over, so hiccups on the listing do not spend the download's tries (the
download does need them: ``hf_hub_download`` does not retry a connection the CDN drops). When a
step keeps failing, ``AnswerKeyUnavailable`` says so (the worker leaves its job queued).
"""

from __future__ import annotations

import logging
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import scoring
from leaderboard.config import DEMO_SAMPLES, DEMO_SIZE, Settings
from leaderboard.storage.locks import process_lock
from scoring import AnswerKey, AnswerKeyError
from scoring.answer_key import cached_answer_key
from scoring.answer_key_source import resolve_split

log = logging.getLogger(__name__)

DEMO_PRIVATE, DEMO_PUBLIC = "navitrace", "navitrace-public"
# Seed 26: of seeds 0-41 at 12 samples per split and 1440x1080, its straight-forward mean raw score
# (3253 on validation, 3300 on test) is closest to the real split's B = 3234.75, so the demo's scale
# resembles the real one. B itself is calibrated on its test split (config.DEMO_BASELINE_RAW).
DEMO_SEED = 26
GENERATION_TIMEOUT_S = 900.0  # generous: a slow disk, a busy machine
HUB_ATTEMPTS = 5  # tries of each step of opening a Hub dataset when the Hub fails in passing (waits ~1, 2, 4, 8 s)
T = TypeVar("T")


class AnswerKeyUnavailable(AnswerKeyError):
    """The dataset's Hub did not answer (429, 5xx, no connection) however often it was asked: try later."""


def ensure_demo_datasets(
    folder: Path, locks: Path, samples: int = DEMO_SAMPLES, size: tuple[int, int] = DEMO_SIZE
) -> tuple[Path, Path]:
    """The synthetic ``(private, public)`` datasets under ``folder``, generated when missing.

    The private copy is made by ``python -m synthetic demo-data`` in a child process (on worker
    processes of its own), and the public one derived from it (the copies differ only in the
    test ground truth; rendering twice would double the first start). Each is written to a
    staging folder renamed into place, under a process lock: two processes starting together
    (the app and a worker) generate them once, and nobody ever sees half a dataset.
    """
    private, public = folder / DEMO_PRIVATE, folder / DEMO_PUBLIC
    if private.is_dir() and public.is_dir():
        return private, public
    with process_lock(locks, "demo-data", timeout=GENERATION_TIMEOUT_S):
        if not (private.is_dir() and public.is_dir()):
            log.info("first start: generating the synthetic datasets in %s (%d samples at %s)", folder, samples, size)
            folder.mkdir(parents=True, exist_ok=True)
            for leftover in folder.glob(".navitrace*-*"):  # staging of a generation that was killed
                shutil.rmtree(leftover, ignore_errors=True)
        if not private.is_dir():
            _staged(private, lambda out: _generate(out, samples, size))
        if not public.is_dir():
            from synthetic.public_copy import write_public_copy  # deferred: pyarrow, datasets

            _staged(public, lambda out: write_public_copy(private, out, samples, size, DEMO_SEED))
    return private, public


def _staged(target: Path, write: Callable[[Path], object]) -> None:
    """``write(path)`` into a staging folder next to ``target``, then rename it into place."""
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}-", dir=target.parent))
    try:
        write(staging / target.name)
        (staging / target.name).rename(target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _generate(out: Path, samples: int, size: tuple[int, int]) -> None:
    process = _start_demo_data(out, samples, size, public=False)
    try:
        _, errors = process.communicate(timeout=GENERATION_TIMEOUT_S)
    finally:
        if process.poll() is None:
            process.kill()
    if process.returncode != 0:
        last = (errors.strip().splitlines() or ["no message"])[-1]
        raise AnswerKeyError(f"generating the synthetic dataset {out.name} failed: {last}")


def _start_demo_data(out: Path, samples: int, size: tuple[int, int], public: bool) -> subprocess.Popen[str]:
    """``python -m synthetic demo-data`` in a child process, run from where the packages are importable."""
    command = [sys.executable, "-m", "synthetic", "demo-data", str(out), "--samples", str(samples)]
    command += ["--size", f"{size[0]}x{size[1]}", "--seed", str(DEMO_SEED)] + (["--public"] if public else [])
    where = Path(scoring.__file__).resolve().parents[1]
    return subprocess.Popen(command, cwd=where, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


class AnswerKeys:
    """Loads and keeps the answer keys for this process; ``refresh()`` forgets them (after a rescore)."""

    def __init__(self, settings: Settings, sleep: Callable[[float], None] = time.sleep) -> None:
        self.settings = settings
        self._keys: dict[tuple[str, str], AnswerKey] = {}
        self._lock = threading.Lock()
        self._sleep = sleep

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
                self._keys[(which, split)] = self._load_retrying(dataset, split)
            return self._keys[(which, split)]

    def _load_retrying(self, dataset: str, split: str) -> AnswerKey:
        """``load_answer_key`` in its two steps, each tried again with backoff while the failure is the Hub's."""
        token = self.settings.hf_token
        files = self._retrying(dataset, lambda: resolve_split(dataset, split, token))
        return self._retrying(dataset, lambda: cached_answer_key(files, self.settings.cache_folder, token))

    def _retrying(self, dataset: str, step: Callable[[], T]) -> T:
        """``step()``, tried again with backoff while the failure is the Hub's, not the dataset's."""
        attempt = 1
        while True:
            try:
                return step()
            except Exception as error:  # datasets and the Hub client raise many types: sorted by cause
                if not _hub_hiccup(error):
                    raise
                if attempt >= HUB_ATTEMPTS:
                    raise AnswerKeyUnavailable(
                        f"the Hub did not answer for dataset {dataset!r} ({attempt} tries); please try again "
                        f"in a few minutes ({' '.join(str(error).split())})"
                    ) from error
                wait = 2 ** (attempt - 1) * random.uniform(0.5, 1.0)
                log.warning("opening %s failed in passing (%s); trying again in %.1f s", dataset, error, wait)
            self._sleep(wait)
            attempt += 1


def _hub_hiccup(error: BaseException) -> bool:
    """Whether a Hub failure worth trying again caused ``error`` (a local dataset never does)."""
    try:
        from leaderboard.storage.hub import is_transient  # needs huggingface_hub, as Hub datasets do
    except ImportError:
        return False
    return is_transient(error)
