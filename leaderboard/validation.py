"""The validation report a submitter gets before anything is queued.

Built from ``scoring.check_submission`` against the *public* answer key: no ground truth is
needed, so the test split can be checked without touching the hidden key.
"""

from __future__ import annotations

from leaderboard.errors import Rejected
from leaderboard.report import Report
from scoring import AnswerKey, SubmissionError, check_submission


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
