"""``python -m leaderboard.runtime.worker_process`` with every scoring slowed by ``SLOW_SCORING_S`` seconds.

A tiny test file scores in tens of milliseconds; slowed down, a test can kill the process while a
job is surely RUNNING. Used by ``test_worker_process.py`` through ``worker_process.child_command``.
"""

from __future__ import annotations

import os
import runpy
import sys
import time

import leaderboard.jobs.worker as worker

_real = worker.score_submission


def _slow(*args, **kwargs):
    time.sleep(float(os.environ.get("SLOW_SCORING_S", "0")))
    return _real(*args, **kwargs)


if __name__ == "__main__":
    worker.score_submission = _slow
    sys.argv = ["leaderboard.runtime.worker_process", *sys.argv[1:]]
    runpy.run_module("leaderboard.runtime.worker_process", run_name="__main__", alter_sys=True)
