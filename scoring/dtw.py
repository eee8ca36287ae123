"""Dynamic time warping distance of the NaviTrace metric (docs/METRIC.md, step 5)."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray


def dtw_distance(a: NDArray[np.float64], b: NDArray[np.float64]) -> float:
    """Sum of Euclidean distances along the cheapest monotone alignment of ``a`` and ``b``.

    ``D(0,0) = 0``; ``D(i,j) = |a_i - b_j| + min(D(i-1,j), D(i,j-1), D(i-1,j-1))``; the value
    is ``D(n,m)``. Units: pixels; 0 for identical traces; lower is better.

    Each row of the table is computed at once: with ``A(j) = min(D(i-1,j), D(i-1,j-1))`` the
    recurrence along the row unrolls to ``D(i,j) = C(j) + min_{k<=j}(A(k) - C(k-1))`` where
    ``C`` is the running sum of the row's costs, a prefix minimum numpy does in C.

    >>> dtw_distance(np.array([[0.0, 0.0], [1.0, 1.0]]), np.array([[0.0, 0.0], [1.0, 1.0]]))
    0.0
    >>> round(dtw_distance(np.array([[0.0, 0.0]]), np.array([[3.0, 4.0], [0.0, 0.0]])), 9)
    5.0
    """
    if len(a) == 0 or len(b) == 0:
        raise ValueError(f"expected two non-empty traces, but got lengths {len(a)} and {len(b)}")
    if len(a) < len(b):
        a, b = b, a  # the row loop runs over the longer trace, vectors over the shorter
    cost = _distances(a, b)
    previous = np.full(len(b) + 1, np.inf)
    previous[0] = 0.0
    for row in cost:
        entry = np.minimum(previous[1:], previous[:-1])  # A(j): from above or diagonal
        running = np.cumsum(row)
        before = np.concatenate(([0.0], running[:-1]))
        current = np.empty_like(previous)
        current[0] = np.inf
        current[1:] = running + np.minimum.accumulate(entry - before)
        previous = current
    return float(previous[-1])


def _distances(a: NDArray[np.float64], b: NDArray[np.float64]) -> NDArray[np.float64]:
    """``|a_i - b_j|`` for every pair, in place on one ``(n, m)`` array.

    Bit for bit ``sqrt(((a[:, None] - b[None]) ** 2).sum(axis=2))`` (the same operations in the
    same order), without its two ``(n, m, 2)`` temporaries: 9x faster at 2000 x 2000 points, the
    largest valid trace, where it dominated the DTW time.
    """
    dx = np.subtract.outer(a[:, 0], b[:, 0])
    dy = np.subtract.outer(a[:, 1], b[:, 1])
    np.multiply(dx, dx, out=dx)
    np.multiply(dy, dy, out=dy)
    np.add(dx, dy, out=dx)
    return np.sqrt(dx, out=dx)
