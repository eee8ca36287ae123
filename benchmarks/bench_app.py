"""How fast the Space feels: first start, page ready, a 1,000-entry board, and the UI while a submission is scored.

    .venv/bin/python benchmarks/bench_app.py                 # everything (the scoring dataset is made once)
    .venv/bin/python benchmarks/bench_app.py --samples 120   # a quicker look at the responsiveness part

Prints, with the targets (2-core machine):

1. app start to first served page on the embedded default from an empty LEADERBOARD_HOME (<= 15 s),
   and to the synthetic data being ready (generated in the background on first start);
2. page ready on loopback: a fresh browser context until the leaderboard table shows (<= 3 s);
3. the leaderboard with 1,000 entries drawn server-side: the board page's body (``space/board/page.py``), its JSON
   and its CSV in-process, and the running app's board, views of it, ``/api/board`` and the CSV over HTTP,
   the first request (drawn) and again (drawn once per results version: kept) (<= 300 ms);
4. UI responsiveness (``GET /`` and ``GET /api/board`` latency) while test-split-size submissions are
   scored in the background, against the same figures idle.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from leaderboard import Leaderboard, Settings, records  # noqa: E402
from leaderboard.records.metadata import Metadata  # noqa: E402
from scoring import load_answer_key  # noqa: E402
from scoring.examples import write_example  # noqa: E402
from scoring.penalty_table import EMBODIMENTS  # noqa: E402
from scoring.summary import Summary  # noqa: E402
from space.board import csv_rows  # noqa: E402
from space.board import page as board_page  # noqa: E402
from space.board.cache import Snapshot  # noqa: E402
from space.board.controls import from_query  # noqa: E402
from space.site.api import board_json  # noqa: E402
from tests.conftest import BROWSER as CHROMIUM  # noqa: E402
from tests.conftest import BROWSER_ARGS as CHROMIUM_ARGS  # noqa: E402

CATEGORIES = (
    "Dynamic Obstacle",
    "Geometric Terrain",
    "Semantic Terrain",
    "Social Norms",
    "Stairs",
    "Stationary Obstacle",
    "Unstructured",
    "Crowds",
)


class App:
    """``python app.py`` in a subprocess, as the Dockerfile runs it."""

    def __init__(self, home: Path, root: Path = ROOT, **env: str) -> None:
        """``root``: the checkout whose ``app.py`` runs (another one to compare, e.g. a ``git archive`` of main)."""
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = home.parent / f"app-{self.port}.log"
        environ = {
            **os.environ,
            "LEADERBOARD_HOME": str(home),
            "GRADIO_SERVER_PORT": str(self.port),
            "MAINTAINERS": "boss",
            "GRADIO_TEMP_DIR": str(home.parent / "gradio"),
            **env,
        }
        environ.pop("SPACE_ID", None)
        home.parent.mkdir(parents=True, exist_ok=True)
        self.started = time.perf_counter()
        with open(self.log, "wb") as out:
            self.process = subprocess.Popen([sys.executable, "app.py"], cwd=root, env=environ, stdout=out, stderr=out)

    def wait_page(self, timeout: float = 120) -> float:
        """Seconds from the start until ``/`` answered 200."""
        return self._wait(lambda: httpx.get(self.url + "/", timeout=2).status_code == 200, timeout)

    def wait_log(self, text: str, timeout: float = 600) -> float:
        return self._wait(lambda: text in self.log.read_text(errors="replace"), timeout)

    def _wait(self, probe, timeout: float) -> float:
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(f"the app exited:\n{self.log.read_text()[-3000:]}")
            try:
                if probe():
                    return time.perf_counter() - self.started
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        raise SystemExit(f"timed out:\n{self.log.read_text()[-3000:]}")

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)


def first_start(work: Path) -> None:
    app = App(work / "first" / "home")
    try:
        page = app.wait_page()
        data = app.wait_log("public datasets ready")
    finally:
        app.stop()
    print(f"1. first start, empty LEADERBOARD_HOME: first page served {page:5.1f} s   (target <= 15 s)")
    print(f"   synthetic data generated and loaded in the background: ready {data:5.1f} s after start")


def page_ready(app: App, runs: int = 5) -> None:
    if not CHROMIUM.exists():
        print("2. page ready: skipped (no /usr/bin/chromium)")
        return
    from playwright.sync_api import sync_playwright

    times = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        for _ in range(runs + 1):  # the first load warms the browser's own caches: not counted
            context = browser.new_context()
            page = context.new_page()
            start = time.perf_counter()
            page.goto(app.url)
            page.wait_for_selector("#leaderboard-table tr.nt-row-baseline", timeout=30_000)
            times.append(time.perf_counter() - start)
            context.close()
        browser.close()
    print(
        f"2. page ready on loopback (fresh context, table shown): median {statistics.median(times[1:]):.2f} s, "
        f"max {max(times[1:]):.2f} s over {runs}   (target <= 3 s)"
    )


def thousand_rows(n: int = 1000) -> list[dict[str, object]]:
    rows = []
    for i in range(n):
        score = 80 - 70 * i / n
        rows.append(
            {
                "submission_id": f"{i:016x}",
                "kind": "submission",
                "model": f"Model-{i}",
                "organization": f"Org {i % 37}",
                "model_link": f"https://huggingface.co/org/model-{i}",
                "paper_link": None,
                "description": "x" * 200,
                "open_weights": i % 2 == 0,
                "parameters_b": 7.0,
                "split": "test",
                "score": score,
                "score_valid_only": score + 3,
                "coverage": 0.95,
                "n_expected": 1250,
                "n_valid": 1200,
                "n_invalid": 30,
                "n_missing": 20,
                "per_embodiment": {e: score + j for j, e in enumerate(EMBODIMENTS)},
                "per_category": {c: score - j for j, c in enumerate(CATEGORIES)},
                "per_metadata": {"urban_rural": {"Urban": score, "Rural": score - 1}},
                "scorer_version": "1.0.0",
                "dataset_revision": "sha256:0",
                "submitted_at": "2026-11-23",
                "source": None,
            }
        )
    return rows


# Views of the board (the address's query), drawn in-process and asked of the running app.
VIEWS = {
    "default columns": {},
    "all column groups + a breakdown": {"cols": "emb,cat,details", "by": "urban_rural"},
    "search 'org 3' + sort by Human": {"q": "org 3", "sort": "emb:Human"},
}


def render_in_process() -> None:
    snapshot = Snapshot(1, thousand_rows())
    for label, view in VIEWS.items():
        controls = from_query(view)
        times = _repeat(lambda c=controls: board_page.board_body(snapshot, c), 20)
        print(f"3. 1,000 entries, the board page's body ({label}): median {1000 * statistics.median(times):6.1f} ms")
    json_ms = 1000 * statistics.median(_repeat(lambda: json.dumps(board_json(snapshot, "test")), 10))
    csv_ms = 1000 * statistics.median(_repeat(lambda: csv_rows.csv_bytes(snapshot.rows, "test"), 10))
    print(
        f"   JSON of the 1,000 entries: median {json_ms:6.1f} ms; CSV: median {csv_ms:6.1f} ms   "
        "(target for the table <= 300 ms)"
    )


def seed_thousand(home: Path, n: int = 1000) -> None:
    """1,000 approved, finished test submissions written straight into the requests store's layout."""
    from leaderboard.storage import LocalStorage

    home.mkdir(parents=True, exist_ok=True)
    store = LocalStorage(home / "requests")
    now = time.time()
    puts: dict[str, bytes] = {}
    for i, row in enumerate(thousand_rows(n)):
        sid = f"{i:016x}"
        meta = Metadata(model=str(row["model"]), organization=str(row["organization"]), open_weights=True)
        request = records.Request(
            sid, f"user{i}", "test", records.iso(now - n + i), "0" * 64, "f.tsv", 1, True, meta, {}
        )
        summary = Summary.from_dict(row)  # the table row holds every public summary field
        puts[records.request_path(sid)] = request.to_bytes()
        puts[records.job_path(sid)] = records.Job(sid, status=records.FINISHED, attempts=1).to_bytes()
        puts[records.review_path(sid)] = records.Review(sid, decision=records.APPROVED).to_bytes()
        puts[records.summary_path(sid)] = json.dumps(summary.to_dict()).encode()
    store.commit(puts, message="benchmark seed")


