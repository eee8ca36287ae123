"""The validation report: what intake found in a file, as the submitter and the maintainers read it."""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field

from scoring.evaluate import Evaluation

MAX_PROBLEMS = 10  # the first invalid rows a report quotes, with line numbers


@dataclass(frozen=True)
class Report:
    """What intake found in a file: counts over the split's expected rows, and the first problems."""

    split: str
    rows_read: int
    n_expected: int
    n_valid: int
    n_invalid: int
    n_missing: int
    invalid_by_reason: dict[str, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)  # the first invalid rows, with line numbers
    warnings: list[str] = field(default_factory=list)

    @classmethod
    def from_evaluation(cls, evaluation: Evaluation, split: str) -> Report:
        # Counted from the rows: a check without ground truth has no scores, so the summary counts no valid row.
        statuses = Counter(row.score.status for row in evaluation.rows)
        return cls(
            split=split,
            rows_read=statuses["valid"] + statuses["invalid"],
            n_expected=len(evaluation.rows),
            n_valid=statuses["valid"],
            n_invalid=statuses["invalid"],
            n_missing=statuses["missing"],
            invalid_by_reason=evaluation.invalid_by_reason(),
            problems=evaluation.problems(MAX_PROBLEMS),
            warnings=list(evaluation.warnings),
        )

    def as_dict(self) -> dict[str, object]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> Report:
        return cls(**data)

    def lines(self) -> list[str]:
        """The report for people, one fact a line."""
        out = [
            f"{self.rows_read} rows read for the {self.split} split: {self.n_valid} valid, "
            f"{self.n_invalid} invalid, {self.n_missing} of {self.n_expected} expected rows missing"
        ]
        out += [f"  invalid ({count}): {reason}" for reason, count in self.invalid_by_reason.items()]
        if self.problems:
            out.append("first problems:")
            out += [f"  {problem}" for problem in self.problems]
        out += [f"warning: {warning}" for warning in self.warnings]
        if self.n_invalid or self.n_missing:
            out.append("invalid and missing rows score 0 (the straight-forward level)")
        return out
