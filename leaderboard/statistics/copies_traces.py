"""One submission's traces, compact and aligned to its split's rows, and how closely two of them match.

The numeric core of duplicate detection (``leaderboard.statistics.copies``): files in, arrays out, no store.
A submission is parsed with the scoring library's own reader (``scoring.submission.read_submission``,
``scoring.prediction.parse_prediction``), then kept as a few arrays indexed by the split's expected
rows (``AnswerKey.expected_rows`` order), so comparing two submissions is array work without a
Python loop over rows:

- ``counts[r]``: the row's points; ``MISSING`` (-1) when the file has no such row, 0 when its
  prediction is invalid (not JSON, one point, ...);
- ``offsets[r]``: where its points start in ``points`` (float64, shape (P, 2));
- ``cells[r]``: for an invalid row, a hash of its stripped cell (two identical invalid cells are an
  exact match: a copy of an entry's failures is still a copy), 0 otherwise;
- ``curves[r]``: a valid row's trace resampled by arc length (``copies_curves``).

Two rows are *near* when their curves lie within ``copies_curves.NEAR_PX`` of each other, whatever
their points (shifted, jittered, resampled, one point added): what decides a likely copy. Two rows
*match within 1 px* when both hold the same number of points and every point of one is within
``TOLERANCE_PX`` of the other's point at the same position in Chebyshev distance
(``max(|dx|, |dy|) <= 1``), and are *exact* when every coordinate is equal: both are reported
beside the near share, to say how the copy was made.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from leaderboard.statistics.copies_curves import NEAR_PX, curves, lower_bounds, towards, upper_bounds
from scoring.answer_key import AnswerKey
from scoring.prediction import parse_prediction
from scoring.submission import read_submission

MISSING = -1  # counts[r] of a row the file does not have
TOLERANCE_PX = 1.0  # Chebyshev distance within which two points are "the same" (see the module docstring)
_EPS = 1e-9  # coordinates parsed from decimal text: 720.1 - 719.1 is 1.0000000000000227
CHUNK_ROWS = 64  # rows compared per step between early-exit checks (an unrelated file fails in the first)


@dataclass(frozen=True)
class Traces:
    """One submission's predictions, aligned to the split's expected rows (see the module docstring)."""

    counts: NDArray[np.int32]
    offsets: NDArray[np.int64]
    points: NDArray[np.float64]
    cells: NDArray[np.int64]
    curves: NDArray[np.float32]  # (rows, 2, CURVE_POINTS): ``copies_curves.curves`` of the above

    @property
    def rows(self) -> int:
        """Rows the file answers (expected rows it has, valid or not)."""
        return int(np.count_nonzero(self.counts != MISSING))

    @property
    def nbytes(self) -> int:
        return self.counts.nbytes + self.offsets.nbytes + self.points.nbytes + self.cells.nbytes + self.curves.nbytes


@dataclass(frozen=True)
class Match:
    """How much of a new submission matches an earlier one, over the new one's rows."""

    share: float  # rows matching within 1 px (exact ones included), 0-1
    exact_share: float  # rows identical, 0-1
    rows: int  # the new submission's rows
    near_share: float = 0.0  # rows whose curves lie within NEAR_PX (identical invalid cells included), 0-1


def row_positions(key: AnswerKey) -> dict[tuple[str, str], int]:
    """``(sample_id, embodiment)`` -> its position among the split's expected rows."""
    return {(sample.sample_id, embodiment): i for i, (sample, embodiment) in enumerate(key.expected_rows())}


def parse_traces(data: bytes, key: AnswerKey, positions: dict[tuple[str, str], int]) -> Traces:
    """A stored upload as ``Traces`` (``SubmissionError`` if the file cannot be read at all)."""
    submission = read_submission(data, key)
    counts = np.full(len(positions), MISSING, dtype=np.int32)
    cells = np.zeros(len(positions), dtype=np.int64)
    found: list[tuple[int, NDArray[np.float64]]] = []
    for row in submission.rows:
        at = positions[(row.sample_id, row.embodiment)]  # read_submission checked both against the key
        trace = parse_prediction(row.prediction).trace
        if trace is None:
            counts[at] = 0
            cells[at] = _cell_hash(row.prediction)
        else:
            counts[at] = len(trace)
            found.append((at, trace))
    found.sort(key=lambda pair: pair[0])
    offsets = np.zeros(len(positions), dtype=np.int64)
    start = 0
    for at, trace in found:
        offsets[at] = start
        start += len(trace)
    points = np.concatenate([t for _, t in found]) if found else np.zeros((0, 2), dtype=np.float64)
    points = np.ascontiguousarray(points, dtype=np.float64)
    return Traces(counts, offsets, points, cells, curves(counts, offsets, points))


