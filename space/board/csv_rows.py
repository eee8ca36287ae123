"""The board's CSV download: every public column of a split, breakdowns flattened, formulas defused.

Columns only ever get appended (older readers keep theirs in place): the uncertainty columns, then the
tries, flag, declarations and Hub pull request, then the upper-bound rank, then the release.

``rank``, ``rank_best`` and ``rank_worst`` are the one rank and range of ``space.board.ranks`` (among the
unflagged entries, as on the default board and the entry pages); ``rank_best`` is the upper-bound rank,
1 + the entries significantly better (the "Rank (UB)" column), which ``rank_ub`` repeats under its own name at
the end with ``rank_ub_tied_with``, how many other ranked entries share it (the entries it is tied with).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable

from scoring.aggregate import METADATA_FIELDS
from scoring.evaluate import spreadsheet_safe
from scoring.penalty_table import EMBODIMENTS
from space.board.view import Row, _dict, _meta, ranked

CSV_BASE = (
    "rank",
    "kind",
    "model",
    "organization",
    "model_link",
    "paper_link",
    "source",
    "open_weights",
    "parameters_b",
    "split",
    "score",
    "score_valid_only",
    "coverage",
    "n_expected",
    "n_valid",
    "n_invalid",
    "n_missing",
)
CSV_TAIL = ("submitted_at", "scorer_version", "dataset_revision", "submission_id", "description")
# The 95% intervals and rank ranges (leaderboard/statistics/uncertainty.py, space/board/ranks.py), last so
# older readers' columns keep their places; empty where a row has none (reported rows, the baseline, withheld figures).
CSV_UNCERTAINTY = ("score_ci_low", "score_ci_high", "rank_best", "rank_worst")
# After those: the tries, the flag, the declarations, the Hub pull request.
CSV_TRUST = (
    "submissions_model",
    "submissions_total",
    "flag_kind",
    "flag_reason",
    "flag_link",
    "flagged_at",
    "trained_on",
    "test_images_beyond_inference",
    "code_link",
    "best_of",
    "hub_pr_url",
)
# After those: the upper-bound rank by its name, and how many other ranked entries share it (tied).
CSV_SIGNIFICANCE = ("rank_ub", "rank_ub_tied_with")
# Last: the release the row's figures belong to (leaderboard/publishing/editions.py; v1 for a table made before).
CSV_RELEASE = ("release",)


def csv_table(rows: Iterable[Row], split: str) -> tuple[list[str], list[list[object]]]:
    """Every public column of the split, breakdowns flattened (``per_embodiment.Human``, ...), as values: the
    header and one list a row. Flagged and Hub rows included (flagged ones ranked where their score places them
    among the unflagged, Hub ones unranked). The CSV and the JSON API are both written from it."""
    shown = ranked(rows, split)
    categories = sorted({c for r in shown for c in _dict(r.get("per_category"))})
    metadata = [(f, v) for f in METADATA_FIELDS for v in sorted({v for r in shown for v in _meta(r, f)})]
    header = [*CSV_BASE]
    header += [f"per_embodiment.{e}" for e in EMBODIMENTS]
    header += [f"per_category.{c}" for c in categories]
    header += [f"per_metadata.{f}.{v}" for f, v in metadata]
    header += [*CSV_TAIL, *CSV_UNCERTAINTY]
    header += [f"per_embodiment_ci.{e}.{end}" for e in EMBODIMENTS for end in ("low", "high")]
    header += CSV_TRUST
    header += CSV_SIGNIFICANCE
    header += CSV_RELEASE
    lines = []
    for r in shown:
        line = [r.get(c) for c in CSV_BASE]
        line += [_dict(r.get("per_embodiment")).get(e) for e in EMBODIMENTS]
        line += [_dict(r.get("per_category")).get(c) for c in categories]
        line += [_meta(r, f).get(v) for f, v in metadata]
        line += [r.get(c) for c in CSV_TAIL]
        line += [*_pair(r.get("score_ci")), *_pair(r.get("rank_bounds"))]
        line += [v for e in EMBODIMENTS for v in _pair(_dict(r.get("per_embodiment_ci")).get(e))]
        line += _trust_cells(r)
        line += [r.get(c) for c in CSV_SIGNIFICANCE]
        line.append(r.get("release") or "v1")
        lines.append(line)
    return header, lines


def csv_bytes(rows: Iterable[Row], split: str) -> bytes:
    """``csv_table`` as CSV text, formulas defused."""
    header, lines = csv_table(rows, split)
    out = io.StringIO()
    # CR LF ends (RFC 4180): the csv module quotes a cell holding a CR only then, and an unquoted
    # CR would start a new row in a spreadsheet, where "'\r=1" leaves a live "=1".
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(header)
    for line in lines:
        writer.writerow([_csv_cell(v) for v in line])
    return out.getvalue().encode("utf-8")


def _trust_cells(row: Row) -> list[object]:
    flag, declared = _dict(row.get("flag")), _dict(row.get("declarations"))
    cells = [row.get("submissions_model"), row.get("submissions_total")]
    cells += [flag.get(k) for k in ("kind", "reason", "link", "flagged_at")]
    cells += [declared.get(k) for k in ("trained_on", "test_images_beyond_inference", "code_link", "best_of")]
    return [*cells, row.get("hub_pr_url")]


def _pair(value: object) -> tuple[object, object]:
    """``[low, high]`` as two cells; two empty ones for anything else."""
    return (value[0], value[1]) if isinstance(value, list | tuple) and len(value) == 2 else (None, None)


def _csv_cell(value: object) -> str:
    """Text that a spreadsheet would run as a formula gets a leading quote (CSV injection); numbers stay numbers."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | float):
        return repr(value) if isinstance(value, float) else str(value)
    return spreadsheet_safe(str(value))
