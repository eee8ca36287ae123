"""Hand-checkable rows: each answer is worked out in a comment (docs/METRIC.md for the rules)."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from benchmarks.literal_scorer import literal_score_row
from scoring.prediction import Reason, parse_prediction
from scoring.row import NAVITRACE_BASELINE_RAW, GroundTruth, score_row

B = NAVITRACE_BASELINE_RAW  # 3234.75
ROAD, PEDESTRIAN_AREA = 13, 11  # Road: 0.8 x 400 = 320 for a Human, 0 for a Bicycle; Pedestrian Area: 0
ROAD_HUMAN = 320.0


def row(prediction, truths, labels, embodiment="Human"):
    labels = np.asarray(labels)
    ground = [GroundTruth.from_points(t, *labels.shape) for t in truths]
    return score_row(np.asarray(prediction, dtype=np.float64), ground, labels, embodiment)


def uniform(label, height, width):
    return np.full((height, width), label, dtype=np.int64)


def score_of(raw):
    return (B - raw) / B * 100


# --- a vertical line beside a vertical truth ------------------------------------------------

TRUTH = [[120, 90], [120, 70], [120, 50], [120, 30], [120, 10]]  # 5 points going up at x = 120


def test_vertical_line_50_px_left_on_road_for_a_human():
    # Same ys, x = 70: every pair of the diagonal alignment costs 50 and no alignment has fewer
    # than 5 pairs, so DTW = 5 * 50 = 250; FDE = 50. The truth rasterises to column 120 and
    # every predicted pixel (column 70) is 50 > 35 px away: penalty = 320 on every pixel.
    # raw = 250 + 50 + 320 = 620; score = (3234.75 - 620) / 3234.75 * 100 = 80.83314...
    got = row([[70, y] for _, y in TRUTH], [TRUTH], uniform(ROAD, 100, 200))
    assert (got.status, got.best_gt) == ("valid", 0)
    assert (got.dtw, got.fde, got.penalty, got.raw) == pytest.approx((250, 50, ROAD_HUMAN, 620))
    assert got.score == pytest.approx(80.83314011902002)


def test_the_same_line_for_a_bicycle_costs_no_penalty():
    # Road costs a Bicycle 0: raw = 250 + 50 + 0 = 300, score = 2934.75 / 3234.75 * 100 = 90.7257...
    got = row([[70, y] for _, y in TRUTH], [TRUTH], uniform(ROAD, 100, 200), "Bicycle")
    assert (got.dtw, got.fde, got.penalty, got.raw) == pytest.approx((250, 50, 0, 300))
    assert got.score == pytest.approx(90.72571296081614)


def test_a_line_30_px_away_is_near():
    # x = 90: 30 px from column 120, so every pixel is near: raw = 5 * 30 + 30 + 0 = 180.
    got = row([[90, y] for _, y in TRUTH], [TRUTH], uniform(ROAD, 100, 200))
    assert (got.dtw, got.fde, got.penalty, got.raw) == pytest.approx((150, 30, 0, 180))
    assert got.score == pytest.approx(score_of(180))


# --- the 35 px boundary ---------------------------------------------------------------------


def test_a_pixel_35_px_away_is_near():
    # Truth: one point, pixel (row 50, col 60). Prediction: pixel (50, 95) twice, d = 35 -> near.
    # The truth is repeated to 2 points: DTW = 35 + 35, FDE = 35, penalty 0, raw = 105.
    got = row([[95, 50], [95, 50]], [[[60, 50]]], uniform(ROAD, 60, 100))
    assert (got.dtw, got.fde, got.penalty, got.raw) == pytest.approx((70, 35, 0, 105))


def test_a_pixel_sqrt_1226_px_away_is_far():
    # Prediction: pixel (51, 95): d = sqrt(1^2 + 35^2) = sqrt(1226) = 35.014 > 35 -> far, 320.
    # DTW = 2 sqrt(1226), FDE = sqrt(1226): raw = 3 sqrt(1226) + 320 = 425.0428...
    got = row([[95, 51], [95, 51]], [[[60, 50]]], uniform(ROAD, 60, 100))
    d = math.sqrt(1226)
    assert (got.dtw, got.fde, got.penalty, got.raw) == pytest.approx((2 * d, d, ROAD_HUMAN, 3 * d + ROAD_HUMAN))


def test_labels_missing_from_the_table_cost_nothing():
    # Same far prediction as above, on labels 65, 255, 1000 and -1: none is in the table.
    for label in (65, 255, 1000, -1):
        got = row([[95, 51], [95, 51]], [[[60, 50]]], uniform(label, 60, 100))
        assert got.penalty == 0.0, label


def test_a_truth_with_no_pixel_in_the_image_makes_every_pixel_far():
    # Truth at x = 500 on a 50 x 50 image: no raster pixel, so the whole prediction pays 320.
    # DTW = 490 + 490 (two pairs at least, each >= 490), FDE = 490: raw = 980 + 490 + 320 = 1790.
    got = row([[10, 10], [10, 20]], [[[500, 10], [500, 20]]], uniform(ROAD, 50, 50))
    assert (got.dtw, got.fde, got.penalty, got.raw) == pytest.approx((980, 490, ROAD_HUMAN, 1790))


# --- which pixels the penalty averages over ---------------------------------------------------


def test_a_shared_vertex_counts_once_per_segment():
    # One Road pixel at (row 10, col 20) in a zero-cost image; the truth (column 90) is far.
    # Segments (10..20) and (20..30) along row 10 give 11 + 11 = 22 pixels, (10, 20) twice:
    # penalty = 2 * 320 / 22 = 29.0909... (not 320 / 21, as a de-duplicated raster would give).
    labels = uniform(PEDESTRIAN_AREA, 40, 100)
    labels[10, 20] = ROAD
    got = row([[10, 10], [20, 10], [30, 10]], [[[90, 5], [90, 35]]], labels)
    assert got.penalty == pytest.approx(2 * ROAD_HUMAN / 22)


def test_off_image_pixels_are_left_out_of_the_mean():
    # Row 10 from col -10 to col 9: 20 pixels, 10 in the image; Road only at (10, 0): 320 / 10.
    labels = uniform(PEDESTRIAN_AREA, 40, 100)
    labels[10, 0] = ROAD
    got = row([[-10, 10], [9, 10]], [[[90, 5], [90, 35]]], labels)
    assert got.penalty == pytest.approx(32.0)


def test_rounding_is_half_to_even():
    # x = 0.5 rounds to 0 and x = 1.5 to 2 (Python's round). Road only at (0, 1) and (0, 2):
    # the segment (0, 0)-(0, 2) crosses both, 2 of 3 pixels: 2 * 320 / 3. Rounding half up
    # would draw (0, 1)-(0, 2) instead and give 320.
    labels = uniform(PEDESTRIAN_AREA, 40, 100)
    labels[0, 1:3] = ROAD
    got = row([[0.5, 0], [1.5, 0]], [[[90, 5], [90, 35]]], labels)
    assert got.penalty == pytest.approx(2 * ROAD_HUMAN / 3)


# --- resampling and carry-over ----------------------------------------------------------------


def test_carry_over_keeps_the_resampled_prediction():
    # P = (0,0) (0,10) (10,10): an L of arc length 20. Truth 1 has 5 points, so P becomes
    # (0,0) (0,5) (0,10) (5,10) (10,10) and keeps that for truth 2. Truth 2 has 4 points,
    # (0,0) (0,10) (5,10) (10,10) with arc parameters 0, .5, .75, 1: resampled to 5 it is the
    # same L, so truth 2 scores DTW = FDE = penalty = 0 and wins. Without carry-over P would
    # be resampled from 3 to 4 points, (0,0) (0,6.67) (3.33,10) (10,10), and DTW > 0.
    prediction = [[0, 0], [0, 10], [10, 10]]
    truth_1 = [[40, 0], [40, 5], [40, 10], [45, 10], [50, 10]]
    truth_2 = [[0, 0], [0, 10], [5, 10], [10, 10]]
    got = row(prediction, [truth_1, truth_2], uniform(PEDESTRIAN_AREA, 30, 60))
    assert (got.best_gt, got.raw, got.score) == (1, pytest.approx(0, abs=1e-12), pytest.approx(100))
    literal = literal_score_row(json.dumps(prediction), [truth_1, truth_2], uniform(PEDESTRIAN_AREA, 30, 60), "Human")
    assert literal["best_gt"] == 1 and literal["raw"] == pytest.approx(0, abs=1e-12)


def test_carry_over_with_truths_growing_in_length():
    # P (3 points) < truth 1 (4) < truth 2 (6): P goes 3 -> 4, then 4 -> 6 (not 3 -> 6).
    prediction = [[10, 40], [30, 20], [15, 2]]
    truths = [[[12, 38], [20, 30], [28, 18], [20, 5]], [[9, 41], [14, 35], [25, 27], [31, 19], [22, 9], [16, 1]]]
    labels = uniform(ROAD, 45, 60)
    labels[:, 30:] = 17  # Building
    got = row(prediction, truths, labels)
    expected = literal_score_row(json.dumps(prediction), truths, labels, "Human")
    assert got.best_gt == expected["best_gt"]
    for name in ("dtw", "fde", "penalty", "raw", "score"):
        assert getattr(got, name) == pytest.approx(expected[name], abs=1e-9), name


def test_a_one_point_truth_is_repeated():
    # Deliberate difference: the published code multiplies the point by the target length.
    # Truth (10,10) repeated twice vs P (10,10) (10,20): D(1,1) = 0, D(1,2) = 0, D(2,1) = 10,
    # D(2,2) = 10 + min(0, 10, 0) = 10. FDE = 10, penalty 0: raw = 20.
    got = row([[10, 10], [10, 20]], [[[10, 10]]], uniform(PEDESTRIAN_AREA, 30, 30))
    assert (got.dtw, got.fde, got.penalty, got.raw) == pytest.approx((10, 10, 0, 20))
    assert got.score == pytest.approx(score_of(20))


def test_a_zero_length_prediction_is_repeated():
    # P = (5,5) twice, truth (5,5) (5,15) (5,25): P becomes (5,5) x 3; cost rows are 0, 10, 20
    # and the best path ends 0 + 10 + 20 = 30 (D(3,3) = 20 + D(2,2) = 20 + 10). FDE = 20: raw = 50.
    # (The published code crashes on this row.)
    got = row([[5, 5], [5, 5]], [[[5, 5], [5, 15], [5, 25]]], uniform(PEDESTRIAN_AREA, 30, 30))
    assert (got.dtw, got.fde, got.penalty, got.raw) == pytest.approx((30, 20, 0, 50))


def test_the_minimum_is_over_finite_truths_only():
    # P = (-1,0) (0,-1) draws pixels (0,-1) and (-1,0): none in the image, so truth 1 (2 points)
    # gives no finite score. For truth 2 (3 points) P is resampled to (-1,0) (-0.5,-0.5) (0,-1);
    # the midpoint rounds (half to even) to pixel (0,0), in the image. DTW along the diagonal:
    # 1 + sqrt(30.5) + 11; FDE = |(0,-1) - (0,10)| = 11; penalty 0: raw = 23 + sqrt(30.5).
    truths = [[[5, 5], [5, 15]], [[0, 0], [0, 5], [0, 10]]]
    got = row([[-1, 0], [0, -1]], truths, uniform(PEDESTRIAN_AREA, 20, 20))
    assert (got.status, got.best_gt) == ("valid", 1)
    assert (got.dtw, got.fde, got.raw) == pytest.approx((12 + math.sqrt(30.5), 11, 23 + math.sqrt(30.5)))


# --- invalid rows -----------------------------------------------------------------------------

INVALID_CELLS = [
    ("[[1, 2], [3, 4]", Reason.NOT_JSON),
    ('{"x": 1, "y": 2}', Reason.NOT_POINT_LIST),
    ("[[1, 2, 3], [4, 5, 6]]", Reason.NOT_POINT_LIST),
    ("[[true, 2], [3, 4]]", Reason.NOT_NUMBER),
    ('[["1", 2], [3, 4]]', Reason.NOT_NUMBER),
    ("[[1, 2]]", Reason.TOO_FEW),
    (json.dumps([[i, i] for i in range(2001)]), Reason.TOO_MANY),
    ("[[NaN, 2], [3, 4]]", Reason.NON_FINITE),
    ("[[1, -Infinity], [3, 4]]", Reason.NON_FINITE),
    ("[[100000.5, 2], [3, 4]]", Reason.OUT_OF_RANGE),
]


@pytest.mark.parametrize(("cell", "reason"), INVALID_CELLS, ids=[r for _, r in INVALID_CELLS])
def test_invalid_cells_carry_their_reason(cell, reason):
    parsed = parse_prediction(cell)
    assert (parsed.trace, parsed.reason) == (None, reason)
    assert literal_score_row(cell, [[[1, 1], [2, 2]]], uniform(ROAD, 10, 10), "Human")["status"] == "invalid"


def test_the_limits_themselves_are_valid():
    assert parse_prediction(json.dumps([[i, i] for i in range(2000)])).trace is not None
    assert parse_prediction("[[100000, -100000], [0, 0]]").trace is not None


def test_a_prediction_wholly_off_the_image_is_invalid():
    got = row([[-10, -10], [-20, -5]], [[[10, 10], [10, 20]]], uniform(ROAD, 50, 50))
    assert (got.status, got.reason) == ("invalid", Reason.OFF_IMAGE)


def test_a_row_without_ground_truth_is_invalid():
    got = row([[10, 10], [10, 20]], [], uniform(ROAD, 50, 50))
    assert (got.status, got.reason) == ("invalid", Reason.NO_TRUTH)


def test_normalised_coordinates_are_scored_as_pixels():
    parsed = parse_prediction("[[0.5, 0.9], [0.52, 0.3]]")
    assert parsed.looks_normalised
    got = row(parsed.trace, [[[0.5, 0.9], [0.52, 0.3]]], uniform(ROAD, 10, 10))
    assert got.status == "valid" and got.score == pytest.approx(100)
