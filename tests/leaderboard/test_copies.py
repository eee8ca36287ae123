"""Duplicate detection: a copied test submission reaches the maintainers marked, and only them.

The comparison itself on hand-made traces whose shares fit in a comment, then the real service
(local storage, the worker) on the session's synthetic test split.
"""

from __future__ import annotations

import inspect
import json
import logging
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import leaderboard.statistics.copies_traces as copies_traces
from leaderboard.cli.parser import main
from leaderboard.records.entries import summary_path
from leaderboard.service import Leaderboard
from leaderboard.statistics.copies import CopyFinder, copy_line, copy_path
from leaderboard.statistics.copies_cache import TraceCache
from leaderboard.statistics.copies_curves import curves
from leaderboard.statistics.copies_traces import MISSING, Match, Traces, compare
from space.board.csv_rows import csv_bytes
from tests.service_fixtures import MAINTAINER, submit

# -- the comparison, by hand ---------------------------------------------------------------------


def traces(rows: list[list[list[float]] | str | None]) -> Traces:
    """``Traces`` of hand-written rows: a list of points, an invalid cell's text, or ``None`` (no such row)."""
    counts = np.array([MISSING if r is None else 0 if isinstance(r, str) else len(r) for r in rows], dtype=np.int32)
    cells = np.array([hash(r) & 0xFFFF or 1 if isinstance(r, str) else 0 for r in rows], dtype=np.int64)
    valid = [np.asarray(r, dtype=np.float64) for r in rows if isinstance(r, list)]
    offsets = np.zeros(len(rows), dtype=np.int64)
    offsets[counts > 0] = np.concatenate(([0], np.cumsum([len(v) for v in valid])[:-1]))
    points = np.concatenate(valid).reshape(-1, 2)
    return Traces(counts, offsets, points, cells, curves(counts, offsets, points))


ROWS = [[[10.0 * i, 20.0], [10.0 * i + 3, 40.0], [10.0 * i + 6, 60.0]] for i in range(20)]


def moved(rows, dx: float, dy: float, which=None):
    """``rows`` with every point of the rows ``which`` (all: None) moved by (dx, dy)."""
    return [[[x + dx, y + dy] for x, y in r] if which is None or i in which else r for i, r in enumerate(rows)]


def test_an_identical_file_matches_every_row_exactly():
    assert compare(traces(ROWS), traces(ROWS), 0.95) == Match(1.0, 1.0, 20, 1.0)


def test_every_point_moved_by_one_pixel_in_both_axes_still_matches_within_1_px_chebyshev():
    # (1, 1) is sqrt(2) px away in Euclidean distance: Chebyshev max(|dx|, |dy|) = 1 keeps it a match.
    assert compare(traces(moved(ROWS, 1.0, -1.0)), traces(ROWS), 0.95) == Match(1.0, 0.0, 20, 1.0)
    assert compare(traces(moved(ROWS, 0.3, 0.7)), traces(ROWS), 0.95) == Match(1.0, 0.0, 20, 1.0)


def test_a_point_1_5_px_away_breaks_its_row_within_1_px_but_not_as_a_curve():
    two_off = moved(ROWS, 1.5, 0.0, which={4, 9})
    assert compare(traces(two_off), traces(ROWS), 0.95) == Match(0.9, 0.9, 20, 1.0)


