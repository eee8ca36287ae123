"""Property tests of the prediction parser: never raises, valid exactly when docs/METRIC.md says, verdicts explained.

The fast CI part; ``benchmarks/fuzz_input.py`` runs the long campaign.
"""

from __future__ import annotations

import json
import re
from unittest import mock

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import prediction
from scoring.prediction import MAX_POINTS, Reason, parse_prediction
from tests.hardening.input.input_strategies import GOOD_POINT, PREDICTION_CELLS, defects

CELL_REASONS = {
    Reason.NOT_JSON,
    Reason.NOT_POINT_LIST,
    Reason.NOT_NUMBER,
    Reason.TOO_FEW,
    Reason.TOO_MANY,
    Reason.NON_FINITE,
    Reason.OUT_OF_RANGE,
}
POINT_REASONS = {Reason.NOT_POINT_LIST, Reason.NOT_NUMBER, Reason.NON_FINITE, Reason.OUT_OF_RANGE}
MAX_DETAIL_CHARS = 200


@settings(max_examples=1500, deadline=None)
@given(PREDICTION_CELLS)
def test_a_cell_is_valid_exactly_when_it_has_no_defect_and_an_invalid_one_names_one_of_them(cell: str):
    parsed = parse_prediction(cell)
    found = defects(cell)
    if parsed.trace is not None:
        assert not found and parsed.reason is None
        assert parsed.trace.dtype == np.float64 and parsed.trace.shape == (len(json.loads(cell)), 2)
        assert np.array_equal(parsed.trace, np.asarray(json.loads(cell), dtype=np.float64))
        return
    assert parsed.reason in found, (parsed.reason, found)
    detail = parsed.detail or ""
    assert detail and "\n" not in detail and len(detail) <= MAX_DETAIL_CHARS, detail


@settings(max_examples=400, deadline=None)
@given(PREDICTION_CELLS)
def test_a_point_level_verdict_names_a_point_at_fault(cell: str):
    parsed = parse_prediction(cell)
    if parsed.reason not in POINT_REASONS or defects(cell) == {Reason.NOT_POINT_LIST}:
        return
    value = json.loads(cell)
    if not isinstance(value, list):
        return
    named = re.match(r"point (\d+) ", parsed.detail or "")
    assert named, parsed.detail
    index = int(named.group(1)) - 1
    assert 0 <= index < len(value) and parsed.reason in defects(json.dumps([value[index]] * 2, allow_nan=True))


@settings(max_examples=400, deadline=None)
@given(PREDICTION_CELLS)
def test_the_large_cell_shortcut_never_changes_validity(cell: str):
    """Every cell taken as large (threshold 0): the bracket and comma count may only refuse invalid cells."""
    with mock.patch.object(prediction, "LARGE_CELL_CHARS", 0):
        shortcut = parse_prediction(cell)
    assert (shortcut.trace is None) == bool(defects(cell))


@settings(max_examples=30, deadline=None)
@given(GOOD_POINT, st.integers(MAX_POINTS + 1, MAX_POINTS + 50), st.sampled_from(["", " " * 1_000_000]))
def test_too_many_points_is_the_verdict_with_or_without_decoding(point, count: int, padding: str):
    parsed = parse_prediction(json.dumps([point] * count) + padding)
    assert parsed.reason == Reason.TOO_MANY and str(MAX_POINTS) in (parsed.detail or "")


def test_a_four_thousand_digit_coordinate_is_named_briefly():
    parsed = parse_prediction(f"[[1{'0' * 4000}, 2], [3, 4]]")
    assert parsed.reason == Reason.OUT_OF_RANGE and "4001-digit number" in (parsed.detail or "")
    assert len(parsed.detail or "") <= MAX_DETAIL_CHARS
