"""How sure a score is: scene-clustered bootstrap intervals, paired rank ranges and differences.

A test split holds ~500 scenes (images) and ~1,249 rows: the embodiments of one image share its
scene, so they are not independent draws. The bootstrap therefore resamples *scenes* with
replacement (all rows of a scene move together), ``RESAMPLES`` times with a fixed ``SEED``, and
uses the *same* resamples for every entry of a board (paired): rank ranges and differences between
two entries then see the same scenes in each resample, as Chatbot Arena's rank ranges do.

The resampled statistic is exactly the summary's (``scoring.aggregate.coverage_mean``): the sum of
the valid rows' scores over the number of expected rows, invalid and missing rows counting as 0;
per embodiment (or category) the same within the group. With ``w[b, s]`` the number of times scene
``s`` is drawn in resample ``b``, an entry's resampled score is ``(w @ sums) / (w @ counts)`` where
``sums[s]`` and ``counts[s]`` are its scene's valid-score sum and expected-row count: one matrix
product for every entry and every resample, no Python loop over resamples.

The interval is the percentile interval (2.5% and 97.5% quantiles of the resampled statistic);
the rank range the same quantiles of the entry's rank (1 = best, ties share the better rank).
``significantly_better`` is the paired one-sided 95% test between entries on the same resamples:
the board's rank ranges and upper-bound ranks are counted from it (``space/board/ranks.py``),
as LMArena's "Rank (UB)" is, so that they contain the rank in any view.
Pure numpy: no storage here (``uncertainty_table`` reads the private store).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

import numpy as np
from numpy.typing import NDArray

RESAMPLES = 1000
SEED = 20251030  # fixed: the same store gives the same intervals on every rebuild
LEVEL = 0.95
QUANTILES = ((1 - LEVEL) / 2, 1 - (1 - LEVEL) / 2)
ONE_SIDED = 0.95  # "significantly better": above in more than this share of the paired resamples
DECIMALS = 6  # intervals are stored rounded: float noise in the last bits would read as width

Interval = list[float]  # [low, high]
GroupKey = tuple[str, str]  # ("per_embodiment", "Human"), ("per_category", "Crossing"), ("score", "")
OVERALL: GroupKey = ("score", "")


@dataclass(frozen=True)
class SceneTotals:
    """One entry's rows summed per scene and group: all the bootstrap needs of its per-row scores.

    ``sums[g][scene]`` is the sum of the valid rows' scores, ``counts[g][scene]`` the number of
    expected rows (valid, invalid or missing) of group ``g`` in that scene.
    """

    sums: dict[GroupKey, dict[str, float]] = field(default_factory=dict)
    counts: dict[GroupKey, dict[str, int]] = field(default_factory=dict)

    @property
    def scenes(self) -> set[str]:
        return set(self.counts.get(OVERALL, {}))

    @cached_property
    def arrays(self) -> tuple[tuple[str, ...], dict[GroupKey, tuple[NDArray[np.float64], NDArray[np.float64]]]]:
        """The same as arrays over the entry's scenes in sorted order (0 where a group has no row):
        made once per entry, so a rebuild stacks columns instead of walking dicts."""
        order = tuple(sorted(self.scenes))
        at = {scene: i for i, scene in enumerate(order)}
        out = {}
        for group, counts in self.counts.items():
            positions = np.fromiter((at[scene] for scene in counts), dtype=np.intp, count=len(counts))
            sums, drawn = np.zeros(len(order)), np.zeros(len(order))
            drawn[positions] = np.fromiter(counts.values(), dtype=np.float64, count=len(counts))
            sums[positions] = np.fromiter((self.sums[group].get(s, 0.0) for s in counts), dtype=np.float64)
            out[group] = (sums, drawn)
        return order, out


def scene_totals(
    rows: Iterable[Mapping[str, str]], categories: Mapping[str, Sequence[str]] | None = None
) -> SceneTotals:
    """Totals of the per-row scores as ``results.read_rows`` gives them (text cells).

    ``categories`` (sample id -> its dataset categories) adds the per-category groups; a row counts
    in every category of its sample, as in ``scoring.aggregate.summarise``.

    >>> t = scene_totals([{"sample_id": "a", "embodiment": "Human", "status": "valid", "score": "50.0"},
    ...                   {"sample_id": "a", "embodiment": "Bicycle", "status": "missing", "score": ""}])
    >>> t.sums[OVERALL], t.counts[OVERALL], t.sums[("per_embodiment", "Human")]
    ({'a': 50.0}, {'a': 2}, {'a': 50.0})
    """
    sums: dict[GroupKey, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    counts: dict[GroupKey, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for row in rows:
        scene = row["sample_id"]
        valid = row.get("status") == "valid" and row.get("score") not in (None, "")
        value = float(row["score"]) if valid else 0.0
        groups = [OVERALL, ("per_embodiment", row["embodiment"])]
        groups += [("per_category", c) for c in (categories or {}).get(scene, ())]
        for group in groups:
            sums[group][scene] += value
            counts[group][scene] += 1
    return SceneTotals({g: dict(v) for g, v in sums.items()}, {g: dict(v) for g, v in counts.items()})


@lru_cache(maxsize=8)
def resample_weights(n_scenes: int, resamples: int = RESAMPLES, seed: int = SEED) -> NDArray[np.float64]:
    """``(resamples, n_scenes)``: how often each scene is drawn in each resample (each row sums to
    ``n_scenes``). Depends only on the number of scenes, so every entry of a board is resampled alike."""
    rng = np.random.default_rng(seed)
    drawn = rng.multinomial(n_scenes, np.full(n_scenes, 1.0 / n_scenes), size=resamples).astype(np.float64)
    drawn.setflags(write=False)
    return drawn


@dataclass(frozen=True)
class Resampled:
    """Resampled statistics of many (entry, group) columns over one common scene order."""

    columns: list[tuple[str, GroupKey]]  # (entry id, group) of each column
    values: NDArray[np.float64]  # (RESAMPLES, columns); NaN where a resample drew no row of the group

    @cached_property
    def _where(self) -> dict[tuple[str, GroupKey], int]:
        return {column: j for j, column in enumerate(self.columns)}

    def column(self, entry: str, group: GroupKey = OVERALL) -> NDArray[np.float64] | None:
        j = self._where.get((entry, group))
        return None if j is None else self.values[:, j]

    def overall(self, entries: Sequence[str]) -> NDArray[np.float64]:
        """``(resamples, len(entries))``: the entries' overall statistics; KeyError names an entry without one."""
        return self.values[:, [self._where[(e, OVERALL)] for e in entries]]

    @cached_property
    def intervals(self) -> dict[tuple[str, GroupKey], Interval | None]:
        """Every column's percentile interval, computed together (one quantile call, not one a column)."""
        if not self.columns:
            return {}
        values = self.values
        gaps = np.asarray(np.isnan(values).any(axis=0))
        ends = np.quantile(np.where(gaps, 0.0, values), QUANTILES, axis=0)  # columns without NaN (nearly all)
        out: dict[tuple[str, GroupKey], Interval | None] = {}
        for j, column in enumerate(self.columns):
            if gaps[j]:
                out[column] = interval(values[:, j])
            else:
                out[column] = [round(float(ends[0, j]), DECIMALS), round(float(ends[1, j]), DECIMALS)]
        return out


