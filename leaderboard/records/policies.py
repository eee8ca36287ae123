"""The score release policies maintainers choose between (``leaderboard.publishing.score_release`` applies them)."""

from __future__ import annotations

from enum import StrEnum


class ReleasePolicy(StrEnum):
    EXACT = "exact"
    LADDER = "ladder"


def parse_policy(value: object) -> ReleasePolicy:
    """``ReleasePolicy`` of a user's word; ``ValueError`` naming the choices.

    >>> parse_policy(" Ladder ")
    <ReleasePolicy.LADDER: 'ladder'>
    """
    text = str(value or "").strip().lower()
    try:
        return ReleasePolicy(text)
    except ValueError:
        raise ValueError(f"expected {' or '.join(p.value for p in ReleasePolicy)}") from None
