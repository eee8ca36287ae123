"""The NaviTrace score: exact, fast, and free of UI and Hub code.

Public API::

    key = load_answer_key("path/or/repo", "validation", cache_dir)
    evaluation = score_submission("predictions.tsv", key)   # rows + summary
    row = score_row(trace, key.truths(sample_id, embodiment), key.mask(sample_id), embodiment)
"""

from __future__ import annotations

from scoring.answer_key import AnswerKey, Sample, load_answer_key
from scoring.errors import AnswerKeyError, SubmissionError
from scoring.evaluate import Evaluation, RowResult, check_submission, score_submission
from scoring.prediction import Reason, parse_prediction
from scoring.row import NAVITRACE_BASELINE_RAW, GroundTruth, RowScore, normalise, score_row
from scoring.submission import MAX_FILE_BYTES, Submission, read_submission
from scoring.version import __version__

__all__ = [
    "AnswerKey",
    "AnswerKeyError",
    "Evaluation",
    "GroundTruth",
    "MAX_FILE_BYTES",
    "NAVITRACE_BASELINE_RAW",
    "Reason",
    "RowResult",
    "RowScore",
    "Sample",
    "Submission",
    "SubmissionError",
    "__version__",
    "check_submission",
    "load_answer_key",
    "normalise",
    "parse_prediction",
    "read_submission",
    "score_row",
    "score_submission",
]