def resample(totals: Mapping[str, SceneTotals], groups: Mapping[str, Iterable[GroupKey]] | None = None) -> Resampled:
    """Every entry's statistic of each group (default: all its groups) in each paired resample.

    Scenes are the union of the entries' scenes in sorted order (an entry has a row for every
    expected row of its split, so the entries of one split normally share them all).
    """
    orders = {t.arrays[0] for t in totals.values()}
    scenes = next(iter(orders)) if len(orders) == 1 else tuple(sorted(set().union(*orders)))
    index = {scene: i for i, scene in enumerate(scenes)}
    columns = [
        (entry, group)
        for entry, t in totals.items()
        for group in (groups[entry] if groups and entry in groups else t.counts)
        if group in t.counts
    ]
    sums = np.zeros((len(scenes), len(columns)))
    counts = np.zeros((len(scenes), len(columns)))
    rows_of: dict[str, NDArray[np.intp] | slice] = {}  # an entry's scenes' places among all (all, normally)
    for j, (entry, group) in enumerate(columns):
        order, arrays = totals[entry].arrays
        if entry not in rows_of:
            same = order == scenes
            rows_of[entry] = slice(None) if same else np.fromiter((index[s] for s in order), dtype=np.intp)
        sums[rows_of[entry], j], counts[rows_of[entry], j] = arrays[group]
    if not scenes:
        return Resampled(columns, np.empty((RESAMPLES, len(columns))))
    weights = resample_weights(len(scenes))
    drawn = weights @ counts
    with np.errstate(invalid="ignore", divide="ignore"):
        values = np.where(drawn > 0, (weights @ sums) / drawn, np.nan)
    return Resampled(columns, values)


def interval(values: NDArray[np.float64] | None) -> Interval | None:
    """The percentile interval of resampled values (NaNs, resamples without the group, ignored).

    >>> interval(np.array([3.0] * 10))
    [3.0, 3.0]
    """
    if values is None or not np.isfinite(values).any():
        return None
    low, high = np.nanquantile(values, QUANTILES)
    return [round(float(low), DECIMALS), round(float(high), DECIMALS)]


