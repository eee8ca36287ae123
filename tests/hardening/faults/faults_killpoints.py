"""Run the app (or ``-m leaderboard ...``) so that it SIGKILLs itself at one named durable step.

    FAULTS_KILL_AT=result:committed python tests/hardening/faults/faults_killpoints.py app.py

Random delays rarely land inside a step that lasts a millisecond (a commit, a rename), so the
campaign also kills at each step on purpose. Nothing in the product reads ``FAULTS_KILL_AT``:
this launcher wraps the real functions in the child process only, then runs the program as
``python app.py`` would. ``FAULTS_KILL_AT`` is ``<what>:<step>``:

- what: ``intake`` (``submission ...`` commits), ``claim``, ``result`` (``finished``/``failed``),
  ``publish`` (the results table), ``scoring`` (step ``inside``: in ``score_submission``, the job
  RUNNING), ``cache`` (step ``built``: an answer-key cache fully written, not yet renamed into place);
- step of a ``LocalStorage`` commit, in order: ``staged`` (files fsynced, before the commit
  point), ``committed`` (journal entry renamed into place), ``half-applied`` (one file moved, the
  others not), ``applied`` (every file moved, entry not retired), ``retired`` (entry renamed to
  ``.done-``, not deleted), ``returned`` (``commit`` returned; the caller has not acted on it yet).

Before dying the process appends the point to ``FAULTS_KILL_LOG``, so the test tells its own
kills from the process's.

The app scores in a child process (``leaderboard.runtime.worker_process``); the launcher starts that child
through itself too, so the points of claims, scoring and results fire in the child. There a point
kills the child alone, once per app: the app restarts its worker, which must finish the job.
"""

from __future__ import annotations

import os
import runpy
import signal
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
KINDS = {"submission": "intake", "claim": "claim", "finished": "result", "failed": "result", "update": "publish"}
STEPS = ("staged", "committed", "half-applied", "applied", "retired", "returned")

_current = threading.local()  # the commit this thread is making: its kind and how far it got


_IN_WORKER_CHILD = False  # set when this launcher runs the app's scoring process


def die(point: str) -> None:
    log = os.environ.get("FAULTS_KILL_LOG")
    if _IN_WORKER_CHILD and log:  # once per app: its restarted worker must get past the point
        mark = Path(f"{log}.app-{os.getppid()}")
        if mark.exists():
            return
        mark.touch()
    if log:
        with open(log, "a", encoding="utf-8") as handle:
            handle.write(point + "\n")
            handle.flush()
            os.fsync(handle.fileno())
    os.kill(os.getpid(), signal.SIGKILL)


def install(target: str) -> None:
    if not target:
        return
    what, _, step = target.partition(":")
    if what == "scoring":
        _kill_inside_scoring(target)
    elif what == "cache":
        _kill_after_cache_build(target)
    else:
        assert what in KINDS.values() and step in STEPS, f"unknown kill point {target!r}"
        _kill_in_commits(what, step, target)


def _kill_inside_scoring(target: str) -> None:
    import leaderboard.jobs.worker as worker

    def score_submission(*args, **kwargs):
        die(target)

    worker.score_submission = score_submission


def _kill_after_cache_build(target: str) -> None:
    import scoring.answer_key as answer_key

    real = answer_key.build_cache

    def build_cache(*args, **kwargs):
        real(*args, **kwargs)
        die(target)

    answer_key.build_cache = build_cache


def _kill_in_commits(what: str, step: str, target: str) -> None:
    import leaderboard.storage.local as local

    def at(reached: str) -> None:
        if getattr(_current, "kind", None) == what and reached == step:
            die(target)

    real_commit, real_recover, real_fsync_dir = local.LocalStorage.commit, local.LocalStorage._recover, local.fsync_dir

    def commit(self, puts, deletes=(), message=""):
        _current.kind = KINDS.get(message.split(" ", 1)[0])
        _current.journal_fsyncs = _current.replaced = 0
        try:
            real_commit(self, puts, deletes, message)
            at("returned")
        finally:
            _current.kind = None

    def recover(self) -> None:
        # A commit first replays what a killed writer left: those steps are not this commit's.
        kind, _current.kind = getattr(_current, "kind", None), None
        try:
            real_recover(self)
        finally:
            _current.kind, _current.journal_fsyncs, _current.replaced = kind, 0, 0

    def fsync_dir(folder: Path) -> None:
        real_fsync_dir(folder)
        if folder.name.startswith(".tmp-"):
            at("staged")
        elif folder.name == "journal":  # first after the commit-point rename, then after the retiring one
            _current.journal_fsyncs = getattr(_current, "journal_fsyncs", 0) + 1
            at("committed" if _current.journal_fsyncs == 1 else "retired")
        elif getattr(_current, "replaced", 0):
            _current.replaced = 0  # the first folder fsync of the apply step: every file is in place
            at("applied")

    class _Os:
        """``os`` for ``local`` only, counting the per-file renames of the apply step."""

        def __getattr__(self, name: str):
            return getattr(os, name)

        @staticmethod
        def replace(source, target) -> None:
            os.replace(source, target)
            _current.replaced = getattr(_current, "replaced", 0) + 1
            if _current.replaced == 1 and len(os.listdir(Path(source).parent)) > 1:  # more than the manifest left
                at("half-applied")

    local.LocalStorage.commit = commit
    local.LocalStorage._recover = recover
    local.fsync_dir = fsync_dir
    local.os = _Os()


def _children_through_the_launcher() -> None:
    import leaderboard.runtime.worker_process as worker_process

    def child_command(parent_pid: int) -> list[str]:
        launcher = str(Path(__file__).resolve())
        return [sys.executable, launcher, "-m", "leaderboard.runtime.worker_process", "--parent", str(parent_pid)]

    worker_process.child_command = child_command


def main(argv: list[str]) -> None:
    global _IN_WORKER_CHILD
    sys.path.insert(0, str(ROOT))
    _IN_WORKER_CHILD = argv[:2] == ["-m", "leaderboard.runtime.worker_process"]
    install(os.environ.get("FAULTS_KILL_AT", "").strip())
    _children_through_the_launcher()
    if argv[0] == "-m":
        sys.argv = argv[1:]
        runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
    else:
        sys.argv = argv
        runpy.run_path(argv[0], run_name="__main__")


if __name__ == "__main__":
    main(sys.argv[1:])
