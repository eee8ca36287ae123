"""Property tests of the scoring engine (DTW, FDE, resampling, whole rows against the literal scorer)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.literal_scorer import dtw as naive_dtw
from benchmarks.literal_scorer import literal_score_row
from scoring.dtw import dtw_distance
from scoring.geometry import resample
from scoring.penalty_table import EMBODIMENTS
from scoring.prediction import parse_prediction
from scoring.row import GroundTruth, score_row

TOLERANCE = 1e-6  # the golden-case tolerance (tests/scoring/golden/README.md)
LABELS = [0, 2, 8, 11, 13, 15, 17, 29, 55, 64, 65, 255, 300, -1]  # incl. zero-penalty and off-table ids
ZERO_PENALTY_LABEL = 8  # Crosswalk - Plain: 0 for every embodiment

coordinate = st.floats(min_value=-1000, max_value=1000, allow_nan=False, allow_subnormal=False)
halves = st.integers(min_value=-40, max_value=140).map(lambda v: v / 2)  # exact .5 values, some off-image


def traces(elements=coordinate, min_size: int = 1, max_size: int = 25):
    return st.lists(st.tuples(elements, elements), min_size=min_size, max_size=max_size).map(
        lambda points: np.array(points, dtype=np.float64).reshape(-1, 2)
    )


def engine(prediction: np.ndarray, truths: list[np.ndarray], labels: np.ndarray, embodiment: str = "Human"):
    ground = [GroundTruth.from_points(t, *labels.shape) for t in truths]
    return score_row(prediction, ground, labels, embodiment)


# --- DTW ------------------------------------------------------------------------------------


@given(traces())
def test_dtw_of_a_trace_with_itself_is_zero(a):
    assert dtw_distance(a, a) == pytest.approx(0.0, abs=1e-9)


@given(traces(), traces())
def test_dtw_is_symmetric(a, b):
    assert dtw_distance(a, b) == pytest.approx(dtw_distance(b, a), rel=1e-9, abs=1e-9)


@given(traces(), traces())
def test_dtw_equals_the_naive_double_loop(a, b):
    assert dtw_distance(a, b) == pytest.approx(naive_dtw(a, b), rel=1e-9, abs=1e-9)


# --- resampling -----------------------------------------------------------------------------


@given(traces(), st.integers(min_value=2, max_value=60))
def test_resample_keeps_the_endpoints(trace, length):
    out = resample(trace, length)
    assert out.shape == (length, 2)
    # A zero-length trace (arc length 0) is its first point repeated, so its last is its first.
    np.testing.assert_allclose(out[0], trace[0], rtol=0, atol=1e-9)
    np.testing.assert_allclose(out[-1], trace[-1], rtol=0, atol=1e-9)


# --- rows -----------------------------------------------------------------------------------

small_trace = traces(st.floats(min_value=0, max_value=30, allow_nan=False, allow_subnormal=False), 2, 12)


@given(
    small_trace,
    small_trace,
    st.integers(min_value=0, max_value=30),
    st.integers(min_value=0, max_value=30),
    st.sampled_from(LABELS),
    st.sampled_from(EMBODIMENTS),
)
def test_shifting_both_traces_leaves_fde_and_dtw_unchanged(prediction, truth, dx, dy, label, embodiment):
    labels = np.full((64, 64), label)  # constant: both rows see the same label everywhere
    shift = np.array([dx, dy], dtype=np.float64)
    before = engine(prediction, [truth], labels, embodiment)
    after = engine(prediction + shift, [truth + shift], labels, embodiment)
    assert before.status == after.status == "valid"
    assert after.fde == pytest.approx(before.fde, rel=1e-9, abs=1e-9)
    assert after.dtw == pytest.approx(before.dtw, rel=1e-9, abs=1e-9)


@given(small_trace, small_trace, st.floats(min_value=0.1, max_value=8.0), st.sampled_from(EMBODIMENTS))
def test_scaling_both_traces_scales_dtw_and_fde(prediction, truth, factor, embodiment):
    labels = np.full((256, 256), ZERO_PENALTY_LABEL, dtype=np.uint8)
    before = engine(prediction, [truth], labels, embodiment)
    after = engine(prediction * factor, [truth * factor], labels, embodiment)
    assert before.status == after.status == "valid"
    assert after.penalty == before.penalty == 0.0
    assert after.dtw == pytest.approx(factor * before.dtw, rel=1e-9, abs=1e-9)
    assert after.fde == pytest.approx(factor * before.fde, rel=1e-9, abs=1e-9)


@st.composite
def masks(draw, max_side: int = 48):
    """A blocky label mask up to ``max_side`` square, of a random integer dtype."""
    height = draw(st.integers(min_value=4, max_value=max_side))
    width = draw(st.integers(min_value=4, max_value=max_side))
    rows, cols = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    blocks = np.array(draw(st.lists(st.sampled_from(LABELS), min_size=rows * cols, max_size=rows * cols)))
    blocks = blocks.reshape(rows, cols)
    mask = blocks[np.arange(height) * rows // height][:, np.arange(width) * cols // width]
    if mask.min() >= 0 and mask.max() < 256 and draw(st.booleans()):
        mask = mask.astype(np.uint8)
    return mask


@st.composite
def rows(draw):
    mask = draw(masks())
    height, width = mask.shape
    xs = st.one_of(halves, st.floats(-10, width + 10, allow_nan=False, allow_subnormal=False))
    ys = st.one_of(halves, st.floats(-10, height + 10, allow_nan=False, allow_subnormal=False))
    point = st.tuples(xs, ys).map(list)
    truths = draw(st.lists(st.lists(point, min_size=1, max_size=9), min_size=1, max_size=3))
    prediction = draw(st.lists(point, min_size=2, max_size=14))
    return json.dumps(prediction), truths, mask, draw(st.sampled_from(EMBODIMENTS))


@settings(max_examples=200, deadline=None)
@given(rows())
def test_engine_equals_the_literal_scorer(row):
    cell, truths, mask, embodiment = row
    expected = literal_score_row(cell, truths, mask, embodiment)
    got = engine(parse_prediction(cell).trace, [np.array(t) for t in truths], mask, embodiment)
    assert got.status == expected["status"]
    if got.status != "valid":
        return
    reference = expected["per_gt"][got.best_gt]
    assert reference is not None
    assert got.best_gt == expected["best_gt"] or abs(reference[3] - expected["raw"]) <= 1e-9
    for value, wanted in zip((got.dtw, got.fde, got.penalty, got.raw), reference):
        assert value == pytest.approx(wanted, abs=TOLERANCE, rel=0)
    assert got.score == pytest.approx(expected["score"], abs=TOLERANCE, rel=0)


@st.composite
def perfect_rows(draw):
    mask = draw(masks())
    height, width = mask.shape
    xs = st.floats(0, width - 1, allow_nan=False, allow_subnormal=False)
    ys = st.floats(0, height - 1, allow_nan=False, allow_subnormal=False)
    truth = draw(st.lists(st.tuples(xs, ys).map(list), min_size=2, max_size=12))
    return truth, mask, draw(st.sampled_from(EMBODIMENTS))


@settings(max_examples=200, deadline=None)
@given(perfect_rows())
def test_a_perfect_prediction_scores_100(row):
    # Every pixel of the prediction's Bresenham line is within a pixel of the truth's
    # anti-aliased raster, so the penalty is 0 whatever the labels.
    truth, mask, embodiment = row
    parsed = parse_prediction(json.dumps(truth))
    got = engine(parsed.trace, [np.array(truth)], mask, embodiment)
    assert got.status == "valid"
    assert (got.dtw, got.fde, got.penalty) == pytest.approx((0.0, 0.0, 0.0), abs=1e-9)
    assert got.score == pytest.approx(100.0, abs=1e-9)
