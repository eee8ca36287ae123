"""Scoring results in the private store: the summary and the per-row scores of each submission.

Both files are keyed by submission id, so writing them again (a retried or rescored job)
replaces them: a result is never doubled. Per-row test scores never leave the requests store;
``Summary`` holds aggregates only, so all of it may be published.
"""

from __future__ import annotations

import csv
import io
import json

from leaderboard.records import rows_path, summary_path
from leaderboard.storage.base import Storage
from scoring.evaluate import ROW_COLUMNS, Evaluation, write_rows_for_people
from scoring.summary import Summary


def result_files(submission_id: str, evaluation: Evaluation, summary: Summary) -> dict[str, bytes]:
    """The files recording ``evaluation``, to commit together with the job's FINISHED state.

    ``summary`` is what may be said of it (``disclosure.withhold_small_groups``); the rows keep every row.
    """
    return {
        summary_path(submission_id): (json.dumps(summary.to_dict(), indent=1, sort_keys=True) + "\n").encode(),
        rows_path(submission_id): rows_tsv(evaluation),
    }


def rows_tsv(evaluation: Evaluation) -> bytes:
    """One line per expected row with its components, as ``scoring``'s ``--rows-out`` writes it.

    Stored as data (the explorer matches its sample ids), so text is kept verbatim here; what
    people download goes through ``rows_download_tsv``.
    """
    out = io.StringIO()
    writer = csv.writer(out, delimiter="\t", lineterminator="\n")
    writer.writerow(ROW_COLUMNS)
    for row in evaluation.rows:
        writer.writerow(["" if v is None else repr(v) if isinstance(v, float) else str(v) for v in _values(row)])
    return out.getvalue().encode()


def _values(row: object) -> list[object]:
    record = row.as_record()  # type: ignore[attr-defined]
    return [record[column] for column in ROW_COLUMNS]


def rows_download_tsv(rows: list[dict[str, str]]) -> bytes:
    """The per-row scores (``read_rows``) as a submitter downloads them: no cell runs as a spreadsheet formula."""
    out = io.StringIO()
    write_rows_for_people(out, rows)
    return out.getvalue().encode()


def read_summary(store: Storage, submission_id: str) -> Summary | None:
    data = store.read(summary_path(submission_id))
    return Summary.from_dict(json.loads(data)) if data else None


def read_rows(store: Storage, submission_id: str) -> list[dict[str, str]]:
    """The per-row scores as text cells (empty where a number does not apply)."""
    data = store.read(rows_path(submission_id))
    if not data:
        return []
    return list(csv.DictReader(io.StringIO(data.decode()), delimiter="\t"))