def compare(new: Traces, old: Traces, need: float) -> Match | None:
    """How ``new`` matches ``old``; ``None`` as soon as fewer than ``need`` (a share, 0-1) of its rows can be near.

    Rows are settled cheaply first: near when points of equal parameter already lie within ``NEAR_PX``
    (``upper_bounds``), far when even the bounding boxes do not (``lower_bounds``); only the rest are
    compared as curves, the likeliest far ones first, in chunks, stopping once the near rows so far plus
    the rows left cannot reach ``need``. An unrelated file is dropped on the bounds or the first chunks.
    """
    rows = new.rows
    if rows == 0 or len(new.counts) != len(old.counts):
        return None
    wanted = need * rows - _EPS
    same_cell = (new.counts == 0) & (old.counts == 0) & (new.cells == old.cells)
    both = np.flatnonzero((new.counts >= 2) & (old.counts >= 2))
    near = int(np.count_nonzero(same_cell))
    if near + len(both) < wanted:
        return None
    a, b = new.curves[both], old.curves[both]
    upper = upper_bounds(a, b)
    settled = upper <= NEAR_PX
    near += int(np.count_nonzero(settled))
    open_ = ~settled
    open_[open_] = lower_bounds(a[open_], b[open_]) <= NEAR_PX
    left = int(np.count_nonzero(open_))
    if near + left < wanted:
        return None
    order = np.flatnonzero(open_)[np.argsort(-upper[open_], kind="stable")]
    for start in range(0, len(order), CHUNK_ROWS):
        chunk = order[start : start + CHUNK_ROWS]
        left -= len(chunk)
        # curve_distance, one direction at a time: the first says "far" for most rows of an unrelated file.
        chunk = chunk[towards(a[chunk], b[chunk]) <= NEAR_PX]
        near += int(np.count_nonzero(towards(b[chunk], a[chunk]) <= NEAR_PX))
        if near + left < wanted:
            return None
    within, identical = _points(new, old)
    exact = int(np.count_nonzero(same_cell))
    return Match((within + exact) / rows, (identical + exact) / rows, rows, near / rows)


def _points(new: Traces, old: Traces) -> tuple[int, int]:
    """Valid rows with the same point counts matching within 1 px, and identical (reported, not decisive)."""
    same_count = np.flatnonzero((new.counts >= 2) & (new.counts == old.counts))
    within = identical = 0
    for start in range(0, len(same_count), CHUNK_ROWS):
        w, i = _chunk(new, old, same_count[start : start + CHUNK_ROWS])
        within, identical = within + w, identical + i
    return within, identical


def _chunk(new: Traces, old: Traces, chunk: NDArray[np.intp]) -> tuple[int, int]:
    """Rows of ``chunk`` (same point counts in both) matching within 1 px, and identical."""
    counts = new.counts[chunk].astype(np.int64)
    starts = np.concatenate(([0], np.cumsum(counts)[:-1]))  # where each row begins in the gathered points
    step = np.arange(int(counts.sum())) - np.repeat(starts, counts)  # 0, 1, ... within each row
    a = new.points[np.repeat(new.offsets[chunk], counts) + step]
    b = old.points[np.repeat(old.offsets[chunk], counts) + step]
    distance = np.abs(a - b).max(axis=1)  # Chebyshev, per point
    worst = np.maximum.reduceat(distance, starts)  # per row (every row has >= 2 points: no empty segment)
    return int(np.count_nonzero(worst <= TOLERANCE_PX + _EPS)), int(np.count_nonzero(worst == 0.0))


def _cell_hash(cell: str) -> int:
    """A stable 63-bit hash of an invalid cell's text (its words, not its length, tell copies apart)."""
    digest = hashlib.blake2b(cell.strip().encode("utf-8", "surrogatepass"), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1 or 1  # never 0: 0 marks "no invalid cell here"
