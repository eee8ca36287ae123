"""What is published: the public table, the score release policy, Hub eval results."""

from __future__ import annotations

from leaderboard.publishing.editions import (
    MAX_NOTE,
    RELEASES_PATH,
    Edition,
    check_name,
    check_note,
    days_since,
    first_edition,
    is_name,
    next_name,
    release_of,
    stored,
    stored_bytes,
)
from leaderboard.publishing.hub_eval import (
    HubRecord,
    HubUnavailable,
    Refused,
    approval_note,
    eval_result,
    held_back,
    hub_path,
    recorded,
    shareable,
)
from leaderboard.publishing.hub_eval_board import HubBoard
from leaderboard.publishing.hub_eval_prs import PullRequests
from leaderboard.publishing.score_release import is_released, maintainer_note, read_release, submitter_note
from leaderboard.publishing.score_release_decision import Releases
from leaderboard.publishing.score_release_policy import ReleaseSetting
from leaderboard.publishing.table import TABLE_PATH, Publisher

__all__ = [
    "approval_note",
    "Edition",
    "HubBoard",
    "HubRecord",
    "HubUnavailable",
    "MAX_NOTE",
    "Publisher",
    "PullRequests",
    "RELEASES_PATH",
    "Refused",
    "ReleaseSetting",
    "Releases",
    "TABLE_PATH",
    "check_name",
    "check_note",
    "days_since",
    "eval_result",
    "first_edition",
    "held_back",
    "hub_path",
    "is_name",
    "is_released",
    "maintainer_note",
    "next_name",
    "read_release",
    "recorded",
    "release_of",
    "shareable",
    "stored",
    "stored_bytes",
    "submitter_note",
]
