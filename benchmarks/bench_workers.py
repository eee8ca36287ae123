"""Many jobs, several ``python -m leaderboard work`` processes with separate disks, one local Hub, faults and a kill.

    .venv/bin/python benchmarks/bench_workers.py                                  # 200 jobs, 3 workers, 2% faults
    .venv/bin/python benchmarks/bench_workers.py --jobs 50 --workers 2 --faults 0 --no-kill

The run of ``tests/hub/test_workers_http.py`` at a size no test suite waits for (~3 min for 200 jobs on 2 cores):
``tests/hub/workers.py`` queues ``--jobs`` submissions on the local Hub of ``tests/hub`` (the real
``huggingface_hub`` client over HTTP, each request answered 30 ms late as over a network), lets ``--workers``
processes drain them while faults are drawn for their requests at ``--faults``, SIGKILLs one worker a third
of the way through, and then reads the Hub's own history back. Prints the figures of docs/RELIABILITY.md:
jobs, requests, faults (by kind), claim commits sent and refused, jobs finished per worker, doubles (scored
twice) and lost (acknowledged, never finished). A job scored twice or lost, a worker that exits, or a job
not finished by ``--deadline-s`` ends the run with an ``AssertionError`` that names it.

Target: 0 doubles, 0 lost, whatever the faults and the kill.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import pytest  # noqa: E402  (its MonkeyPatch points the Hub client at the local Hub, as the tests do)

from scoring import load_answer_key  # noqa: E402
from synthetic import write_demo_dataset  # noqa: E402
from tests.hub.clients import point_clients_at  # noqa: E402
from tests.hub.conftest import BOSS, BOSS_TOKEN, ORG  # noqa: E402
from tests.hub.server import LocalHub  # noqa: E402
from tests.hub.service_on_hub import ANSWER_KEY, seed_datasets  # noqa: E402
from tests.hub.workers import run_workers  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--jobs", type=int, default=200)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--faults", type=float, default=0.02, help="the share of the workers' requests that fail")
    parser.add_argument("--no-kill", dest="kill", action="store_false", help="SIGKILL no worker")
    parser.add_argument("--seed", type=int, default=12, help="the draw of the faults")
    parser.add_argument("--deadline-s", type=float, default=1800.0, help="give up when not every job finished by then")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-workers-") as folder, pytest.MonkeyPatch.context() as patch:
        return run(args, Path(folder), patch)


def run(args: argparse.Namespace, folder: Path, patch: pytest.MonkeyPatch) -> int:
    with LocalHub.start() as hub:
        hub.add_user(BOSS, BOSS_TOKEN, orgs=(ORG,))
        point_clients_at(hub, patch, folder / "client")
        private = write_demo_dataset(folder / "demo" / "navitrace", samples=6, size=(96, 72))
        public = write_demo_dataset(folder / "demo-public" / "navitrace", samples=6, size=(96, 72), public=True)
        seed_datasets(hub, private, public)
        keys = {s: load_answer_key(ANSWER_KEY, s, folder / "keys", token=BOSS_TOKEN) for s in ("test", "validation")}
        kill = "one SIGKILLed" if args.kill else "none killed"
        setup = f"{args.jobs} jobs, {args.workers} workers, {args.faults:.0%} faults (seed {args.seed}), {kill}"
        print(setup, flush=True)  # the run takes minutes: say what it is first
        figures = run_workers(hub, keys, folder, jobs=args.jobs, workers=args.workers, fault_rate=args.faults,
                              kill_one=args.kill, seed=args.seed, deadline_s=args.deadline_s)  # fmt: skip
    for name, value in figures.items():
        print(f"{name}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
