"""Every file of the hostile corpus, through intake validation (the service) and ``python -m scoring score``.

The manifest (``input_corpus.CASES``) says what each file is and what must happen to it; a
refusal is one line naming what is wrong, and where when a line can be named.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pandas as pd
import pytest

from leaderboard.records.errors import Rejected
from leaderboard.service import Leaderboard
from tests.hardening.input.input_corpus import CASES, ROWS, TRUTH_ONLY, Case

CORPUS = Path(__file__).with_name("corpus")
MAX_MESSAGE_CHARS = 400


def test_the_corpus_is_the_manifest():
    on_disk = sorted(p.name for p in CORPUS.glob("*.tsv"))
    assert on_disk == sorted(case.name for case in CASES)
    assert len(on_disk) >= 50


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_intake_validation(case: Case, input_service: Leaderboard):
    path = CORPUS / case.name
    intake_invalid = {r: n for r, n in case.invalid.items() if r not in TRUTH_ONLY}
    if case.rejected or sum(intake_invalid.values()) == ROWS:
        with pytest.raises(Rejected) as caught:
            input_service.validate(path, "validation")
        message = str(caught.value)
        assert_one_line(message)
        assert (case.rejected or "no valid prediction") in message
        return
    report = input_service.validate(path, "validation")
    assert report.invalid_by_reason == intake_invalid
    assert (report.n_valid, report.n_missing) == (ROWS - sum(intake_invalid.values()), 0)
    assert all(problem.startswith("line ") for problem in report.problems)
    if case.warning:
        assert any(case.warning in w for w in report.warnings)


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_scoring_cli(case: Case, run_cli, tmp_path: Path):
    rows_out = tmp_path / "rows.tsv"
    run = run_cli(CORPUS / case.name, "--rows-out", str(rows_out))
    assert "Traceback" not in run.err
    if case.rejected:
        assert run.code == 2 and run.out == "" and not rows_out.exists()
        assert run.err.count("\n") == 1 and run.err.startswith("rejected: ")
        assert_one_line(run.err.rstrip("\n"))
        assert case.rejected in run.err
        return
    assert run.code == 0, run.err
    rows = pd.read_csv(rows_out, sep="\t", dtype=str, keep_default_na=False)
    assert len(rows) == ROWS and set(rows["status"]) <= {"valid", "invalid"}
    assert dict(Counter(rows.loc[rows["status"] == "invalid", "reason"])) == case.invalid
    if case.warning:
        assert case.warning in run.err


def assert_one_line(message: str) -> None:
    assert not any(c in message for c in "\n\r\t\x00")
    assert len(message) <= MAX_MESSAGE_CHARS, f"{len(message)} characters: {message[:200]}..."
