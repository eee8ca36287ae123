"""The readable summary table the CLI prints."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from scoring.evaluate import Evaluation


def number(value: float | None, digits: int = 2) -> str:
    """A score for people: fixed decimals, "—" when there is none."""
    return "—" if value is None else f"{value:.{digits}f}"


def format_summary(evaluation: Evaluation) -> str:
    s = evaluation.summary
    lines = [
        f"NaviTrace score    {number(s.score):>8}   (mean over all {s.n_expected} expected rows; invalid/missing = 0)",
        f"valid-only score   {number(s.score_valid_only):>8}   (mean over valid rows: the notebook's Total Score)",
        f"coverage           {number(100 * s.coverage if s.coverage is not None else None, 1):>7}%   "
        f"({s.n_valid} valid, {s.n_invalid} invalid, {s.n_missing} missing)",
        "",
        _table("embodiment", s.per_embodiment),
        "",
        _table("category", s.per_category),
    ]
    invalid = evaluation.invalid_by_reason()
    if invalid:
        lines += ["", "invalid rows by reason:"] + [f"  {count:>6}  {reason}" for reason, count in invalid.items()]
        lines += ["first problems:"] + [f"  {p}" for p in evaluation.problems(5)]
    lines += ["", f"baseline B = {s.baseline_raw}, scorer {s.scorer_version}, dataset {s.dataset_revision}"]
    return "\n".join(lines)


def _table(title: str, scores: dict[str, float | None]) -> str:
    width = max([len(title)] + [len(k) for k in scores])
    rows = [f"{title:<{width}}  {'score':>8}", f"{'-' * width}  {'-' * 8}"]
    rows += [f"{name:<{width}}  {number(value):>8}" for name, value in scores.items()]
    return "\n".join(rows)
