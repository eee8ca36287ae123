"""Load on loopback: concurrent uploads through ``gradio_client`` while simulated viewers load the leaderboard.

    .venv/bin/python benchmarks/load_test.py                                  # 20 uploads, 50 viewers
    .venv/bin/python benchmarks/load_test.py --uploads 4 --viewers 10 --samples 8 --size 320x240

Starts the real app (``python app.py``, as ``bench_app.App`` does) with a fresh ``LEADERBOARD_HOME``
and a synthetic dataset, then:

- **viewers** load the board in a loop as a browser does (``viewer_process``): ``GET /`` (the plain
  page, drawn once per results version), then the page's stylesheet, script and icon through the
  browser's cache (fetched on a first visit, from the cache after: they are immutable at a hashed
  address; a tenth of the loads are first visits), now and then ``/api/board`` with its ETag, then a
  pause (``--think-s``). They run as asyncio tasks in a process of their own: timed from threads
  beside the uploaders, they measured this process's GIL more than the app;
- after ``--idle-s`` of viewers alone, **uploaders** (threads), each signed in as its own local
  user (the sign-in's session cookie carried by ``gradio_client`` as a header), run the Submit tab's
  flow together on the signed-in Gradio page (``/submit/``): ``/check_file``, then ``/submit`` of a
  test file, then poll ``/my_submission`` (what the page's timer calls) until the row says FINISHED.

Where the time goes, in the app (``benchmarks/app_probe``, loaded into it when a probe is on): ``--gc-probe F``
records its garbage collections (and prints them per phase), ``--request-probe F`` each request's time at
its outermost middleware (by default in the work folder: the board's server time per phase is always
printed, the figure the targets are about; the viewers' own, which a busy machine inflates, beside
it), ``--step-probe F`` each step of Gradio's events (queue to handler to postprocessing, by API name);
``--samples-out F`` writes the viewers' page loads and their own event loop's lateness, so a timeline can
lay the client's time beside the server's.

Everything stops by itself at ``--deadline-s`` at the latest, and the app is stopped at the end.
Prints uploads acknowledged and scored, p50/p95/max of the page (as the viewers saw it: the server's
answer on loopback) and of submit-to-FINISHED (as the uploader saw it and as the store recorded it),
page latency idle against while scoring (the targets: p95 <= 50 ms idle; p50 and p95 <= 1.2x idle
while the files score), the errors, and where the worker scored (from the app log, which names each
line's process and thread): in the worker process, never in the app's interpreter. A status poll that
fails is repeated, as the page's timer would, and counted apart from the errors (under load
``gradio_client`` 2.7 now and then loses its event stream to a race with the server's session
clean-up: ``CancelledError``).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.bench_app import App, _scoring_dataset  # noqa: E402
from benchmarks.proc_stats import cpu_s  # noqa: E402
from benchmarks.remote_clients import as_other_machines  # noqa: E402
from benchmarks.viewer_process import API_PATH, NEW_VISITOR, start_viewers  # noqa: E402
from leaderboard.records.entries import epoch  # noqa: E402
from scoring import load_answer_key  # noqa: E402
from scoring.examples import write_example  # noqa: E402

POLL_S = 3.0  # as often as the My submissions page reads the store while waiting (space/submit/my_submissions.FULL_S)
REQUEST_THREAD = "AnyIO worker thread"  # where Gradio runs synchronous event handlers
TARGET_IDLE_P95_S = 0.050  # the board's p95 idle, 50 viewers
TARGET_RATIO = 1.2  # p50 and p95 while the files score, against idle
WARM_UP_S = 5.0  # the viewers' first loads arrive together on a cold app: also shown without them
WORKER_PROCESS = "worker-process:"  # how the worker process's log lines name their thread
APP_PROBE = Path(__file__).resolve().parent / "app_probe"
# The board's requests in the request probe's lines, by path.
BOARD_REQUESTS: dict[str, Callable[[str], bool]] = {
    "/": lambda path: path == "/",
    "/static/*": lambda path: path.startswith("/static/"),
    "/api/board": lambda path: path == "/api/board",
}
LOG_LINE = re.compile(r"\[(?P<thread>[^\]]+)\] leaderboard\.jobs\.(?P<who>worker|intake): (?P<text>.*)")


@dataclass
class Result:
    uploads: int
    acknowledged: int = 0
    scored: int = 0
    errors: list[str] = field(default_factory=list)
    poll_retries: list[str] = field(default_factory=list)  # status polls that failed and were simply repeated
    page: list[tuple[float, float, float]] = field(default_factory=list)  # (start, GET / s, its files s)
    files_fetched: int = 0  # page loads that fetched the page's files (a first visit); the others had them cached
    api: list[tuple[float, float, int]] = field(default_factory=list)  # (start, s, status) of /api/board reads
    submit_to_finished: list[float] = field(default_factory=list)  # as the uploader saw it (polling)
    server_side: list[tuple[float, float]] = field(default_factory=list)  # (queued s, scoring s), from the store
    started: float = 0.0  # when the viewers started
    busy: tuple[float, float] = (0.0, 0.0)  # from the first upload to the last FINISHED
    last_acknowledged: float = 0.0  # after it, the app only scores (and answers the uploaders' status polls)
    clients: str = ""  # how the uploaders ran beside the app (benchmarks.remote_clients)
    app_cpu: list[tuple[float, float]] = field(default_factory=list)  # (when, the app's own CPU s so far)
    viewer_lag: list[tuple[float, float]] = field(default_factory=list)  # (when, s) the viewers' loop woke late
    app_pid: int = 0
    scoring_threads: set[str] = field(default_factory=set)
    intake_threads: set[str] = field(default_factory=set)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def error(self, text: str) -> None:
        with self.lock:
            self.errors.append(text)


# -- uploaders -------------------------------------------------------------------------------------


def uploader(url: str, user: str, path: Path, go: threading.Barrier, deadline: float, result: Result) -> None:
    from gradio_client import Client, handle_file

    try:
        signed_in = httpx.post(f"{url}/local-auth/sign-in", data={"user": user}, headers={"origin": url}, timeout=60)
        cookie = signed_in.cookies["session"]
        client = Client(
            f"{url}/submit/",  # the signed-in Gradio page (Submit, My submissions, Explorer)
            verbose=False,
            headers={"Cookie": f"session={cookie}", "Origin": url},  # the app refuses a signed-in change without Origin
            download_files=False,
            analytics_enabled=False,
        )
        go.wait()
        report = client.predict(handle_file(str(path)), "test", api_name="/check_file")[0]
        if "You can submit this file" not in report:
            raise RuntimeError(f"check refused the file: {report[:200]}")
        started = time.monotonic()
        meta = (f"Load-{user}", "Load Lab", "", "", f"{user}@example.org", "", "", "", True)
        declared = ("none", "no", "", "1", False)  # a public test entry: trained on, beyond inference, code, runs, Hub
        receipt = client.predict(handle_file(str(path)), "test", *meta, *declared, api_name="/submit")[0]
        found = re.search(r"class='nt-id'>([0-9a-f]{16})<", receipt)
        if not found:
            raise RuntimeError(f"not acknowledged: {receipt[:200]}")
        with result.lock:
            result.acknowledged += 1
            result.last_acknowledged = max(result.last_acknowledged, time.monotonic())
        sid = found.group(1)
        while time.monotonic() < deadline:
            try:
                table = client.predict(None, api_name="/my_submission")[0]
            except Exception as error:  # the page's next timer tick polls again; so do we, and count it
                with result.lock:
                    result.poll_retries.append(f"{user}: {error!r}")
                time.sleep(POLL_S)
                continue
            # An unchanged table comes back as a "skip" update (a dict): the page redraws nothing then.
            row = re.search(rf'data-id="{sid}".*?</tr>', table, re.S) if isinstance(table, str) else None
            status = re.search(r"nt-badge-(finished|failed)\b", row.group(0)) if row else None
            if status and status.group(1) in ("finished", "failed"):
                if status.group(1) == "failed":
                    raise RuntimeError(f"{sid} FAILED")
                with result.lock:
                    result.scored += 1
                    result.submit_to_finished.append(time.monotonic() - started)
                return
            time.sleep(POLL_S)
        raise RuntimeError(f"{sid} not FINISHED by the deadline")
    except threading.BrokenBarrierError:
        result.error(f"{user}: the uploads never started together")
    except Exception as error:
        result.error(f"{user}: {error!r}")
        go.abort()  # nobody waits for an uploader that will never arrive


# -- the run ---------------------------------------------------------------------------------------


def run(
    work: Path,
    private: Path,
    public: Path,
    uploads: int = 20,
    viewers: int = 50,
    idle_s: float = 20.0,
    think_s: float = 1.0,
    deadline_s: float = 600.0,
    gc_probe: Path | None = None,
    request_probe: Path | None = None,
    step_probe: Path | None = None,
) -> Result:
    """One load run against a fresh app; stops by itself by ``deadline_s`` and always stops the app."""
    deadline = time.monotonic() + deadline_s
    home = work / "home"
    key = load_answer_key(private, "test", home / "cache")  # the app's own cache: it starts warm
    files = [work / f"test-{i}.tsv" for i in range(uploads)]
    for i, path in enumerate(files):
        write_example(key, "noisy", path, seed=1000 + i)
    env = {"ANSWER_KEY_DATASET": str(private), "PUBLIC_DATASET": str(public), "SCORE_INTERVAL_S": "1"}
    if gc_probe or request_probe or step_probe:  # benchmarks/app_probe/sitecustomize.py records them there
        env |= {
            "PYTHONPATH": str(APP_PROBE),
            "GC_PROBE_OUT": str(gc_probe or ""),
            "REQUEST_PROBE_OUT": str(request_probe or ""),
            "STEP_PROBE_OUT": str(step_probe or ""),
        }
    # The viewers are many people at one address (loopback); the per-client limit on anonymous calls
    # (space/web/guard.py) counts Gradio events, which the plain board never sends: the app runs with every limit
    # as deployed.
    app = App(home, REQUESTS_REPO="", RESULTS_REPO="", **env)
    result, stop = Result(uploads), threading.Event()
    result.app_pid = app.process.pid
    try:
        app.wait_page(timeout=min(120, deadline_s))
        app.wait_log("public datasets ready", timeout=min(300, deadline_s))
        watchers = start_viewers(app.url, viewers, think_s, stop, result)
        with as_other_machines() as result.clients:  # the uploaders; the app and the viewers keep their priority
            stop.wait(WARM_UP_S)
            result.app_cpu.append((time.monotonic(), cpu_s(app.process.pid)))
            stop.wait(max(0.0, idle_s - WARM_UP_S))
            result.app_cpu.append((time.monotonic(), cpu_s(app.process.pid)))
            go = threading.Barrier(uploads)
            pushers = [
                threading.Thread(target=uploader, args=(app.url, f"user{i:02d}", f, go, deadline, result), daemon=True)
                for i, f in enumerate(files)
            ]
            begin = time.monotonic()
            for thread in pushers:
                thread.start()
            for thread in pushers:
                thread.join(max(0.0, deadline - time.monotonic()))
            result.busy = (begin, time.monotonic())
            result.app_cpu.append((time.monotonic(), cpu_s(app.process.pid)))
        stop.set()
        for thread in watchers:
            thread.join(max(1.0, deadline - time.monotonic()))
        read_server_side(home, app.log.read_text("utf-8", errors="replace"), result)
    finally:
        stop.set()
        stop_app(app)
    return result


def read_server_side(home: Path, log: str, result: Result) -> None:
    """Queue wait and scoring time of each job from the store; which threads intake and scoring ran in."""
    requests = home / "requests"
    for path in (requests / "jobs").glob("*.json"):
        job = json.loads(path.read_text())
        request = json.loads((requests / "requests" / path.name).read_text())
        if job.get("finished_at") and job.get("started_at"):
            created, started = epoch(request["created_at"]), epoch(job["started_at"])
            result.server_side.append((started - created, epoch(job["finished_at"]) - started))
    for match in LOG_LINE.finditer(log):
        if match["who"] == "worker" and match["text"].startswith(("finished ", "failed ")):
            result.scoring_threads.add(match["thread"])
        elif match["who"] == "intake" and " submitted " in match["text"]:
            result.intake_threads.add(match["thread"])


def stop_app(app: App) -> None:
    if app.process.poll() is None:
        app.process.terminate()
        try:
            app.process.wait(timeout=20)
        except Exception:
            app.process.kill()
            app.process.wait()


def report_collections(result: Result, probe: Path) -> None:
    """The app's generation-2 collections per phase: how many, their pauses, and the share of the phase paused."""
    full = [  # (start, pause, objects left in generation 2 after it)
        (float(at), float(pause), int(left))
        for pid, at, gen, pause, _, left in (line.split() for line in probe.read_text().splitlines())
        if gen == "2" and int(pid) == result.app_pid  # the children write there too
    ]
    begin, end = result.busy
    print(f"full garbage collections in the app (probe {probe}):")
    for name, (start, stop) in (
        ("idle (settled)", (result.started + WARM_UP_S, begin)),
        ("uploading+scoring", (begin, end)),
        ("scoring only", (result.last_acknowledged, end)),
    ):
        pauses = [pause for at, pause, _ in full if start <= at < stop]
        left = max((n for at, _, n in full if start <= at < stop), default=0)
        share = sum(pauses) / max(stop - start, 1e-9)
        print(
            f"  {name:18}: {len(pauses) / max(stop - start, 1e-9) * 60:5.1f} a minute, {spread(pauses)}, "
            f"{100 * share:4.1f}% of the time; up to {left:,} objects left in generation 2"
        )


