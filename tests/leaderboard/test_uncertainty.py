"""Scene-bootstrap intervals, paired rank ranges and differences (leaderboard/statistics/uncertainty.py) and
their columns in the public table."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from leaderboard.publishing.table import COLUMNS
from leaderboard.service import Leaderboard
from leaderboard.statistics.uncertainty import (
    OVERALL,
    RESAMPLES,
    difference,
    interval,
    rank_ranges,
    resample,
    resample_weights,
    scene_totals,
    significantly_better,
)
from leaderboard.statistics.uncertainty_compare import EntryIntervals
from leaderboard.statistics.uncertainty_table import with_uncertainty
from scoring.aggregate import summarise
from scoring.answer_key import Sample
from scoring.row import RowScore
from space.board import view as board_page
from space.board.ranks import ranked
from tests.service_fixtures import MAINTAINER, submit

EMBODIMENTS = ("Human", "Legged Robot", "Wheeled Robot", "Bicycle")


def fake_rows(scenes: int, seed: int, mean: float = 40.0, spread: float = 30.0, invalid: float = 0.1) -> list[dict]:
    """Rows shaped like the test split: 1 to 4 embodiments a scene, some invalid or missing."""
    rng = np.random.default_rng(seed)
    rows = []
    for s in range(scenes):
        for embodiment in EMBODIMENTS[: 1 + s % 4]:
            status = "valid" if rng.random() > invalid else ("invalid" if rng.random() < 0.5 else "missing")
            score = repr(float(rng.normal(mean, spread))) if status == "valid" else ""
            rows.append({"sample_id": f"s{s:04d}", "embodiment": embodiment, "status": status, "score": score})
    return rows


def ci(rows: list[dict], group=OVERALL) -> list[float]:
    resampled = resample({"e": scene_totals(rows)})
    found = interval(resampled.column("e", group))
    assert found is not None
    return found


def test_a_constant_score_has_a_zero_width_interval():
    rows = [{**r, "status": "valid", "score": "50.0"} for r in fake_rows(200, seed=1)]
    assert ci(rows) == [50.0, 50.0]
    assert ci(rows, ("per_embodiment", "Bicycle")) == [50.0, 50.0]


def test_intervals_shrink_as_rows_grow():
    widths = [np.diff(ci(fake_rows(scenes, seed=2)))[0] for scenes in (50, 200, 800)]
    assert widths[0] > widths[1] > widths[2] > 0
    assert widths[0] / widths[2] == pytest.approx(4.0, rel=0.35)  # ~ 1/sqrt(scenes)


def test_the_same_rows_give_the_same_intervals_twice():
    rows = fake_rows(300, seed=3)
    assert ci(rows) == ci(list(reversed(rows)))
    resample_weights.cache_clear()  # drawn afresh from the seed, not merely remembered
    assert ci(rows) == ci(rows)


def test_the_resampled_statistic_is_the_summarys_aggregate():
    """The identity "resample" (every scene once) gives exactly the summary's coverage-aware means."""
    rows = fake_rows(60, seed=4)
    samples = {r["sample_id"]: Sample(r["sample_id"], EMBODIMENTS, ("c",), {}, 8, 8) for r in rows}
    status = {"valid": lambda r: RowScore("valid", score=float(r["score"])), "invalid": lambda r: RowScore("invalid")}
    triples = [
        (samples[r["sample_id"]], r["embodiment"], status.get(r["status"], lambda r: RowScore.missing())(r))
        for r in rows
    ]
    summary = summarise(triples, baseline_raw=1.0, scorer_version="x", dataset_revision="y")
    totals = scene_totals(rows)
    for group, expected in [
        (OVERALL, summary.score),
        *((("per_embodiment", e), v) for e, v in summary.per_embodiment.items()),
    ]:
        point = sum(totals.sums[group].values()) / sum(totals.counts[group].values())
        assert point == pytest.approx(expected, abs=1e-9)


@hypothesis_settings(max_examples=25, deadline=None)
@given(shift=st.floats(-50, 50), seed=st.integers(0, 10_000))
def test_shifting_every_score_shifts_the_interval(shift: float, seed: int):
    """With every row valid, adding ``shift`` to each score moves both ends by ``shift`` (same resamples)."""
    rows = fake_rows(40, seed=seed, invalid=0.0)
    moved = [dict(r, score=repr(float(r["score"]) + shift)) for r in rows]
    assert ci(moved) == pytest.approx([end + shift for end in ci(rows)], abs=1e-5)


