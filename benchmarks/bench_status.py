"""Submit to FINISHED as a person sees it: the Submit tab's button, then My submissions until the row says FINISHED.

    .venv/bin/python benchmarks/bench_status.py                  # 7 test-split submissions, one at a time
    .venv/bin/python benchmarks/bench_status.py --runs 5 --split validation
    .venv/bin/python benchmarks/bench_status.py --points 2000      # scoring takes ~2 s: the page is watched meanwhile

Starts ``python app.py`` on the embedded default (a fresh ``LEADERBOARD_HOME``: the synthetic
dataset is generated on first start, as the README's command does), then, once per run, in a fresh
Chromium context: signs in as a new local user in the board's header, follows the header's *Submit* link
to the signed-in page (``/submit/``), uploads a ``noisy`` example of the split, clicks *2 · Submit*, waits
for the receipt, opens its *My submissions* tab and waits, without reloading, until the row says FINISHED.
The page is watched on every animation frame, so the figure is the page's, not the watcher's polling.
Prints per run and as a median:

- submit to FINISHED on the page (from the click; the target is a median of at most 1.5 s);
- of which: the receipt (intake), queued (receipt to the worker's claim), scoring (claim to the
  outcome's commit), shown (the outcome's commit to FINISHED on the page), the last three from
  the store's own times (``created_at``, ``started_at``, ``finished_at``).

A file of the embedded default scores in tens of milliseconds, usually before *My submissions* is
even open: the page then shows FINISHED on opening, and the status updates are not exercised.
``--points N`` resamples every predicted trace to N points (valid, and slower to score: DTW is
N x N), so the job is still running when the tab opens and "shown" measures how soon the open
page notices the outcome.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.bench_app import App  # noqa: E402
from leaderboard import Leaderboard, Settings  # noqa: E402
from leaderboard.records.entries import epoch  # noqa: E402
from scoring.examples import NOTEBOOK_COLUMNS, example_rows  # noqa: E402
from tests.conftest import BROWSER as CHROMIUM  # noqa: E402
from tests.conftest import BROWSER_ARGS as CHROMIUM_ARGS  # noqa: E402

FINISHED_JS = """id => {
  const row = [...document.querySelectorAll('#my-submissions-table tr')].find(r => r.textContent.includes(id));
  return row !== undefined && row.textContent.includes('FINISHED');
}"""


def write_file(key, path: Path, seed: int, points: int) -> None:
    """The ``noisy`` example, its traces resampled to ``points`` points when ``points`` is set."""
    import numpy as np
    import pandas as pd

    rows = example_rows(key, "noisy", seed)
    for row in rows if points else []:
        trace = np.asarray(json.loads(row["prediction"]), dtype=np.float64)
        at = np.linspace(0, len(trace) - 1, points)
        dense = np.column_stack([np.interp(at, np.arange(len(trace)), trace[:, i]) for i in (0, 1)])
        row["prediction"] = row["raw_response"] = json.dumps(np.round(dense).astype(int).tolist())
    pd.DataFrame(rows, columns=list(NOTEBOOK_COLUMNS)).to_csv(path, sep="\t", index=False)


def one_run(browser, url: str, path: Path, user: str, split: str) -> dict[str, float | str]:
    from tests.browser.helpers import LONG_MS, open_tab, sign_in, upload

    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    context.set_default_timeout(LONG_MS)
    page = context.new_page()
    try:
        sign_in(page, url, user)
        open_tab(page, "Submit")
        if split == "test":
            page.get_by_label("Test: hidden ground truth, for the leaderboard").check()
        upload(page, "submit-file", path)
        page.locator("#validation-report", has_text="You can submit this file").wait_for()
        page.get_by_label("Model name (required)").fill(f"Bench-{user}")
        button = page.get_by_role("button", name="2 · Submit")
        page.wait_for_function("b => !b.disabled", arg=button.element_handle())
        clicked = time.time()
        button.click()
        receipt = page.locator("#submit-receipt .nt-id")
        receipt.wait_for()
        received = time.time()
        submission_id = receipt.inner_text().strip()
        open_tab(page, "My submissions")
        page.wait_for_function(FINISHED_JS, arg=submission_id, polling="raf", timeout=LONG_MS)
        shown = time.time()
    finally:
        context.close()
    return {"id": submission_id, "clicked": clicked, "received": received, "shown": shown}


def store_times(home: Path, run: dict) -> dict[str, float]:
    requests = home / "requests"
    job = json.loads((requests / "jobs" / f"{run['id']}.json").read_text())
    request = json.loads((requests / "requests" / f"{run['id']}.json").read_text())
    created, started, finished = epoch(request["created_at"]), epoch(job["started_at"]), epoch(job["finished_at"])
    return {
        "total": run["shown"] - run["clicked"],
        "receipt": run["received"] - run["clicked"],
        "queued": started - created,
        "scoring": finished - started,
        "shown": run["shown"] - finished,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--split", choices=("test", "validation"), default="test")
    parser.add_argument("--points", type=int, default=0, help="resample every trace to this many points (<= 2000)")
    args = parser.parse_args()
    if not CHROMIUM.exists():
        raise SystemExit(f"needs Chromium at {CHROMIUM}")
    from playwright.sync_api import sync_playwright

    work = Path(tempfile.mkdtemp(prefix="navitrace-bench-status-"))
    home = work / "home"
    app = App(home)  # the embedded default: nothing but LEADERBOARD_HOME (and a port) set
    figures: list[dict[str, float]] = []
    try:
        app.wait_page()
        app.wait_log("public datasets ready")
        environ = {"LEADERBOARD_HOME": str(home)}
        key = Leaderboard(Settings.from_env(environ)).keys.private(args.split)  # noisy needs ground truth
        traces = f"traces of {args.points} points" if args.points else "the noisy example"
        print(f"work folder {work}; the embedded default, {args.split} split, {traces}, {args.runs} runs in turn")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            for n in range(args.runs):
                path = work / f"{args.split}-{n}.tsv"
                write_file(key, path, 100 + n, args.points)
                run = one_run(browser, app.url, path, f"bench{n:02d}", args.split)
                figures.append(store_times(home, run))
                print(f"  run {n}: " + "  ".join(f"{k} {v:5.2f} s" for k, v in figures[-1].items()))
            browser.close()
    finally:
        app.stop()
    print(f"median over {len(figures)} runs (submit to FINISHED on the page; target <= 1.5 s):")
    for name in ("total", "receipt", "queued", "scoring", "shown"):
        print(f"  {name:8} {statistics.median(f[name] for f in figures):5.2f} s")


if __name__ == "__main__":
    main()
