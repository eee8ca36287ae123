"""Intervals of one entry's groups and paired differences between two entries, on demand.

The table carries the overall and per-embodiment intervals; the entry page also wants the
per-category ones, and the compare view the paired interval of ``A - B`` in every group. Both come
from the same scene resamples as the table (``uncertainty.resample_weights`` depends only on the
number of scenes, and the entries of one split share them), read from the private store's per-row
scores and the split's categories (the public answer key: categories are public). Only intervals
leave this module. A group whose figure the public row withholds (``disclosure``) gets none, and
neither does a row without per-row scores (reported, baseline).

Each entry's totals are kept per version of its public row (a small LRU), so a page that asks
again costs no store read.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from leaderboard.statistics.uncertainty import (
    OVERALL,
    Interval,
    Resampled,
    SceneTotals,
    difference,
    interval,
    resample,
    scene_totals,
)
from leaderboard.storage import Storage, read_rows

Row = Mapping[str, object]
Categories = Callable[[str], Mapping[str, Sequence[str]]]  # split -> {sample id: its categories}
KEPT = 64  # entries' totals kept (an entry's totals are a few kB)


@dataclass(frozen=True)
class GroupFigure:
    """One group's figure of an entry, or of the difference of two."""

    kind: str  # "score", "per_embodiment" or "per_category"
    name: str  # "" for the overall score
    value: float | None
    interval: Interval | None
    a: float | None = None  # in a comparison: the two entries' figures
    b: float | None = None


class EntryIntervals:
    """Group intervals and paired differences of public rows, from the private per-row scores."""

    def __init__(self, store: Storage, categories: Categories) -> None:
        self.store = store
        self.categories = categories
        self._kept: OrderedDict[tuple[str, str], SceneTotals | None] = OrderedDict()
        self._lock = threading.Lock()

    def groups(self, row: Row) -> list[GroupFigure]:
        """Every group of ``row`` (overall, embodiments, categories) with its 95% interval."""
        totals = self._totals(row)
        resampled = resample({"a": totals}) if totals is not None else None
        out = []
        for kind, name, value in figures(row):
            column = resampled.column("a", (kind, name)) if resampled is not None and value is not None else None
            out.append(GroupFigure(kind, name, value, interval(column)))
        return out

    def compare(self, row_a: Row, row_b: Row) -> list[GroupFigure]:
        """``A - B`` in every group either has, with the paired interval where both have per-row scores
        of the same split (entries of two splits share no scenes: nothing to pair)."""
        ta, tb = self._totals(row_a), self._totals(row_b)
        resampled: Resampled | None = None
        if ta is not None and tb is not None and row_a.get("split") == row_b.get("split"):
            resampled = resample({"a": ta, "b": tb})
        a_figures = {(k, n): v for k, n, v in figures(row_a)}
        b_figures = {(k, n): v for k, n, v in figures(row_b)}
        out = []
        for key in dict.fromkeys([*a_figures, *b_figures]):
            a, b = a_figures.get(key), b_figures.get(key)
            point = None if a is None or b is None else a - b
            span = difference(resampled, "a", "b", key) if resampled is not None and point is not None else None
            out.append(GroupFigure(key[0], key[1], point, span, a, b))
        return out

    def _totals(self, row: Row) -> SceneTotals | None:
        if row.get("kind") != "submission" or row.get("score_ci") is None:
            return None  # no per-row scores (reported, baseline), or an overall figure withheld
        submission_id, split = str(row["submission_id"]), str(row.get("split"))
        version = repr((row.get("score"), row.get("per_category"), row.get("scorer_version"), row.get("score_ci")))
        key = (submission_id, version)
        with self._lock:
            if key in self._kept:
                self._kept.move_to_end(key)
                return self._kept[key]
        rows = read_rows(self.store, submission_id)
        totals = scene_totals(rows, self.categories(split)) if rows else None
        with self._lock:
            self._kept[key] = totals
            while len(self._kept) > KEPT:
                self._kept.popitem(last=False)
        return totals


def figures_alone(row: Row) -> list[GroupFigure]:
    """The row's group figures without intervals: a closed release's frozen row, whose per-row scores were replaced
    when it was rescored (an interval from today's would not be the release's)."""
    return [GroupFigure(kind, name, value, None) for kind, name, value in figures(row)]


def figures(row: Row) -> list[tuple[str, str, float | None]]:
    """``(kind, name, value)`` of the row's overall, per-embodiment and per-category figures.

    >>> figures({"score": 5.0, "per_embodiment": {"Human": 4.0}, "per_category": {"Crossing": None}})
    [('score', '', 5.0), ('per_embodiment', 'Human', 4.0), ('per_category', 'Crossing', None)]
    """
    out: list[tuple[str, str, float | None]] = [(OVERALL[0], OVERALL[1], _float(row.get("score")))]
    for kind in ("per_embodiment", "per_category"):
        groups = row.get(kind)
        if isinstance(groups, Mapping):
            out += [(kind, str(name), _float(value)) for name, value in groups.items()]
    return out


def _float(value: object) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None
