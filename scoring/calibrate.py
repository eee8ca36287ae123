"""Recomputing the anchor ``B`` of the normalised score for a dataset (docs/METRIC.md)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from scoring.answer_key import AnswerKey, AnswerKeyError
from scoring.examples import straight_trace
from scoring.row import score_row


def straight_forward_mean_raw(key: AnswerKey, progress: Callable[[int, int], None] | None = None) -> tuple[float, int]:
    """Mean raw score of the straight-forward trace ``[[W/2, H-1], [W/2, 0]]`` over all rows.

    Returns ``(B, rows counted)``; rows where even that trace gets no finite score are skipped.
    """
    if not key.has_ground_truth:
        raise AnswerKeyError(f"split {key.split!r} of {key.dataset} has no ground truth: cannot calibrate")
    expected = list(key.expected_rows())
    raws = []
    for done, (sample, embodiment) in enumerate(expected, start=1):
        trace = np.asarray(straight_trace(sample), dtype=np.float64)
        result = score_row(trace, key.truths(sample.sample_id, embodiment), key.mask(sample.sample_id), embodiment)
        if result.raw is not None:
            raws.append(result.raw)
        if progress:
            progress(done, len(expected))
    if not raws:
        raise AnswerKeyError(f"split {key.split!r} of {key.dataset} has no row to calibrate on")
    return float(np.mean(raws)), len(raws)
