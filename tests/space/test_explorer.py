"""The explorer's picture: validation only, the prediction drawn and scored exactly as the scorer does."""

from __future__ import annotations

import numpy as np
import pytest

from leaderboard import NotAuthorised
from scoring import score_row
from space.pages.explorer import CHARGED, PREDICTION, Layers, SubmissionTraces, picture
from tests.service_fixtures import submit


def test_the_test_split_is_never_drawn(test_key):
    with pytest.raises(NotAuthorised, match="validation split only"):
        picture(test_key, test_key.samples[0].sample_id, test_key.samples[0].embodiments[0])


def test_a_prediction_is_drawn_and_scored_like_the_scorer(validation_key):
    sample = validation_key.samples[0]
    embodiment = sample.embodiments[0]
    truths = validation_key.truths(sample.sample_id, embodiment)
    trace = truths[0].points + 3.0
    pic = picture(validation_key, sample.sample_id, embodiment, trace, baseline_raw=1000.0)
    expected = score_row(trace, truths, validation_key.mask(sample.sample_id), embodiment, 1000.0)
    assert pic.score == expected and pic.truth_index == expected.best_gt
    assert pic.image.size == (sample.width, sample.height)
    drawn = np.asarray(pic.image)
    assert (np.abs(drawn.astype(int) - PREDICTION).max(axis=2) == 0).any()
    plain = picture(validation_key, sample.sample_id, embodiment, trace, Layers(False, False, False))
    assert not (np.abs(np.asarray(plain.image).astype(int) - PREDICTION).max(axis=2) == 0).any()


def test_traces_of_a_submission_are_for_its_submitter_and_validation_only(service, files, validation_key):
    mine = submit(service, files["validation-noisy"], split="validation").submission_id
    traces = SubmissionTraces(service)
    sample = validation_key.samples[0]
    trace, why = traces.trace(mine, "alice", validation_key, sample.sample_id, sample.embodiments[0])
    assert trace is not None and why is None
    with pytest.raises(NotAuthorised, match="another user"):
        traces.trace(mine, "mallory", validation_key, sample.sample_id, sample.embodiments[0])
    hidden = submit(service, files["test-noisy"]).submission_id
    with pytest.raises(NotAuthorised, match="validation submissions only"):
        traces.trace(hidden, "alice", validation_key, sample.sample_id, sample.embodiments[0])


def test_charged_pixels_are_painted_in_one_operation_not_one_call_each(validation_key, monkeypatch):
    # Issue 14: one ellipse per charged pixel made a 2,000-point zigzag cost 6-7 s of CPU per draw.
    from PIL import ImageDraw

    from tests.hardening.input.input_giants import zigzag

    calls = []
    original = ImageDraw.ImageDraw.ellipse
    monkeypatch.setattr(
        ImageDraw.ImageDraw, "ellipse", lambda self, *a, **k: calls.append(1) or original(self, *a, **k)
    )
    sample, embodiment = next(iter(validation_key.expected_rows()))
    trace = np.array(zigzag(sample.width, sample.height, 200), dtype=np.float64)
    shown = picture(validation_key, sample.sample_id, embodiment, trace)
    painted = np.asarray(shown.image) == np.array(CHARGED, dtype=np.uint8)
    assert shown.charged_share and painted.all(axis=-1).sum() > 1000  # many charged pixels...
    assert len(calls) <= 200 + 2 * (shown.n_truths + 1)  # ...yet only the trace's own dots and ends are drawn
