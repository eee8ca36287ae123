"""SIGKILL the running app (``python app.py``, its scheduled worker inside) during intake, scoring
and result writing; restart it; every acknowledged submission ends FINISHED exactly once.

Each trial starts the app on one shared home, uploads files through the Submit tab's HTTP API as
signed-in users (the retries of uploads that got no receipt first, then two new files), approves
acknowledged test submissions from this process meanwhile (as the maintainers' CLI would), and
kills the app, in turn:

- at a named durable step (``faults_killpoints.py``: intake, claim, scoring, result and publish
  commits at each step of the journal, and an answer-key cache build), the process killing itself;
- after a random delay (0 to 2.5 s after the page is served);
- within 30 ms of a job turning RUNNING.

After every kill the store must hold every acknowledged submission with its file, and nothing
twice; a last, unkilled start must retry the unacknowledged uploads, score everything exactly
once with the scorer's own numbers, and publish each approved submission exactly once.

    .venv/bin/python -m pytest tests/hardening/faults/test_faults_app_sigkill.py -s          # 4 trials
    FAULTS_APP_TRIALS=60 .venv/bin/python -m pytest tests/hardening/faults/test_faults_app_sigkill.py -s

``FAULTS_APP_SEED`` replays a run (the seed is printed, and named in every failure).
"""

from __future__ import annotations

import os
import random
import shutil
import threading
import time
from collections import Counter
from pathlib import Path

import pytest
from faults_app import App, NotAcknowledged, Submitter, app_environ, journal_leftovers, start
from faults_invariants import Upload, check_every_submission_finished_once, check_nothing_lost_or_doubled

from leaderboard.config import Settings
from leaderboard.records.entries import RUNNING
from leaderboard.service import Leaderboard
from scoring.examples import write_example
from tests.browser.conftest import MAINTAINER

TRIALS = int(os.environ.get("FAULTS_APP_TRIALS", "4"))
SEED = int(os.environ.get("FAULTS_APP_SEED", str(time.time_ns() % 1_000_000)))
# The most telling first: the fast suite's 4 trials reach the first two (even trials take the next point).
KILL_POINTS = (
    "intake:committed",  # durable, but the user got no receipt: the retry must find it, not double it
    "result:half-applied",  # the summary moved into place, the job still RUNNING
    "intake:returned",
    "scoring:inside",
    "result:committed",
    "claim:returned",
    "publish:staged",  # the table alone changes after the first publish: one file, no half-applied step
    "cache:built",
    "intake:staged",
    "intake:half-applied",
    "intake:applied",
    "intake:retired",
    "claim:committed",
    "result:staged",
    "result:applied",
    "result:retired",
    "result:returned",
    "publish:committed",
    "publish:returned",
)
POINT_WAIT_S = 6.0  # a kill point not reached by then: the trial kills at that moment instead


@pytest.fixture
def campaign(tmp_path: Path, demo_dataset: Path, demo_public: Path, test_key, validation_key):
    environ = app_environ(
        tmp_path,
        demo_dataset,
        demo_public,
        SCORE_INTERVAL_S="0.2",
        TEST_SUBMISSIONS_PER_DAY="100000",
        LEADERBOARD_MAX_ATTEMPTS="100000",  # every kill here is the test's, never a poison file
        LEADERBOARD_QUEUED_PER_USER="100000",
    )
    return Campaign(tmp_path, environ, {"test": test_key, "validation": validation_key})


