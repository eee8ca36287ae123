"""Disclosure decided on the whole release: no row, and no combination of fewer than k rows, follows from
the figures a test result shows together (the overall minus the shown embodiments gave a withheld row)."""

from __future__ import annotations

from itertools import combinations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from leaderboard.statistics.disclosure import disclosed_summary, withhold_small_groups
from leaderboard.statistics.disclosure_audit import MAX_STEPS, Group, closing
from scoring import score_submission
from scoring.aggregate import summarise
from scoring.answer_key import Sample
from scoring.evaluate import Evaluation, RowResult
from scoring.examples import example_rows
from scoring.row import RowScore
from scoring.summary import Summary
from tests.service_fixtures import MAINTAINER, submit

EMBODIMENTS = ("Human", "Legged Robot", "Wheeled Robot", "Bicycle")


def shown_groups(evaluation: Evaluation, summary: Summary) -> np.ndarray:
    """The released figures as a figures x valid-rows 0/1 matrix, worked out here independently of the audit."""
    valid = [r for r in evaluation.rows if r.score.status == "valid"]
    groups = []
    if summary.score is not None or summary.score_valid_only is not None:
        groups.append([True] * len(valid))
    groups += [[r.embodiment == e for r in valid] for e, v in summary.per_embodiment.items() if v is not None]
    groups += [[c in r.sample.category for r in valid] for c, v in summary.per_category.items() if v is not None]
    groups += [
        [r.sample.metadata.get(name) == k for r in valid]
        for name, values in summary.per_metadata.items()
        for k, v in values.items()
        if v is not None
    ]
    return np.array(groups, dtype=float).reshape(len(groups), len(valid))


def determined_rows(evaluation: Evaluation, summary: Summary, k: int) -> tuple[int, ...] | None:
    """By brute force: a set of fewer than ``k`` valid rows some combination of whose scores the shown
    figures determine (deleting their columns lowers the rank), or None."""
    matrix = shown_groups(evaluation, summary)
    if not matrix.size:
        return None
    full = np.linalg.matrix_rank(matrix)
    for size in range(1, k):
        for rows in combinations(range(matrix.shape[1]), size):
            if np.linalg.matrix_rank(np.delete(matrix, rows, axis=1)) < full:
                return rows
    return None


def evaluation_of(rows: list[tuple[Sample, str, float | None]]) -> Evaluation:
    """An evaluation of hand-made rows: a score, or None for a missing row."""
    results = [RowResult(s, e, RowScore("valid", score=v) if v is not None else RowScore.missing()) for s, e, v in rows]
    summary = summarise(
        ((r.sample, r.embodiment, r.score) for r in results), baseline_raw=1.0, scorer_version="t", dataset_revision="t"
    )
    return Evaluation(results, summary)


def sample(i: int, embodiments: tuple[str, ...], category: tuple[str, ...] = ("A",), **metadata: str) -> Sample:
    return Sample(f"s{i}", embodiments, category, dict(metadata), 10, 10)


def test_k_rows_plus_a_target_learns_nothing_of_the_target():
    # 5 Human rows and 1 Bicycle row: overall x 6 - Human x 5 was the Bicycle row's score.
    rows = [(sample(i, ("Human",)), "Human", 40.0 + i) for i in range(5)] + [
        (sample(9, ("Bicycle",)), "Bicycle", 79.965)
    ]
    evaluation = evaluation_of(rows)
    assert determined_rows(evaluation, withhold_small_groups(evaluation, 5), 5) == (5,)  # the leak of old
    shown = disclosed_summary(evaluation, "test", 5)
    assert determined_rows(evaluation, shown, 5) is None
    assert (
        shown.per_embodiment["Human"] is None and shown.score is not None
    )  # the smaller group goes, the overall stays
    assert "per_embodiment.Human" in shown.withheld


def test_one_row_per_group_shows_no_figure_of_a_row():
    rows = [(sample(i, (e,), (f"C{i}",), urban_rural=f"U{i}"), e, 10.0 * i) for i, e in enumerate(EMBODIMENTS)]
    evaluation = evaluation_of(rows)
    shown = disclosed_summary(evaluation, "test", 2)
    assert determined_rows(evaluation, shown, 2) is None
    assert set(shown.per_embodiment.values()) == {None} and set(shown.per_category.values()) == {None}
    assert shown.score is not None  # over 4 rows, with no smaller group beside it


def test_overlapping_categories_cannot_be_differenced():
    # A: rows 0-5, B: rows 3-8, overall: rows 0-8 -> A + B - overall = rows 3-5 (3 rows under k = 5).
    rows = [(sample(i, ("Human",), ("A",) * (i < 6) + ("B",) * (i >= 3)), "Human", float(i)) for i in range(9)]
    evaluation = evaluation_of(rows)
    assert determined_rows(evaluation, withhold_small_groups(evaluation, 5), 5) is not None
    shown = disclosed_summary(evaluation, "test", 5)
    assert determined_rows(evaluation, shown, 5) is None
    assert [shown.per_category["A"], shown.per_category["B"]].count(None) >= 1


