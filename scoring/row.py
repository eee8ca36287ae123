"""Scoring one row: a predicted trace against the ground-truth traces of its embodiment.

``score_row`` knows nothing of files or datasets: numpy in, a ``RowScore`` out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from scipy.ndimage import distance_transform_edt
from scipy.spatial import cKDTree

from scoring.dtw import dtw_distance
from scoring.geometry import Pixels, Trace, line_pixels, rasterise_truth, resample
from scoring.penalty_table import penalties_at
from scoring.prediction import Reason

NEAR_DISTANCE = 35.0  # docs/METRIC.md step 1: pixels this close to the ground truth cost nothing
NAVITRACE_BASELINE_RAW = 3234.75  # docs/METRIC.md: mean raw score of the straight-forward trace
# A distance transform costs ~50 ns a box pixel, a KD-tree query ~100 ns a pixel (2 cores, 1440x1080).
DENSE_BOX_RATIO = 2
MARGIN = int(NEAR_DISTANCE) + 1  # px around the predicted pixels holding every truth pixel near them


@dataclass(frozen=True)
class GroundTruth:
    """One expert trace and its anti-aliased raster (computed once, in the answer key)."""

    points: Trace
    pixels: Pixels

    @classmethod
    def from_points(cls, points: Trace, height: int, width: int) -> GroundTruth:
        points = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        return cls(points, rasterise_truth(points, height, width))


@dataclass(frozen=True)
class RowScore:
    """The score of one (sample, embodiment) row and its components.

    ``status`` is ``valid``, ``invalid`` or ``missing``; the numbers are ``None`` unless valid.
    ``score`` is the normalised score (100 perfect, 0 the straight-forward baseline, higher is
    better); ``raw = dtw + fde + penalty`` in pixels (lower is better); ``best_gt`` is the index
    of the ground-truth trace that gave the lowest raw score.
    """

    status: str
    reason: str | None = None
    score: float | None = None
    dtw: float | None = None
    fde: float | None = None
    penalty: float | None = None
    raw: float | None = None
    best_gt: int | None = None

    @classmethod
    def invalid(cls, reason: str) -> RowScore:
        return cls("invalid", reason)

    @classmethod
    def missing(cls) -> RowScore:
        return cls("missing", Reason.MISSING)


def normalise(raw: float, baseline_raw: float) -> float:
    """``(B - raw) / B * 100``: 100 for a perfect trace, 0 at the straight-forward baseline.

    >>> normalise(0.0, 3234.75), normalise(3234.75, 3234.75)
    (100.0, 0.0)
    """
    return (baseline_raw - raw) / baseline_raw * 100.0


def score_row(
    prediction: Trace,
    truths: Sequence[GroundTruth],
    labels: NDArray[np.integer],
    embodiment: str,
    baseline_raw: float = NAVITRACE_BASELINE_RAW,
) -> RowScore:
    """Score a parsed prediction (``(n, 2)`` pixel points) against ``truths`` (docs/METRIC.md).

    ``labels`` is the ``H x W`` segmentation mask (any integer array, a memmap is fine: only
    the pixels the predicted line crosses are read).
    """
    if not truths:
        return RowScore.invalid(Reason.NO_TRUTH)
    height, width = labels.shape
    current = np.asarray(prediction, dtype=np.float64)
    pixels = line_pixels(current, height, width)
    costs = penalties_at(labels[pixels[:, 0], pixels[:, 1]], embodiment)
    best: tuple[float, float, float, float, int] | None = None
    for index, truth in enumerate(truths):
        carried = carried_over(current, truth)
        if carried is not current:
            current = carried
            pixels = line_pixels(current, height, width)
            costs = penalties_at(labels[pixels[:, 0], pixels[:, 1]], embodiment)
        reference = truth.points if len(truth.points) == len(current) else resample(truth.points, len(current))
        if len(pixels) == 0:
            continue
        penalty = semantic_penalty(pixels, costs, truth.pixels)
        fde = float(np.hypot(*(current[-1] - reference[-1])))
        dtw = dtw_distance(current, reference)
        raw = dtw + fde + penalty
        if np.isfinite(raw) and (best is None or raw < best[0]):
            best = (raw, dtw, fde, penalty, index)
    if best is None:
        return RowScore.invalid(Reason.OFF_IMAGE)
    raw, dtw, fde, penalty, index = best
    return RowScore("valid", None, normalise(raw, baseline_raw), dtw, fde, penalty, raw, index)


def carried_over(prediction: Trace, truth: GroundTruth) -> Trace:
    """The prediction compared with ``truth`` (docs/METRIC.md step 2, the reference's carry-over).

    A prediction shorter than the truth is resampled to the truth's length, and the resampled
    trace replaces it for every later truth; a longer or equal one is kept as it is.
    """
    return resample(prediction, len(truth.points)) if len(prediction) < len(truth.points) else prediction


def prediction_as_compared(prediction: Trace, truths: Sequence[GroundTruth], index: int) -> Trace:
    """The prediction exactly as ``score_row`` compared it with ``truths[index]``."""
    current = np.asarray(prediction, dtype=np.float64)
    for truth in truths[: index + 1]:
        current = carried_over(current, truth)
    return current


def semantic_penalty(pixels: Pixels, costs: NDArray[np.float64], truth_pixels: Pixels) -> float:
    """Mean penalty over the predicted line's pixels (docs/METRIC.md step 3).

    A pixel costs its label's penalty only when it lies more than 35 px (Euclidean, in
    (row, col) units) from every rasterised ground-truth pixel; the distance is looked up
    for the charged pixels alone instead of building the full-image field.
    """
    charged = np.flatnonzero(costs > 0.0)
    if len(charged) == 0:
        return 0.0
    if len(truth_pixels) == 0:
        return float(costs.sum() / len(costs))  # no ground-truth pixel: every pixel is far
    far = _far(pixels[charged], truth_pixels)
    return float(costs[charged][far].sum() / len(costs))


def _far(pixels: Pixels, truth_pixels: Pixels) -> NDArray[np.bool_]:
    """Whether each pixel lies more than 35 px from every ground-truth pixel.

    A KD-tree query per pixel, or, for many pixels packed in a small box (a 2000-point zigzag
    across the image draws millions), one distance transform of that box (``_far_dense``).
    """
    extent = pixels.max(axis=0) - pixels.min(axis=0) + 2 * MARGIN + 1
    if int(extent[0]) * int(extent[1]) <= DENSE_BOX_RATIO * len(pixels):
        return _far_dense(pixels, truth_pixels)
    # Lattice distances between 35 and 35.5 exist (sqrt(1226)), so bound above 35 and compare.
    distance, _ = cKDTree(truth_pixels).query(pixels, distance_upper_bound=NEAR_DISTANCE + 0.5)
    return distance > NEAR_DISTANCE


def _far_dense(pixels: Pixels, truth_pixels: Pixels) -> NDArray[np.bool_]:
    """``_far`` by an exact Euclidean distance transform of the pixels' box grown by ``MARGIN``.

    Every truth pixel within 35 px of a pixel lies in that box, and both this and the KD-tree
    compare exact distances of integer offsets with 35, so they agree pixel for pixel.
    """
    origin = pixels.min(axis=0) - MARGIN
    shape = pixels.max(axis=0) - origin + MARGIN + 1
    near = truth_pixels - origin
    near = near[(near >= 0).all(axis=1) & (near < shape).all(axis=1)]
    if len(near) == 0:
        return np.ones(len(pixels), dtype=bool)
    background = np.ones((int(shape[0]), int(shape[1])), dtype=bool)
    background[near[:, 0], near[:, 1]] = False
    distance = distance_transform_edt(background)
    return distance[pixels[:, 0] - origin[0], pixels[:, 1] - origin[1]] > NEAR_DISTANCE
