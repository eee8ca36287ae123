"""No figure over fewer than k valid rows: what a test result may say without telling single rows.

A test submission that answers one row per embodiment would otherwise read that row's exact score
off the per-embodiment figure (a coverage-aware mean over the group's expected rows is the row's
score divided by a count anyone can compute), and off the overall and valid-only scores too. So
every figure of a test summary (overall, valid-only, per embodiment, per category, per metadata
value) whose group holds fewer than ``min_rows`` valid rows is set to ``None`` and named in
``Summary.withheld``; pages say it was withheld and why. Validation results are not touched: their
ground truth is public.

This bounds what one submission reveals; comparing two submissions that differ in a few rows is
the differencing attack, which the maintainers see as a probing signal instead.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from leaderboard.records import Split
from scoring.aggregate import METADATA_FIELDS
from scoring.evaluate import Evaluation
from scoring.summary import Summary


def disclosed_summary(evaluation: Evaluation, split: str, min_rows_per_figure: int) -> Summary:
    """What may be said of a scored submission of ``split``: a test result's small groups withheld,
    a validation result whole (its ground truth is public)."""
    return withhold_small_groups(evaluation, min_rows_per_figure if split == Split.TEST else 1)


def withhold_small_groups(evaluation: Evaluation, min_rows: int) -> Summary:
    """``evaluation``'s summary with every figure over fewer than ``min_rows`` valid rows withheld."""
    summary = evaluation.summary
    if min_rows <= 1:
        return summary
    valid = [r for r in evaluation.rows if r.score.status == "valid"]
    embodiments = Counter(r.embodiment for r in valid)
    categories = Counter(c for r in valid for c in r.sample.category)
    metadata = {name: Counter(r.sample.metadata.get(name) for r in valid) for name in METADATA_FIELDS}
    withheld: list[str] = []

    def kept(name: str, value: float | None, count: int) -> float | None:
        if value is not None and count < min_rows:
            withheld.append(name)
            return None
        return value

    few = len(valid)
    return replace(
        summary,
        score=kept("score", summary.score, few),
        score_valid_only=kept("score_valid_only", summary.score_valid_only, few),
        per_embodiment={e: kept(f"per_embodiment.{e}", v, embodiments[e]) for e, v in summary.per_embodiment.items()},
        per_category={c: kept(f"per_category.{c}", v, categories[c]) for c, v in summary.per_category.items()},
        per_metadata={
            name: {k: kept(f"per_metadata.{name}.{k}", v, metadata[name][k]) for k, v in groups.items()}
            for name, groups in summary.per_metadata.items()
        },
        withheld=withheld,
    )
