"""Scoring a whole submission against an answer key: rows plus summary.

This is the Python API the service calls; the CLI is a thin layer over it.
"""

from __future__ import annotations

import csv
import json
import os
import re
import tempfile
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from scoring.aggregate import summarise
from scoring.answer_key import AnswerKey, AnswerKeyError, Sample
from scoring.prediction import parse_prediction
from scoring.row import NAVITRACE_BASELINE_RAW, RowScore, score_row
from scoring.submission import MAX_FILE_BYTES, Submission, SubmittedRow, describe_location, read_submission
from scoring.summary import Summary
from scoring.version import __version__

ROW_COLUMNS = ("sample_id", "embodiment", "score", "status", "reason", "dtw", "fde", "penalty", "raw", "best_gt")
TEXT_ROW_COLUMNS = ("sample_id", "embodiment", "status", "reason")  # the rest are numbers or empty
# A cell starting with one of these runs as a formula in Excel, LibreOffice or Sheets (OWASP CSV
# injection; ASVS 1.2.10 adds NUL); a leading apostrophe makes it text.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n", "\0")
_NUMBER = re.compile(r"-?\d+(\.\d*)?([eE][+-]?\d+)?")  # how repr writes a finite float or an int
MAX_PROBLEMS = 20  # problems listed in a report; the counts cover them all
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class RowResult:
    sample: Sample
    embodiment: str
    score: RowScore
    line: int | None = None  # where the row is in the submitted file (None when missing)
    detail: str | None = None  # why an invalid row is invalid, at length

    def as_record(self) -> dict[str, object]:
        """One line of the rows TSV (``ROW_COLUMNS``); absent numbers are ``None``."""
        s = self.score
        return {
            "sample_id": self.sample.sample_id,
            "embodiment": self.embodiment,
            "score": s.score,
            "status": s.status,
            "reason": s.reason,
            "dtw": s.dtw,
            "fde": s.fde,
            "penalty": s.penalty,
            "raw": s.raw,
            "best_gt": s.best_gt,
        }


@dataclass
class Evaluation:
    rows: list[RowResult]
    summary: Summary
    warnings: list[str] = field(default_factory=list)

    def problems(self, limit: int = MAX_PROBLEMS) -> list[str]:
        """The first invalid rows, each with its line and reason at length."""
        found = [r for r in self.rows if r.score.status == "invalid"]
        return [
            f"{describe_location(r.line, r.sample.sample_id, r.embodiment)}: {r.detail or r.score.reason}"
            for r in found[:limit]
        ]

    def invalid_by_reason(self) -> dict[str, int]:
        return dict(Counter(r.score.reason or "" for r in self.rows if r.score.status == "invalid").most_common())

    def write_rows(self, path: str | Path) -> None:
        """The rows TSV for people (``--rows-out``): text cells cannot run as spreadsheet formulas."""
        _write_atomically(Path(path), lambda handle: write_rows_for_people(handle, (r.as_record() for r in self.rows)))

    def write_summary(self, path: str | Path) -> None:
        _write_atomically(Path(path), lambda handle: json.dump(self.summary.to_dict(), handle, indent=2))


def write_rows_for_people(handle: IO[str], records: Iterable[Mapping[str, object]]) -> None:
    """Per-row records as a TSV people open in spreadsheets (``--rows-out``, the Space's download).

    Values may be numbers or ``None`` (an evaluation) or the text read back from a stored rows
    file: a number, or a number column holding a number's text, is written as is; every other
    cell goes through ``spreadsheet_safe``. CR LF ends: only then does ``csv`` quote a cell
    holding a CR, which a spreadsheet would split into rows.
    """
    writer = csv.writer(handle, delimiter="\t", lineterminator="\r\n")
    writer.writerow(ROW_COLUMNS)
    for record in records:
        writer.writerow([_cell_for_people(column, record.get(column)) for column in ROW_COLUMNS])


def _cell_for_people(column: str, value: object) -> str:
    if value is None or value == "":
        return ""
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, int):
        return str(value)
    text = str(value)
    if column not in TEXT_ROW_COLUMNS and _NUMBER.fullmatch(text):
        return text
    return spreadsheet_safe(text)