def test_rows_near_as_curves_whatever_their_points():
    # Shifted 3 px both ways (4.2 px), jittered by up to 3 px, one point added just off the path.
    rng = np.random.default_rng(3)
    jitter = [[[x + rng.integers(-3, 4), y + rng.integers(-3, 4)] for x, y in r] for r in ROWS]
    extra = [[r[0], [r[0][0] + 1.0, 30.0], *r[1:]] for r in ROWS]  # a point 1 px off the path, between two
    for copy in (moved(ROWS, 3.0, 3.0), jitter, extra):
        found = compare(traces(copy), traces(ROWS), 0.8)
        assert found is not None and found.near_share == 1.0 and found.exact_share == 0.0
    # One point 40 px off a 400 px path: a spike over a fifth of the length, outside the median.
    long = [[[100.0 * i, 0.0], [100.0 * i + 20, 200.0], [100.0 * i, 400.0]] for i in range(20)]
    spiked = [[r[0], [r[0][0] + 40.0, 100.0], *r[1:]] for r in long]
    assert compare(traces(spiked), traces(long), 0.8) == Match(0.0, 0.0, 20, 1.0)
    changed = moved(ROWS, 20.0, 0.0, which={0})  # 1 row of 20 moved away: 95% near
    assert compare(traces(changed), traces(ROWS), 0.8) == Match(0.95, 0.95, 20, 0.95)
    assert compare(traces(moved(ROWS, 6.0, 0.0)), traces(ROWS), 0.8) is None  # 6 px sideways is another trace


def test_rows_with_other_point_counts_or_missing_rows_do_not_match_and_the_share_is_over_the_new_rows():
    # 3 rows with a fourth point back along the path: other counts, so not within 1 px; near as curves still.
    longer = [r + [[r[0][0] + 1, 21.0]] if i < 3 else r for i, r in enumerate(ROWS)]
    assert compare(traces(longer), traces(ROWS), 0.5) == Match(17 / 20, 17 / 20, 20, 1.0)
    partial = [r if i < 10 else None for i, r in enumerate(ROWS)]  # the new file answers 10 rows, all copied
    assert compare(traces(partial), traces(ROWS), 0.95) == Match(1.0, 1.0, 10, 1.0)
    assert compare(traces(ROWS), traces(partial), 0.5) == Match(0.5, 0.5, 20, 0.5)


def test_identical_invalid_cells_match_and_different_ones_do_not():
    failed = ["not json"] * 2 + ROWS[2:]
    assert compare(traces(failed), traces(failed), 0.95) == Match(1.0, 1.0, 20, 1.0)
    other = ["no answer"] * 2 + ROWS[2:]
    assert compare(traces(failed), traces(other), 0.5) == Match(0.9, 0.9, 20, 0.9)


def counted(monkeypatch) -> list[int]:
    """Rows compared as curves, one direction at a time, chunk by chunk."""
    chunks: list[int] = []
    real = copies_traces.towards
    monkeypatch.setattr(copies_traces, "towards", lambda a, b: chunks.append(len(a)) or real(a, b))
    return chunks


def test_a_candidate_far_on_the_cheap_bounds_is_dropped_before_any_curve_is_compared(monkeypatch):
    chunks = counted(monkeypatch)
    assert compare(traces(moved(ROWS, 50.0, 0.0)), traces(ROWS), 0.8) is None and chunks == []
    assert compare(traces(moved(ROWS, 1.0, 1.0)), traces(ROWS), 0.8) is not None and chunks == []  # near on them


L_SHAPE = [[[100.0 * i, 0.0], [100.0 * i, 90.0], [100.0 * i + 90, 90.0]] for i in range(20)]
GAMMA_SHAPE = [[[100.0 * i, 0.0], [100.0 * i + 90, 0.0], [100.0 * i + 90, 90.0]] for i in range(20)]


def test_the_chunked_scan_stops_once_the_rows_left_cannot_reach_the_threshold(monkeypatch):
    # An L and a Γ in the same box: the bounds settle nothing (same box, far apart point by point).
    monkeypatch.setattr(copies_traces, "CHUNK_ROWS", 2)
    chunks = counted(monkeypatch)
    assert compare(traces(L_SHAPE), traces(GAMMA_SHAPE), 0.95) is None
    assert chunks == [2, 0]  # the first 2 rows are far one way: 18 of 20 at most, the other 9 chunks never compared
    reversed_ = [r[::-1] for r in L_SHAPE]  # the same path the other way: far point by point, near as a curve
    assert compare(traces(reversed_), traces(L_SHAPE), 0.95) == Match(0.0, 0.0, 20, 1.0)


