"""The per-version cache of page bodies, and the charts' SVG."""

from __future__ import annotations

import re

import pytest

from space.board.charts import charts_html, progress
from space.board.drawn import Drawn
from space.site.shell import Viewer


def test_a_body_is_drawn_once_per_version_and_the_cache_stays_bounded():
    drawn, calls = Drawn[str](size=2, budget=10), []

    def draw(text: str):
        return lambda: calls.append(text) or text

    assert drawn.get(1, "a", draw("aaa")) == "aaa" and drawn.get(1, "a", draw("zzz")) == "aaa"
    assert drawn.get(2, "a", draw("new")) == "new"  # a new version draws again
    assert drawn.get(1, "a", draw("zzz")) == "aaa"  # readers still on the version before keep theirs
    assert drawn.get(3, "a", draw("3")) == "3"
    assert drawn.get(1, "b", draw("old")) == "old" and drawn.get(1, "b", draw("old")) == "old"
    assert calls == ["aaa", "new", "3", "old", "old"]  # a version two changes old is never kept
    drawn.get(3, "b", draw("bbbb"))
    drawn.get(3, "c", draw("cccc"))  # three kept would be over size=2 and 10 characters: "a" goes
    drawn.get(3, "a", draw("again"))
    assert calls[-1] == "again"
    assert drawn.recent(3, 2) == ["a", "c"] and drawn.recent(2, 5) == []


def test_many_requests_for_a_view_being_drawn_wait_for_that_one_drawing():
    """A new results version meets every reader at once: before, each of them drew the same board again."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    drawn, started, release, calls = Drawn(), threading.Event(), threading.Event(), []

    def draw() -> str:
        calls.append(1)
        started.set()
        release.wait(30)
        return "board"

    with ThreadPoolExecutor(8) as pool:
        first = pool.submit(drawn.get, 3, "board", draw)
        assert started.wait(30), "the first request never started drawing"  # it draws; seven more arrive meanwhile
        others = [pool.submit(drawn.get, 3, "board", draw) for _ in range(7)]
        release.set()
        assert first.result() == "board" and [o.result() for o in others] == ["board"] * 7
    assert calls == [1]


def test_a_failed_drawing_fails_its_waiters_and_the_next_request_draws_again():
    drawn = Drawn()

    def broken() -> str:
        raise ValueError("no rows")

    with pytest.raises(ValueError):
        drawn.get(1, "x", broken)
    assert drawn.get(1, "x", lambda: "fine") == "fine"


def _row(model: str, day: str, score: float, human: float | None = None) -> dict[str, object]:
    return {"split": "test", "kind": "submission", "model": model, "score": score, "submitted_at": day,
            "per_embodiment": {"Human": score if human is None else human}, "submission_id": model}  # fmt: skip


def test_progress_over_two_dates_is_a_step_line_and_bars_stay_in_their_box():
    rows = [_row("A", "2026-01-02", 20.0), _row("B", "2026-02-01", 45.0, human=-30.0)]
    html = charts_html(rows, "test")
    assert html.count("<polyline") == 2 and "2026-01-02" in html and "2026-02-01" in html  # Overall and Human
    bars = re.findall(r'<rect x="(-?[\d.]+)" y="[\d.]+" width="([\d.]+)"', html)
    assert bars and all(0 <= float(x) and float(x) + float(w) <= 340.1 for x, w in bars)
    assert " style=" not in html


def test_progress_with_one_date_says_so():
    html = progress([_row("A", "2026-01-02", 20.0), _row("B", "2026-01-02", 30.0)], "test")
    assert "One date so far (2026-01-02)" in html and "<polyline" not in html and "<b>30.00</b> (B)" in html
    assert progress([], "test") == ""


def test_a_viewer_knows_only_the_three_ways_to_sign_in():
    with pytest.raises(ValueError, match="expected one of local, local-off, huggingface"):
        Viewer(sign_in="github")


def test_the_board_cache_says_when_this_process_saw_the_results_change(tmp_path):
    from datetime import date

    from space.board.cache import BoardCache
    from space.board.page import last_updated, updated_html

    rows = [{"split": "test", "kind": "submission", "model": "A", "score": 1.0, "submitted_at": "2026-01-02"}]
    cache = BoardCache(lambda: [dict(r) for r in rows], tmp_path, max_age_s=0.0, wall=lambda: 1_800_000_000.0)
    first = cache.snapshot()
    assert first.changed_at is None and last_updated(first) == date(2026, 1, 2)  # the newest date in the rows
    rows.append({"split": "test", "kind": "submission", "model": "B", "score": 2.0, "submitted_at": "2026-01-03"})
    changed = cache.snapshot()
    assert changed.version == 2 and changed.changed_at == 1_800_000_000.0
    assert '<time datetime="2027-01-15T08:00Z">15 Jan 2027, 08:00 UTC</time>' in updated_html(changed)
