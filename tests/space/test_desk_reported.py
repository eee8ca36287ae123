"""A reported row whose optional figures were left empty on the desk: unknown on the board and in the CSV, never 0."""

from __future__ import annotations

import csv
import io

from leaderboard.publishing.table import reported_row
from leaderboard.records.entries import Reported
from space.board.columns import columns
from space.board.csv_rows import csv_bytes
from space.desk.reported_section import figure

PAPER = Reported(
    "ab12",
    "Paper-VLM",
    41.5,
    "https://arxiv.org/abs/2510.00000",
    score_valid_only=figure(""),  # what the desk sends for an empty box
    coverage=figure("  "),
)


def test_the_csv_leaves_unknown_figures_empty():
    rows = list(csv.DictReader(io.StringIO(csv_bytes([reported_row(PAPER)], "test").decode())))
    assert len(rows) == 1
    assert rows[0]["score"] == "41.5" and rows[0]["coverage"] == "" and rows[0]["score_valid_only"] == ""


def test_the_board_shows_unknown_figures_as_a_dash():
    row = reported_row(PAPER)
    shown = columns((), (), None, (), [row])
    cells = {c.header: c.cell(row) for c in shown if c.header in ("Coverage", "Valid-only")}
    assert cells == {"Coverage": "—", "Valid-only": "—"}
