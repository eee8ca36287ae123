"""A literal, slow implementation of docs/METRIC.md, written the way the published scorer works.

It is the oracle the golden cases (``tests/scoring/golden/``) are generated from and the "before"
figure of the speed benchmark, so it is written to be obviously right, not fast, and shares
no code with ``scoring/``: for every ground-truth trace it builds the full-image penalty field
with a KD-tree query over every pixel, draws lines with ``skimage.draw``, and runs DTW as a
plain Python double loop. Only the penalty table file is shared (read here with ``csv``).

Run it as a script to time it on a synthetic 1440x1080 scene::

    .venv/bin/python benchmarks/literal_scorer.py
"""

from __future__ import annotations

import csv
import json
import math
import time
from functools import lru_cache
from pathlib import Path

import numpy as np
from scipy.spatial import cKDTree
from skimage.draw import line, line_aa

TABLE_PATH = Path(__file__).resolve().parent.parent / "scoring" / "category_penalty.tsv"
EMBODIMENTS = ("Human", "Legged Robot", "Wheeled Robot", "Bicycle")
PENALTY_SCALE = 0.8  # docs/METRIC.md, "What is scored": each table value is multiplied by 0.8
NEAR_DISTANCE = 35  # docs/METRIC.md step 1: penalty only where d(p) > 35
MIN_POINTS, MAX_POINTS, MAX_ABS = 2, 2000, 100000  # docs/METRIC.md, "Valid, invalid and missing rows"
BASELINE_RAW = 3234.75  # docs/METRIC.md: B for NaviTrace