def test_the_cache_keeps_within_its_cap_and_forgets_the_least_recently_used():
    one = traces(ROWS)  # 60 points: 960 bytes of points, 20 rows x 20 bytes, 20 curves of 16 points x 8 bytes
    assert one.nbytes == 60 * 16 + 20 * 20 + 20 * 16 * 8
    cache = TraceCache(max_bytes=2 * one.nbytes)
    for name in ("a", "b", "a", "c"):  # "b" is the least recently used when "c" arrives
        cache.get(name, lambda: traces(ROWS))
    assert len(cache) == 2 and cache.bytes <= cache.max_bytes and (cache.hits, cache.misses) == (1, 3)
    loads = []
    cache.get("b", lambda: loads.append("b") or traces(ROWS))
    cache.get("a", lambda: loads.append("a") or traces(ROWS))
    assert loads == ["b", "a"]  # "b" was dropped, and then "a" (dropped to make room for "b")
    small = TraceCache(max_bytes=100)
    small.get("big", lambda: one)
    assert len(small) == 0 and small.bytes == 0  # larger than the whole cap: used once, not kept


def test_the_line_maintainers_read_rounds_down():
    found = {"of": "s1", "model": "M", "share": 0.9999, "exact_share": 0.0, "rows": 30}
    assert copy_line(found) == "Likely copy of M (s1): 99% of rows within 1 px, 0% identical"  # type: ignore[arg-type]


# -- the service: the worker marks copies -------------------------------------------------------


def rewritten(source: Path, out: Path, change, rows=None) -> Path:
    """``source`` with ``change(points)`` applied to the prediction of each row in ``rows`` (all: None)."""
    frame = pd.read_csv(source, sep="\t", dtype=str, keep_default_na=False)
    for i in range(len(frame)) if rows is None else rows:
        points = json.loads(frame.at[i, "prediction"])
        frame.at[i, "prediction"] = json.dumps(change(points))
    frame.to_csv(out, sep="\t", index=False)
    return out


def jittered(source: Path, out: Path, seed: int = 1) -> Path:
    """Every coordinate of every point moved by 1 px, up or down at random: every point moves."""
    rng = np.random.default_rng(seed)
    return rewritten(
        source, out, lambda points: [[x + int(rng.choice([-1, 1])), y + int(rng.choice([-1, 1]))] for x, y in points]
    )


def scored(service: Leaderboard, path: Path, user: str, **kwargs) -> str:
    """Submit ``path`` as ``user`` one second after the last submission, and score it."""
    if hasattr(service.clock, "advance"):  # the fixtures' test clock stands still otherwise
        service.clock.advance(1)
    submission_id = submit(service, path, user=user, model=f"{user.title()}-VLM", **kwargs).submission_id
    service.worker.drain()
    assert service.status(submission_id).status == "FINISHED"
    return submission_id


def public(service: Leaderboard, path: Path, user: str) -> str:
    """A test submission asking to be published, with the declarations a public entry needs once they exist."""
    extra = {}
    if "declarations" in inspect.signature(service.submit).parameters:  # required for a public test entry
        extra["declarations"] = {"trained_on": "none", "test_images_beyond_inference": False, "best_of": 1}
    return scored(service, path, user, publish=True, **extra)


def test_an_exact_copy_of_another_users_private_entry_is_marked_in_the_same_commit_as_its_result(service, files):
    original = scored(service, files["test-noisy"], "alice")  # private: a copy of it is still a copy
    commits = []
    real = service.requests.commit
    service.requests.commit = lambda puts, *a, **k: commits.append(set(puts)) or real(puts, *a, **k)
    copy = scored(service, files["test-noisy"], "mallory")
    rows = service.status(original).summary.n_expected
    assert service.status(copy).likely_copy == {
        "of": original,
        "model": "Alice-VLM",
        "share": 1.0,
        "exact_share": 1.0,
        "rows": rows,
        "near_share": 1.0,
    }
    with_result = [c for c in commits if summary_path(copy) in c]
    assert len(with_result) == 1 and copy_path(copy) in with_result[0]
    assert service.status(original).likely_copy is None  # the earlier one is the original, not a copy


