"""The NaviTrace submission service: settings, storage, intake, queue and worker, moderation, the public table.

Python API (what the Gradio app calls)::

    from leaderboard import Leaderboard, Settings
    service = Leaderboard(Settings.from_env())
    declared = {"trained_on": "none", "test_images_beyond_inference": "no", "best_of": 1}  # a public test entry's
    receipt = service.submit("pred.tsv", split="test", user="alice", metadata={"model": "M"}, publish=True,
                             declarations=declared)
    service.worker.drain()            # the APScheduler job (see leaderboard.runtime.scheduler)
    service.status(receipt.submission_id, user="alice").status

No gradio here: errors are ``leaderboard.records.errors`` exceptions a UI turns into messages.
"""

from __future__ import annotations

from leaderboard.config import Settings, SettingsError
from leaderboard.records import InvalidAction, LeaderboardError, NotAuthorised, NotFound, QuotaExceeded, Rejected
from leaderboard.service import Leaderboard, SubmissionView

__all__ = [
    "InvalidAction",
    "Leaderboard",
    "LeaderboardError",
    "NotAuthorised",
    "NotFound",
    "QuotaExceeded",
    "Rejected",
    "Settings",
    "SettingsError",
    "SubmissionView",
]
