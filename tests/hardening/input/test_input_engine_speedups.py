"""The worst-case speed-ups of the engine change no number: each equals the plain computation it replaced.

A valid row may carry 2000 points that zigzag across the image; ``benchmarks/fuzz_input.py
--worst-case`` times it. These check, bit for bit or pixel for pixel, on traces long enough
to cross every block boundary.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.spatial import cKDTree
from skimage.draw import line

from benchmarks.literal_scorer import prediction_pixels, rounded
from scoring import row
from scoring.dtw import _distances
from scoring.geometry import SEGMENT_BLOCK, line_pixels
from tests.hardening.input.input_giants import zigzag

coordinate = st.floats(-1e5, 1e5, allow_nan=False, allow_subnormal=False)


def traces(min_size: int = 1, max_size: int = 40, elements=coordinate):
    return st.lists(st.tuples(elements, elements), min_size=min_size, max_size=max_size).map(
        lambda points: np.array(points, dtype=np.float64).reshape(-1, 2)
    )


@settings(max_examples=200, deadline=None)
@given(traces(), traces())
def test_the_distance_matrix_is_bit_identical_to_the_broadcast_one(a, b):
    assert np.array_equal(_distances(a, b), np.sqrt(((a[:, None, :] - b[None, :, :]) ** 2).sum(axis=2)))


@settings(max_examples=60, deadline=None)
@given(
    traces(min_size=2, max_size=3 * SEGMENT_BLOCK, elements=st.integers(-30, 130).map(float)),
    st.integers(1, 100),
    st.integers(1, 100),
)
def test_blocked_lines_draw_the_literal_pixels_in_the_engine_order(trace, height, width):
    assert line_pixels(trace, height, width).tolist() == engine_order(trace, height, width)


def test_a_2000_point_zigzag_draws_the_literal_pixels():
    trace = np.array(zigzag(96, 72), dtype=np.float64)
    drawn = line_pixels(trace, 72, 96).tolist()
    assert drawn == engine_order(trace, 72, 96)
    assert sorted(map(tuple, drawn)) == sorted(prediction_pixels(trace, 72, 96))  # the literal scorer's pixels


def engine_order(trace: np.ndarray, height: int, width: int) -> list[list[int]]:
    """``skimage.draw.line`` per segment, as the engine orders the pixels: every segment but its last
    pixel, in turn, then every segment's last pixel (the order fixes the float sum of the penalty)."""
    points = rounded(trace)
    segments = [list(zip(*line(y0, x0, y1, x1))) for (x0, y0), (x1, y1) in zip(points[:-1], points[1:])]
    ordered = [p for segment in segments for p in segment[:-1]] + [segment[-1] for segment in segments]
    return [[r, c] for r, c in ordered if 0 <= r < height and 0 <= c < width]


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 5000), st.integers(1, 60))
def test_the_distance_transform_agrees_with_the_kd_tree_pixel_for_pixel(seed, n_pixels, n_truth):
    rng = np.random.default_rng(seed)
    height, width = int(rng.integers(1, 200)), int(rng.integers(1, 200))
    pixels = np.column_stack((rng.integers(0, height, n_pixels), rng.integers(0, width, n_pixels)))
    truth = np.unique(np.column_stack((rng.integers(0, height, n_truth), rng.integers(0, width, n_truth))), axis=0)
    distance, _ = cKDTree(truth).query(pixels, distance_upper_bound=row.NEAR_DISTANCE + 0.5)
    dense = row._far_dense(pixels, truth)
    assert np.array_equal(dense, distance > row.NEAR_DISTANCE)
