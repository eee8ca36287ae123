"""Spreadsheet formula injection: no text cell of anything we export runs as a formula; numbers stay numbers.

Exports: the public leaderboard CSV (``board.csv_bytes``), the per-row TSV a submitter downloads
(``results.rows_download_tsv``) and ``python -m scoring score --rows-out`` (``Evaluation.write_rows``).
Every text field gets each payload; a spreadsheet shows a cell starting with an apostrophe as text.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from leaderboard.storage.results import rows_download_tsv
from scoring.answer_key import Sample
from scoring.evaluate import FORMULA_STARTS, ROW_COLUMNS, Evaluation, RowResult
from scoring.row import RowScore
from space.board import csv_rows
from tests.hardening.input.input_corpus import HYPERLINK

PAYLOADS = [HYPERLINK, "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(A1:A9)", "\t=1", "\r=1", "\n=1", "\x00=1"]
BOARD_TEXT = [
    "kind",
    "model",
    "organization",
    "model_link",
    "paper_link",
    "source",
    "submitted_at",
    "scorer_version",
    "dataset_revision",
    "submission_id",
    "description",
]


def runs_as_formula(cell: str) -> bool:
    return cell.startswith(FORMULA_STARTS)


def board_row(text: str) -> dict[str, object]:
    row: dict[str, object] = {column: text for column in BOARD_TEXT}
    row |= {"kind": "submission", "split": "test", "score": -12.5, "score_valid_only": -0.25, "coverage": 0.5}
    row |= {"n_expected": 16, "n_valid": 8, "n_invalid": 4, "n_missing": 4, "parameters_b": 7.0, "open_weights": True}
    row |= {"per_embodiment": {"Human": -3.0}, "per_category": {text: -1.5}, "per_metadata": {"task_type": {text: 2.0}}}
    return row


@pytest.mark.parametrize("payload", PAYLOADS, ids=repr)
def test_the_leaderboard_csv_guards_every_text_field_and_keeps_negative_numbers(payload: str):
    for field in [*BOARD_TEXT, "split"]:
        row = board_row("plain") | {field: payload}
        lines = list(csv.DictReader(io.StringIO(csv_rows.csv_bytes([row], str(row["split"])).decode(), newline="")))
        entry = next(line for line in lines if line["model"] == ("plain" if field != "model" else "'" + payload))
        assert entry[field] == "'" + payload, field
        assert not any(
            runs_as_formula(cell) for cell in entry.values() if cell not in ("-12.5", "-0.25", "-3.0", "-1.5")
        )
    row = board_row(payload)
    data = csv_rows.csv_bytes([row], "test").decode()
    header, entry = list(csv.reader(io.StringIO(data, newline="")))[:2]
    assert not any(runs_as_formula(cell) for cell in header)  # category and metadata names sit behind a prefix
    numbers = dict(zip(header, entry))
    assert numbers["score"] == "-12.5" and numbers["per_embodiment.Human"] == "-3.0"
    assert numbers[f"per_category.{payload}"] == "-1.5" and numbers["n_valid"] == "8"


@pytest.mark.parametrize("payload", PAYLOADS, ids=repr)
def test_the_per_row_download_guards_text_and_keeps_numbers(payload: str):
    row = {column: payload for column in ("sample_id", "embodiment", "status", "reason")}
    row |= {"score": "-12.5", "dtw": "3.25", "fde": "1e-05", "penalty": "0.0", "raw": "3500.0", "best_gt": "0"}
    hostile_number = dict(row, score=payload)
    data = rows_download_tsv([row, hostile_number]).decode()
    header, first, second = list(csv.reader(io.StringIO(data, newline=""), delimiter="\t"))
    assert header == list(ROW_COLUMNS)
    first_cells, second_cells = dict(zip(header, first)), dict(zip(header, second))
    assert all(first_cells[c] == "'" + payload for c in ("sample_id", "embodiment", "status", "reason"))
    assert first_cells["score"] == "-12.5" and first_cells["fde"] == "1e-05" and first_cells["best_gt"] == "0"
    assert second_cells["score"] == "'" + payload  # text where a number belongs is guarded too


@pytest.mark.parametrize("payload", PAYLOADS, ids=repr)
def test_the_cli_rows_out_guards_text_and_keeps_negative_scores(payload: str, tmp_path: Path):
    sample = Sample(payload, (payload,), (payload,), {}, 96, 72)
    score = RowScore("valid", payload, -12.5, 3.0, 1.0, 0.0, 3500.0, 0)
    Evaluation([RowResult(sample, payload, score)], summary={}).write_rows(tmp_path / "rows.tsv")
    header, cells = list(csv.reader((tmp_path / "rows.tsv").open(encoding="utf-8", newline=""), delimiter="\t"))
    values = dict(zip(header, cells))
    assert all(values[c] == "'" + payload for c in ("sample_id", "embodiment", "reason"))
    assert values["status"] == "valid" and values["score"] == "-12.5" and values["best_gt"] == "0"
