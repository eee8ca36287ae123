"""Whether figures released together determine a few rows: the exact rank test of a whole release.

Each figure of a test summary is a coverage-aware mean: the sum of its group's valid rows divided by a
count anyone can work out (invalid and missing rows count as 0 and are known). So the figures released
together determine a combination ``v · s`` of the unknown row scores ``s`` exactly when ``v`` lies in
the span ``R`` of their groups' indicator vectors. A release is *safe* when no nonzero ``v`` in ``R``
is supported on fewer than ``k`` valid rows: then no row's score, no total (so no mean) of fewer than
``k`` rows, and no difference of such totals follows from it, however the figures are combined.

Rows that lie in the same released groups (an *atom*) are told apart by no figure, so the test runs
on atoms weighted by their row counts. Some ``v`` in ``R`` is supported within a set ``T`` of atoms
exactly when deleting ``T``'s columns from the groups-by-atoms matrix lowers its rank. A ``T`` that
does meets every basis of the columns, so the search branches on the light columns of one basis
(heavy atoms taken first, as they can never be in a ``T`` under the budget): exact, and short on real
files. Its cost is bounded (``MAX_STEPS`` rank evaluations for a whole release); a release too costly to
decide keeps only the overall and per-embodiment figures, whose groups are nested and decided at once.

The single-row case is Chin & Özsoyoğlu's audit of SUM queries ("Auditing and inference control in
statistical databases", IEEE TSE 8(6), 1982): a record is compromised exactly when its unit vector
lies in the row space of the queries answered.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import scipy.linalg
from numpy.typing import NDArray

log = logging.getLogger(__name__)

MAX_STEPS = 20_000  # rank evaluations per release (about 3 s); a full honest test file needs a handful


@dataclass(frozen=True)
class Group:
    """The released figures over one set of valid rows (``score`` and ``score_valid_only`` share one)."""

    names: tuple[str, ...]
    rows: NDArray[np.bool_]  # over the submission's valid rows

    @property
    def size(self) -> int:
        return int(self.rows.sum())


class TooCostly(Exception):
    """The search spent ``MAX_STEPS`` rank evaluations without deciding."""


def merged(figures: Sequence[tuple[str, NDArray[np.bool_]]]) -> list[Group]:
    """``(name, rows)`` pairs as groups, figures over the same rows together (one equation, one group)."""
    by_rows: dict[bytes, tuple[list[str], NDArray[np.bool_]]] = {}
    for name, rows in figures:
        if rows.any():  # a figure over no valid row is 0 whatever the rows: it tells nothing
            by_rows.setdefault(np.packbits(rows).tobytes(), ([], rows))[0].append(name)
    return [Group(tuple(names), rows) for names, rows in by_rows.values()]


def atoms(groups: Sequence[Group]) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """The groups-by-atoms 0/1 matrix and each atom's row count (rows in no group are no atom: no
    released figure involves them)."""
    if not groups:
        return np.zeros((0, 0)), np.zeros(0, dtype=np.int64)
    membership = np.stack([g.rows for g in groups], axis=1)  # rows x groups
    membership = membership[membership.any(axis=1)]
    signatures, counts = np.unique(membership, axis=0, return_counts=True)
    return signatures.T.astype(np.float64), counts.astype(np.int64)


def closing(groups: Sequence[Group], k: int, max_steps: int = MAX_STEPS) -> list[Group]:
    """The groups left to release once no combination of fewer than ``k`` rows follows from them:
    while a leak is found, the smallest group whose withholding closes it goes (the largest, the overall,
    goes last); a release too costly to decide keeps its overall and per-embodiment groups only."""
    kept, left = list(groups), max_steps  # one budget for the whole release, however many searches it takes
    try:
        while True:
            search = _Search(*atoms(kept), k, left)
            found = search.run()
            left -= len(search.seen)
            if found is None:
                break
            kept.remove(_to_withhold(kept, found))
    except TooCostly:
        log.warning("disclosure audit over %d steps: keeping the overall and per-embodiment figures only", max_steps)
        nested = [g for g in kept if all(n.startswith(("score", "per_embodiment.")) for n in g.names)]
        return closing(nested, k, max_steps) if len(nested) < len(kept) else []
    return kept


def _to_withhold(groups: list[Group], found: tuple[int, ...]) -> Group:
    """The smallest group whose withholding leaves no combination within ``found`` determined (else the
    smallest group touching it)."""
    matrix, _ = atoms(groups)
    outside = np.ones(matrix.shape[1], dtype=bool)
    outside[list(found)] = False
    by_size = sorted(range(len(groups)), key=lambda i: (groups[i].size, -i))
    for i in by_size:
        rest = np.delete(matrix, i, axis=0)
        if _rank(rest[:, outside]) == _rank(rest):
            return groups[i]
    return next(groups[i] for i in by_size if matrix[i, list(found)].any())


class _Search:
    """Depth-first over sets of deleted atoms, ``budget`` = rows left under ``k``."""

    def __init__(self, matrix: NDArray[np.float64], weights: NDArray[np.int64], k: int, max_steps: int) -> None:
        self.matrix, self.weights, self.k, self.max_steps = matrix, weights, k, max_steps
        self.full = _rank(matrix)
        self.seen: set[frozenset[int]] = set()

    def run(self) -> tuple[int, ...] | None:
        if self.full == 0 or self.k <= 1:
            return None
        return self._visit(frozenset(), self.k - 1)

    def _visit(self, removed: frozenset[int], budget: int) -> tuple[int, ...] | None:
        if removed in self.seen:
            return None
        self.seen.add(removed)
        if len(self.seen) > self.max_steps:
            raise TooCostly(f"over {self.max_steps} rank evaluations")
        keep = np.ones(len(self.weights), dtype=bool)
        keep[list(removed)] = False
        heavy = keep & (self.weights > budget)
        basis = _orthonormal(self.matrix[:, heavy])
        branches: list[NDArray[np.int64]] = []
        light = keep & ~heavy
        # Light parts of bases disjoint from each other: a deletion that lowers the rank takes a column
        # of each, so when their lightest columns outweigh the budget, no deletion under it does.
        while sum(int(self.weights[b].min()) for b in branches) <= budget:
            columns = np.flatnonzero(light)
            residual = self.matrix[:, columns] - basis @ (basis.T @ self.matrix[:, columns])
            pivots = columns[_pivots(residual)]
            if basis.shape[1] + len(pivots) < self.full:
                if not branches:  # the rank is lower already: the removed atoms are a leak
                    return tuple(sorted(removed))
                break
            if not len(pivots):  # a basis of heavy atoms alone: no deletion under the budget breaks it
                return None
            branches.append(pivots)
            light[pivots] = False
        else:
            return None
        for column in min(branches, key=len):
            found = self._visit(removed | {int(column)}, budget - int(self.weights[column]))
            if found is not None:
                return found
        return None


def _tolerance(matrix: NDArray[np.float64], largest: float) -> float:
    return largest * max(matrix.shape) * np.finfo(np.float64).eps * 16


def _rank(matrix: NDArray[np.float64]) -> int:
    return int(np.linalg.matrix_rank(matrix)) if matrix.size else 0


def _orthonormal(matrix: NDArray[np.float64]) -> NDArray[np.float64]:
    """An orthonormal basis of the column span (rows x rank)."""
    if not matrix.size:
        return np.zeros((matrix.shape[0], 0))
    u, s, _ = np.linalg.svd(matrix, full_matrices=False)
    return u[:, s > _tolerance(matrix, float(s[0]) if s.size else 0.0)]


def _pivots(matrix: NDArray[np.float64]) -> NDArray[np.int64]:
    """Indices of columns forming a basis of the column span (pivoted QR)."""
    if not matrix.size:
        return np.zeros(0, dtype=np.int64)
    r, order = scipy.linalg.qr(matrix, mode="r", pivoting=True)
    diagonal = np.abs(np.diag(r))
    rank = int((diagonal > _tolerance(matrix, max(float(diagonal[0]) if diagonal.size else 0.0, 1.0))).sum())
    return np.asarray(order[:rank], dtype=np.int64)
