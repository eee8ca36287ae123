"""Reading a submission TSV as the published inference notebook writes it.

The notebook writes ``DataFrame.to_csv(sep="\\t", index=False)``: UTF-8, a header row, cells
holding tabs, quotes or newlines quoted. Whole-file problems raise ``SubmissionError`` (the file
is rejected); a bad ``prediction`` cell is left for the row scorer to mark invalid.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from scoring.errors import MAX_SHOWN_CHARS as MAX_SHOWN_CHARS  # re-exported: its old home
from scoring.errors import SubmissionError as SubmissionError
from scoring.errors import describe_location as describe_location
from scoring.errors import shown
from scoring.penalty_table import EMBODIMENTS
from scoring.tsv_text import NotText, decode, hold_lone_crs, lines

if TYPE_CHECKING:
    import pandas as pd

    from scoring.answer_key import AnswerKey

REQUIRED_COLUMNS = ("sample_id", "embodiment", "prediction")
MAX_FILE_BYTES = 64 * 1024 * 1024  # a full test split with long reasoning texts is ~30 MB
MAX_LISTED_CHARS = 120  # header names quoted in a message, all together

# Fields as long as the file may be (a model's long raw answer is fine): the file's size cap bounds
# them. Set once, for the process: the limit is global to the csv module.
csv.field_size_limit(2**31 - 1)


@dataclass(frozen=True)
class SubmittedRow:
    line: int  # line of the file where the row starts (the header is line 1)
    sample_id: str
    embodiment: str
    prediction: str


@dataclass
class Submission:
    rows: list[SubmittedRow]
    columns: list[str]
    warnings: list[str] = field(default_factory=list)


def read_submission(
    source: str | Path | bytes | pd.DataFrame, key: AnswerKey, max_bytes: int = MAX_FILE_BYTES
) -> Submission:
    """Read and check a submission against the samples of ``key``; raise ``SubmissionError``."""
    if hasattr(source, "to_dict"):  # a pandas DataFrame: the Python API's "table"
        frame = source.fillna("").astype(str)  # type: ignore[union-attr]
        header = [str(c) for c in frame.columns]
        records = ((index + 2, list(values)) for index, values in enumerate(frame.itertuples(index=False, name=None)))
        return _check_rows(header, records, key)
    data = source if isinstance(source, bytes) else _read_file(Path(source), max_bytes)
    if len(data) > max_bytes:
        raise SubmissionError(f"the file is {_size(len(data))}, over the {_size(max_bytes)} limit")
    try:
        text = decode(data)
    except NotText as error:
        raise SubmissionError(str(error), line=error.line) from None
    if not text.strip():
        raise SubmissionError("the file is empty: expected a header line and one row per (sample_id, embodiment)")
    return _parse(text, key, max_bytes)


def _read_file(path: Path, max_bytes: int) -> bytes:
    try:
        size = path.stat().st_size
        if path.is_dir():
            raise SubmissionError(f"{path} is a directory, expected a TSV file")
        if not path.is_file():
            raise SubmissionError(f"{path} is not a regular file, expected a TSV file")
        if size > max_bytes:
            raise SubmissionError(f"{path} is {_size(size)}, over the {_size(max_bytes)} limit")
        return path.read_bytes()
    except FileNotFoundError:
        raise SubmissionError(f"{path}: no such file") from None
    except PermissionError:
        raise SubmissionError(f"{path}: cannot read the file (permission denied)") from None


def _parse(text: str, key: AnswerKey, max_bytes: int) -> Submission:
    text, stand_in = hold_lone_crs(text)
    reader = csv.reader(lines(text), delimiter="\t", quotechar='"', strict=True)
    try:
        header = next(reader)
    except csv.Error as error:
        raise SubmissionError(f"malformed header: {_csv_problem(error)}", line=1) from None
    if len(header) == 1 and any(sep in header[0] for sep in ",;|"):
        separator = next(sep for sep in ",;|" if sep in header[0])
        raise SubmissionError(
            f"the header has no tab but has {separator!r}: the file is not tab-separated "
            "(write it with to_csv(sep='\\t', index=False))",
            line=1,
        )
    if stand_in:
        header = [cell.replace(stand_in, "\r") for cell in header]
    return _check_rows([h.strip() for h in header], _records(reader, stand_in), key)


def _records(reader: Iterator[list[str]], stand_in: str | None = None) -> Iterator[tuple[int, list[str]]]:
    start = 2
    while True:
        try:
            record = next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            raise SubmissionError(f"malformed quoting: {_csv_problem(error)}", line=start) from None
        if stand_in:
            record = [cell.replace(stand_in, "\r") for cell in record]
        if record:  # csv yields [] for a blank line
            yield start, record
        start = reader.line_num + 1  # type: ignore[attr-defined]


def _csv_problem(error: csv.Error) -> str:
    """csv's message with its tab spelled out: "'\\t' expected after '\"'"."""
    return str(error).replace("\t", "\\t")


def _check_header(header: Sequence[str]) -> dict[str, int]:
    seen = {}
    for index, name in enumerate(header):
        if name in seen:
            raise SubmissionError(f"column {shown(name)} appears twice in the header", line=1)
        seen[name] = index
    missing = [c for c in REQUIRED_COLUMNS if c not in seen]
    if missing:
        raise SubmissionError(
            f"missing required column{'s' if len(missing) > 1 else ''} {', '.join(missing)}; "
            f"found {_listed(header)}; expected at least {', '.join(REQUIRED_COLUMNS)}",
            line=1,
        )
    return seen


def _listed(names: Sequence[str]) -> str:
    """Header names for a message, as many as fit in about ``MAX_LISTED_CHARS``."""
    listed: list[str] = []
    while len(listed) < len(names) and sum(len(n) + 2 for n in listed) < MAX_LISTED_CHARS:
        listed.append(shown(names[len(listed)]))
    rest = len(names) - len(listed)
    return (", ".join(listed) or "nothing") + (f" and {rest} more" if rest else "")


def _check_rows(header: list[str], records: Iterator[tuple[int, list[str]]], key: AnswerKey) -> Submission:
    columns = _check_header(header)
    rows: list[SubmittedRow] = []
    first_line: dict[tuple[str, str], int] = {}
    for line, record in records:
        if len(record) != len(header):
            raise SubmissionError(
                f"{len(record)} field{'s' if len(record) != 1 else ''}, expected {len(header)} "
                "(one per header column); is a tab missing or a text cell unquoted?",
                line=line,
            )
        sample_id = record[columns["sample_id"]].strip()
        embodiment = record[columns["embodiment"]].strip()
        _check_row_key(line, sample_id, embodiment, key, first_line)
        first_line[(sample_id, embodiment)] = line
        rows.append(SubmittedRow(line, sample_id, embodiment, record[columns["prediction"]]))
    if not rows:
        raise SubmissionError("the file has a header but no rows: expected one row per (sample_id, embodiment)", line=1)
    return Submission(rows, header)


def _check_row_key(
    line: int, sample_id: str, embodiment: str, key: AnswerKey, first_line: dict[tuple[str, str], int]
) -> None:
    if not sample_id:
        raise SubmissionError("empty sample_id", line=line, column="sample_id")
    if sample_id not in key:
        raise SubmissionError(
            f"unknown sample_id: not in the {key.split} split (is this a file for another split?)",
            line=line,
            sample_id=sample_id,
            column="sample_id",
        )
    annotated = key.sample(sample_id).embodiments
    if embodiment not in annotated:
        known = "" if embodiment in EMBODIMENTS else f"; embodiments are {', '.join(EMBODIMENTS)}"
        raise SubmissionError(
            f"embodiment not annotated for this sample (annotated: {', '.join(annotated)}){known}",
            line=line,
            sample_id=sample_id,
            embodiment=embodiment,
            column="embodiment",
        )
    if (sample_id, embodiment) in first_line:
        raise SubmissionError(
            f"duplicate row: (sample_id, embodiment) already given on line {first_line[(sample_id, embodiment)]}",
            line=line,
            sample_id=sample_id,
            embodiment=embodiment,
        )


def _size(n: int) -> str:
    return f"{n / (1024 * 1024):.1f} MB" if n >= 1024 * 1024 else f"{n} bytes"
