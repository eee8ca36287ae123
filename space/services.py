"""What the pages are built on: the service, sign-in, the background data preparation, trace reading."""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from leaderboard import Leaderboard, Settings
from leaderboard.queue import process_exists
from leaderboard.scheduler import Wakeup
from space.auth import Auth
from space.pages.explorer import SubmissionTraces
from space.pages.warmup import Warmup
from space.settings import SpaceSettings

SCRATCH_PREFIX = "navitrace-space-"


@dataclass(frozen=True)
class Services:
    leaderboard: Leaderboard  # the submission service
    auth: Auth
    warmup: Warmup
    traces: SubmissionTraces
    space: SpaceSettings
    scratch: Path  # generated downloads (CSV, per-row TSV); Gradio copies them into its cache to serve them
    wakeup: Wakeup = field(default_factory=Wakeup)  # start a scoring round now (the app attaches its scheduler)

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
        return cls(
            service, Auth(service, space), Warmup(service.keys, folder), SubmissionTraces(service), space, scratch
        )


def _remove_scratch_of_dead_apps() -> None:
    """A SIGKILLed app leaves its scratch folder behind: remove those whose process is gone."""
    for folder in Path(tempfile.gettempdir()).glob(f"{SCRATCH_PREFIX}*-*"):
        pid = folder.name.removeprefix(SCRATCH_PREFIX).split("-", 1)[0]
        if pid.isdigit() and not process_exists(int(pid)):
            shutil.rmtree(folder, ignore_errors=True)
