"""What a test result may say without telling single rows: decided on the whole release.

A test submission that answers one row per embodiment would otherwise read that row's exact score
off the per-embodiment figure (a coverage-aware mean over the group's expected rows is the row's
score divided by a count anyone can compute), and off the overall and valid-only scores too. Two
rules, in order, decide which figures of a test summary (overall, valid-only, per embodiment, per
category, per metadata value) are set to ``None`` and named in ``Summary.withheld``:

1. every figure whose group holds fewer than ``min_rows`` valid rows;
2. then, while the figures left determine a single row's score or any combination of fewer than
   ``min_rows`` rows (the overall minus the shown embodiments is the withheld one; categories
   overlap), the smallest group whose withholding closes that gap, the overall last
   (``disclosure_audit``: an exact rank test over the whole release).

Every copy of a result (the submitter's, the board's row, the CSV, the JSON, the results dataset)
is made from this one summary, so all say the same. Validation results are not touched: their
ground truth is public. Comparing two submissions of one's own that differ in a few rows (the
differencing attack) is bounded elsewhere: docs/MAINTAINERS.md, "What a test result discloses".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import replace

import numpy as np
from numpy.typing import NDArray

from leaderboard.records import Split
from leaderboard.statistics.disclosure_audit import closing, merged
from scoring.aggregate import METADATA_FIELDS
from scoring.evaluate import Evaluation, RowResult
from scoring.summary import Summary


def disclosed_summary(evaluation: Evaluation, split: str, min_rows_per_figure: int) -> Summary:
    """What may be said of a scored submission of ``split``: a test result with no figure over, and
    no combination of figures determining, fewer than ``min_rows_per_figure`` rows; a validation
    result whole (its ground truth is public)."""
    if split != Split.TEST:
        return evaluation.summary
    return withhold_determined(evaluation, withhold_small_groups(evaluation, min_rows_per_figure), min_rows_per_figure)


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


def withhold_determined(evaluation: Evaluation, summary: Summary, min_rows: int) -> Summary:
    """``summary`` with more figures withheld until those left determine no combination of fewer than
    ``min_rows`` valid rows of ``evaluation`` (``disclosure_audit.closing``)."""
    if min_rows <= 1:
        return summary
    shown = released_figures(evaluation, summary)
    kept = {name for group in closing(merged(shown), min_rows) for name in group.names}
    hidden = [name for name, rows in shown if name not in kept and rows.any()]
    if not hidden:
        return summary
    gone = set(hidden)

    def kept_value(name: str, value: float | None) -> float | None:
        return None if name in gone else value

    return replace(
        summary,
        score=kept_value("score", summary.score),
        score_valid_only=kept_value("score_valid_only", summary.score_valid_only),
        per_embodiment={e: kept_value(f"per_embodiment.{e}", v) for e, v in summary.per_embodiment.items()},
        per_category={c: kept_value(f"per_category.{c}", v) for c, v in summary.per_category.items()},
        per_metadata={
            name: {k: kept_value(f"per_metadata.{name}.{k}", v) for k, v in groups.items()}
            for name, groups in summary.per_metadata.items()
        },
        withheld=[*summary.withheld, *hidden],
    )


def released_figures(evaluation: Evaluation, summary: Summary) -> list[tuple[str, NDArray[np.bool_]]]:
    """Each figure ``summary`` shows, by name, with the valid rows of ``evaluation`` its group holds."""
    valid = [r for r in evaluation.rows if r.score.status == "valid"]

    def rows(member: Callable[[RowResult], bool]) -> NDArray[np.bool_]:
        return np.array([member(r) for r in valid], dtype=np.bool_).reshape(len(valid))

    figures = [
        (name, rows(lambda r: True)) for name in ("score", "score_valid_only") if getattr(summary, name) is not None
    ]
    for e, v in summary.per_embodiment.items():
        if v is not None:
            figures.append((f"per_embodiment.{e}", rows(lambda r: r.embodiment == e)))  # noqa: B023 (called at once)
    for c, v in summary.per_category.items():
        if v is not None:
            figures.append((f"per_category.{c}", rows(lambda r: c in r.sample.category)))  # noqa: B023
    for field, values in summary.per_metadata.items():
        for k, v in values.items():
            if v is not None:
                figures.append((f"per_metadata.{field}.{k}", rows(lambda r: r.sample.metadata.get(field) == k)))  # noqa: B023
    return figures
