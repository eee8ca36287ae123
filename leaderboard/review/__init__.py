"""The maintainers' review: moderation, ownership claims, probing."""

from __future__ import annotations

from leaderboard.review.edition_open import Editions, Opened
from leaderboard.review.moderation import Moderation, decision_text
from leaderboard.review.ownership import Ownership
from leaderboard.review.probing import FEW_ROWS, ProbeFinder, ProbePair, finished_tests
from leaderboard.review.submission_view import SubmissionView

__all__ = [
    "SubmissionView",
    "Editions",
    "FEW_ROWS",
    "Moderation",
    "Opened",
    "Ownership",
    "ProbeFinder",
    "ProbePair",
    "decision_text",
    "finished_tests",
]