def ranks(scores: NDArray[np.float64]) -> NDArray[np.int64]:
    """Rank of each column in each row of ``scores`` (1 = highest, ties share the better rank, NaN last).

    >>> ranks(np.array([[1.0, 3.0, 3.0, 0.5]])).tolist()
    [[3, 1, 1, 4]]
    """
    keyed = np.where(np.isnan(scores), -np.inf, scores)
    order = np.argsort(-keyed, axis=1, kind="stable")
    ordered = np.take_along_axis(keyed, order, axis=1)
    positions = np.arange(1, scores.shape[1] + 1)
    new_value = np.ones_like(ordered, dtype=bool)
    new_value[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
    first = np.maximum.accumulate(np.where(new_value, positions, 0), axis=1)  # rank of the first of each tie
    out = np.empty_like(first)
    np.put_along_axis(out, order, first, axis=1)
    return out


def rank_ranges(resampled: Resampled, entries: Sequence[str], fixed: Sequence[float] = ()) -> dict[str, list[int]]:
    """The 2.5-97.5% range of each entry's rank over the paired resamples, among ``entries`` and
    rows with a fixed score (``fixed``: reported figures, which have no per-row scores)."""
    if not entries:
        return {}
    overall = resampled.overall(entries)
    constant = np.broadcast_to(np.asarray(fixed, dtype=np.float64), (overall.shape[0], len(fixed)))
    ranked = ranks(np.hstack([overall, constant]))[:, : len(entries)]
    low = np.quantile(ranked, QUANTILES[0], axis=0, method="lower")
    high = np.quantile(ranked, QUANTILES[1], axis=0, method="higher")
    return {e: [int(lo), int(hi)] for e, lo, hi in zip(entries, low, high)}


def significantly_better(
    resampled: Resampled, points: Mapping[str, float], fixed: Mapping[str, float] | None = None
) -> dict[str, list[str]]:
    """For each entry and each fixed row, the ids of the rows significantly better than it.

    ``points``: the entries' point scores (each has an overall column in ``resampled``); ``fixed``: rows
    with a fixed score and no per-row scores (reported figures). ``b`` is significantly better than ``a``
    when its point score is higher *and* it scores above ``a`` in more than ``ONE_SIDED`` (95%) of the
    paired resamples: the one-sided 95% percentile-bootstrap test of ``b - a > 0``, on the same
    resamples as the intervals. A fixed row is compared as a constant; two fixed rows never (nothing to
    test). Identical entries are never significantly apart. Requiring the higher point score too makes
    the relation a part of the point order, so a rank range built on it contains the rank.

    >>> r = Resampled([("a", OVERALL), ("b", OVERALL), ("c", OVERALL)], np.array([[5.0, 1.0, 1.0]] * 20))
    >>> significantly_better(r, {"a": 5.0, "b": 1.0, "c": 1.0}, {"paper": 3.0})
    {'a': [], 'b': ['a', 'paper'], 'c': ['a', 'paper'], 'paper': ['a']}
    """
    fixed = dict(fixed or {})
    ids = list(points)
    values = resampled.overall(ids)
    draws = values.shape[0]
    point = np.array([points[e] for e in ids], dtype=np.float64)
    need = ONE_SIDED * draws  # NaN (a resample without the group) compares False: never counted as a win
    out: dict[str, list[str]] = {}
    for i, entry in enumerate(ids):
        wins = ((values > values[:, [i]]).sum(axis=0) > need) & (point > point[i])
        better = [ids[j] for j in np.flatnonzero(wins)]
        better += [f for f, c in fixed.items() if c > point[i] and (c > values[:, i]).sum() > need]
        out[entry] = better
    for name, score in fixed.items():
        wins = ((values > score).sum(axis=0) > need) & (point > score)
        out[name] = [ids[j] for j in np.flatnonzero(wins)]
    return out


def difference(resampled: Resampled, a: str, b: str, group: GroupKey = OVERALL) -> Interval | None:
    """The paired interval of ``a - b`` in ``group`` (same scenes drawn for both in each resample)."""
    left, right = resampled.column(a, group), resampled.column(b, group)
    if left is None or right is None:
        return None
    return interval(left - right)


# -- how pages write them (no computing on a request: these only format stored figures) ----------


def format_interval(value: object) -> str:
    """``[12.31, 15.02]``, or "—" without an interval.

    >>> format_interval([12.3141, 15.0]), format_interval(None)
    ('[12.31, 15.00]', '—')
    """
    pair = _pair(value)
    return "—" if pair is None else f"[{pair[0]:.2f}, {pair[1]:.2f}]"


def format_rank_range(value: object) -> str:
    """``1–3``, ``2`` when the range is one rank, "—" without one.

    >>> format_rank_range([1, 3]), format_rank_range([2, 2]), format_rank_range(None)
    ('1–3', '2', '—')
    """
    pair = _pair(value)
    if pair is None:
        return "—"
    best, worst = int(pair[0]), int(pair[1])
    return str(best) if best == worst else f"{best}–{worst}"


def format_difference(point: float | None, value: object) -> str:
    """``+3.10 [+1.20, +5.00]``: a difference with its paired interval.

    >>> format_difference(3.1, [1.2, 5.0]), format_difference(None, None)
    ('+3.10 [+1.20, +5.00]', '—')
    """
    if point is None:
        return "—"
    pair = _pair(value)
    shown = f"{point:+.2f}"
    return shown if pair is None else f"{shown} [{pair[0]:+.2f}, {pair[1]:+.2f}]"


def _pair(value: object) -> tuple[float, float] | None:
    if isinstance(value, list | tuple) and len(value) == 2 and all(isinstance(v, int | float) for v in value):
        return float(value[0]), float(value[1])
    return None