@lru_cache(maxsize=1)
def penalty_table() -> dict[int, dict[str, float]]:
    """``{label id: {embodiment: 0.8 * table value}}`` read from ``category_penalty.tsv``."""
    with open(TABLE_PATH, encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    return {int(row["id"]): {e: PENALTY_SCALE * float(row[e]) for e in EMBODIMENTS} for row in rows}


# --- validity -------------------------------------------------------------------------------


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def parse_cell(cell: str) -> tuple[list[list[float]] | None, str | None]:
    """The prediction's points, or ``None`` and why the cell is invalid."""
    try:
        value = json.loads(cell)
    except (ValueError, RecursionError):
        return None, "not JSON"
    if not isinstance(value, list) or not all(isinstance(p, list) and len(p) == 2 for p in value):
        return None, "not a list of [x, y] pairs"
    if not all(_is_number(c) for p in value for c in p):
        return None, "coordinate not a number"
    if len(value) < MIN_POINTS:
        return None, "fewer than 2 points"
    if len(value) > MAX_POINTS:
        return None, "more than 2000 points"
    if any(isinstance(c, float) and not math.isfinite(c) for p in value for c in p):
        return None, "non-finite coordinate"
    if any(abs(c) > MAX_ABS for p in value for c in p):
        return None, "coordinate beyond 100000"
    return [[float(x), float(y)] for x, y in value], None


# --- the procedure --------------------------------------------------------------------------


def rounded(trace: np.ndarray) -> list[tuple[int, int]]:
    """``(x, y)`` rounded half to even with Python's ``round``."""
    return [(round(float(x)), round(float(y))) for x, y in trace]


def truth_pixels(truth: np.ndarray, height: int, width: int) -> list[tuple[int, int]]:
    """Step 1: in-image ``(row, col)`` pixels of ``line_aa`` between consecutive rounded points."""
    points = rounded(truth)
    if len(points) == 1:
        pixels = [(points[0][1], points[0][0])]
    else:
        pixels = []
        for (x0, y0), (x1, y1) in zip(points[:-1], points[1:]):
            rows, cols, _ = line_aa(y0, x0, y1, x1)
            pixels.extend(zip(rows.tolist(), cols.tolist()))
    return [(r, c) for r, c in pixels if 0 <= r < height and 0 <= c < width]


def penalty_field(truth: np.ndarray, labels: np.ndarray, embodiment: str) -> np.ndarray:
    """Step 1: the ``H x W`` penalty of every pixel with respect to one ground-truth trace."""
    height, width = labels.shape
    table = penalty_table()
    cost = np.zeros((height, width))
    for label in np.unique(labels).tolist():
        cost[labels == label] = table[label][embodiment] if label in table else 0.0
    pixels = truth_pixels(truth, height, width)
    if not pixels:
        return cost  # no ground-truth pixel: every pixel is far
    rows, cols = np.mgrid[0:height, 0:width]
    every_pixel = np.column_stack((rows.ravel(), cols.ravel()))
    distance, _ = cKDTree(np.array(pixels)).query(every_pixel)
    far = distance.reshape(height, width) > NEAR_DISTANCE
    return np.where(far, cost, 0.0)


def resample(trace: np.ndarray, length: int) -> np.ndarray:
    """Step 2: ``length`` points equally spaced in cumulative Euclidean arc length."""
    if len(trace) == 1:
        return np.repeat(trace[:1], length, axis=0)
    arc = np.concatenate(([0.0], np.cumsum(np.linalg.norm(np.diff(trace, axis=0), axis=1))))
    if arc[-1] == 0:
        return np.repeat(trace[:1], length, axis=0)
    where = arc / arc[-1]
    at = np.linspace(0, 1, length)
    return np.column_stack((np.interp(at, where, trace[:, 0]), np.interp(at, where, trace[:, 1])))


def prediction_pixels(trace: np.ndarray, height: int, width: int) -> list[tuple[int, int]]:
    """Step 3: in-image pixels of ``skimage.draw.line`` per segment, concatenated."""
    points = rounded(trace)
    pixels = []
    for (x0, y0), (x1, y1) in zip(points[:-1], points[1:]):
        rows, cols = line(y0, x0, y1, x1)
        pixels.extend(zip(rows.tolist(), cols.tolist()))
    return [(r, c) for r, c in pixels if 0 <= r < height and 0 <= c < width]


def dtw(a: np.ndarray, b: np.ndarray) -> float:
    """Step 5: ``D(0,0)=0``, ``D(i,j) = |a_i - b_j| + min(D(i-1,j), D(i,j-1), D(i-1,j-1))``."""
    a_points, b_points = a.tolist(), b.tolist()
    n, m = len(a_points), len(b_points)
    table = [[math.inf] * (m + 1) for _ in range(n + 1)]
    table[0][0] = 0.0
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            cost = math.dist(a_points[i - 1], b_points[j - 1])
            table[i][j] = cost + min(table[i - 1][j], table[i][j - 1], table[i - 1][j - 1])
    return table[n][m]


def literal_score_row(
    prediction_cell: str,
    gt_traces: list[list[list[float]]],
    mask: np.ndarray,
    embodiment: str,
    baseline_raw: float = BASELINE_RAW,
) -> dict:
    """Score one row by the letter of docs/METRIC.md.

    Returns ``status`` ('valid' | 'invalid'), ``score``, ``dtw``, ``fde``, ``penalty``, ``raw``,
    ``best_gt`` (all ``None`` when invalid), plus ``reason`` (why invalid, else ``None``) and
    ``per_gt``: ``[dtw, fde, penalty, raw]`` of every ground-truth trace, ``None`` when it gave
    no finite raw score.
    """
    points, reason = parse_cell(prediction_cell)
    if points is None:
        return _invalid(reason, [])
    labels = np.asarray(mask)
    height, width = labels.shape
    prediction = np.array(points, dtype=np.float64)
    per_gt: list[list[float] | None] = []
    for truth_points in gt_traces:
        truth = np.array(truth_points, dtype=np.float64).reshape(-1, 2)
        field = penalty_field(truth, labels, embodiment)  # from the original trace
        if len(prediction) < len(truth):
            prediction = resample(prediction, len(truth))  # carry-over: kept for later traces
        if len(truth) < len(prediction):
            truth = resample(truth, len(prediction))
        pixels = prediction_pixels(prediction, height, width)
        if not pixels:
            per_gt.append(None)
            continue
        penalty = sum(float(field[r, c]) for r, c in pixels) / len(pixels)
        fde = math.dist(prediction[-1].tolist(), truth[-1].tolist())
        distance = dtw(prediction, truth)
        raw = distance + fde + penalty
        per_gt.append([distance, fde, penalty, raw] if math.isfinite(raw) else None)
    finite = [(entry[3], index) for index, entry in enumerate(per_gt) if entry is not None]
    if not finite:
        return _invalid("no ground-truth trace" if not gt_traces else "no point of the trace in the image", per_gt)
    raw, best = min(finite)  # ties: the first index
    distance, fde, penalty, _ = per_gt[best]
    score = (baseline_raw - raw) / baseline_raw * 100
    return dict(
        status="valid",
        reason=None,
        score=score,
        dtw=distance,
        fde=fde,
        penalty=penalty,
        raw=raw,
        best_gt=best,
        per_gt=per_gt,
    )


def _invalid(reason: str | None, per_gt: list) -> dict:
    return dict(
        status="invalid",
        reason=reason,
        score=None,
        dtw=None,
        fde=None,
        penalty=None,
        raw=None,
        best_gt=None,
        per_gt=per_gt,
    )


# --- timing ---------------------------------------------------------------------------------


def synthetic_scene(seed: int = 0, height: int = 1080, width: int = 1440, n_truths: int = 3, n_points: int = 30):
    """A blocky random label mask, ``n_truths`` wavy bottom-to-top traces and a prediction cell."""
    rng = np.random.default_rng(seed)
    blocks = rng.integers(0, 65, size=(height // 60 + 1, width // 60 + 1))
    mask = np.kron(blocks, np.ones((60, 60), dtype=np.int64))[:height, :width]
    truths = []
    for _ in range(n_truths):
        ys = np.linspace(height - 1, height * rng.uniform(0.2, 0.5), n_points)
        xs = width / 2 + np.cumsum(rng.normal(0, 15, n_points))
        truths.append(np.column_stack((xs, ys)).tolist())
    cell = json.dumps([[int(width / 2), height - 1], [int(width / 2 + 40), height // 2], [int(width / 2), height // 3]])
    return cell, truths, mask


def main() -> None:
    cell, truths, mask = synthetic_scene()
    start = time.perf_counter()
    for truth in truths:
        penalty_field(np.array(truth), mask, "Human")
    per_field = (time.perf_counter() - start) / len(truths)
    start = time.perf_counter()
    result = literal_score_row(cell, truths, mask, "Human")
    per_row = time.perf_counter() - start
    print(
        f"1440x1080, {len(truths)} truths of {len(truths[0])} points: "
        f"{per_field:.2f} s per ground-truth field, {per_row:.2f} s per row (score {result['score']:.3f})"
    )


if __name__ == "__main__":
    main()
