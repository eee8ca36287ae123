"""Several worker processes, each with its own disk, against one local Hub: ``python -m leaderboard work``.

Each is what a maintainer starts on another machine (docs/HUB.md): the same repositories and
token, its own ``LEADERBOARD_HOME`` and Hub caches. ``run_workers`` queues ``jobs`` submissions,
lets ``workers`` processes drain them (faults drawn by ``chaos``), optionally SIGKILLs one
mid-way, waits until every job is FINISHED, and returns the figures for docs/RELIABILITY.md. The
Hub answers each request ``latency_s`` late, as over a network, so that the workers overlap.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from leaderboard.service import Leaderboard
from scoring.examples import write_example
from tests.hub import chaos
from tests.hub.clients import client_environ
from tests.hub.conftest import BOSS_TOKEN
from tests.hub.server import LocalHub
from tests.hub.service_checks import Upload, check_scored_once
from tests.hub.service_on_hub import REQUESTS, UNLIMITED, hub_environ, hub_settings

ROOT = Path(__file__).resolve().parents[2]
WORKER_KINDS = ("commit", "repo_info", "paths_info", "tree", "resolve", "preupload")


def queue_jobs(service: Leaderboard, keys: dict, folder: Path, jobs: int) -> list[Upload]:
    folder.mkdir(parents=True, exist_ok=True)
    uploads = []
    for n in range(jobs):
        split = "test" if n % 4 else "validation"
        path = folder / f"{split}-{n}.tsv"
        write_example(keys[split], "noisy", path, seed=9000 + n)
        upload = Upload(path, split, f"user{n % 7}", f"model-{n}", publish=False)
        metadata = {"model": upload.model, "contact_email": "someone@example.org"}
        upload.acknowledged = service.submit(path, split=split, user=upload.user, metadata=metadata).submission_id
        uploads.append(upload)
    return uploads


def start_worker(hub: LocalHub, home: Path, log: Path) -> subprocess.Popen:
    env = {**client_environ(hub, home, BOSS_TOKEN), **hub_environ(home, **UNLIMITED)}
    env.update(SCORE_INTERVAL_S="0.5", PYTHONUNBUFFERED="1")
    with open(log, "ab") as out:
        return subprocess.Popen([sys.executable, "-m", "leaderboard", "work"], cwd=ROOT, env=env, stdout=out,
                                stderr=subprocess.STDOUT)  # fmt: skip


def finished(hub: LocalHub, ids: list[str]) -> int:
    files = hub.files(REQUESTS)
    return sum(b'"status": "FINISHED"' in files.get(f"jobs/{i}.json", b"") for i in ids)


def run_workers(
    hub: LocalHub,
    keys: dict,
    tmp: Path,
    *,
    jobs: int,
    workers: int,
    fault_rate: float,
    kill_one: bool = False,
    seed: int = 12,
    latency_s: float = 0.03,
    deadline_s: float = 600.0,
) -> dict:
    settings = hub_settings(tmp / "maintainer", tmp / "maintainer-keys", **UNLIMITED)
    service = Leaderboard(settings)
    uploads = queue_jobs(service, keys, tmp / "files", jobs)
    ids = [u.acknowledged for u in uploads if u.acknowledged]
    before = len(hub.calls())
    hub.faults.chaos(seed, chaos.rates(fault_rate, WORKER_KINDS), chaos.pick)
    hub.app.latency_s = latency_s  # each job then takes a realistic number of round trips, and workers overlap
    logs = [tmp / f"worker-{n}.log" for n in range(workers)]
    processes = [start_worker(hub, tmp / f"worker-{n}", logs[n]) for n in range(workers)]
    killed = 0
    start = time.monotonic()
    try:
        while finished(hub, ids) < len(ids):
            if kill_one and not killed and finished(hub, ids) >= len(ids) // 3:
                processes[0].send_signal(signal.SIGKILL)  # mid-job, most likely: its lease dies with it
                killed = 1
            dead = [n for n, p in enumerate(processes) if p.poll() is not None and not (killed and n == 0)]
            assert not dead, f"worker {dead[0]} exited:\n{logs[dead[0]].read_text()[-3000:]}"
            assert time.monotonic() - start < deadline_s, f"{finished(hub, ids)}/{len(ids)} finished in {deadline_s} s"
            time.sleep(0.25)
    finally:
        seconds = time.monotonic() - start
        faults = sum(hub.faults.served.values())
        hub.faults.clear()
        hub.app.latency_s = 0.0
        for process in processes:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in processes:
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()
    figures = check_scored_once(hub, service, uploads, keys, settings.baseline_raw)
    calls = hub.calls()[before:]
    claims = [c for c in calls if c.kind == "commit" and c.detail.get("message", "").startswith("claim")]
    scored_by = Counter(log.name for log in logs for line in log.read_text().splitlines() if " finished " in line)
    return {
        "jobs": len(ids),
        "workers": workers,
        "killed": killed,
        "seconds": round(seconds),
        "requests": len(calls),
        "faults": faults,
        "faults by kind": dict(Counter(kind for (kind, _), n in hub.faults.served.items() for _ in range(n))),
        "claim commits sent": len(claims),
        "claims refused (412)": sum(c.status == 412 for c in claims),
        "jobs finished per worker": [scored_by[log.name] for log in logs],
        **figures,
    }
