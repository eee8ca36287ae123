"""Maintainers see a user's test submissions that differ from an earlier one in only a few rows."""

from __future__ import annotations

import csv
from pathlib import Path

from leaderboard.review.probing import ProbeFinder, changed_rows, fingerprint, finished_tests
from tests.service_fixtures import MAINTAINER, submit


def with_rows_from(base: Path, other: Path, count: int, out: Path) -> Path:
    """``base`` with the predictions of its first ``count`` rows taken from ``other`` (same rows, same order)."""
    read = lambda p: list(csv.reader(p.open(), delimiter="\t"))  # noqa: E731
    rows, donor = read(base), read(other)
    column = rows[0].index("prediction") if "prediction" in rows[0] else len(rows[0]) - 1
    for i in range(1, count + 1):
        assert rows[i][:2] == donor[i][:2]
        rows[i][column] = donor[i][column]
    with out.open("w", newline="") as f:
        csv.writer(f, delimiter="\t", lineterminator="\n").writerows(rows)
    return out


def finder_pairs(service, few: int = 3):
    return ProbeFinder(lambda sid: service.rows(sid), few=few).pairs(finished_tests(service.submissions(MAINTAINER)))


def test_a_few_changed_rows_are_flagged_and_a_new_model_is_not(service, files, tmp_path, clock):
    first = submit(service, files["test-noisy"])
    clock.advance(60)
    probe = submit(service, with_rows_from(files["test-noisy"], files["test-straight"], 2, tmp_path / "probe.tsv"))
    clock.advance(60)
    again = submit(service, files["test-noisy"])  # the same file again is the same submission, not a probe
    assert again.submission_id == first.submission_id
    clock.advance(60)
    other_user = submit(service, files["test-noisy"], user="bob")
    clock.advance(60)
    submit(service, files["test-noisy3"], user="bob")  # a different model's output: many rows differ
    service.worker.drain()

    pairs = finder_pairs(service)
    assert [(p.user, p.earlier, p.later, p.changed_rows) for p in pairs] == [
        ("alice", first.submission_id, probe.submission_id, 2),
    ]
    assert all(p.compared_rows == len(service.rows(first.submission_id)) for p in pairs)
    assert other_user.submission_id not in {p.earlier for p in pairs}  # users are never compared with each other


def test_validation_and_unfinished_submissions_are_not_compared(service, files, tmp_path):
    submit(service, files["validation-noisy"], split="validation")
    submit(
        service,
        with_rows_from(files["validation-noisy"], files["validation-straight"], 1, tmp_path / "v.tsv"),
        split="validation",
    )
    service.worker.drain()
    submit(service, files["test-noisy"])  # still PENDING: nothing scored to compare
    assert finder_pairs(service) == []


def test_rows_scored_against_different_row_sets_are_not_compared():
    a = fingerprint([{"status": "valid", "raw": "1.0"}, {"status": "missing", "raw": ""}])
    b = fingerprint([{"status": "valid", "raw": "2.0"}, {"status": "missing", "raw": ""}])
    assert changed_rows(a, b) == 1 and changed_rows(a, a) == 0
    assert changed_rows(a, b[:1]) is None


def test_each_submission_is_read_once_however_often_the_page_loads(service, files):
    submit(service, files["test-noisy"])
    submit(service, files["test-noisy2"])
    service.worker.drain()
    reads: list[str] = []
    finder = ProbeFinder(lambda sid: reads.append(sid) or service.rows(sid))
    for _ in range(3):
        finder.pairs(finished_tests(service.submissions(MAINTAINER)))
    assert sorted(reads) == sorted(set(reads)) and len(reads) == 2