def test_a_copy_jittered_by_one_pixel_is_marked(service, files, tmp_path):
    original = scored(service, files["test-noisy"], "alice")
    copy = scored(service, jittered(files["test-noisy"], tmp_path / "jittered.tsv"), "mallory")
    found = service.status(copy).likely_copy
    assert found is not None and (found["of"], found["share"], found["exact_share"]) == (original, 1.0, 0.0)


def _shift(points, rng):
    dx, dy = (int(v) for v in rng.choice([-3, -2, 2, 3], size=2))
    return [[x + dx, y + dy] for x, y in points]


def _jitter(points, rng):
    return [[x + int(rng.integers(-3, 4)), y + int(rng.integers(-3, 4))] for x, y in points]


def _resample(points, rng):
    from leaderboard.statistics.copies_curves import resampled

    trace = np.asarray(points, dtype=float)
    return np.round(resampled(trace, 2 * len(trace) + 1)).tolist()


def _extra_point(points, rng):
    (x0, y0), (x1, y1) = points[0], points[1]
    return [points[0], [round((x0 + x1) / 2) + 1, round((y0 + y1) / 2)], *points[1:]]


@pytest.mark.parametrize("change", [_shift, _jitter, _resample, _extra_point])
def test_a_copy_within_a_few_pixels_whatever_its_points_is_marked(service, files, tmp_path, change):
    """Shifted by 2-3 px, jittered by 3 px, resampled to other points, one point more: none was marked."""
    original = scored(service, files["test-noisy"], "alice")
    rng = np.random.default_rng(5)
    copy = scored(service, rewritten(files["test-noisy"], tmp_path / "copy.tsv", lambda p: change(p, rng)), "mallory")
    found = service.status(copy).likely_copy
    assert found is not None and found["of"] == original and found["near_share"] >= 0.8
    assert found["share"] < 0.95  # the points alone no longer tell it


def test_a_copy_with_6_percent_of_its_rows_changed_is_marked(service, files, tmp_path):
    original = scored(service, files["test-noisy"], "alice")
    n = sum(1 for _ in service.keys.private("test").expected_rows())
    changed = range(math.ceil(0.06 * n))
    path = rewritten(files["test-noisy"], tmp_path / "changed.tsv", lambda p: [[x + 30, y] for x, y in p], changed)
    found = service.status(scored(service, path, "mallory")).likely_copy
    assert found is not None and found["of"] == original and found["near_share"] == (n - len(changed)) / n


def test_independent_models_on_the_same_scenes_are_not_marked(service, files):
    scored(service, files["test-noisy1"], "alice")
    scored(service, files["test-perfect"], "bob")
    for user, kind in (("carol", "test-noisy2"), ("dave", "test-noisy3")):
        assert service.status(scored(service, files[kind], user)).likely_copy is None


def test_a_copy_with_90_percent_of_its_rows_changed_is_not_marked(service, files, tmp_path):
    scored(service, files["test-noisy"], "alice")
    n = sum(1 for _ in service.keys.private("test").expected_rows())
    changed = range(math.ceil(0.9 * n))
    path = rewritten(files["test-noisy"], tmp_path / "changed.tsv", lambda p: [[x + 7, y] for x, y in p], changed)
    copy = scored(service, path, "mallory")
    assert service.status(copy).likely_copy is None
    assert service.requests.read(copy_path(copy)) is None


