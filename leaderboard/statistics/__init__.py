"""The statistics of the board: intervals and significance, disclosure bounds, likely copies."""

from __future__ import annotations

from leaderboard.statistics.copies import CopyFinder, LikelyCopy, copy_line, read_copy
from leaderboard.statistics.disclosure import disclosed_summary
from leaderboard.statistics.disclosure_counts import Tries, tries, tries_text
from leaderboard.statistics.uncertainty import (
    DECIMALS,
    OVERALL,
    Interval,
    SceneTotals,
    format_difference,
    format_interval,
    format_rank_range,
    interval,
    resample,
    scene_totals,
)
from leaderboard.statistics.uncertainty_compare import EntryIntervals, GroupFigure, figures_alone
from leaderboard.statistics.uncertainty_table import CI_COLUMNS, SIGNIFICANCE_COLUMN, TotalsCache

__all__ = [
    "CI_COLUMNS",
    "CopyFinder",
    "DECIMALS",
    "EntryIntervals",
    "GroupFigure",
    "Interval",
    "LikelyCopy",
    "OVERALL",
    "SIGNIFICANCE_COLUMN",
    "SceneTotals",
    "TotalsCache",
    "Tries",
    "copy_line",
    "disclosed_summary",
    "figures_alone",
    "format_difference",
    "format_interval",
    "format_rank_range",
    "interval",
    "read_copy",
    "resample",
    "scene_totals",
    "tries",
    "tries_text",
]