def render_over_http(app: App) -> None:
    """Each address's first answer (drawn on the request) and the median of ten more (kept per results version)."""
    addresses = {f"board, {label}": "/?" + urlencode(view) if view else "/" for label, view in VIEWS.items()}
    addresses |= {"/api/board": "/api/board?split=test", "the CSV": "/board.csv?split=test"}
    with httpx.Client(base_url=app.url, timeout=60) as client:
        for label, address in addresses.items():
            first = _repeat(lambda a=address: client.get(a).raise_for_status(), 1)[0]
            again = _repeat(lambda a=address: client.get(a).raise_for_status(), 10)
            size = len(client.get(address, headers={"accept-encoding": "identity"}).content)
            print(
                f"3. 1,000 entries over HTTP, {label}: first {1000 * first:6.1f} ms, "
                f"again {1000 * statistics.median(again):6.1f} ms (median, round trip; {size / 1000:.0f} kB)"
            )


def responsiveness(work: Path, samples: int, size: str, data: Path, submissions: int) -> None:
    private, public = _scoring_dataset(data, samples, size)
    home = work / "busy" / "home"
    test_key = load_answer_key(private, "test", home / "cache")  # built before the app starts: not timed
    load_answer_key(public, "test", home / "cache")
    load_answer_key(public, "validation", home / "cache")
    files = []
    for seed in range(submissions):
        files.append(work / "busy" / f"noisy{seed}.tsv")
        rows = write_example(test_key, "noisy", files[-1], seed=seed)
    app = App(home, ANSWER_KEY_DATASET=str(private), PUBLIC_DATASET=str(public), SCORE_INTERVAL_S="1")
    try:
        app.wait_page()
        app.wait_log("public datasets ready")
        idle = _probe(app, seconds=10)
        env = {
            "LEADERBOARD_HOME": str(home),
            "ANSWER_KEY_DATASET": str(private),
            "PUBLIC_DATASET": str(public),
            "TEST_SUBMISSIONS_PER_DAY": str(submissions),
            "LEADERBOARD_QUEUED_PER_USER": str(submissions),
        }
        service = Leaderboard(Settings.from_env(env))
        start = time.perf_counter()
        ids = [service.submit(f, split="test", user="bench", metadata={"model": "bench"}).submission_id for f in files]
        done = threading.Event()

        def watch() -> None:
            for sid in ids:
                app.wait_log(f"finished {sid}", 1800)
            done.set()

        threading.Thread(target=watch, daemon=True).start()
        busy = _probe(app, until=done)
        scored = time.perf_counter() - start
    finally:
        app.stop()
    print(
        f"4. {submissions} test-split-size submissions ({rows} rows each, {samples} scenes at {size}) queued at once "
        f"and scored in the background in {scored:.1f} s ({scored / submissions:.1f} s each);"
    )
    for name in ("page", "api"):
        quiet, loaded = idle[name], busy[name]
        print(
            f"   {name:4} latency idle: median {quiet[0]:6.1f} ms, p95 {quiet[1]:6.1f} ms  |  while scoring: "
            f"median {loaded[0]:6.1f} ms, p95 {loaded[1]:6.1f} ms, max {loaded[2]:6.1f} ms ({busy['n']} probes)"
        )