def test_a_release_that_determines_nothing_keeps_every_figure():
    # Two embodiments of 5 rows, categories that split each in the same way as the other: nothing to difference.
    rows = [(sample(i, (e,), ("A" if i % 2 else "B",)), e, float(i)) for i, e in enumerate(["Human", "Bicycle"] * 5)]
    rows += [
        (sample(10 + i, (e,), ("A" if i % 2 else "B",)), e, float(i)) for i, e in enumerate(["Bicycle", "Human"] * 5)
    ]
    evaluation = evaluation_of(rows)
    shown = disclosed_summary(evaluation, "test", 5)
    assert shown == evaluation.summary and not shown.withheld


def test_validation_results_are_never_withheld():
    rows = [(sample(i, ("Human",)), "Human", float(i)) for i in range(5)] + [(sample(9, ("Bicycle",)), "Bicycle", 1.0)]
    evaluation = evaluation_of(rows)
    assert disclosed_summary(evaluation, "validation", 5) == evaluation.summary


def test_a_release_too_costly_to_decide_keeps_the_nested_figures_only():
    rows = np.eye(6, dtype=bool)
    groups = [Group(("score",), np.ones(6, dtype=bool)), Group(("per_embodiment.Human",), rows[0] | rows[1] | rows[2])]
    groups += [Group((f"per_category.C{i}",), rows[i] | rows[(i + 1) % 6] | rows[(i + 2) % 6]) for i in range(6)]
    kept = closing(groups, 2, max_steps=1)
    assert [n for g in kept for n in g.names] == ["score", "per_embodiment.Human"]  # nested: decided at once
    assert closing(groups, 2, max_steps=MAX_STEPS) != kept  # decided with a budget, more is shown


SAMPLES = st.lists(
    st.tuples(
        st.sets(st.sampled_from(EMBODIMENTS), min_size=1),
        st.sets(st.sampled_from("ABC"), min_size=1),  # categories overlap: a sample holds several
        st.sampled_from(["Urban", "Rural"]),
        st.sampled_from(["Day", "Night", "Dusk"]),
    ),
    min_size=1,
    max_size=7,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(samples=SAMPLES, k=st.sampled_from([2, 3, 5]), answered=st.randoms(use_true_random=False))
def test_no_combination_of_fewer_than_k_rows_follows_from_a_test_release(samples, k, answered):
    rows = []
    for i, (embodiments, category, place, light) in enumerate(samples):
        s = sample(i, tuple(sorted(embodiments)), tuple(sorted(category)), urban_rural=place, lighting_conditions=light)
        rows += [(s, e, answered.uniform(-50, 100) if answered.random() < 0.8 else None) for e in s.embodiments]
    evaluation = evaluation_of(rows)
    shown = disclosed_summary(evaluation, "test", k)
    assert determined_rows(evaluation, shown, k) is None
    assert set(shown.withheld) >= set(withhold_small_groups(evaluation, k).withheld)


def test_the_public_probe_learns_no_row(service, files, test_key):
    """The probe of the public board: the overall times the expected rows minus the shown embodiment figures
    times theirs gave a withheld embodiment's rows exactly; no set of fewer than k rows follows now."""
    receipt = submit(service, files["test-noisy"], publish=True)
    service.worker.drain()
    service.approve(receipt.submission_id, by=MAINTAINER)
    (row,) = [r for r in service.public_table() if r["submission_id"] == receipt.submission_id]
    evaluation = score_submission(files["test-noisy"], test_key, baseline_raw=service.settings.baseline_raw)
    k = service.settings.min_rows_per_figure
    board = Summary.from_dict(row)
    assert determined_rows(evaluation, withhold_small_groups(evaluation, k), k) is not None  # the leak of old
    assert determined_rows(evaluation, board, k) is None
    private = service.status(receipt.submission_id, user="alice").summary
    assert private is not None and determined_rows(evaluation, private, k) is None
    assert (shown_groups(evaluation, private) == shown_groups(evaluation, board)).all()  # no more to the submitter


def test_a_private_probe_of_k_rows_plus_a_target_learns_nothing(service, test_key, tmp_path):
    """A file of k valid rows of one embodiment and one target row of another: overall and Human were shown."""
    k = service.settings.min_rows_per_figure
    rows = example_rows(test_key, "noisy")
    by = {e: [r for r in rows if r["embodiment"] == e] for e in {r["embodiment"] for r in rows}}
    big = max(by, key=lambda e: len(by[e]))
    target = next(r for e in by if e != big for r in by[e])
    chosen = by[big][:k] + [target]
    path = tmp_path / "probe.tsv"
    lines = "".join(f"{r['sample_id']}\t{r['embodiment']}\t{r['prediction']}\n" for r in chosen)
    path.write_text("sample_id\tembodiment\tprediction\n" + lines)
    receipt = submit(service, path)
    service.worker.drain()
    summary = service.status(receipt.submission_id, user="alice").summary
    evaluation = score_submission(path, test_key, baseline_raw=service.settings.baseline_raw)
    assert summary is not None and evaluation.summary.n_valid == k + 1
    assert determined_rows(evaluation, summary, k) is None
    assert summary.score is None or summary.per_embodiment[big] is None
