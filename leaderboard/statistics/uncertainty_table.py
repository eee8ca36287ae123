"""The uncertainty columns of the public table: ``score_ci``, ``per_embodiment_ci``, ``rank_range``,
``significantly_better``.

Computed when the table is rebuilt (``table.Publisher``), never on a page request; a rescore
rewrites the per-row scores and so the next rebuild recomputes them. Each submission's per-row
scores are read from the private store once per version of its result (``TotalsCache``); only the
intervals reach the table. A figure the summary withholds (``disclosure``: fewer than k valid rows)
gets no interval, and reported and baseline rows, which have no per-row scores, get ``None``.

``significantly_better`` lists, for every entry with an interval and every reported row, the ids of
the split's rows significantly better than it (``uncertainty.significantly_better``: one-sided 95% on
the same paired resamples); an entry without an interval (a withheld score, no per-row scores) is in
no list and gets ``None``, so nothing is said about a figure the summary withholds. The board counts
ranks and rank ranges from it over whichever entries a view ranks (``space/board/ranks.py``).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

from leaderboard.statistics.uncertainty import (
    OVERALL,
    Resampled,
    SceneTotals,
    rank_ranges,
    resample,
    scene_totals,
    significantly_better,
)
from leaderboard.storage import Storage, read_rows

log = logging.getLogger(__name__)

CI_COLUMNS = ("score_ci", "per_embodiment_ci", "rank_range")
SIGNIFICANCE_COLUMN = "significantly_better"
Row = dict[str, object]


class TotalsCache:
    """Each submission's ``SceneTotals``, read again only when its stored summary changes (a rescore)."""

    def __init__(self, store: Storage) -> None:
        self.store = store
        self._kept: dict[str, tuple[object, SceneTotals | None]] = {}
        self._last: tuple[str, list[Row]] | None = None  # the last table annotated, and what it gave
        self.reads = 0
        self.computed = 0  # tables annotated afresh (a worker round with no change annotates none)

    def get(self, submission_id: str, version: object) -> SceneTotals | None:
        """The totals of ``submission_id`` whose summary is ``version`` (None without stored rows)."""
        kept = self._kept.get(submission_id)
        if kept is not None and kept[0] == version:
            return kept[1]
        rows = read_rows(self.store, submission_id)
        self.reads += 1
        totals = scene_totals(rows) if rows else None
        self._kept[submission_id] = (version, totals)
        return totals

    def forget_except(self, keep: set[str]) -> None:
        for gone in set(self._kept) - keep:
            del self._kept[gone]

    def annotated(self, rows: list[Row], totals: Mapping[str, SceneTotals]) -> list[Row]:
        """``with_uncertainty(rows, totals)``, remembered: the worker rebuilds the table every round,
        and the same rows with the same results give the same intervals (a fixed seed)."""
        key = repr((rows, sorted((i, repr(self._kept[i][0])) for i in totals if i in self._kept)))
        if self._last is None or self._last[0] != key:
            self._last = (key, with_uncertainty(rows, totals))
            self.computed += 1
        return [dict(row) for row in self._last[1]]


def with_uncertainty(rows: list[Row], totals: Mapping[str, SceneTotals]) -> list[Row]:
    """``rows`` (the public table) with the uncertainty columns filled per split, from paired resamples.

    ``totals`` holds the per-scene totals of the submissions that have per-row scores.
    """
    blank = dict.fromkeys((*CI_COLUMNS, SIGNIFICANCE_COLUMN))
    out = [{**row, **blank} for row in rows]
    for split in sorted({str(r.get("split")) for r in out}):
        board = [r for r in out if r.get("split") == split]
        _fill_split(board, totals)
    return out


def _fill_split(board: list[Row], totals: Mapping[str, SceneTotals]) -> None:
    bootstrapped = {
        str(r["submission_id"]): totals[str(r["submission_id"])]
        for r in board
        if r.get("kind") == "submission" and str(r.get("submission_id")) in totals
    }
    resampled = resample(bootstrapped)
    for row in board:
        entry = str(row.get("submission_id"))
        if entry in bootstrapped:
            _fill_row(row, entry, resampled)
    # Ranked among the entries with per-row scores and an overall figure, and the reported rows at
    # their fixed score; the baseline is the board's reference line and is never ranked there either.
    by_id: dict[str, Row] = {}
    for row in board:
        by_id.setdefault(str(row.get("submission_id")), row)
    ranked = [str(r["submission_id"]) for r in board if r.get("score_ci") is not None]
    reported = {
        str(r["submission_id"]): float(r["score"])  # type: ignore[arg-type]
        for r in board
        if r.get("kind") == "reported" and _number(r.get("score"))
    }
    for entry, span in rank_ranges(resampled, ranked, list(reported.values())).items():
        by_id[entry]["rank_range"] = span
    points = {entry: float(by_id[entry]["score"]) for entry in ranked}  # type: ignore[arg-type]
    for entry, better in significantly_better(resampled, points, reported).items():
        by_id[entry][SIGNIFICANCE_COLUMN] = better


def _fill_row(row: Row, entry: str, resampled: Resampled) -> None:
    if _number(row.get("score")):
        row["score_ci"] = resampled.intervals.get((entry, OVERALL))
    per_embodiment = row.get("per_embodiment")
    if isinstance(per_embodiment, dict):
        row["per_embodiment_ci"] = {
            name: resampled.intervals.get((entry, ("per_embodiment", name))) if _number(value) else None
            for name, value in per_embodiment.items()
        }


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)