def test_scenes_not_rows_are_resampled():
    """The embodiments of one scene move together: a scene's rows are always drawn the same number of times."""
    weights = resample_weights(50)
    assert weights.shape == (RESAMPLES, 50) and (weights.sum(axis=1) == 50).all()
    # Perfectly correlated rows within a scene: the clustered interval is wider than a row bootstrap's would be.
    rows = [
        dict(r, status="valid", score=repr(float(int(r["sample_id"][1:]) % 7 * 10))) for r in fake_rows(120, seed=5)
    ]
    assert np.diff(ci(rows))[0] > 0


def test_the_point_estimate_lies_inside_its_interval():
    for seed in range(5):
        rows = fake_rows(200, seed=seed)
        totals = scene_totals(rows)
        low, high = ci(rows)
        point = sum(totals.sums[OVERALL].values()) / sum(totals.counts[OVERALL].values())
        assert low <= point <= high


def test_a_clearly_best_entry_ranks_first_in_every_resample():
    totals = {f"e{i}": scene_totals(fake_rows(200, seed=10 + i, mean=10.0 * i)) for i in range(4)}
    totals["best"] = scene_totals(fake_rows(200, seed=99, mean=90.0, spread=5.0))
    resampled = resample(totals)
    spans = rank_ranges(resampled, list(totals), fixed=[20.0])
    assert spans["best"] == [1, 1]
    assert spans["e0"] == [6, 6]  # below the reported row at 20 too
    assert all(best <= worst for best, worst in spans.values())


def test_paired_differences_cancel_shared_scene_difficulty():
    """Two entries that differ by +5 on every row: the paired difference is exactly +5, however
    wide each entry's own interval is."""
    a = fake_rows(200, seed=6, invalid=0.0)
    b = [dict(r, score=repr(float(r["score"]) - 5.0)) for r in a]
    resampled = resample({"a": scene_totals(a), "b": scene_totals(b)})
    assert difference(resampled, "a", "b") == pytest.approx([5.0, 5.0])
    assert np.diff(interval(resampled.column("a")))[0] > 4.0  # each alone is uncertain by ~±2.5


def test_reported_baseline_and_withheld_figures_get_none():
    totals = {"sub": scene_totals(fake_rows(100, seed=7))}
    rows = [
        {
            "submission_id": "sub",
            "kind": "submission",
            "split": "test",
            "score": 40.0,
            "per_embodiment": {"Human": 40.0, "Bicycle": None},
        },
        {"submission_id": "withheld", "kind": "submission", "split": "test", "score": None, "per_embodiment": {}},
        {"submission_id": "reported-1", "kind": "reported", "split": "test", "score": 50.0},
        {"submission_id": "baseline-test", "kind": "baseline", "split": "test", "score": 0.0},
    ]
    out = {r["submission_id"]: r for r in with_uncertainty(rows, totals)}
    assert out["sub"]["score_ci"] is not None and out["sub"]["rank_range"] is not None
    assert out["sub"]["per_embodiment_ci"]["Bicycle"] is None  # withheld by the disclosure rule: no interval
    assert out["sub"]["per_embodiment_ci"]["Human"] is not None
    for other in ("withheld", "reported-1", "baseline-test"):
        assert (out[other]["score_ci"], out[other]["per_embodiment_ci"], out[other]["rank_range"]) == (None, None, None)
    # The withheld score is in nobody's list and has none; the reported row is compared as a fixed figure.
    assert out["withheld"]["significantly_better"] is None and out["baseline-test"]["significantly_better"] is None
    assert isinstance(out["reported-1"]["significantly_better"], list)
    assert isinstance(out["sub"]["significantly_better"], list)


@pytest.fixture
def board(service: Leaderboard, files, clock) -> dict[str, str]:
    ids = {
        "noisy": submit(service, files["test-noisy"], publish=True, model="Noisy").submission_id,
        "perfect": submit(service, files["test-perfect"], publish=True, model="Perfect", user="bob").submission_id,
    }
    clock.advance(1)
    service.worker.drain()
    for submission_id in ids.values():
        service.approve(submission_id, by=MAINTAINER)
    service.add_reported(MAINTAINER, model="Human expert", score=75.4, source="https://arxiv.org/abs/2510.26909")
    return ids


def test_the_published_table_carries_the_intervals(service: Leaderboard, board):
    table = {r["submission_id"]: r for r in service.published_table()}
    assert all(list(r) == list(COLUMNS) for r in table.values())
    perfect, noisy = table[board["perfect"]], table[board["noisy"]]
    assert perfect["score_ci"] == [100.0, 100.0]  # every row scores 100: nothing to resample
    assert perfect["rank_range"] == [1, 1]
    low, high = noisy["score_ci"]
    assert low <= noisy["score"] <= high
    assert set(noisy["per_embodiment_ci"]) == set(noisy["per_embodiment"])
    assert table["baseline-test"]["score_ci"] is None
    assert service.publish() is False  # the same store gives the same table: nothing to rewrite


