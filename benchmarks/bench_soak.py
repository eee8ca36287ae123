"""Soak: 50 viewers load the board for N minutes with nothing else happening; does the Space wear down?

    .venv/bin/python benchmarks/bench_soak.py                       # 50 viewers, 30 minutes
    .venv/bin/python benchmarks/bench_soak.py --minutes 6 --window-min 2     # a short run
    .venv/bin/python benchmarks/bench_soak.py --root /tmp/before             # another checkout, to compare

(The viewers load the plain board and its files; on an older checkout, whose board is Gradio's,
they would fetch the page and its files without running its events: compare checkouts with the plain board.)

With 50 viewers loading the Gradio board and nothing else, page p95 doubled within three minutes, because
Gradio kept every visit's copy of the page. The board is now a plain page that never touches Gradio's
sessions; the soak checks that it stays flat. Starts the real app (``python app.py``, as ``bench_app.App``
does) on a fresh ``LEADERBOARD_HOME`` and runs ``load_test``'s viewers (``viewer_process``: ``GET /``, its
files through a browser's cache, now and then ``/api/board``, then ``--think-s``), and samples the RSS of
the app and of its children (the scoring process, the checking and drawing processes) every
``--sample-s``.

Prints page p50/p95 of the first and of the last ``--window-min`` minutes (target: last p95 <= 1.1x
the first), p95 per minute, the RSS over time (target: flat), and the machine's load: the figures
are only comparable between runs on an equally quiet machine.
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

from benchmarks.bench_app import App, _scoring_dataset  # noqa: E402
from benchmarks.load_test import APP_PROBE, Result, percentiles, spread, stop_app  # noqa: E402
from benchmarks.proc_stats import children, rss_mb  # noqa: E402
from benchmarks.viewer_process import start_viewers  # noqa: E402

TARGET_RATIO = 1.1  # p95 of the last 5 minutes <= 1.1x the first 5


def sample_memory(pid: int, every_s: float, stop: threading.Event, samples: list[tuple[float, float, float]]) -> None:
    """``(seconds since start, app MB, its children's MB)`` every ``every_s`` until ``stop``."""
    start = time.monotonic()
    while not stop.is_set():
        app = rss_mb(pid) or 0.0
        kids = sum(rss_mb(child) or 0.0 for child in children(pid))
        samples.append((time.monotonic() - start, app, kids))
        stop.wait(every_s)


def run(private: Path, public: Path, args: argparse.Namespace) -> tuple[Result, list[tuple[float, float, float]]]:
    work = Path(tempfile.mkdtemp(prefix="navitrace-soak-"))
    env = {"ANSWER_KEY_DATASET": str(private), "PUBLIC_DATASET": str(public)}
    args.request_probe = work / "requests.txt"  # the server's own time of each request (benchmarks/app_probe)
    env |= {"PYTHONPATH": str(APP_PROBE), "REQUEST_PROBE_OUT": str(args.request_probe)}
    app = App(work / "home", args.root, REQUESTS_REPO="", RESULTS_REPO="", **env)
    result, stop, memory = Result(0), threading.Event(), []
    try:
        app.wait_page()
        app.wait_log("public datasets ready", timeout=600)
        sampler = threading.Thread(target=sample_memory, args=(app.process.pid, args.sample_s, stop, memory))
        sampler.start()
        viewers = start_viewers(app.url, args.viewers, args.think_s, stop, result)
        stop.wait(args.minutes * 60)
        stop.set()
        for thread in [*viewers, sampler]:
            thread.join(60)
    finally:
        stop.set()
        stop_app(app)
    return result, memory


def report(result: Result, memory: list[tuple[float, float, float]], args: argparse.Namespace) -> bool:
    """Print the figures; whether the last window stayed within ``TARGET_RATIO`` of the first."""
    pages = [(start - result.started, load + files) for start, load, files in result.page]
    window, end = args.window_min * 60, args.minutes * 60
    first = [s for t, s in pages if t < window]
    last = [s for t, s in pages if t >= end - window]
    print(f"viewers: {args.viewers}, {args.minutes:g} min, a pause of {args.think_s:g} s between a viewer's loads")
    print(f"page loads: {len(pages)} ({len(pages) / max(end, 1):.1f} per s), errors: {len(result.errors)}")
    print(f"  page (GET / + its files), first {args.window_min:g} min: {spread(first)}")
    print(f"  page (GET / + its files), last  {args.window_min:g} min: {spread(last)}")
    (f50, f95), (l50, l95) = percentiles(first), percentiles(last)
    ratio = l95 / f95 if f95 else float("nan")
    print(f"  p95 last / first: {ratio:.2f}x (target <= {TARGET_RATIO}x); p50 last / first: {l50 / f50:.2f}x")
    if args.request_probe.exists():  # the server's own time, which a busy machine does not inflate as much
        lines = (line.split(maxsplit=3) for line in args.request_probe.read_text().splitlines())
        # (seconds since the viewers started, the server's time to the last byte of a GET /)
        server = [(float(at) - result.started, float(took)) for at, took, _, path in lines if path == "/"]
        s50, s95 = percentiles([s for t, s in server if t < window])
        z50, z95 = percentiles([s for t, s in server if t >= end - window])
        print(
            f"  the server's GET /, first / last {args.window_min:g} min: p50 {1000 * s50:.1f} / {1000 * z50:.1f} ms, "
            f"p95 {1000 * s95:.1f} / {1000 * z95:.1f} ms ({z95 / s95:.2f}x)"
        )
    minutes = [[s for t, s in pages if m * 60 <= t < (m + 1) * 60] for m in range(int(args.minutes))]
    print("  p95 per minute (ms): " + " ".join(f"{1000 * percentiles(one)[1]:.1f}" for one in minutes))
    if memory:
        print("RSS over time (MB): minute  app  children (scoring, checks, drawings)")
        step = max(1, round(60 / args.sample_s))
        for t, app, kids in memory[::step]:
            print(f"  {t / 60:6.1f}  {app:7.0f}  {kids:7.0f}")
        (_, a0, _), (_, a1, _) = memory[min(len(memory) - 1, step)], memory[-1]
        print(f"  app RSS after the first minute {a0:.0f} MB, at the end {a1:.0f} MB ({a1 - a0:+.0f} MB)")
    for line in result.errors[:10]:
        print(f"  error: {line}")
    return ratio <= TARGET_RATIO


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=30.0, help="how long the viewers load the page (default 30)")
    parser.add_argument("--window-min", type=float, default=5.0, help="first and last windows compared (default 5)")
    parser.add_argument("--viewers", type=int, default=50)
    parser.add_argument("--think-s", type=float, default=1.0, help="a viewer's pause between page loads (default 1)")
    parser.add_argument("--sample-s", type=float, default=10.0, help="RSS sampling interval (default 10)")
    parser.add_argument("--samples", type=int, default=100, help="test scenes of the synthetic dataset (default 100)")
    parser.add_argument("--size", default="320x240", help="image size of the synthetic dataset (default 320x240)")
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to run (default: this one)")
    parser.add_argument("--data", type=Path, default=Path.home() / ".cache" / "navitrace-bench")
    args = parser.parse_args()
    if args.window_min * 2 > args.minutes:
        parser.error(f"--window-min {args.window_min:g}: expected at most half of --minutes ({args.minutes:g})")
    private, public = _scoring_dataset(args.data, args.samples, args.size)
    print(f"checkout: {args.root.resolve()}")
    print(f"machine: {os.cpu_count()} cores, load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} (at start)")
    result, memory = run(private, public, args)
    print(f"machine: load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} (at the end)")
    held = report(result, memory, args)
    if result.errors or not held:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
