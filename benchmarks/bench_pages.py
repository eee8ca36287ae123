"""The public pages against their targets: time to the first screen beside a static copy, bytes, Lighthouse, axe.

    .venv/bin/python benchmarks/bench_pages.py                              # starts this checkout's app.py, seeded
    .venv/bin/python benchmarks/bench_pages.py --app-dir /tmp/before --json docs/perf/pages-before.json
    .venv/bin/python benchmarks/bench_pages.py --url http://127.0.0.1:7860 --skip-lighthouse --runs 3

Starts ``python app.py`` of ``--app-dir`` (default: this checkout) on a store seeded by that checkout's own code
(``benchmarks/pages/seed.py``: the browser tests' 8-scene datasets, eight published test entries), or measures
the app already running at ``--url``. Then, in one run, prints figures (it asserts nothing):

1. **time to the first screen** in Chromium: from the navigation's start to the frame that paints the page's
   ready element inside the viewport (the board's rank-1 row, the entry's title; ``pages/browse.py`` says how),
   at 1440x900 and 390x844, cold (a fresh context) and warm (the same address again in that context), median and
   p90 (nearest rank) of ``--runs``; side by side with a **static copy** of the same page (the rendered document
   without its scripts, its stylesheets inlined: ``browse.SNAPSHOT_JS``) served by ``python -m http.server``,
   the two interleaved run by run, their order alternating; and the ratio app/static (target <= 1.5);
2. **a first visit to the board**: bytes over the wire (compressed, as Chromium counts them), requests,
   JavaScript bytes and files (targets <= 100 KB in all, <= 20 KB of JavaScript);
3. **Lighthouse** (npm ``lighthouse`` 12.2.3, desktop preset and the default mobile) on the board and the entry
   page: performance, accessibility, best practices (targets >= 95 each), CLS, LCP, TBT, script boot;
4. **axe-core** on every public page (board, entry, compare, about; ``/embed`` where the app has it): violated
   rules (and elements) by impact (target 0 critical or serious).

The app's pages are found by their layout: "plain" (``/entry/<id>``, ``/compare?compare=a,b``,
``/about``, ``/embed``) when ``GET /about`` answers a page that is not Gradio's, else "gradio" (today: ``/?entry=``,
``/?compare=``, the About tab). Entries are read off the board's rows. ``ANONYMOUS_CALLS_PER_MINUTE`` is lifted
for the started app: a hundred page loads from one address are one reader's worth of calls to the guard.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.bench_app import App, _free_port  # noqa: E402
from benchmarks.pages import audits, browse, report  # noqa: E402
from tests.conftest import BROWSER as CHROMIUM  # noqa: E402
from tests.conftest import BROWSER_ARGS as CHROMIUM_ARGS  # noqa: E402

SEED = Path(__file__).resolve().parent / "pages" / "seed.py"
SIZES = {"1440x900": (1440, 900), "390x844": (390, 844)}
ROW = "#leaderboard-table tbody tr:not(.nt-row-baseline):not(:has(td.nt-empty))"  # the rank-1 row: the first entry
ENTRY_LINKS_JS = """rows => [...document.querySelectorAll(rows)].flatMap(
  row => [...row.querySelectorAll('a[href*="entry"]')].map(a => a.getAttribute('href'))
)"""
APP_ENV = {
    "REQUESTS_REPO": "",
    "RESULTS_REPO": "",
    "SCORE_INTERVAL_S": "3600",  # the store is scored before the start: keep the worker quiet
    "ANONYMOUS_CALLS_PER_MINUTE": "1000000",
    "PYTHONUNBUFFERED": "1",
}


@dataclass(frozen=True)
class Page:
    name: str
    path: str  # after the base URL
    ready: str  # the element whose first paint means "the page is there"
    tab: str | None = None  # today's About page is a tab of the board, opened by a click


def public_pages(layout: str, ids: list[str], args: argparse.Namespace) -> dict[str, Page]:
    first, second = ids[0], ids[1 % len(ids)]
    board = Page("board", "/", args.board_selector)
    if layout == "plain":
        pages = [
            board,
            Page("entry", f"/entry/{first}", args.entry_selector),
            Page("compare", f"/compare?compare={first},{second}", args.compare_selector),
            Page("about", "/about", args.about_selector),
            Page("embed", "/embed", args.board_selector),
        ]
    else:
        pages = [
            board,
            Page("entry", f"/?entry={first}", args.entry_selector),
            Page("compare", f"/?compare={first},{second}", args.compare_selector),
            Page("about", "/", args.about_selector, tab="About"),
        ]
    return {p.name: p for p in pages}


def timed_pages(pages: dict[str, Page], names: str) -> list[Page]:
    """The pages of ``--pages``: those a visitor opens by their address (today's About needs a click)."""
    direct = [n for n, p in pages.items() if p.tab is None]
    wanted = [n.strip() for n in names.split(",") if n.strip()]
    unknown = [n for n in wanted if n not in direct]
    if unknown or not wanted:
        raise SystemExit(f"--pages {names!r}: expected some of {', '.join(direct)} (comma-separated)")
    return [pages[n] for n in wanted]


def layout_of(url: str) -> str:
    answer = httpx.get(f"{url}/about", timeout=60)
    return "plain" if answer.status_code == 200 and "gradio_config" not in answer.text else "gradio"


def entry_ids(browser, url: str, selector: str) -> list[str]:
    """The ids of the board's entries, best first, from their links (``?entry=ID`` or ``/entry/ID``)."""
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    try:
        page = context.new_page()
        page.goto(url + "/", timeout=browse.NAVIGATION_TIMEOUT_MS)
        page.locator(selector).first.wait_for(timeout=browse.NAVIGATION_TIMEOUT_MS)
        found = [re.search(r"entry[=/]([A-Za-z0-9_-]+)", h) for h in page.evaluate(ENTRY_LINKS_JS, selector)]
    finally:
        context.close()
    ids = list(dict.fromkeys(m.group(1) for m in found if m))
    if not ids:
        raise SystemExit(f"no entry link in the board's rows ({selector}) at {url}: is the board empty?")
    return ids


def start_app(app_dir: Path, work: Path) -> App:
    """The app of ``app_dir`` on a store that checkout's own code seeds (``pages/seed.py``)."""
    seeded = subprocess.run(
        [sys.executable, str(SEED), str(work / "store")],
        cwd=app_dir,
        env={**os.environ, "PYTHONPATH": str(app_dir)},
        capture_output=True,
        text=True,
    )
    if seeded.returncode != 0:
        raise SystemExit(f"seeding the store with {app_dir} failed:\n{seeded.stderr[-3000:]}")
    env = json.loads(seeded.stdout.strip().splitlines()[-1])
    app = App(Path(env.pop("LEADERBOARD_HOME")), root=app_dir, **env, **APP_ENV)
    app.wait_page()
    return app


def start_static(folder: Path) -> tuple[subprocess.Popen, str]:
    port = _free_port()
    command = [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(folder)]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            httpx.get(url + "/", timeout=1)
            return server, url
        except httpx.HTTPError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit(f"python -m http.server did not answer on {url}")


def timings(browser, url: str, static_url: str, pages: list[Page], runs: int) -> list[dict]:
    """Every (page, size) loaded from the app and from its static copy, interleaved; one warm-up of each first."""
    from tqdm import tqdm

    cases = [(p, s) for p in pages for s in SIZES]
    samples: dict[tuple, list[float]] = {}
    with tqdm(total=(runs + 1) * len(cases) * 2, desc="time to first screen", unit="load") as bar:
        for run in range(runs + 1):  # run 0 warms the app, the static server and Chromium: not counted
            for page, size in cases:
                sources = [("app", url + page.path), ("static", f"{static_url}/{page.name}.html")]
                for source, address in sources if run % 2 else sources[::-1]:
                    cold, warm = browse.cold_and_warm(browser, SIZES[size], page.ready, address)
                    if run:
                        samples.setdefault((page.name, size, "cold", source), []).append(cold)
                        samples.setdefault((page.name, size, "warm", source), []).append(warm)
                    bar.update()
    return [
        {"page": p, "size": s, "cache": c, "source": src, "ms": values}
        for (p, s, c, src), values in sorted(samples.items())
    ]


def axe_all(browser, url: str, pages: dict[str, Page]) -> list[audits.AxeRun]:
    found = []
    for page in pages.values():
        context = browser.new_context(viewport={"width": 1440, "height": 900}, bypass_csp=True)
        try:
            tab = context.new_page()
            tab.goto(url + page.path, timeout=browse.NAVIGATION_TIMEOUT_MS)
            if page.tab:
                tab.get_by_role("tab", name=page.tab).click(timeout=browse.NAVIGATION_TIMEOUT_MS)
            tab.locator(page.ready).first.wait_for(timeout=browse.NAVIGATION_TIMEOUT_MS)
            tab.wait_for_load_state("load")
            found.append(audits.axe(page.name, tab))
        finally:
            context.close()
    return found


def lighthouse_all(url: str, pages: dict[str, Page], work: Path) -> list[audits.LighthouseRun]:
    from tqdm import tqdm

    runs = [(p, preset) for p in ("board", "entry") if p in pages for preset in ("desktop", "mobile")]
    found = []
    for name, preset in tqdm(runs, desc="lighthouse", unit="run"):
        out = work / f"lighthouse-{name}-{preset}.json"
        found.append(audits.lighthouse(name, url + pages[name].path, preset, out, CHROMIUM))
    return found


def measure(args: argparse.Namespace, url: str, work: Path) -> dict:
    from playwright.sync_api import sync_playwright

    figures: dict = {"url": url, "label": args.label, "runs": args.runs}
    figures["app_dir"] = None if args.url else str(args.app_dir.resolve())
    figures["machine"] = {"cpus": os.cpu_count(), "load_at_start": os.getloadavg()}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        layout = args.layout if args.layout != "auto" else layout_of(url)
        ids = entry_ids(browser, url, args.board_selector)
        pages = public_pages(layout, ids, args)
        timed = timed_pages(pages, args.pages)
        figures |= {"layout": layout, "pages": {n: asdict(p) for n, p in pages.items()}}
        print(f"{url}: layout {layout!r}, {len(ids)} entries on the board; work folder {work}", flush=True)
        static = work / "static"
        static.mkdir()
        for page in timed:
            browse.snapshot(browser, SIZES["1440x900"], page.ready, url + page.path, static, page.name)
        server, static_url = start_static(static)
        try:
            figures["timing"] = timings(browser, url, static_url, timed, args.runs)
        finally:
            server.terminate()
            server.wait()
        figures["transfer"] = asdict(browse.first_visit(browser, SIZES["1440x900"], pages["board"].ready, url + "/"))
        figures["axe"] = [asdict(a) for a in axe_all(browser, url, pages)]
        figures["machine"]["chromium"] = browser.version
        browser.close()
    figures["machine"]["load_after_browser"] = os.getloadavg()
    if not args.skip_lighthouse:
        figures["lighthouse"] = [asdict(r) for r in lighthouse_all(url, pages, work)]
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", help="an app already running (default: start --app-dir's app.py on a seeded store)")
    parser.add_argument("--app-dir", type=Path, default=ROOT, help="the checkout whose app.py to start")
    parser.add_argument("--runs", type=int, default=7, help="loads of each page, size and source (default 7)")
    parser.add_argument("--pages", default="board,entry", help="the pages timed against their static copy")
    parser.add_argument("--skip-lighthouse", action="store_true")
    parser.add_argument("--json", type=Path, help="write every figure here")
    parser.add_argument("--label", default="", help="a note kept with the figures (e.g. 'before, main at 1c0aa08')")
    parser.add_argument("--layout", choices=("auto", "gradio", "plain"), default="auto")
    parser.add_argument("--board-selector", default=ROW, help="the board's ready element (the rank-1 row)")
    parser.add_argument("--entry-selector", default="#entry-page #entry-title")
    parser.add_argument("--compare-selector", default="#compare-headline")
    parser.add_argument("--about-selector", default="#about-examples")
    args = parser.parse_args()
    if not CHROMIUM.exists():
        raise SystemExit(f"needs Chromium at {CHROMIUM}")
    audits.install()
    work = Path(tempfile.mkdtemp(prefix="navitrace-bench-pages-"))
    app = None if args.url else start_app(args.app_dir.resolve(), work)
    try:
        figures = measure(args, args.url or app.url, work)
    finally:
        if app is not None:
            app.stop()
    figures["timing_summary"] = report.timing_rows(figures["timing"])
    report.print_all(figures)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(figures, indent=1) + "\n")
        print(f"figures written to {args.json}")


if __name__ == "__main__":
    main()
