"""SIGKILL the worker process at random moments while submissions arrive and are scored.

Each trial starts ``python -m leaderboard work`` on one shared home, submits two new files (and
approves earlier ones) from this process while it runs, kills it, and checks that nothing
acknowledged is lost and nothing is recorded twice. Even trials kill after a random delay
(mostly start-up and idle time); odd trials wait until a job is RUNNING and kill within the next
30 ms, because scoring a tiny test file takes only tens of milliseconds and random delays would
rarely land inside a job. A last, unkilled ``work --once``
must then finish every submission exactly once, with the scorer's own numbers.

The fast suite runs ``LEADERBOARD_CRASH_TRIALS`` trials (default 12). The long version::

    LEADERBOARD_CRASH_TRIALS=200 .venv/bin/python -m pytest tests/leaderboard/test_crash.py -s

``LEADERBOARD_CRASH_SEED`` replays a run (the seed is printed, and named in every failure).
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import pytest

from leaderboard.config import Settings
from leaderboard.records.entries import FAILED, FINISHED, RUNNING, rows_path, summary_path, upload_path
from leaderboard.service import Leaderboard
from leaderboard.storage import audit
from scoring import score_submission
from scoring.examples import write_example
from tests.service_fixtures import MAINTAINER, kept_summary, submit

ROOT = Path(__file__).resolve().parents[2]
TRIALS = int(os.environ.get("LEADERBOARD_CRASH_TRIALS", "12"))
SEED = int(os.environ.get("LEADERBOARD_CRASH_SEED", str(time.time_ns() % 1_000_000)))


@pytest.fixture
def crash_environ(environ: dict[str, str]) -> dict[str, str]:
    # Quota and attempts out of the way: here every kill is the test's, never a poison job.
    return {
        **environ,
        "TEST_SUBMISSIONS_PER_DAY": "100000",
        "LEADERBOARD_MAX_ATTEMPTS": "100000",
        "LEADERBOARD_QUEUED_PER_USER": "100000",
        "SCORE_INTERVAL_S": "0.1",
    }


def _submission_files(folder: Path, keys: dict, count: int) -> list[tuple[Path, str]]:
    """``count`` distinct files (different noise), alternating test and validation."""
    made = []
    for n in range(count):
        split = "test" if n % 3 else "validation"
        path = folder / f"{split}-{n}.tsv"
        write_example(keys[split], "noisy", path, seed=1000 + n)
        made.append((path, split))
    return made


@pytest.mark.slow
def test_sigkill_at_random_moments_loses_and_doubles_nothing(crash_environ, tmp_path, test_key, validation_key):
    rng = random.Random(SEED)
    print(f"\ncrash test: {TRIALS} trials, seed {SEED}")
    settings = Settings.from_env(crash_environ)
    service = Leaderboard(settings)
    pool = _submission_files(tmp_path / "files", {"test": test_key, "validation": validation_key}, 2 * TRIALS)
    acknowledged: dict[str, tuple[Path, str]] = {}
    interrupted = targeted = 0
    for trial in range(TRIALS):
        worker = _start_worker(crash_environ, tmp_path / f"worker-{trial}.log")
        arrivals = threading.Thread(target=_arrive, args=(service, pool[2 * trial : 2 * trial + 2], acknowledged, rng))
        arrivals.start()
        if trial % 2:
            targeted += _wait_for_a_running_job(service, acknowledged, deadline=time.monotonic() + 5)
            time.sleep(rng.uniform(0.0, 0.03))
        else:
            time.sleep(rng.uniform(0.1, 2.2))
        worker.send_signal(signal.SIGKILL)
        worker.wait()
        arrivals.join()
        interrupted += _check_nothing_lost_or_doubled(service, acknowledged, f"seed {SEED}, trial {trial}")

    final = subprocess.run(_worker_command("--once"), env=_env(crash_environ), cwd=ROOT, capture_output=True, text=True)
    assert final.returncode == 0, final.stderr[-2000:]
    _check_every_submission_finished_exactly_once(service, acknowledged, settings)
    attempts = Counter(service.registry.job(i).attempts for i in acknowledged)
    print(
        f"crash test: {len(acknowledged)} submissions; {targeted} kills aimed at a RUNNING job; "
        f"{interrupted} kills left a job RUNNING; starts per submission {dict(attempts)}"
    )


def _env(environ: dict[str, str]) -> dict[str, str]:
    return {**os.environ, **environ}


def _worker_command(*flags: str) -> list[str]:
    return [sys.executable, "-m", "leaderboard", "work", *flags]


def _start_worker(environ: dict[str, str], log: Path) -> subprocess.Popen:
    with open(log, "wb") as handle:  # the child keeps its own copy of the descriptor
        return subprocess.Popen(_worker_command(), env=_env(environ), cwd=ROOT, stdout=handle, stderr=handle)


def _wait_for_a_running_job(service: Leaderboard, acknowledged: dict, deadline: float) -> bool:
    """True once some submission is RUNNING; False at the deadline (then it is a kill at a random moment)."""
    finished: set[str] = set()
    while time.monotonic() < deadline:
        for submission_id in [i for i in list(acknowledged) if i not in finished]:
            status = service.registry.job(submission_id).status
            if status == RUNNING:
                return True
            if status == FINISHED:
                finished.add(submission_id)
        time.sleep(0.002)
    return False


def _arrive(service: Leaderboard, files: list[tuple[Path, str]], acknowledged: dict, rng: random.Random) -> None:
    """Submissions arriving while the worker runs; earlier ones get approved meanwhile."""
    for path, split in files:
        time.sleep(rng.uniform(0.0, 0.8))
        receipt = submit(service, path, split=split, user=f"user{rng.randrange(5)}", publish=True)
        acknowledged[receipt.submission_id] = (path, split)
        for submission_id in list(acknowledged)[::2]:
            service.approve(submission_id, by=MAINTAINER)


def _check_nothing_lost_or_doubled(service: Leaderboard, acknowledged: dict, where: str) -> int:
    """The invariants after a kill; returns 1 when the kill caught a job RUNNING."""
    entries = {e.submission_id: e for e in service.registry.entries()}
    assert set(acknowledged) <= set(entries), f"{where}: acknowledged submissions lost"
    audited = Counter((e.action, e.target) for e in audit.read_audit(service.requests))
    running = 0
    for submission_id, (path, _) in acknowledged.items():
        assert service.requests.read(upload_path(submission_id)) == path.read_bytes(), f"{where}: upload damaged"
        assert audited[("submit", submission_id)] == 1, f"{where}: submit audited {audited[('submit', submission_id)]}"
        assert audited[("finished", submission_id)] <= 1, f"{where}: {submission_id} finished twice"
        job = entries[submission_id].job
        assert job.status != FAILED, f"{where}: {submission_id} failed: {job.message}"
        if job.status == FINISHED:
            assert audited[("finished", submission_id)] == 1, f"{where}: {submission_id} finished unaudited"
            assert service.requests.read(summary_path(submission_id)) is not None, (
                f"{where}: finished without a summary"
            )
            assert service.requests.read(rows_path(submission_id)) is not None, f"{where}: finished without rows"
        running += job.status == RUNNING
    return int(running > 0)


def _check_every_submission_finished_exactly_once(service: Leaderboard, acknowledged: dict, settings: Settings):
    keys = {split: service.keys.private(split) for split in ("test", "validation")}
    audited = Counter((e.action, e.target) for e in audit.read_audit(service.requests))
    for submission_id, (path, split) in acknowledged.items():
        view = service.status(submission_id)
        assert view.status == FINISHED, f"seed {SEED}: {submission_id} ended {view.status}: {view.message}"
        assert audited[("finished", submission_id)] == 1, f"seed {SEED}: {submission_id} finished more than once"
        expected = kept_summary(
            score_submission(path, keys[split], baseline_raw=settings.baseline_raw), split, settings
        )
        assert view.summary == expected, f"seed {SEED}: {submission_id} has other numbers than the scorer"
    approved = {i for i in acknowledged if service.registry.review(i).decision == "approved"}
    published = Counter(r["submission_id"] for r in service.published_table() if r["kind"] == "submission")
    assert published == Counter(approved), f"seed {SEED}: published rows {published} for approved {approved}"
    assert service.published_table() == service.public_table()
