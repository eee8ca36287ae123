"""Traces compared as curves: how far apart two rows' traces lie, whatever their points.

A copy need not keep the points: shifted by a few pixels, jittered, resampled to other points or given
one more point, it is still the same curve. So each valid trace is resampled by arc length to
``CURVE_POINTS`` points (the scorer's own rule, docs/METRIC.md step 2: cumulative Euclidean length scaled to
[0, 1], equally spaced parameters, linear interpolation), and two rows are *near* when
``curve_distance`` is at most ``NEAR_PX``.

``curve_distance`` is a symmetric median closest-point distance: the median, over one curve's points,
of their distance to the other curve (its polyline), and the larger of the two directions. The
closest point (not the point of the same parameter) lets another spacing of the points along the same
path cost nothing; the median lets a few points off the path (one added far away) cost nothing; the
larger direction keeps a short trace from matching a piece of a long one. All of it is array work over
many rows at once: (rows, ``CURVE_POINTS``, ``CURVE_POINTS`` - 1) point-to-segment distances.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

CURVE_POINTS = 16  # points a trace is resampled to: a few pixels apart on a 1440 x 1080 image's path of ~500 px
NEAR_PX = 5.0  # two rows whose curves lie this close are "the same trace" (a 3 px jitter moves a curve ~2 px)


def resampled(trace: NDArray[np.float64], points: int = CURVE_POINTS) -> NDArray[np.float64]:
    """``trace`` (n, 2) resampled by arc length to ``points`` points; a zero-length trace is its point repeated.

    >>> resampled(np.array([[0.0, 0.0], [0.0, 4.0], [4.0, 4.0]]), 3).tolist()
    [[0.0, 0.0], [0.0, 4.0], [4.0, 4.0]]
    >>> resampled(np.array([[0.0, 0.0], [0.0, 1.0], [0.0, 4.0]]), 3).tolist()  # other points, same path
    [[0.0, 0.0], [0.0, 2.0], [0.0, 4.0]]
    """
    steps = np.hypot(*np.diff(trace, axis=0).T)
    length = np.concatenate(([0.0], np.cumsum(steps)))
    if length[-1] <= 0.0:
        return np.repeat(trace[:1], points, axis=0)
    at = np.linspace(0.0, 1.0, points)
    along = length / length[-1]
    return np.column_stack((np.interp(at, along, trace[:, 0]), np.interp(at, along, trace[:, 1])))


def curves(counts: NDArray[np.int32], offsets: NDArray[np.int64], points: NDArray[np.float64]) -> NDArray[np.float32]:
    """Every valid row's trace resampled, as (rows, 2, ``CURVE_POINTS``): x and y apart, so that each
    reduction runs over contiguous memory; zeros for a missing or invalid row. Single precision: a tenth
    of a pixel is plenty, and the comparison runs twice as fast."""
    out = np.zeros((len(counts), 2, CURVE_POINTS), dtype=np.float32)
    for row in np.flatnonzero(counts >= 2):
        start = int(offsets[row])
        out[row] = resampled(points[start : start + int(counts[row])]).T
    return out


def upper_bounds(a: NDArray[np.float32], b: NDArray[np.float32]) -> NDArray[np.float32]:
    """A cheap bound above ``curve_distance`` per row: the median distance between points at the same place
    along both curves (each is at least as far as the closest point of the other). ``a``, ``b``: ``curves``."""
    gap = a - b
    return _median(gap[:, 0] ** 2 + gap[:, 1] ** 2)


def lower_bounds(a: NDArray[np.float32], b: NDArray[np.float32]) -> NDArray[np.float32]:
    """A cheap bound below ``curve_distance`` per row: the same medians, to the other curve's bounding box
    (no point of a curve is nearer than its box)."""
    return np.maximum(_to_box(a, b), _to_box(b, a))


def curve_distance(a: NDArray[np.float32], b: NDArray[np.float32]) -> NDArray[np.float32]:
    """Per row, the symmetric median closest-point distance between ``curves`` ``a`` and ``b``, in px.

    >>> line = np.array([[[0.0, 0.0, 0.0], [0.0, 10.0, 20.0]]])  # one row: x, then y
    >>> curve_distance(line, line + [[3.0], [0.0]]).tolist()  # shifted 3 px sideways
    [3.0]
    >>> curve_distance(line, np.array([[[0.0, 0.0, 0.0], [0.0, 5.0, 20.0]]])).tolist()  # other points, same path
    [0.0]
    """
    return np.maximum(towards(a, b), towards(b, a))


def towards(a: NDArray[np.float32], b: NDArray[np.float32]) -> NDArray[np.float32]:
    """Per row, the median over ``a``'s points of their distance to ``b``'s polyline: one direction of
    ``curve_distance``, enough to call a row far."""
    ax, ay = a[:, 0, :, None], a[:, 1, :, None]  # (rows, points, 1)
    sx, sy = b[:, None, 0, :-1], b[:, None, 1, :-1]  # (rows, 1, segments)
    dx, dy = np.diff(b[:, 0], axis=1)[:, None, :], np.diff(b[:, 1], axis=1)[:, None, :]
    squared = dx * dx + dy * dy
    ox, oy = ax - sx, ay - sy
    along = np.clip((ox * dx + oy * dy) / np.where(squared > 0, squared, 1), 0, 1)
    gx, gy = ox - along * dx, oy - along * dy
    return _median((gx * gx + gy * gy).min(axis=2))


def _to_box(a: NDArray[np.float32], b: NDArray[np.float32]) -> NDArray[np.float32]:
    low, high = b.min(axis=2)[:, :, None], b.max(axis=2)[:, :, None]
    outside = np.maximum(np.maximum(low - a, a - high), 0)
    return _median(outside[:, 0] ** 2 + outside[:, 1] ** 2)


def _median(squared: NDArray[np.float32]) -> NDArray[np.float32]:
    """Per row, the square root of the upper median of squared distances (rows, points): a partial sort."""
    middle = squared.shape[1] // 2
    return np.sqrt(np.partition(squared, middle, axis=1)[:, middle])
