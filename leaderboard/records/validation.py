"""The validation report a submitter gets before anything is queued.

Built from ``scoring.check_submission`` against the *public* answer key: no ground truth is
needed, so the test split can be checked without touching the hidden key.
"""

from __future__ import annotations

from leaderboard.records.check_report import Report
from leaderboard.records.errors import Rejected
from scoring import AnswerKey, SubmissionError, check_submission, read_submission


def check_file(data: bytes, key: AnswerKey) -> Report:
    """Validate ``data`` against ``key``; ``Rejected`` (one line) when the file cannot be scored."""
    return check_file_and_cost(data, key)[0]


def check_file_and_cost(data: bytes, key: AnswerKey) -> tuple[Report, int]:
    """The report, and the scoring work the file asks for: the points of its valid rows (rows x points).

    Scoring time grows with the points of each trace (every segment is drawn; DTW runs on them),
    so this is the queue's cost estimate (``leaderboard/jobs/fairness.py``), read in the same pass.
    """
    try:
        submission = read_submission(data, key)
        evaluation = check_submission(submission, key)
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
    valid = {r.line for r in evaluation.rows if r.score.status == "valid"}
    # A valid cell is a JSON list of [x, y] number pairs: exactly one "[" per point, plus the outer one.
    points = sum(row.prediction.count("[") - 1 for row in submission.rows if row.line in valid)
    return report, points
