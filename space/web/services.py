"""What the pages are built on: the service, sign-in, the background data preparation, trace reading."""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

from leaderboard import Leaderboard, Settings
from leaderboard.jobs import process_exists
from leaderboard.records import Report
from leaderboard.runtime import Gauge, HealthMonitor, Wakeup
from space.board.cache import BoardCache
from space.explorer.picture import SubmissionTraces
from space.web.auth import Auth
from space.web.offload import Offload, end_children
from space.web.settings import SpaceSettings
from space.web.warmup import Warmup

log = logging.getLogger(__name__)

SCRATCH_PREFIX = "navitrace-space-"
KEPT_OUTCOMES = 1000  # recent outcomes remembered for the pages' "anything new of mine?" check


class Outcomes:
    """The worker's outcomes as the app hears of them (``scored``), numbered: pages ask what is new since a number."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._count = 0
        self._recent: OrderedDict[str, int] = OrderedDict()  # submission id -> its outcome's number

    @property
    def count(self) -> int:
        return self._count

    def scored(self, submission_id: str) -> None:
        with self._lock:
            self._count += 1
            self._recent[submission_id] = self._count
            self._recent.move_to_end(submission_id)
            while len(self._recent) > KEPT_OUTCOMES:
                self._recent.popitem(last=False)

    def any_since(self, count: int, submission_ids: list[str]) -> bool:
        """Whether one of ``submission_ids`` got an outcome after outcome number ``count``."""
        with self._lock:
            return any(self._recent.get(i, 0) > count for i in submission_ids)


@dataclass(frozen=True)
class Services:
    leaderboard: Leaderboard  # the submission service
    auth: Auth
    warmup: Warmup
    traces: SubmissionTraces
    space: SpaceSettings
    scratch: Path  # generated downloads (CSV, per-row TSV); Gradio copies them into its cache to serve them
    board: BoardCache  # the public table and what is drawn from it, once per change of the results
    wakeup: Wakeup = field(default_factory=Wakeup)  # start a scoring round now (the app attaches its scheduler)
    outcomes: Outcomes = field(default_factory=Outcomes)
    checks: Offload | None = None  # file checks off the pages' interpreter (None: in this process)
    drawings: Offload | None = None  # the Explorer's drawings, likewise, in a child of their own
    pages_busy: Gauge | None = None  # requests being answered, for the background processes to step aside
    health: HealthMonitor | None = None  # the service's health, read in the background (/api/health, the board)

    def validate(self, path: str | Path, split: str) -> Report:
        """The Submit tab's check of an uploaded file: in a checking process when there is one."""
        if self.checks is None:
            return self.leaderboard.validate(path, split)
        return self.checks.validate(path, split)

    def start_children(self) -> None:
        """Start the checking and drawing processes and load their public keys (once the app's own are cached):
        not at a visitor's first check or drawing, where their start-up would be the visitor's wait."""
        if self.checks is not None:
            self.checks.prepare(("validation", "test"))
        if self.drawings is not None:
            self.drawings.prepare(("validation",))

    def close(self) -> None:
        """At the app's stop: the checking and drawing processes end now, even mid-task."""
        for pool in (self.checks, self.drawings):
            if pool is not None:
                pool.close()
        ended = end_children()
        if ended:
            log.info("ended %d checking and drawing processes", ended)

    def scored(self, submission_id: str) -> None:
        """The worker (in its own process) committed an outcome: the board and My submissions show it now."""
        self.outcomes.scored(submission_id)
        self.board.refresh()

    @classmethod
    def create(
        cls,
        settings: Settings,
        space: SpaceSettings,
        leaderboard: Leaderboard | None = None,
        examples: Path | None = None,
    ) -> Services:
        """``examples``: where the example submissions are written (default: a fresh temporary folder,
        never under ``LEADERBOARD_HOME``, whose files no HTTP route may serve)."""
        service = leaderboard or Leaderboard(settings)
        _remove_scratch_of_dead_apps()
        scratch = Path(tempfile.mkdtemp(prefix=f"{SCRATCH_PREFIX}{os.getpid()}-"))
        folder = examples or scratch / "examples"
        board = BoardCache(lambda: service.published_table() or service.public_table(), scratch)
        pages_busy = Gauge(scratch / "pages_busy")
        checks = Offload(settings, pages_busy=pages_busy)
        service.intake.checker = checks.checked  # a submission's own check too, off the pages' interpreter
        return cls(
            service,
            Auth(service, space),
            Warmup(service.keys, folder),
            SubmissionTraces(service),
            space,
            scratch,
            board,
            checks=checks,
            drawings=Offload(settings, pages_busy=pages_busy),
            pages_busy=pages_busy,
            health=HealthMonitor(service),
        )


def _remove_scratch_of_dead_apps() -> None:
    """A SIGKILLed app leaves its scratch folder behind: remove those whose process is gone."""
    for folder in Path(tempfile.gettempdir()).glob(f"{SCRATCH_PREFIX}*-*"):
        pid = folder.name.removeprefix(SCRATCH_PREFIX).split("-", 1)[0]
        if pid.isdigit() and not process_exists(int(pid)):
            shutil.rmtree(folder, ignore_errors=True)
