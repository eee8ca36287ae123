"""Aggregating row scores into the summary of docs/METRIC.md.

Knows nothing of traces: it sees (sample, embodiment, RowScore) triples. Every mean is
coverage-aware: it runs over the expected rows, an invalid or missing row counting as 0, the
straight-forward level.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from scoring.answer_key import Sample
from scoring.row import RowScore
from scoring.summary import Summary

METADATA_FIELDS = ("urban_rural", "lighting_conditions", "weather_conditions", "natural_structured", "task_type")


def coverage_mean(scores: list[RowScore]) -> float | None:
    """Mean normalised score over rows, invalid and missing ones counting as 0.

    >>> coverage_mean([RowScore("valid", score=50.0), RowScore.missing()])
    25.0
    """
    if not scores:
        return None
    return sum(s.score for s in scores if s.status == "valid" and s.score is not None) / len(scores)


def summarise(
    rows: Iterable[tuple[Sample, str, RowScore]], *, baseline_raw: float, scorer_version: str, dataset_revision: str
) -> Summary:
    """The summary: overall, per embodiment, per dataset category, per metadata field.

    Categories come from the dataset, never from the submission; a row counts in every
    category of its sample.
    """
    rows = list(rows)
    scores = [score for _, _, score in rows]
    valid = [s.score for s in scores if s.status == "valid" and s.score is not None]
    by_embodiment: dict[str, list[RowScore]] = defaultdict(list)
    by_category: dict[str, list[RowScore]] = defaultdict(list)
    by_metadata: dict[str, dict[str, list[RowScore]]] = {name: defaultdict(list) for name in METADATA_FIELDS}
    for sample, embodiment, score in rows:
        by_embodiment[embodiment].append(score)
        for category in sample.category:
            by_category[category].append(score)
        for name in METADATA_FIELDS:
            value = sample.metadata.get(name)
            if value:
                by_metadata[name][value].append(score)
    return Summary(
        score=coverage_mean(scores),
        score_valid_only=sum(valid) / len(valid) if valid else None,
        coverage=len(valid) / len(scores) if scores else None,
        n_expected=len(scores),
        n_valid=len(valid),
        n_invalid=sum(s.status == "invalid" for s in scores),
        n_missing=sum(s.status == "missing" for s in scores),
        per_embodiment={k: coverage_mean(v) for k, v in by_embodiment.items()},
        per_category={k: coverage_mean(v) for k, v in sorted(by_category.items())},
        per_metadata={
            name: {k: coverage_mean(v) for k, v in sorted(groups.items())} for name, groups in by_metadata.items()
        },
        baseline_raw=baseline_raw,
        scorer_version=scorer_version,
        dataset_revision=dataset_revision,
    )
