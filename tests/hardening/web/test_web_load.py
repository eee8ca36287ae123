"""A small ``benchmarks/load_test.py``: 4 concurrent uploads through gradio_client while 10 viewers load the board.

Asserts what must hold under load, never timings (those are the benchmark's figures): every
upload acknowledged and scored, no error anywhere, and scoring ran in the worker process, never in
the app's interpreter (the app log names each line's process and thread).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.load_test import REQUEST_THREAD, report, run

pytestmark = pytest.mark.slow
UPLOADS, VIEWERS = 4, 10


def test_concurrent_uploads_are_all_scored_while_viewers_load_the_board(
    tmp_path: Path, browser_datasets: tuple[Path, Path]
):
    result = run(tmp_path, *browser_datasets, uploads=UPLOADS, viewers=VIEWERS, idle_s=2, think_s=0.5, deadline_s=60)
    report(result, VIEWERS)
    assert result.errors == []
    assert (result.acknowledged, result.scored) == (UPLOADS, UPLOADS)
    assert result.page, "no viewer loaded the page"
    assert result.scoring_threads and REQUEST_THREAD not in result.scoring_threads, result.scoring_threads
    assert all(t.startswith("worker-process:") for t in result.scoring_threads), result.scoring_threads
    assert result.intake_threads == {REQUEST_THREAD}  # the contrast: submissions are taken in request threads
