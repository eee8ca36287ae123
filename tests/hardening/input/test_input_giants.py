"""Giant hostile files, generated into tmp: refused unread, or read in memory bounded by the file's size.

Peak memory is Python's own allocation peak (``tracemalloc``, numpy included). Timings are not
asserted here (``benchmarks/fuzz_input.py --giants`` prints them).
"""

from __future__ import annotations

import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from leaderboard.records.errors import Rejected
from leaderboard.service import Leaderboard
from scoring.prediction import Reason
from tests.hardening.input import input_giants

pytestmark = pytest.mark.slow
MB = 2**20
# Reading a file with one huge cell peaks near 10x its size: the bytes, the text, csv's field
# buffer (4 bytes a character, grown by copying) and the cell itself.
READ_FACTOR = 12


@pytest.fixture
def giant(tmp_path: Path) -> Iterator[Path]:
    """A path for one giant file, deleted afterwards (pytest keeps old tmp folders; these are big)."""
    path = tmp_path / "giant.tsv"
    yield path
    path.unlink(missing_ok=True)


def peak_bytes(action: Callable[[], object]) -> tuple[object, int]:
    """``(result or raised exception, peak traced bytes)`` of ``action``."""
    tracemalloc.start()
    try:
        try:
            result: object = action()
        except Exception as error:  # noqa: BLE001  (the caller asserts on it)
            result = error
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize(
    "write", [input_giants.ten_million_rows, input_giants.over_the_limit], ids=["10M rows", "limit+1"]
)
def test_a_file_over_the_size_limit_is_refused_unread(write, giant: Path, input_service: Leaderboard, run_cli):
    write(giant)
    refused, peak = peak_bytes(lambda: input_service.validate(giant, "validation"))
    assert isinstance(refused, Rejected) and "over the" in str(refused) and "limit" in str(refused)
    assert peak < 1 * MB  # the file was never read
    run = run_cli(giant)
    assert run.code == 2 and "over the 64.0 MB limit" in run.err and run.err.count("\n") == 1


def test_a_gzip_bomb_is_refused_as_compressed_and_never_inflated(giant: Path, input_service: Leaderboard, run_cli):
    input_giants.gzip_bomb(giant)
    size = giant.stat().st_size
    refused, peak = peak_bytes(lambda: input_service.validate(giant, "validation"))
    assert isinstance(refused, Rejected) and "gzip-compressed" in str(refused)
    assert peak < 4 * size  # the compressed bytes and the decode error's copies, not the 1 GiB they inflate to
    run = run_cli(giant)
    assert run.code == 2 and "gzip-compressed" in run.err


def test_a_10_mb_raw_response_cell_is_read(giant: Path, input_service: Leaderboard, run_cli, tmp_path: Path):
    input_giants.huge_raw_response(giant, input_service.keys.public("validation"))
    size = giant.stat().st_size
    report, peak = peak_bytes(lambda: input_service.validate(giant, "validation"))
    assert not isinstance(report, Exception), report
    assert report.n_valid == report.n_expected == 16  # type: ignore[attr-defined]
    assert peak < READ_FACTOR * size
    assert run_cli(giant).code == 0


def test_a_60_mb_prediction_cell_is_invalid_without_being_decoded(giant: Path, input_service: Leaderboard, run_cli):
    description = input_giants.huge_prediction(giant)
    size = giant.stat().st_size
    refused, peak = peak_bytes(lambda: input_service.validate(giant, "validation"))
    # The file's only row is invalid, so intake has nothing to score; the report says why.
    assert isinstance(refused, Rejected), description
    assert "no valid prediction" in str(refused) and "not decoded" in str(refused)
    assert refused.report is not None and refused.report.invalid_by_reason == {Reason.TOO_MANY: 1}
    assert peak < READ_FACTOR * size  # decoding it took 1.4 GB (25x) before
    run = run_cli(giant)
    assert run.code == 0 and "more than 2000 points" in run.out


def test_2000_point_zigzags_on_every_row_score(giant: Path, input_service: Leaderboard, run_cli, tmp_path: Path):
    input_giants.worst_case_traces(giant, input_service.keys.public("validation"))
    summary = tmp_path / "summary.json"
    run = run_cli(giant, "--summary-out", str(summary))
    assert run.code == 0, run.err
    assert '"n_valid": 16' in summary.read_text()