class Campaign:
    def __init__(self, folder: Path, environ: dict[str, str], keys: dict) -> None:
        self.folder, self.environ, self.keys = folder, environ, keys
        self.settings = Settings.from_env(environ)
        self.service = Leaderboard(self.settings)  # the maintainers' view: a second process on the same home
        self.rng = random.Random(SEED)
        self.uploads: list[Upload] = []
        self.figures: Counter = Counter()

    def new_uploads(self, count: int) -> list[Upload]:
        made = []
        for _ in range(count):
            n = len(self.uploads)
            split = "test" if n % 3 else "validation"
            path = self.folder / "files" / f"{split}-{n}.tsv"
            path.parent.mkdir(exist_ok=True)
            write_example(self.keys[split], "noisy", path, seed=5000 + n)
            upload = Upload(
                path,
                split,
                f"user{n % 3}",
                f"model-{n}",
                publish=split == "test",
                approve=split == "test" and n % 2 == 1,
            )
            self.uploads.append(upload)
            made.append(upload)
        return made

    def arrive(self, app: App, uploads: list[Upload], stop: threading.Event) -> None:
        """Uploads through the app, retries first; acknowledged ones to approve are approved."""
        sessions: dict[str, Submitter] = {}
        try:
            for upload in uploads:
                time.sleep(self.rng.uniform(0.0, 0.6))
                if stop.is_set():
                    return
                self.figures["uploads tried"] += 1
                upload.tries += 1
                upload.in_flight = True
                try:
                    if upload.user not in sessions:
                        sessions[upload.user] = Submitter(app.url, upload.user)
                    session = sessions[upload.user]
                    upload.acknowledged = session.submit(upload.path, upload.split, upload.model, upload.publish)
                    self.figures["receipts" if upload.tries == 1 else "receipts after a retry"] += 1
                except NotAcknowledged:
                    self.figures["no receipt"] += 1
                    return  # the app is gone: the rest waits for the next start
                finally:
                    upload.in_flight = False
                if upload.approve and not stop.is_set():
                    self.service.approve(upload.acknowledged, by=MAINTAINER)
        finally:
            for session in sessions.values():
                session.close()

    def run_trial(self, trial: int) -> None:
        kind, point = self.plan(trial)
        if point.startswith("cache"):  # an answer-key cache build to kill: there must be one to do
            shutil.rmtree(Path(self.environ["LEADERBOARD_HOME"]) / "cache", ignore_errors=True)
        app = start(self.environ, self.folder / "app.log", kill_at=point)
        if not app.serving():  # killed itself while starting (an answer-key build), or crashed
            assert app.process.returncode == -9, f"the app exited with {app.process.returncode}:\n{app.log_tail()}"
            self.record_kill(app, kind, point)
            return
        waiting = [u for u in self.uploads if u.acknowledged is None]
        stop = threading.Event()
        arrivals = threading.Thread(target=self.arrive, args=(app, waiting + self.new_uploads(2), stop))
        arrivals.start()
        if kind == "point":
            self.wait_for_point(app)
        elif kind == "running":
            self.figures["kills aimed at a RUNNING job"] += self.wait_for_running(time.monotonic() + 5)
            time.sleep(self.rng.uniform(0.0, 0.03))
        else:
            time.sleep(self.rng.uniform(0.0, 2.5))
        in_flight = any(u.in_flight for u in self.uploads)
        app.kill()
        stop.set()
        self.record_kill(app, kind, point, in_flight)
        arrivals.join()

    def wait_for_point(self, app: App) -> None:
        """Until the app killed itself at the point, or its scoring process did (then the app restarts it:
        the kill of the whole app follows after a moment, while the new worker may be taking the job up)."""
        kills = Path(f"{app.log}.kills")
        before = len(kills.read_text().splitlines()) if kills.exists() else 0
        deadline = time.monotonic() + POINT_WAIT_S
        while time.monotonic() < deadline and app.process.poll() is None:
            if kills.exists() and len(kills.read_text().splitlines()) > before:
                time.sleep(self.rng.uniform(0.0, 2.0))
                return
            time.sleep(0.01)

    def plan(self, trial: int) -> tuple[str, str]:
        if trial % 2 == 0:
            return "point", KILL_POINTS[(trial // 2) % len(KILL_POINTS)]
        return ("random", "") if trial % 4 == 1 else ("running", "")

    def wait_for_running(self, deadline: float) -> bool:
        while time.monotonic() < deadline:
            if any(self.service.registry.job(u.acknowledged).status == RUNNING for u in self.uploads if u.acknowledged):
                return True
            time.sleep(0.002)
        return False

    def record_kill(self, app: App, kind: str, point: str, in_flight: bool = False) -> None:
        """Figures of one kill, read before anything replays the journal."""
        kills = Path(f"{app.log}.kills")
        own = len(kills.read_text().splitlines()) if kills.exists() else 0
        if own > self.figures["kill points reached"]:
            self.figures["kill points reached"] += 1
            self.figures[f"point {point}"] += 1
        else:
            self.figures["kills near a RUNNING job" if kind == "running" else "kills at a random moment"] += 1
        self.figures["kills during an upload"] += in_flight
        home = Path(self.environ["LEADERBOARD_HOME"])
        for store in ("requests", "results"):
            for what, count in journal_leftovers(home / store).items():
                self.figures[f"{store} journal: {what} entries left"] += count
        self.figures["trials"] += 1


@pytest.mark.slow
def test_sigkill_of_the_app_loses_and_doubles_nothing(campaign: Campaign):
    print(f"\napp SIGKILL campaign: {TRIALS} trials, seed {SEED}")
    for trial in range(TRIALS):
        began = time.monotonic()
        campaign.run_trial(trial)
        where = f"seed {SEED}, trial {trial}"
        stored = check_nothing_lost_or_doubled(campaign.service, campaign.uploads, where)
        campaign.figures["jobs left RUNNING by a kill"] += stored["running"] > 0
        print(f"  trial {trial} {' '.join(campaign.plan(trial))}: {time.monotonic() - began:.1f} s, {stored}")
    finish(campaign)


def finish(campaign: Campaign) -> None:
    """A last start, never killed: retries, scoring, publishing; then the end-state checks."""
    app = start(campaign.environ, campaign.folder / "app.log")
    assert app.serving(), app.log_tail()
    try:
        stop = threading.Event()
        campaign.arrive(app, [u for u in campaign.uploads if u.acknowledged is None], stop)
        assert all(u.acknowledged for u in campaign.uploads), f"seed {SEED}: uploads without a receipt after restart"
        deadline = time.monotonic() + 90
        while not everything_published(campaign.service):
            assert time.monotonic() < deadline, f"seed {SEED}: not finished in 90 s:\n{app.log_tail()}"
            time.sleep(0.3)
    finally:
        assert app.stop() in (0, -15), app.log_tail()
    starts = check_every_submission_finished_once(
        campaign.service, campaign.uploads, campaign.keys, campaign.settings.baseline_raw
    )
    figures = campaign.figures
    figures["submissions"] = len(campaign.uploads)
    figures["acknowledged"] = sum(u.acknowledged is not None for u in campaign.uploads)
    print("app SIGKILL campaign figures:")
    for name, value in sorted(figures.items()):
        print(f"  {name}: {value}")
    print(f"  starts per submission: {dict(sorted(starts.items()))}")


def everything_published(service: Leaderboard) -> bool:
    entries = service.registry.entries()
    return all(e.job.status == "FINISHED" for e in entries) and service.published_table() == service.public_table()