def _probe(app: App, seconds: float | None = None, until: threading.Event | None = None) -> dict:
    """Latency of ``GET /`` (the board page) and of ``GET /api/board`` (its JSON, in full), every 0.1 s."""
    page, api = [], []
    end = time.perf_counter() + (seconds or 1e9)
    with httpx.Client(base_url=app.url, timeout=30) as client:
        while time.perf_counter() < end and not (until is not None and until.is_set()):
            t = time.perf_counter()
            client.get("/").raise_for_status()
            page.append(1000 * (time.perf_counter() - t))
            t = time.perf_counter()
            client.get("/api/board?split=test").raise_for_status()
            api.append(1000 * (time.perf_counter() - t))
            time.sleep(0.1)

    def stats(values: list[float]) -> tuple[float, float, float]:
        ordered = sorted(values)
        return statistics.median(ordered), ordered[round(0.95 * (len(ordered) - 1))], ordered[-1]

    return {"page": stats(page), "api": stats(api), "n": len(page)}


def _scoring_dataset(data: Path, samples: int, size: str) -> tuple[Path, Path]:
    """The private and public copies, generated once (both at the same time) and kept in ``data``."""
    folder = data / f"space-{samples}-{size}"
    targets = {"navitrace": [], "navitrace-public": ["--public"]}
    running = []
    for name, extra in targets.items():
        if not (folder / name).is_dir():
            print(f"   (generating {folder / name}: once, kept for later runs)", flush=True)
            command = [
                sys.executable,
                "-m",
                "scoring",
                "demo-data",
                str(folder / name),
                "--samples",
                str(samples),
                "--size",
                size,
                *extra,
            ]
            running.append(subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL))
    if any(process.wait() for process in running):
        raise SystemExit("generating the scoring dataset failed")
    return folder / "navitrace", folder / "navitrace-public"


def _repeat(fn, n: int) -> list[float]:
    times = []
    for _ in range(n):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return times


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=500, help="test scenes of the scoring dataset (default 500)")
    parser.add_argument("--size", default="640x480", help="image size of the scoring dataset (default 640x480)")
    parser.add_argument("--submissions", type=int, default=5, help="queued at once for part 4 (default 5)")
    parser.add_argument("--data", type=Path, default=Path.home() / ".cache" / "navitrace-bench")
    parser.add_argument("--skip", nargs="*", default=[], choices=["first", "page", "render", "busy"])
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="navitrace-bench-app-"))
    print(f"work folder {work}")
    if "first" not in args.skip:
        first_start(work)
    if "render" not in args.skip:
        render_in_process()
    if "page" not in args.skip or "render" not in args.skip:
        home = work / "thousand" / "home"
        seed_thousand(home)
        app = App(home, SCORE_INTERVAL_S="3600")
        try:
            app.wait_page()
            app.wait_log("published the leaderboard table")
            if "render" not in args.skip:
                render_over_http(app)
            if "page" not in args.skip:
                page_ready(app)
        finally:
            app.stop()
    if "busy" not in args.skip:
        responsiveness(work, args.samples, args.size, args.data, args.submissions)


if __name__ == "__main__":
    main()