def test_a_rescore_recomputes_the_intervals(service: Leaderboard, board):
    publisher = service.publisher
    before, computed = publisher.totals.reads, publisher.totals.computed
    publisher.rows()
    assert publisher.totals.reads == before  # unchanged results: the per-row scores are not read again
    assert publisher.totals.computed == computed  # nor the intervals computed again
    service.rescore(by=MAINTAINER)
    service.worker.drain()
    assert service.worker.publisher is publisher
    assert publisher.totals.reads >= before + 2  # new results: both entries' per-row scores read again
    rows = {r["submission_id"]: r for r in service.published_table()}
    assert rows[board["perfect"]]["score_ci"] == [100.0, 100.0]


def entry_intervals(service: Leaderboard) -> EntryIntervals:
    return EntryIntervals(
        service.registry.store, lambda split: {s.sample_id: s.category for s in service.keys.public(split).samples}
    )


def test_an_entrys_group_intervals_are_the_tables(service: Leaderboard, board):
    """The entry page's intervals come from the same resamples as the published ones, categories added."""
    row = next(r for r in service.published_table() if r["submission_id"] == board["noisy"])
    groups = {(g.kind, g.name): g for g in entry_intervals(service).groups(row)}
    assert groups[OVERALL].interval == row["score_ci"]
    for embodiment, span in row["per_embodiment_ci"].items():
        assert groups[("per_embodiment", embodiment)].interval == span
    categories = [g for g in groups.values() if g.kind == "per_category"]
    assert {g.name for g in categories} == set(row["per_category"])
    assert all(g.interval[0] <= g.value <= g.interval[1] for g in categories if g.value is not None)


def test_paired_differences_of_two_entries(service: Leaderboard, board):
    table = {r["submission_id"]: r for r in service.published_table()}
    noisy, perfect = table[board["noisy"]], table[board["perfect"]]
    intervals = entry_intervals(service)
    same = {(d.kind, d.name): d for d in intervals.compare(noisy, noisy)}
    shown = [d for d in same.values() if d.value is not None]  # the tiny key withholds some groups (k = 5)
    assert shown and all(d.value == 0.0 and d.interval == [0.0, 0.0] for d in shown)
    assert all(d.interval is None for d in same.values() if d.value is None)
    diff = {(d.kind, d.name): d for d in intervals.compare(perfect, noisy)}
    assert diff[OVERALL].value == pytest.approx(perfect["score"] - noisy["score"])
    low, high = diff[OVERALL].interval
    assert 0 < low <= diff[OVERALL].value <= high  # perfect beats noisy on every resample
    assert {k for k in diff if k[0] == "per_category"} == {("per_category", c) for c in noisy["per_category"]}
    reported = next(r for r in table.values() if r["kind"] == "reported")
    versus = {(d.kind, d.name): d for d in intervals.compare(perfect, reported)}
    assert versus[OVERALL].value == pytest.approx(100.0 - 75.4) and versus[OVERALL].interval is None


def test_a_withheld_figure_gets_no_difference(service: Leaderboard, board):
    row = next(r for r in service.published_table() if r["submission_id"] == board["noisy"])
    hidden = {**row, "per_embodiment": {**row["per_embodiment"], "Human": None}}
    diff = {(d.kind, d.name): d for d in entry_intervals(service).compare(hidden, row)}
    assert diff[("per_embodiment", "Human")].value is None and diff[("per_embodiment", "Human")].interval is None


def test_entries_of_two_splits_get_no_paired_interval(service: Leaderboard, board):
    table = {r["submission_id"]: r for r in service.published_table()}
    noisy, perfect = table[board["noisy"]], table[board["perfect"]]
    diff = entry_intervals(service).compare(perfect, {**noisy, "split": "validation"})
    assert diff[0].value == pytest.approx(perfect["score"] - noisy["score"])
    assert all(d.interval is None for d in diff)


# -- significantly better: the upper-bound rank and the rank range of every page ----------------------------------


def test_a_clear_winner_is_alone_at_upper_bound_rank_one_with_range_one():
    """Four entries around 10-40 and one at 90: every other row lists the winner, the winner lists none; the
    reported row at 20 is significantly below the winner and above e0 (mean 0)."""
    totals = {f"e{i}": scene_totals(fake_rows(200, seed=10 + i, mean=10.0 * i)) for i in range(4)}
    totals["best"] = scene_totals(fake_rows(200, seed=99, mean=90.0, spread=5.0))
    rows = [_entry_row(name, t) for name, t in totals.items()]
    rows.append({"submission_id": "reported-1", "kind": "reported", "split": "test", "score": 20.0})
    table = with_uncertainty(rows, totals)
    better = {r["submission_id"]: r["significantly_better"] for r in table}
    assert better["best"] == [] and all("best" in ids for name, ids in better.items() if name != "best")
    assert "reported-1" in better["e0"] and "e0" not in better["reported-1"]
    shown = {r["submission_id"]: r for r in ranked(table, "test")}
    assert (shown["best"]["rank"], shown["best"]["rank_bounds"]) == (1, [1, 1])
    assert sum(r["rank_bounds"] is not None and r["rank_bounds"][0] == 1 for r in shown.values()) == 1


