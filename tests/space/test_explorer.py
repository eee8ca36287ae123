"""The explorer's picture: validation only, the prediction drawn and scored exactly as the scorer does."""

from __future__ import annotations

import numpy as np
import pytest

from leaderboard import NotAuthorised
from scoring import score_row
from space.explorer.picture import CHARGED, PREDICTION, Layers, SubmissionTraces, picture
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
    # Before: one ellipse per charged pixel made a 2,000-point zigzag cost 6-7 s of CPU per draw.
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


def test_the_penalty_fill_is_off_by_default_and_its_bands_cover_the_cost_table(validation_key):
    from scoring.penalty_table import penalty_lookup
    from space.explorer.picture import PENALTY_BANDS

    sample, embodiment = next(iter(validation_key.expected_rows()))
    outlined = np.asarray(picture(validation_key, sample.sample_id, embodiment).image).astype(int)
    filled = np.asarray(picture(validation_key, sample.sample_id, embodiment, layers=Layers(penalty=True)).image)
    redder = lambda px: ((px[..., 0] - np.maximum(px[..., 1], px[..., 2])) > 60).mean()  # noqa: E731
    assert redder(filled.astype(int)) > redder(outlined)  # the default does not tint the photo
    costs = {float(c) for table in penalty_lookup().values() for c in np.asarray(table).ravel() if c > 0}
    assert max(costs) <= PENALTY_BANDS[-1][0] and min(costs) > 0  # every cost falls in a named band
    for (top, _, label), (low, _, _) in zip(PENALTY_BANDS, [(0.0, 0, "")] + list(PENALTY_BANDS[:-1])):
        inside = sorted(c for c in costs if low < c <= top)
        assert inside and label.endswith(f"({inside[0]:g}–{inside[-1]:g})"), (label, inside)


def test_the_legend_names_what_is_drawn_and_the_alt_text_describes_it(validation_key):
    from space.explorer.legend import alt_text, legend_html

    assert "penalty region edge" in legend_html(Layers()) and "high (480–800)" not in legend_html(Layers())
    assert "high (480–800)" in legend_html(Layers(penalty=True)) and "no tint" in legend_html(Layers(penalty=True))
    bare = legend_html(Layers(False, False, False, False))
    assert "tick a layer" in bare and "expert" not in bare
    sample = validation_key.samples[0]
    embodiment = sample.embodiments[0]
    trace = validation_key.truths(sample.sample_id, embodiment)[0].points + 3.0
    pic = picture(validation_key, sample.sample_id, embodiment, trace)
    alt = alt_text(pic, "Go to the door.", Layers())
    assert alt.startswith(
        f"Validation image {sample.sample_id} ({sample.width}×{sample.height} px) for a {embodiment}: Go"
    )
    assert f"The predicted trace of {len(trace)} points in blue" in alt and "outlined in red" in alt
    assert "predicted" not in alt_text(pic, "Go.", Layers(prediction=False))
