"""A conference deadline against the Hub's commit quota: 50 submissions from 50 accounts in 10 minutes.

    .venv/bin/python benchmarks/bench_deadline_burst.py                    # the deadline burst, an hour scaled to 60 s
    .venv/bin/python benchmarks/bench_deadline_burst.py --no-approve       # scoring only, no maintainer
    .venv/bin/python benchmarks/bench_deadline_burst.py --submissions 80 --scale 30

The local Hub of ``tests/hub`` (real ``huggingface_hub`` client over HTTP) enforces the quota of
128 commits per repository per hour, the hour scaled down ``--scale`` times (60: an hour is 60 s,
the 10 minutes of the burst 10 s), and the service's stores are told the same quota. In that
time, ``--submissions`` accounts each submit one test or validation file at a random moment; one
who is refused retries at the time the message names, as a person would. The service's worker
drains every (scaled) ``SCORE_INTERVAL_S`` (60 s), and a maintainer approves what has finished,
several approvals at once. Prints:

- acknowledged, scored, lost (acknowledged but never FINISHED, or missing), doubles (finished twice);
- refusals people saw (in words) and any message with Hub text or a URL in it (should be 0);
- commits per repository: in all, and the most in any rolling (scaled) hour, against the quota;
- the wait from submission to FINISHED: median and max, in real seconds and in unscaled minutes;
- the commit-budget lines the pages showed meanwhile.

Target: every submission acknowledged and scored, no double, nothing lost.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import pytest  # noqa: E402  (its MonkeyPatch points the Hub client at the local Hub, as the tests do)

from leaderboard import LeaderboardError  # noqa: E402
from leaderboard.records.entries import FINISHED, epoch  # noqa: E402
from leaderboard.storage import CommitLimitReached  # noqa: E402
from leaderboard.storage.commit_log import HOUR_S, HUB_COMMITS_PER_HOUR, CommitQuota  # noqa: E402
from scoring import load_answer_key  # noqa: E402
from scoring.examples import write_example  # noqa: E402
from space.workspace.errors import describe  # noqa: E402
from synthetic import write_demo_dataset  # noqa: E402
from tests.hub.clients import point_clients_at  # noqa: E402
from tests.hub.conftest import BOSS, BOSS_TOKEN, ORG  # noqa: E402
from tests.hub.quota_service import quota_service  # noqa: E402
from tests.hub.server import LocalHub  # noqa: E402
from tests.hub.service_checks import job_history  # noqa: E402
from tests.hub.service_on_hub import ANSWER_KEY, REQUESTS, RESULTS, seed_datasets  # noqa: E402
from tests.service_fixtures import DECLARED  # noqa: E402

SCORE_INTERVAL_S = 60.0  # the Space's default (Settings.score_interval_s), before scaling


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--submissions", type=int, default=50)
    parser.add_argument("--minutes", type=float, default=10.0, help="the burst's length, unscaled")
    parser.add_argument("--scale", type=float, default=60.0, help="an hour lasts 3600/scale seconds")
    parser.add_argument("--quota", type=int, default=HUB_COMMITS_PER_HOUR)
    parser.add_argument("--no-approve", dest="approve", action="store_false")
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--timeout-hours", type=float, default=4.0, help="give up after this many scaled hours")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="deadline-burst-") as folder, pytest.MonkeyPatch.context() as patch:
        return run(args, Path(folder), patch)


def run(args: argparse.Namespace, folder: Path, patch: pytest.MonkeyPatch) -> int:
    quota = CommitQuota(args.quota, HOUR_S / args.scale)
    burst_s, interval_s = args.minutes * 60 / args.scale, SCORE_INTERVAL_S / args.scale
    with LocalHub.start() as hub:
        hub.add_user(BOSS, BOSS_TOKEN, orgs=(ORG,))
        point_clients_at(hub, patch, folder / "client")
        private = write_demo_dataset(folder / "demo" / "navitrace", samples=6, size=(96, 72))
        public = write_demo_dataset(folder / "demo-public" / "navitrace", samples=6, size=(96, 72), public=True)
        seed_datasets(hub, private, public)
        keys = {s: load_answer_key(ANSWER_KEY, s, folder / "keys", token=BOSS_TOKEN) for s in ("test", "validation")}
        service = quota_service(hub, folder / "space", folder / "space-keys", quota)
        service.publish()
        files = []
        for n in range(args.submissions):
            split = "validation" if n % 4 == 0 else "test"
            write_example(keys[split], "noisy", folder / f"files/{n}.tsv", seed=n)
            files.append((n, split, folder / f"files/{n}.tsv"))
        first_commit = {repo: len(hub.history(repo)) for repo in (REQUESTS, RESULTS)}
        print(f"{args.submissions} submissions in {burst_s:.0f} s ({args.minutes:g} min scaled {args.scale:g}x); "
              f"quota {quota.commits} commits per {quota.window_s:g} s per repository; "
              f"approvals: {'yes' if args.approve else 'no'}", flush=True)  # fmt: skip

        rng = random.Random(args.seed)
        start = time.time()
        acknowledged: dict[str, float] = {}  # id -> when the receipt came
        shown: Counter[str] = Counter()
        leaked: list[str] = []
        lines: Counter[str] = Counter()
        lock = threading.Lock()

        def person(n: int, split: str, path: Path, at: float) -> None:
            time.sleep(max(0.0, start + at - time.time()))
            while True:
                try:
                    receipt = service.submit(path, split=split, user=f"author{n}", metadata={"model": f"model-{n}"},
                                             publish=True, declarations=DECLARED)  # fmt: skip
                except CommitLimitReached as refused:  # a person reads the time and comes back then
                    _note(describe(refused), shown, leaked, lock)
                    time.sleep(max(0.05, refused.retry_at - time.time()))
                    continue
                except LeaderboardError as refused:
                    _note(describe(refused), shown, leaked, lock)
                    time.sleep(interval_s)
                    continue
                with lock:
                    acknowledged[receipt.submission_id] = time.time()
                return

        done = threading.Event()

        def worker() -> None:
            while not done.is_set():
                try:
                    service.worker.drain()
                except Exception as error:  # noqa: BLE001  (a round fails as in the Space: logged, next round)
                    _note(describe(error), shown, leaked, lock)
                state = service.commit_budget()
                if state.message:
                    lines[state.message.split(":")[0]] += 1
                done.wait(interval_s)

        def maintainer(pool: ThreadPoolExecutor) -> None:
            approved: set[str] = set()
            while not done.is_set():
                ready = [e.submission_id for e in service.registry.entries()
                         if e.job.status == FINISHED and e.submission_id not in approved]  # fmt: skip

                def approve(submission_id: str) -> None:
                    try:
                        service.approve(submission_id, by=BOSS)
                        approved.add(submission_id)
                    except LeaderboardError as refused:  # the limit, or a busy lock: in words; tried next round
                        _note(describe(refused), shown, leaked, lock)

                list(pool.map(approve, ready))
                done.wait(interval_s)

        threads = [threading.Thread(target=worker, daemon=True)]
        pool = ThreadPoolExecutor(4)
        if args.approve:
            threads.append(threading.Thread(target=maintainer, args=(pool,), daemon=True))
        people = [threading.Thread(target=person, args=(n, s, p, rng.uniform(0, burst_s))) for n, s, p in files]
        for thread in threads + people:
            thread.start()
        for thread in people:
            thread.join()
        deadline = start + args.timeout_hours * quota.window_s
        while time.time() < deadline and _finished(hub, acknowledged) < len(acknowledged):
            time.sleep(0.2)
        if args.approve:  # the maintainer's last round
            time.sleep(2 * interval_s)
        done.set()
        for thread in threads:
            thread.join()
        pool.shutdown()
        _report(hub, acknowledged, start, quota, first_commit, shown, leaked, lines, args)
        return 0


def _note(message: str, shown: Counter, leaked: list[str], lock: threading.Lock) -> None:
    with lock:
        shown[message.split(";")[0].split(" (")[0]] += 1
        if any(word in message.lower() for word in ("http", "127.0.0.1", "rate limit", "per hour", "traceback")):
            leaked.append(message)


def _finished(hub: LocalHub, acknowledged: dict[str, float]) -> int:
    files = hub.files(REQUESTS)
    return sum(b'"status": "FINISHED"' in files.get(f"jobs/{i}.json", b"") for i in list(acknowledged))


def _report(hub, acknowledged, start, quota, first_commit, shown, leaked, lines, args) -> None:  # noqa: ANN001
    files = hub.files(REQUESTS)
    finishes = Counter(  # one audit entry per outcome: two for one id is a double
        json.loads(d)["target"] for p, d in files.items() if p.startswith("audit/") and b'"finished"' in d
    )
    doubles = sum(n > 1 for n in finishes.values())
    scored, waits = 0, []
    for submission_id, acked in acknowledged.items():
        states = [s for s in job_history(hub, submission_id) if s["status"] == FINISHED]
        if states and finishes[submission_id]:
            scored += 1
            waits.append(epoch(states[0]["finished_at"]) - acked)
    lost = len(acknowledged) - scored
    print(f"acknowledged {len(acknowledged)} of {args.submissions}; scored {scored}; lost {lost}; doubles {doubles}")
    print(f"refusals shown to people: {dict(shown) or 'none'}; with Hub text or a URL: {len(leaked)}")
    for message in leaked[:3]:
        print(f"  leaked: {message!r}")
    for repo in (REQUESTS, RESULTS):
        times = [c.at for c in hub.history(repo)[first_commit[repo] :]]
        most = max((sum(1 for t in times if s <= t < s + quota.window_s) for s in times), default=0)
        print(
            f"{repo}: {len(times)} commits; at most {most} in any rolling {quota.window_s:g} s (quota {quota.commits})"
        )
    per_submission = sum(len(hub.history(r)) - first_commit[r] for r in (REQUESTS, RESULTS)) / max(1, len(acknowledged))
    print(f"commits per submission: {per_submission:.2f} (before the budget: 5)")
    if waits:
        scale = 3600 / quota.window_s
        median, most = statistics.median(waits), max(waits)
        print(f"submission to FINISHED: median {median:.1f} s, max {most:.1f} s "
              f"(unscaled: {median * scale / 60:.0f} and {most * scale / 60:.0f} min)")  # fmt: skip
    print(f"budget lines the pages showed (per worker round): {dict(lines) or 'none'}")
    print(f"run time {time.time() - start:.0f} s")


if __name__ == "__main__":
    raise SystemExit(main())
