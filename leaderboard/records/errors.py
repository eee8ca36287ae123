"""Domain errors of the service. A UI layer turns them into messages (``gr.Error``, exit 2 in the CLI).

Every message is one line that says what, where, and what was expected; it is safe to show to
the person who caused it (no tracebacks, no other users' data).
"""

from __future__ import annotations

from leaderboard.records.check_report import Report


class LeaderboardError(Exception):
    """Base class: something the caller asked for cannot be done."""


class Rejected(LeaderboardError):
    """The submission (its file or its metadata) is refused; nothing was stored or counted.

    ``report`` holds the validation report when the file was read far enough to have one.
    """

    def __init__(self, message: str, report: Report | None = None) -> None:
        super().__init__(message)
        self.report = report


class QuotaExceeded(LeaderboardError):
    """The user has used up their test submissions for the rolling 24 hours."""

    def __init__(self, message: str, retry_at: str | None = None) -> None:
        super().__init__(message)
        self.retry_at = retry_at  # ISO time when the oldest counted submission leaves the window


class NotAuthorised(LeaderboardError):
    """The user may not do this (not a maintainer, or not their submission)."""


class NotFound(LeaderboardError):
    """No submission (or reported row) with this id."""


class InvalidAction(LeaderboardError):
    """The action does not fit the submission's state or its arguments are wrong."""
