"""The command line: ``python -m leaderboard``."""

from __future__ import annotations

from leaderboard.cli.parser import main

__all__ = [
    "main",
]
