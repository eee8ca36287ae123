"""Write the legacy store: a requests store and a results store as the code of commit 3ad5877 wrote them.

    .venv/bin/python tests/space/legacy_store/make_store.py   # from the repository root

Run once, at commit 3ad5877 (before the code was reorganised and the summary typed), and committed
as data: ``store/`` (the local backend's files), ``expected.json`` (what that code showed: every
submission's status and summary, the public table, the board's HTML and summary line for both
splits, the CSV). ``test_legacy_store.py`` loads the store with today's code and compares.
The datasets are the test suite's tiny synthetic ones (6 samples at 96x72, seed 0), re-made here.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))

from leaderboard import Leaderboard, Settings  # noqa: E402
from scoring import load_answer_key  # noqa: E402
from scoring.examples import write_example  # noqa: E402

MAINTAINER = "boss"
START = 1_767_225_600.0  # 2026-01-01T00:00:00Z: the store's clock, so its dates are fixed


def demo_datasets(folder: Path) -> tuple[Path, Path]:
    try:
        from synthetic import write_demo_dataset
    except ImportError:  # the code before the reorganisation kept the generator inside scoring
        from synthetic import write_demo_dataset  # type: ignore[no-redef]

    private = write_demo_dataset(folder / "private" / "navitrace", samples=6, size=(96, 72))
    public = write_demo_dataset(folder / "public" / "navitrace", samples=6, size=(96, 72), public=True)
    return private, public


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        self.now += 60.0
        return self.now


def settings_for(home: Path, private: Path, public: Path, cache: Path) -> Settings:
    environ = {
        "LEADERBOARD_HOME": str(home),
        "ANSWER_KEY_DATASET": str(private),
        "PUBLIC_DATASET": str(public),
        "MAINTAINERS": MAINTAINER,
    }
    return dataclasses.replace(Settings.from_env(environ), answer_key_cache=cache)


def fill(service: Leaderboard, files: dict[str, Path]) -> None:
    meta = {"contact_email": "someone@example.org", "organization": "Lab", "parameters_b": "7B", "open_weights": "yes"}
    approved = service.submit(
        files["test-noisy"], split="test", user="alice", metadata={"model": "Alpha", **meta}, publish=True
    )
    val = service.submit(
        files["validation-perfect"], split="validation", user="bob", metadata={"model": "Beta"}, publish=True
    )
    rejected = service.submit(
        files["test-straight"], split="test", user="carol", metadata={"model": "Gamma"}, publish=True
    )
    hidden = service.submit(
        files["test-perfect"], split="test", user="dave", metadata={"model": "Delta", **meta}, publish=True
    )
    private = service.submit(files["validation-noisy"], split="validation", user="erin", metadata={"model": "Eps"})
    pending = service.submit(files["test-noisy1"], split="test", user="frank", metadata={"model": "Zeta"}, publish=True)
    service.worker.drain()
    service.approve(approved.submission_id, by=MAINTAINER)
    service.approve(val.submission_id, by=MAINTAINER)
    service.reject(rejected.submission_id, by=MAINTAINER, reason="straight line, not a model")
    service.approve(hidden.submission_id, by=MAINTAINER)
    service.hide(hidden.submission_id, by=MAINTAINER)
    service.edit(approved.submission_id, by=MAINTAINER, changes={"description": "edited by a maintainer"})
    service.add_reported(
        by=MAINTAINER, model="Paper model", split="test", score=12.5, source="https://arxiv.org/abs/2510.26909"
    )
    del private, pending  # left as they are: one private validation entry, one awaiting a decision


def main() -> None:
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        private, public = demo_datasets(folder)
        cache = folder / "cache"
        files = {}
        for split, dataset in (("test", private), ("validation", public)):
            key = load_answer_key(dataset, split, cache)
            for kind in ("perfect", "noisy", "straight"):
                files[f"{split}-{kind}"] = folder / f"{split}-{kind}.tsv"
                write_example(key, kind, files[f"{split}-{kind}"])
        files["test-noisy1"] = folder / "test-noisy1.tsv"
        write_example(load_answer_key(private, "test", cache), "noisy", files["test-noisy1"], seed=1)
        home = folder / "home"
        fill(Leaderboard(settings_for(home, private, public, cache), clock=Clock()), files)
        target = HERE / "store"
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(home, target, ignore=shutil.ignore_patterns("*.lock", "lock", "locks", ".scratch*"))
        service = Leaderboard(settings_for(target, private, public, cache))
        (HERE / "expected.json").write_text(json.dumps(observe(service), indent=1, sort_keys=True) + "\n")
        shutil.rmtree(target / "answer-keys", ignore_errors=True)
    print(f"wrote {target} and {HERE / 'expected.json'}")


def observe(service: Leaderboard) -> dict:
    """What the code shows of the store: statuses and summaries, the table, the board and the CSV."""
    try:
        from space.board import view as board
    except ImportError:
        from leaderboard import board  # type: ignore[no-redef]
    try:
        from space.board import csv_rows  # the CSV's module since it moved out of the board's
    except ImportError:
        csv_rows = board  # type: ignore[assignment]

    views = sorted(service.submissions(by=MAINTAINER), key=lambda v: v.submission_id)
    table = service.published_table() or service.public_table()
    shown = {}
    for split in ("test", "validation"):
        view = board.BoardView(split, "", "Score", frozenset(board.GROUPS), None)
        shown[split] = {
            "summary_line": board.summary_line(table, split),
            "html": board.render(table, view),
            "csv": csv_rows.csv_bytes(table, split).decode(),
        }
    return {
        "submissions": [_jsonable(v.as_dict()) for v in views],
        "table": _jsonable(table),
        "board": shown,
    }


def _jsonable(value: object) -> object:
    return json.loads(json.dumps(value, default=str, sort_keys=True))


if __name__ == "__main__":
    main()
