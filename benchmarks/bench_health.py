"""What ``GET /api/health`` and the board's status line cost: figures, never assertions.

    .venv/bin/python benchmarks/bench_health.py                      # 2,000 GETs and 2,000 HEADs, 40 submissions
    .venv/bin/python benchmarks/bench_health.py --requests 5000 --submissions 200

Serves the whole site (``space.web.server.build_app``: the guard, the session, the security headers, gzip) in this
process on a free port, over a store seeded with ``--submissions`` files (the first tenth scored, the rest
waiting) of a small synthetic dataset, and a scoring pulse that has run a round. Then prints:

1. ``/api/health``, GET and HEAD, one keep-alive client, one request at a time: p50, p95, p99 and the slowest,
   in milliseconds, beside ``/static/favicon.svg`` (a route that only sends bytes) through the same stack;
2. the same under 8 clients at once (threads), the server on its single event loop;
3. the two things behind them: ``HealthMonitor.health()`` (the assessment from memory, per request) and
   ``HealthMonitor.refresh()`` (the store read the scheduler makes every ``REFRESH_S``), and the status line put
   into the board's drawn body (``status_line.fill``).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from leaderboard import Leaderboard, Settings  # noqa: E402
from space.board import status_line  # noqa: E402
from space.web.services import Services  # noqa: E402
from space.web.settings import SpaceSettings  # noqa: E402
from space.workspace import gradio_internals  # noqa: E402
from tests.space.served_site import free_port, served  # noqa: E402


def main() -> None:
    args = _arguments()
    for name, value in gradio_internals.QUIET_ANALYTICS.items():  # as app.main sets them, before any Blocks
        os.environ.setdefault(name, value)
    with tempfile.TemporaryDirectory(prefix="bench-health-") as folder:
        services, settings = _seeded(Path(folder), args.submissions)
        space = SpaceSettings(server_port=free_port(), anonymous_calls_per_minute=10**9)  # one address, many calls
        services = dataclasses.replace(services, space=space)
        with served(settings, space, services) as site:
            with httpx.Client(base_url=site.url, timeout=30) as client:
                for _ in range(50):  # warm: the first answer reads the facts, the connection opens
                    client.get("/api/health")
                print(f"/api/health over HTTP, {args.requests} requests, one client (ms):")
                for label, call in (
                    ("GET  /api/health", lambda: client.get("/api/health")),
                    ("HEAD /api/health", lambda: client.head("/api/health")),
                    ("GET  /static/favicon.svg", lambda: client.get("/static/favicon.svg")),
                ):
                    print(f"  {label:26} {_figures(_timed(call, args.requests))}")
            print(f"the same under {args.clients} clients at once (ms):")
            print(f"  GET  /api/health           {_figures(_concurrent(site.url, args.requests, args.clients))}")
        monitor = services.health
        assert monitor is not None
        print("in the process (microseconds, except the store read):")
        print(f"  health() from memory       {_figures(_timed(monitor.health, args.requests), 1e6)}")
        reads = _timed(monitor.refresh, 50)
        print(f"  refresh() (the store read) {_figures(reads)} ms, {args.submissions} submissions, every 15 s")
        body = _board_body(services)
        print(f"  status_line.fill()         {_figures(_timed(lambda: status_line.fill(body, monitor), 2000), 1e6)}"
              f" on a {len(body) // 1024} KB board body")  # fmt: skip
        print(f"the answer: {json.dumps(monitor.health().public())}")
        services.close()


def _seeded(folder: Path, submissions: int) -> tuple[Services, Settings]:
    from scoring import load_answer_key
    from scoring.examples import write_example
    from synthetic import write_demo_dataset
    from tests.service_fixtures import submit

    private = write_demo_dataset(folder / "private", samples=8, size=(320, 240))
    public = write_demo_dataset(folder / "public", samples=8, size=(320, 240), public=True)
    env = {"LEADERBOARD_HOME": str(folder / "home"), "ANSWER_KEY_DATASET": str(private),
           "PUBLIC_DATASET": str(public), "MAINTAINERS": "boss", "TEST_SUBMISSIONS_PER_DAY": "100000"}  # fmt: skip
    settings = Settings.from_env(env)
    service = Leaderboard(settings)
    key = load_answer_key(private, "test", settings.cache_folder)
    scored = max(1, submissions // 10)
    for i in range(submissions):
        path = folder / f"file{i}.tsv"
        write_example(key, "noisy", path, seed=i)
        submit(service, path, user=f"user{i}", model=f"Model-{i}", publish=i % 3 == 0)
        if i + 1 == scored:
            service.worker.drain()
    services = Services.create(settings, SpaceSettings(), leaderboard=service, examples=folder / "examples")
    assert services.health is not None
    services.health.pulse.started()
    services.health.pulse.heard("idle")
    return services, settings


def _board_body(services: Services) -> str:
    from space.board import page
    from space.board.controls import Controls

    return page.board_body(services.board.snapshot(), Controls())


def _timed(call: Callable[[], object], count: int) -> list[float]:
    took = []
    for _ in range(count):
        start = time.perf_counter()
        call()
        took.append(time.perf_counter() - start)
    return took


def _concurrent(url: str, count: int, clients: int) -> list[float]:
    def one_client(_: int) -> list[float]:
        with httpx.Client(base_url=url, timeout=30) as client:
            return _timed(lambda: client.get("/api/health"), count // clients)

    with ThreadPoolExecutor(clients) as pool:
        return [t for batch in pool.map(one_client, range(clients)) for t in batch]


def _figures(seconds: list[float], scale: float = 1e3) -> str:
    ordered = sorted(seconds)

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] * scale

    return (f"p50 {statistics.median(ordered) * scale:7.2f}  p95 {at(0.95):7.2f}  p99 {at(0.99):7.2f}  "
            f"max {ordered[-1] * scale:7.2f}  (n={len(ordered)})")  # fmt: skip


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=2000, help="requests per measurement (default 2000)")
    parser.add_argument("--submissions", type=int, default=40, help="submissions in the store (default 40)")
    parser.add_argument("--clients", type=int, default=8, help="clients at once in the concurrent run (default 8)")
    return parser.parse_args()


if __name__ == "__main__":
    main()
