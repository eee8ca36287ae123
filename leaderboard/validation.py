"""The validation report a submitter gets before anything is queued.

Built from ``scoring.check_submission`` against the *public* answer key: no ground truth is
needed, so the test split can be checked without touching the hidden key.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field

from leaderboard.errors import Rejected
from scoring import AnswerKey, SubmissionError, check_submission
from scoring.evaluate import Evaluation

MAX_PROBLEMS = 10


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


def check_file(data: bytes, key: AnswerKey) -> Report:
    """Validate ``data`` against ``key``; ``Rejected`` (one line) when the file cannot be scored."""
    try:
        evaluation = check_submission(data, key)
    except SubmissionError as error:
        raise Rejected(str(error)) from None
    report = Report.from_evaluation(evaluation, key.split)
    if report.n_valid == 0:
        first = f"; first problem: {report.problems[0]}" if report.problems else ""
        raise Rejected(
            f"no valid prediction in the file ({report.n_invalid} invalid, {report.n_missing} missing of "
            f"{report.n_expected} expected rows): nothing to score{first}",
            report,
        )
    return report
