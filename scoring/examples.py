"""Example submissions in the published inference notebook's exact TSV format."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from scoring.answer_key import AnswerKey, AnswerKeyError, Sample

KINDS = ("straight", "noisy", "perfect")
NOTEBOOK_COLUMNS = ("sample_id", "embodiment", "category", "prediction", "raw_response", "reasoning")


def straight_trace(sample: Sample) -> list[list[float]]:
    """The straight-forward baseline: a vertical line up the image centre (docs/METRIC.md)."""
    return [[sample.width / 2, sample.height - 1], [sample.width / 2, 0]]


def example_rows(key: AnswerKey, kind: str, seed: int = 0) -> list[dict[str, str]]:
    """One row per expected (sample, embodiment): ``straight``, ``noisy`` or ``perfect`` traces.

    ``perfect`` copies the first ground-truth trace, ``noisy`` jitters it by a few pixels
    (both need ground truth); ``straight`` is the baseline every split can answer.
    """
    if kind not in KINDS:
        raise ValueError(f"kind {kind!r}: expected one of {', '.join(KINDS)}")
    if kind != "straight" and not key.has_ground_truth:
        raise AnswerKeyError(f"a {kind!r} example needs ground truth, and split {key.split!r} has none here")
    rng = np.random.default_rng(seed)
    rows = []
    for sample, embodiment in key.expected_rows():
        if kind == "straight":
            trace = straight_trace(sample)
        else:
            truths = (sample.ground_truth or {}).get(embodiment) or [[[sample.width / 2, sample.height - 1]] * 2]
            points = np.asarray(truths[0], dtype=np.float64)
            if kind == "perfect":
                trace = points.tolist()
            else:
                noisy = points + rng.normal(0.0, 12.0, size=points.shape)
                # The notebook turns normalised model output into pixels with int(x*width).
                trace = [[int(x), int(y)] for x, y in noisy]
        answer = json.dumps(trace)
        rows.append(
            {
                "sample_id": sample.sample_id,
                "embodiment": embodiment,
                "category": str(list(sample.category)),  # the notebook copies it as a Python list literal
                "prediction": answer,
                "raw_response": f"Here is the path for the {embodiment.lower()}:\n\t{answer}",
                "reasoning": f"Example submission ({kind}).",
            }
        )
    return rows


def write_example(key: AnswerKey, kind: str, out: str | Path, seed: int = 0) -> int:
    """Write an example TSV with pandas exactly as the notebook does; returns the row count."""
    import pandas as pd

    rows = example_rows(key, kind, seed)
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    pd.DataFrame(rows, columns=list(NOTEBOOK_COLUMNS)).to_csv(out, sep="\t", index=False)
    return len(rows)