def test_a_users_own_earlier_submission_is_not_a_copy_but_another_users_is(service, files, tmp_path):
    first = scored(service, files["test-noisy"], "alice")
    again = scored(service, jittered(files["test-noisy"], tmp_path / "mine.tsv"), "ALICE")  # same user, any case
    assert service.status(again).likely_copy is None
    theirs = scored(service, jittered(files["test-noisy"], tmp_path / "theirs.tsv", seed=2), "mallory")
    assert service.status(theirs).likely_copy["of"] == first  # both match fully: the earliest is the original


def test_validation_submissions_are_not_checked(service, files):
    scored(service, files["validation-noisy"], "alice", split="validation")
    copy = scored(service, files["validation-noisy"], "mallory", split="validation")
    assert service.status(copy).likely_copy is None


def test_the_mark_stays_out_of_public_outputs_and_the_submitters_view(service, files):
    original = public(service, files["test-noisy"], "alice")
    copy = public(service, files["test-noisy"], "mallory")
    assert [v.likely_copy["of"] for v in service.pending(MAINTAINER) if v.submission_id == copy] == [original]
    for submission_id in (original, copy):
        service.approve(submission_id, by=MAINTAINER)
    service.publish()
    table = service.public_table()
    assert {r["submission_id"] for r in table} >= {original, copy}
    for text in (json.dumps(table), json.dumps(service.published_table()), csv_bytes(table, "test").decode()):
        assert "likely_copy" not in text and "copy of" not in text.lower() and "exact_share" not in text
    assert not [p for p in service.results.list("") if "copy" in p]  # nothing of it in the results store
    assert service.status(copy, user="mallory").likely_copy is None
    assert all(v.likely_copy is None for v in service.my_submissions("mallory"))
    assert service.status(copy, user=MAINTAINER).likely_copy["of"] == original


def test_pending_and_status_say_it_in_words_on_stderr_with_json_on_stdout(capsys, environ, settings, files):
    service = Leaderboard(settings)
    original = scored(service, files["test-noisy"], "alice")
    copy = public(service, files["test-noisy"], "mallory")
    line = f"{copy}: Likely copy of Alice-VLM ({original}): 100% of rows within 1 px, 100% identical"
    assert main(["status", copy], environ) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["likely_copy"]["of"] == original and err.strip() == line
    assert main(["pending", "--by", MAINTAINER], environ) == 0
    out, err = capsys.readouterr()
    assert [v["likely_copy"]["of"] for v in json.loads(out)] == [original] and err.strip() == line
    assert main(["status", original], environ) == 0
    assert "Likely copy" not in capsys.readouterr().err


def test_the_candidate_cap_and_the_time_budget_are_logged_when_hit(service, files, tmp_path, caplog):
    for i, user in enumerate(("ann", "ben", "cat")):
        scored(
            service,
            rewritten(
                files["test-noisy"], tmp_path / f"{user}.tsv", lambda p, i=i: [[x + 9 * (i + 1), y] for x, y in p]
            ),
            user,
        )
    service.worker.copies = CopyFinder(service.registry, max_candidates=2)
    with caplog.at_level(logging.WARNING, logger="leaderboard.statistics.copies"):
        copy = scored(service, files["test-noisy"], "mallory")
    assert "3 earlier submissions, checking the first 2" in caplog.text
    assert service.status(copy).likely_copy is None
    caplog.clear()
    ticks = iter(range(0, 1000, 10))
    service.worker.copies = CopyFinder(service.registry, budget_s=15, clock=lambda: next(ticks))
    with caplog.at_level(logging.WARNING, logger="leaderboard.statistics.copies"):
        scored(service, files["test-noisy"], "oscar")
    assert "stopped after 1 of 4 candidates, over its 15 s budget" in caplog.text


def test_a_failing_check_never_fails_the_job(service, files, caplog, monkeypatch):
    scored(service, files["test-noisy"], "alice")
    monkeypatch.setattr(CopyFinder, "find", lambda *a: 1 / 0)
    copy = scored(service, files["test-noisy"], "mallory")  # FINISHED, asserted by ``scored``
    assert service.status(copy).likely_copy is None and "duplicate check of" in caplog.text