@hypothesis_settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), others=st.integers(0, 4))
def test_identical_files_are_always_tied(seed: int, others: int):
    """Two entries with the same per-row scores: neither is significantly better, same rank, same upper-bound rank,
    whatever else is on the board."""
    same = fake_rows(60, seed=seed)
    totals = {"a": scene_totals(same), "b": scene_totals(same)}
    totals |= {f"o{i}": scene_totals(fake_rows(60, seed=seed + i + 1, mean=20.0 + 15 * i)) for i in range(others)}
    table = with_uncertainty([_entry_row(name, t) for name, t in totals.items()], totals)
    shown = {r["submission_id"]: r for r in ranked(table, "test")}
    a, b = shown["a"], shown["b"]
    assert "a" not in b["significantly_better"] and "b" not in a["significantly_better"]
    assert (a["rank"], a["rank_bounds"]) == (b["rank"], b["rank_bounds"])
    assert a["rank_bounds"][0] <= a["rank"] <= a["rank_bounds"][1]


@hypothesis_settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_significance_agrees_with_the_paired_difference_and_the_point_order(seed: int):
    """Listed only with a higher point score; a paired two-sided 95% interval above 0 is a one-sided 95% win."""
    totals = {f"e{i}": scene_totals(fake_rows(80, seed=seed + i, mean=30.0 + 4 * i)) for i in range(5)}
    resampled = resample(totals)
    points = {name: _point(t) for name, t in totals.items()}
    better = significantly_better(resampled, points)
    for a in totals:
        for b in totals:
            low = difference(resampled, b, a)[0]  # type: ignore[index]
            assert b not in better[a] or points[b] > points[a]
            assert b in better[a] or not (low > 0 and points[b] > points[a])


def _point(totals) -> float:
    return sum(totals.sums[OVERALL].values()) / sum(totals.counts[OVERALL].values())


def _entry_row(name: str, totals) -> dict:
    return {"submission_id": name, "kind": "submission", "split": "test", "score": _point(totals), "model": name}


@pytest.fixture
def rivals(service: Leaderboard, files, clock) -> dict[str, str]:
    """Two people's "Navigator" (alice twice), the same file from alice and bob, and a perfect entry."""
    ids = {
        "perfect": submit(service, files["test-perfect"], publish=True, model="Perfect", user="carol").submission_id,
        "alice": submit(service, files["test-noisy1"], publish=True, model="Navigator", user="alice").submission_id,
        "bob": submit(service, files["test-noisy1"], publish=True, model="Navigator", user="bob").submission_id,
        "alice2": submit(service, files["test-noisy2"], publish=True, model="Navigator", user="alice").submission_id,
    }
    clock.advance(1)
    service.worker.drain()
    for submission_id in ids.values():
        service.approve(submission_id, by=MAINTAINER)
    return ids


def test_the_published_table_says_who_is_significantly_better_and_groups_a_submitters_model(service, rivals):
    table = {r["submission_id"]: r for r in service.published_table()}
    assert all(list(r) == list(COLUMNS) for r in table.values())
    perfect, alice, bob = (table[rivals[k]] for k in ("perfect", "alice", "bob"))
    assert perfect["significantly_better"] == [] and rivals["perfect"] in alice["significantly_better"]
    assert rivals["alice"] not in bob["significantly_better"] and rivals["bob"] not in alice["significantly_better"]
    assert alice["model_group"] == table[rivals["alice2"]]["model_group"] == rivals["alice"]  # the oldest names it
    assert bob["model_group"] == rivals["bob"]
    assert table["baseline-test"]["model_group"] is None and table["baseline-test"]["significantly_better"] is None
    shown = {r["submission_id"]: r for r in ranked(list(table.values()), "test")}
    assert (shown[rivals["perfect"]]["rank"], shown[rivals["perfect"]]["rank_bounds"]) == (1, [1, 1])
    assert shown[rivals["alice"]]["rank"] == shown[rivals["bob"]]["rank"]  # the same file: tied
    assert shown[rivals["alice"]]["rank_bounds"] == shown[rivals["bob"]]["rank_bounds"]
    best = board_page.select(list(table.values()), board_page.BoardView())
    navigators = [r["submission_id"] for r in best if str(r["model"]).casefold() == "navigator"]
    assert rivals["bob"] in navigators and len(navigators) == 2  # alice's best and bob's: two people, both shown
