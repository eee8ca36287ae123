"""No test figure over fewer than k valid rows (single rows' scores once leaked through small groups)."""

from __future__ import annotations

import dataclasses
import json

from leaderboard.service import Leaderboard
from leaderboard.statistics.disclosure import withhold_small_groups
from scoring import score_submission
from scoring.examples import example_rows
from tests.service_fixtures import MAINTAINER, submit


def one_row_per_embodiment(key, tmp_path):
    """A test file answering exactly one row of each embodiment (the others missing): the probe."""
    rows, seen = [], set()
    for row in example_rows(key, "noisy"):
        if row["embodiment"] not in seen:
            seen.add(row["embodiment"])
            rows.append(row)
    path = tmp_path / "probe.tsv"
    path.write_text("sample_id\tembodiment\tprediction\n" + "".join(
        f"{r['sample_id']}\t{r['embodiment']}\t{r['prediction']}\n" for r in rows
    ))  # fmt: skip
    return path, len(rows)


def test_a_probe_of_one_row_per_embodiment_learns_no_row(service: Leaderboard, test_key, tmp_path):
    probe, answered = one_row_per_embodiment(test_key, tmp_path)
    receipt = submit(service, probe, publish=True)
    service.worker.drain()
    summary = service.status(receipt.submission_id, user="alice").summary
    assert summary is not None and answered < service.settings.min_rows_per_figure
    assert summary.score is None and summary.score_valid_only is None
    assert set(summary.per_embodiment.values()) == {None}
    assert "score" in summary.withheld and f"per_embodiment.{next(iter(summary.per_embodiment))}" in summary.withheld
    assert summary.coverage is not None and summary.n_valid == answered  # counts say nothing of a row's score
    service.approve(receipt.submission_id, by=MAINTAINER)
    (row,) = [r for r in service.public_table() if r["submission_id"] == receipt.submission_id]
    assert row["score"] is None and set(row["per_embodiment"].values()) == {None}
    stored = json.loads(service.requests.read(f"private/{receipt.submission_id}/summary.json"))
    assert stored["score"] is None and stored["withheld"]  # the private copy says no more


def test_figures_over_enough_rows_stay_and_validation_is_never_withheld(service, files, validation_key, test_key):
    full = score_submission(files["test-noisy"], test_key)
    kept = withhold_small_groups(full, 1)
    assert kept == full.summary and not kept.withheld
    some = withhold_small_groups(full, 5)
    for name, value in full.summary.per_embodiment.items():
        rows = sum(r.embodiment == name and r.score.status == "valid" for r in full.rows)
        assert some.per_embodiment[name] == (value if rows >= 5 else None)
    receipt = submit(service, files["validation-noisy"], split="validation")
    service.worker.drain()
    expected = score_submission(files["validation-noisy"], validation_key, baseline_raw=service.settings.baseline_raw)
    assert service.status(receipt.submission_id).summary == expected.summary


def test_the_threshold_is_a_setting(settings, files, test_key, clock):
    strict = Leaderboard(dataclasses.replace(settings, min_rows_per_figure=10_000), clock=clock)
    receipt = submit(strict, files["test-noisy"])
    strict.worker.drain()
    summary = strict.status(receipt.submission_id).summary
    assert (
        summary is not None
        and summary.score is None
        and summary.per_category
        and not any(summary.per_category.values())
    )