# -- figures ---------------------------------------------------------------------------------------


def spread(values: list[float]) -> str:
    if not values:
        return "no samples"
    ordered = sorted(values)
    p50, p95 = ordered[len(ordered) // 2], ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return f"p50 {1000 * p50:7.1f} ms  p95 {1000 * p95:7.1f} ms  max {1000 * ordered[-1]:7.1f} ms  (n={len(ordered)})"


def percentiles(values: list[float]) -> tuple[float, float]:
    ordered = sorted(values) or [float("nan")]
    return ordered[len(ordered) // 2], ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def report(result: Result, viewers: int) -> None:
    begin, end = result.busy
    idle = [(p, d) for s, p, d in result.page if s < begin]
    busy = [(p, d) for s, p, d in result.page if begin <= s <= end]
    print(f"machine: {os.cpu_count()} cores, load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} (at the end)")
    print(f"uploads: {result.acknowledged}/{result.uploads} acknowledged, {result.scored}/{result.uploads} scored")
    print(f"  {result.clients}")
    rate = f"{len(idle) / max(begin - result.started, 1e-9):.1f} and {len(busy) / max(end - begin, 1e-9):.1f} per s"
    print(f"viewers: {viewers}, {len(result.page)} page loads ({len(idle)} idle, {len(busy)} while uploading/scoring)")
    print(f"  page loads completed idle and under load: {rate}")
    print(
        f"  {result.files_fetched} of them fetched the page's files (first visits, {100 * NEW_VISITOR:.0f}% drawn at "
        "random); the others had them from the browser's cache"
    )
    for name, rows in (("idle", idle), ("under load", busy)):
        print(f"  GET /            {name:10}: {spread([p for p, _ in rows])}")
        print(f"  its files        {name:10}: {spread([d for _, d in rows if d])}  (first visits only)")
        print(f"  page             {name:10}: {spread([p + d for p, d in rows])}")
    settled = [p + d for s, p, d in result.page if result.started + WARM_UP_S <= s < begin]
    scoring = [p + d for s, p, d in result.page if result.last_acknowledged <= s <= end]
    print(f"  page             idle, after the first {WARM_UP_S:.0f} s (the viewers' first burst): {spread(settled)}")
    print(f"  page             after the last upload was acknowledged (scoring only): {spread(scoring)}")
    for name, (start, stop) in (("idle", (0.0, begin)), ("under load", (begin, end))):
        reads = [(s, status) for at, s, status in result.api if start <= at < stop]
        kinds = ", ".join(f"{sum(1 for _, st in reads if st == c)} x {c}" for c in sorted({st for _, st in reads}))
        print(f"  GET /api/board   {name:10}: {spread([s for s, _ in reads])}  ({kinds or 'none'}; {API_PATH})")
    # The ratios are to the settled idle: the viewers' cold first burst would flatter them.
    (idle50, idle95), (busy50, busy95), (only50, only95) = (
        percentiles(rows) for rows in (settled, [p + d for p, d in busy], scoring)
    )
    print(
        f"  page (GET / + its files, as the viewers saw it): idle p50 {1000 * idle50:.1f} ms, "
        f"p95 {1000 * idle95:.1f} ms (target p95 <= {1000 * TARGET_IDLE_P95_S:.0f} ms);\n"
        f"    while uploading and scoring p50 {1000 * busy50:.1f} ms ({busy50 / idle50:.2f}x idle), "
        f"p95 {1000 * busy95:.1f} ms ({busy95 / idle95:.2f}x idle) (target each <= {TARGET_RATIO}x);\n"
        f"    scoring only p50 {1000 * only50:.1f} ms ({only50 / idle50:.2f}x idle), "
        f"p95 {1000 * only95:.1f} ms ({only95 / idle95:.2f}x idle)"
    )
    # The viewers' own loop woke late (their process waited for a core): time they counted as the app's.
    late = [[s for at, s in result.viewer_lag if start <= at < stop] for start, stop in ((0.0, begin), (begin, end))]
    print(
        f"  the viewers' own loop woke late (> 5 ms) {len(late[0])} times idle ({sum(late[0]):.1f} s in all), "
        f"{len(late[1])} times under load ({sum(late[1]):.1f} s): on a busy machine, read the server's own time too"
    )
    if len(result.app_cpu) == 3:  # the app's own threads (pages, intake), not its scoring or checking children
        (t0, c0), (t1, c1), (t2, c2) = result.app_cpu
        print(f"  the app used {(c1 - c0) / (t1 - t0):.2f} CPU s a second idle (settled), "
              f"{(c2 - c1) / (t2 - t1):.2f} while uploading and scoring")  # fmt: skip
    print(f"submit to FINISHED (uploader, polling every {POLL_S} s): {spread(result.submit_to_finished)}")
    print(f"  queued before scoring (store):  {spread([q for q, _ in result.server_side])}")
    print(f"  scoring one file (store):       {spread([s for _, s in result.server_side])}")
    print(f"  uploads to last FINISHED: {end - begin:.1f} s")
    print(f"threads that scored: {sorted(result.scoring_threads)}", end="; ")
    print(f"that took submissions: {sorted(result.intake_threads)}")
    print(f"status polls repeated after a failure: {len(result.poll_retries)} {result.poll_retries[:3]}")
    print(f"errors: {len(result.errors)}")
    for line in result.errors[:20]:
        print(f"  {line}")


def report_requests(result: Result, probe: Path) -> None:
    """The server's own time for the board's requests (at its outermost middleware), per phase."""
    timed = [  # (start, seconds, path)
        (float(at), float(took), path)
        for at, took, method, path in (line.split(maxsplit=3) for line in probe.read_text().splitlines())
        if method == "GET"
    ]
    begin, end = result.busy
    print(f"the server's time to the last byte (probe {probe}):")
    for name, (start, stop) in (
        ("idle (settled)", (result.started + WARM_UP_S, begin)),
        ("uploading+scoring", (begin, end)),
        ("scoring only", (result.last_acknowledged, end)),
    ):
        for label, wanted in BOARD_REQUESTS.items():
            took = [t for at, t, path in timed if start <= at < stop and wanted(path)]
            print(f"  {name:18} GET {label:11}: {spread(took)}")
    (idle50, idle95), (busy50, busy95), (only50, only95) = (
        percentiles([t for at, t, path in timed if start <= at < stop and path == "/"])
        for start, stop in ((result.started + WARM_UP_S, begin), (begin, end), (result.last_acknowledged, end))
    )
    print(
        f"  the server's GET /: idle p50 {1000 * idle50:.1f} ms, p95 {1000 * idle95:.1f} ms "
        f"(target p95 <= {1000 * TARGET_IDLE_P95_S:.0f} ms); while uploading and scoring p50 {busy50 / idle50:.2f}x, "
        f"p95 {busy95 / idle95:.2f}x idle; scoring only p50 {only50 / idle50:.2f}x, p95 {only95 / idle95:.2f}x "
        f"(target each <= {TARGET_RATIO}x)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--uploads", type=int, default=20)
    parser.add_argument("--viewers", type=int, default=50)
    parser.add_argument("--samples", type=int, default=500, help="test scenes of the synthetic dataset (default 500)")
    parser.add_argument("--size", default="640x480", help="image size of the synthetic dataset (default 640x480)")
    parser.add_argument("--idle-s", type=float, default=20.0, help="viewers alone before the uploads (default 20)")
    parser.add_argument("--think-s", type=float, default=1.0, help="a viewer's pause between page loads (default 1)")
    parser.add_argument("--deadline-s", type=float, default=900.0, help="everything stops by then (default 900)")
    parser.add_argument("--data", type=Path, default=Path.home() / ".cache" / "navitrace-bench")
    parser.add_argument("--samples-out", type=Path, help="write every page load and the phases there (JSON)")
    parser.add_argument("--gc-probe", type=Path, help="record the app's garbage collections there (and print them)")
    parser.add_argument(
        "--request-probe", type=Path, help="record each request's time in the app there (default: the work folder)"
    )
    parser.add_argument("--step-probe", type=Path, help="record the time of each step of Gradio's events there")
    args = parser.parse_args()
    private, public = _scoring_dataset(args.data, args.samples, args.size)
    work = Path(tempfile.mkdtemp(prefix="navitrace-load-"))
    print(f"work folder {work}; {args.samples} scenes at {args.size}")
    args.request_probe = args.request_probe or work / "requests.txt"
    # Figures are comparable only on an equally quiet machine: its load before the run, beside them.
    print(f"machine: {os.cpu_count()} cores, load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} (at start)")
    result = run(
        work,
        private,
        public,
        args.uploads,
        args.viewers,
        args.idle_s,
        args.think_s,
        args.deadline_s,
        args.gc_probe,
        args.request_probe,
        args.step_probe,
    )
    report(result, args.viewers)
    if args.gc_probe:
        report_collections(result, args.gc_probe)
    report_requests(result, args.request_probe)
    if args.samples_out:  # (start, GET / s, its files s) on the monotonic clock, for a timeline
        phases = {"viewers": result.started, "uploads": result.busy[0], "acknowledged": result.last_acknowledged}
        timeline = {"phases": {**phases, "end": result.busy[1]}, "page": result.page, "viewer_lag": result.viewer_lag}
        timeline["api"] = result.api
        args.samples_out.write_text(json.dumps(timeline))
    in_app = [t for t in result.scoring_threads if not t.startswith(WORKER_PROCESS)]
    if result.errors or result.scored < args.uploads or in_app:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
