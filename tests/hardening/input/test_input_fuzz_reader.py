"""Property tests of the TSV reader, intake validation and the CLI on generated and damaged files.

Only the documented errors escape (``SubmissionError`` from the reader, ``Rejected`` from intake,
exit 2 from the CLI), and each refusal is one line saying what and, where it can, the line and
cell. Files the notebook's pandas writes are always read back exactly, whatever their free text.
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from leaderboard.records.errors import Rejected
from leaderboard.records.validation import check_file
from scoring import AnswerKey, SubmissionError, read_submission
from scoring.cli import main as scoring_main
from scoring.examples import example_rows
from scoring.submission import MAX_SHOWN_CHARS, shown
from tests.hardening.input.input_strategies import WrittenFile, hostile_bytes, notebook_files

MAX_MESSAGE_CHARS = 400
FIXTURES = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large]


@pytest.fixture(scope="module")
def expected(validation_key: AnswerKey) -> list[tuple[str, str]]:
    return [(sample.sample_id, embodiment) for sample, embodiment in validation_key.expected_rows()]


@pytest.fixture(scope="module")
def base_file(validation_key: AnswerKey) -> bytes:
    """The straight-forward example as the notebook writes it (raw_response spans two lines)."""
    import pandas as pd

    return pd.DataFrame(example_rows(validation_key, "straight")).to_csv(sep="\t", index=False).encode()


def assert_clear(error: SubmissionError, data: bytes) -> None:
    """One line, short, located where it names a place, quoting the cell it blames."""
    message = str(error)
    assert message and not any(c in message for c in "\n\r\t\x00")
    assert len(message) <= MAX_MESSAGE_CHARS, message[:300]
    if error.line is not None:
        assert message.startswith(f"line {error.line}")
        assert 1 <= error.line <= data.count(b"\n") + data.count(b"\r") + 1
    if error.sample_id:
        assert f"sample_id {shown(error.sample_id)}" in message
    if error.column:
        assert f"column {shown(error.column)}" in message


def assert_read_or_refused(data: bytes, key: AnswerKey) -> None:
    try:
        submission = read_submission(data, key)
    except SubmissionError as error:
        assert_clear(error, data)
        return
    keys = [(row.sample_id, row.embodiment) for row in submission.rows]
    assert len(set(keys)) == len(keys) and submission.rows
    assert all(embodiment in key.sample(sample_id).embodiments for sample_id, embodiment in keys)
    assert [row.line for row in submission.rows] == sorted({row.line for row in submission.rows})


@settings(max_examples=300, deadline=None, suppress_health_check=FIXTURES)
@given(data=st.data())
def test_a_notebook_file_is_read_back_exactly_whatever_its_free_text(data, expected, validation_key: AnswerKey):
    written: WrittenFile = data.draw(notebook_files(expected))
    submission = read_submission(written.data, validation_key)
    got = [(row.line, row.sample_id, row.embodiment, row.prediction) for row in submission.rows]
    assert got == written.rows


@settings(max_examples=600, deadline=None, suppress_health_check=FIXTURES)
@given(data=st.data())
def test_a_damaged_file_is_read_or_refused_clearly(data, base_file: bytes, validation_key: AnswerKey):
    assert_read_or_refused(data.draw(hostile_bytes(base_file)), validation_key)


@settings(max_examples=300, deadline=None, suppress_health_check=FIXTURES)
@given(raw=st.binary(max_size=2000))
def test_arbitrary_bytes_are_read_or_refused_clearly(raw: bytes, validation_key: AnswerKey):
    assert_read_or_refused(raw, validation_key)


@settings(max_examples=300, deadline=None, suppress_health_check=FIXTURES)
@given(data=st.data())
def test_intake_reports_or_rejects_in_one_line(data, base_file: bytes, expected, validation_key: AnswerKey):
    raw = data.draw(st.one_of(hostile_bytes(base_file), notebook_files(expected).map(lambda w: w.data)))
    try:
        report = check_file(raw, validation_key)
    except Rejected as error:
        assert str(error) and "\n" not in str(error) and len(str(error)) <= 2 * MAX_MESSAGE_CHARS
        return
    assert report.n_valid + report.n_invalid + report.n_missing == report.n_expected == len(expected)
    assert report.rows_read == report.n_valid + report.n_invalid and report.n_valid > 0
    assert sum(report.invalid_by_reason.values()) == report.n_invalid
    assert all(problem.startswith("line ") and "\n" not in problem for problem in report.problems)


@settings(max_examples=60, deadline=None, suppress_health_check=FIXTURES)
@given(data=st.data())
def test_the_cli_scores_or_exits_2_with_one_line(data, base_file: bytes, demo_dataset: Path, key_cache: Path, tmp_path):
    path = tmp_path / "fuzzed.tsv"
    path.write_bytes(data.draw(hostile_bytes(base_file)))
    out, err = io.StringIO(), io.StringIO()
    argv = ["score", str(path), "--dataset", str(demo_dataset), "--split", "validation"]
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = scoring_main(argv, environ={"NAVITRACE_CACHE": str(key_cache)})
    if code == 2:
        assert out.getvalue() == "" and err.getvalue().count("\n") == 1 and err.getvalue().startswith("rejected: ")
    else:
        assert code == 0 and "NaviTrace score" in out.getvalue() and "Traceback" not in err.getvalue()


def test_a_quoted_value_is_cut_and_escaped():
    assert shown("a\nb\x00c\u200b") == '"a\\nb\\x00c\\u200b"'
    assert shown("é" * 1000) == f'"{"é" * MAX_SHOWN_CHARS}…" (1000 characters)'
