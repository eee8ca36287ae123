"""A victim's ordinary test file behind 9 worst-case files from 3 accounts: submit to FINISHED, FIFO and fair.

    .venv/bin/python benchmarks/bench_fair_queue.py                 # both orders on the demo (12 scenes, 1440x1080)
    .venv/bin/python benchmarks/bench_fair_queue.py --order fair    # only the fair one (the FIFO run takes minutes)

On the embedded default: accounts mallory, trudy and eve each submit three
validation files whose every row is a 2000-point zigzag across the image (the costliest valid
file, ``benchmarks/worst_case_traces.py``); one second later, while the first of them is being
scored, "victim" submits the notebook-like noisy example to the test split. The service's real
worker (``Worker.run_once``, the call of the Space's worker process) scores in a thread,
taking a job as soon as the previous one is done, as the Space's wake-up on submit makes it.
Printed: each run's victim submit -> FINISHED (target <= 60 s), the position and ETA the victim
was shown, how long each worst-case file held the worker, the measured seconds per point the
ETA model uses (``fairness.SECONDS_PER_POINT``) and the machine's load (other work slows all of it).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from leaderboard.config import DEMO_BASELINE_RAW, DEMO_SAMPLES, DEMO_SIZE, Settings  # noqa: E402
from leaderboard.jobs.fairness import cost_of  # noqa: E402
from leaderboard.records.entries import FAILED, FINISHED, epoch  # noqa: E402
from leaderboard.service import Leaderboard  # noqa: E402
from leaderboard.storage.answer_keys import ensure_demo_datasets  # noqa: E402
from scoring.examples import write_example  # noqa: E402
from tests.hardening.input.input_giants import worst_case_traces  # noqa: E402

ATTACKERS = ("mallory", "trudy", "eve")
TARGET_S = 60.0


def main() -> None:
    args = _arguments()
    datasets = ensure_demo_datasets(args.data / "demo", args.data / "locks", DEMO_SAMPLES, DEMO_SIZE)
    print(f"demo datasets: {datasets[0]} ({DEMO_SAMPLES} scenes a split at {DEMO_SIZE[0]}x{DEMO_SIZE[1]})")
    print(f"machine: {os.cpu_count()} cores, load average before {_load()}")
    results = {}
    for order in ("fifo", "fair") if args.order == "both" else (args.order,):
        with tempfile.TemporaryDirectory(prefix=f"navitrace-fair-{order}-") as home:
            results[order] = _run(order, Path(home), datasets, args.data / "keys")
    print(f"\nload average after {_load()}")
    for order, waited in results.items():
        verdict = "meets" if waited <= TARGET_S else "misses"
        print(f"victim submit -> FINISHED, {order:4}: {waited:6.1f} s  ({verdict} the target of {TARGET_S:.0f} s)")


def _run(order: str, home: Path, datasets: tuple[Path, Path], keys: Path) -> float:
    settings = Settings(
        home=home,
        answer_key_dataset=str(datasets[0]),
        public_dataset=str(datasets[1]),
        baseline_raw=DEMO_BASELINE_RAW,
        answer_key_cache=keys,
        fair_queue=order == "fair",
    )
    service = Leaderboard(settings)
    worst, victim_file = _files(service, home)
    stop = threading.Event()
    worker = threading.Thread(target=_work, args=(service, stop), name="worker", daemon=True)
    print(f"\n{order.upper()}: 3 accounts x 3 worst-case validation files, then the victim's noisy test file")
    attack = []
    for n, user in enumerate(u for u in ATTACKERS for _ in range(3)):
        path = home / f"worst{n}.tsv"
        path.write_bytes(worst + b"\n" * (n + 1))  # same cost, different bytes: not a repeat
        attack.append(_submit(service, path, user, "validation"))
        if n == 0:
            worker.start()  # the first file wakes the worker, as a submit does in the Space
    time.sleep(1.0)  # the first attacker file is being scored when the victim arrives
    start = time.monotonic()
    victim = _submit(service, victim_file, "victim", "test")
    shown = service.queue_position(victim, "victim")
    print(f"  the victim is shown: {shown.words()} (position {shown.position}, {shown.ahead} job(s) ahead)")
    status = _wait(service, victim)
    waited = time.monotonic() - start
    stop.set()
    worker.join()
    print(f"  victim {status} after {waited:.1f} s (the ETA said {shown.eta_s:.0f} s)")
    _held(service, attack)
    return waited


def _files(service: Leaderboard, home: Path) -> tuple[bytes, Path]:
    worst, victim = home / "worst.tsv", home / "victim.tsv"
    worst_case_traces(worst, service.keys.private("validation"))
    write_example(service.keys.private("test"), "noisy", victim)
    return worst.read_bytes(), victim


def _submit(service: Leaderboard, path: Path, user: str, split: str) -> str:
    metadata = {"model": f"{user}'s model"}
    return service.submit(path, split=split, user=user, metadata=metadata).submission_id


def _work(service: Leaderboard, stop: threading.Event) -> None:
    """The worker's loop, without the Space's round interval: the next job as soon as one is done."""
    while not stop.is_set():
        if service.worker.run_once() is None:
            stop.wait(0.05)


def _wait(service: Leaderboard, submission_id: str) -> str:
    while True:
        status = service.status(submission_id).status
        if status in (FINISHED, FAILED):
            return status
        time.sleep(0.1)


def _held(service: Leaderboard, ids: list[str]) -> None:
    """How long each scored worst-case file held the worker, and the seconds per point that makes."""
    took, points = [], 0
    for submission_id in ids:
        entry = service.registry.entry(submission_id)
        job = entry.job
        if job.status == FINISHED and job.started_at and job.finished_at:
            took.append(epoch(job.finished_at) - epoch(job.started_at))
            points = cost_of(entry.request)
    if took:
        mean = sum(took) / len(took)
        print(
            f"  {len(took)} worst-case file(s) scored, {points:,} points each: {min(took):.1f}-{max(took):.1f} s "
            f"(mean {mean:.1f} s, {mean / points * 1000:.3f} ms a point)"
        )


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--order", choices=("both", "fifo", "fair"), default="both")
    parser.add_argument("--data", type=Path, default=Path.home() / ".cache" / "navitrace-bench" / "fair-queue")
    return parser.parse_args()


if __name__ == "__main__":
    main()