def spreadsheet_safe(text: str) -> str:
    """``text`` as a spreadsheet shows it without running it: an apostrophe before a formula start.

    Only for text cells: numbers (a negative score) are written as numbers, never through here.

    >>> print(spreadsheet_safe('=HYPERLINK("http://evil","x")'), spreadsheet_safe("val_0001"))
    '=HYPERLINK("http://evil","x") val_0001
    """
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def score_submission(
    source: str | Path | bytes | Submission | object,
    key: AnswerKey,
    baseline_raw: float = NAVITRACE_BASELINE_RAW,
    progress: Progress | None = None,
    max_bytes: int = MAX_FILE_BYTES,
) -> Evaluation:
    """Score a submission (a path, bytes, a DataFrame or a read ``Submission``) against ``key``.

    Raises ``SubmissionError`` when the file is rejected and ``AnswerKeyError`` when ``key``
    holds no ground truth (a public copy of the test split).
    """
    if not key.has_ground_truth:
        raise AnswerKeyError(f"split {key.split!r} of {key.dataset} has no ground truth (a public copy?): cannot score")
    submission = source if isinstance(source, Submission) else read_submission(source, key, max_bytes)
    return _evaluate(submission, key, baseline_raw, progress, with_truth=True)


def check_submission(
    source: str | Path | bytes | Submission | object, key: AnswerKey, max_bytes: int = MAX_FILE_BYTES
) -> Evaluation:
    """Validate without scoring (no ground truth needed): statuses and reasons, no numbers."""
    submission = source if isinstance(source, Submission) else read_submission(source, key, max_bytes)
    return _evaluate(submission, key, NAVITRACE_BASELINE_RAW, None, with_truth=False)


def _evaluate(
    submission: Submission, key: AnswerKey, baseline_raw: float, progress: Progress | None, with_truth: bool
) -> Evaluation:
    given = {(r.sample_id, r.embodiment): r for r in submission.rows}
    expected = list(key.expected_rows())
    results: list[RowResult] = []
    normalised = 0
    for done, (sample, embodiment) in enumerate(expected, start=1):
        submitted = given.get((sample.sample_id, embodiment))
        if submitted is None:
            results.append(RowResult(sample, embodiment, RowScore.missing()))
        else:
            result, looks_normalised = _score_one(submitted, sample, embodiment, key, baseline_raw, with_truth)
            normalised += looks_normalised
            results.append(result)
        if progress:
            progress(done, len(expected))
    warnings = list(submission.warnings)
    if normalised:
        warnings.append(
            f"{normalised} row{'s have' if normalised > 1 else ' has'} every coordinate within [0, 1]: coordinates are "
            "scored as pixels, never rescaled; multiply normalised outputs by the image width and height"
        )
    summary = summarise(
        ((r.sample, r.embodiment, r.score) for r in results),
        baseline_raw=baseline_raw,
        scorer_version=__version__,
        dataset_revision=key.revision,
    )
    return Evaluation(results, summary, warnings)


def _score_one(
    row: SubmittedRow, sample: Sample, embodiment: str, key: AnswerKey, baseline_raw: float, with_truth: bool
) -> tuple[RowResult, bool]:
    parsed = parse_prediction(row.prediction)
    if parsed.trace is None:
        return RowResult(sample, embodiment, RowScore.invalid(parsed.reason or ""), row.line, parsed.detail), False
    if not with_truth:
        return RowResult(sample, embodiment, RowScore("valid"), row.line), parsed.looks_normalised
    score = score_row(
        parsed.trace, key.truths(sample.sample_id, embodiment), key.mask(sample.sample_id), embodiment, baseline_raw
    )
    detail = None if score.status == "valid" else f"{score.reason} ({sample.width}x{sample.height} pixels)"
    return RowResult(sample, embodiment, score, row.line, detail), parsed.looks_normalised


def _write_atomically(path: Path, write: Callable) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    handle = tempfile.NamedTemporaryFile(
        "w", encoding="utf-8", newline="", dir=path.parent, prefix=f".{path.name}.", delete=False
    )
    try:
        with handle:
            write(handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(handle.name, path)
    except BaseException:
        Path(handle.name).unlink(missing_ok=True)
        raise
