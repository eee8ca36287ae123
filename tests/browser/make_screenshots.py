"""Seed a demo leaderboard on the embedded default and take the screenshots of docs/screenshots/.

    .venv/bin/python tests/browser/make_screenshots.py [--out docs/screenshots] [--home DIR]

Fictional models (scored here on the synthetic data) plus two *reported* rows with the NaviTrace
paper's published figures, one entry awaiting approval, and a validation submission for the
explorer. Needs /usr/bin/chromium. Takes about a minute (the first start generates the data).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from leaderboard import Leaderboard, Settings  # noqa: E402
from scoring import AnswerKey  # noqa: E402
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, free_port  # noqa: E402

MODELS = (  # name, organisation, jitter in px, share of rows answered, open weights, parameters
    ("Navigator-72B", "Example Robotics Lab", 25.0, 1.0, True, "72B"),
    ("TraceLM-Pro", "Acme AI", 45.0, 0.97, False, ""),
    ("PathFinder-VL-7B", "University of Somewhere", 70.0, 0.9, True, "7B"),
    ("OpenWalk-3B", "Open Models Collective", 110.0, 0.8, True, "3B"),
)
PAPER = "https://arxiv.org/abs/2510.26909"
DECLARATIONS = (  # what each model's submitter declared, in MODELS' order
    {"trained_on": "none", "test_images_beyond_inference": "no", "best_of": 1, "share_on_hub": True,
     "code_link": "https://github.com/example/navigator-eval"},
    {"trained_on": "validation", "test_images_beyond_inference": "no", "best_of": 5},
    {"trained_on": "none", "test_images_beyond_inference": "no", "best_of": 1},
    {"trained_on": "none", "test_images_beyond_inference": "yes", "best_of": 3},
)  # fmt: skip
EXTRA_TRIES = 3  # private test tries by the first model's submitter: the board then says "3 / 4" for it
FLAGGED = ("TraceLM-Pro", "contamination", "Its model card lists the NaviTrace test images in its tuning data.",
           "https://huggingface.co/spaces/example/navitrace/discussions/1")  # fmt: skip
HUB_PR = "https://huggingface.co/example/navigator-72b/discussions/3"  # hub/{id}.json of the first model


def predictions(key: AnswerKey, jitter: float, answered: float, seed: int) -> bytes:
    """A TSV whose traces follow the first expert trace with Gaussian ``jitter``; some rows left out."""
    rng = np.random.default_rng(seed)
    rows = []
    for sample, embodiment in key.expected_rows():
        if rng.random() > answered:
            continue
        truth = key.truths(sample.sample_id, embodiment)[0].points
        trace = truth + rng.normal(0, jitter, truth.shape) * np.linspace(0.2, 1.0, len(truth))[:, None]
        rows.append((sample.sample_id, embodiment, json.dumps([[int(x), int(y)] for x, y in trace])))
    frame = pd.DataFrame(rows, columns=["sample_id", "embodiment", "prediction"])
    return frame.to_csv(sep="\t", index=False).encode()


def seed(home: Path) -> Path:
    """Fill ``home``; returns a file for the Submit page's screenshot."""
    env = {"LEADERBOARD_HOME": str(home), "MAINTAINERS": "boss", "TEST_SUBMISSIONS_PER_DAY": "10"}
    service = Leaderboard(Settings.from_env(env))
    private_test, public_val = service.keys.private("test"), service.keys.public("validation")
    for n in range(EXTRA_TRIES):  # tries the board discloses ("4 / 5" for the first model)
        model = MODELS[0][0] if n < EXTRA_TRIES - 1 else "Navigator-8B"
        tries = predictions(private_test, 40.0 + 10 * n, 1.0, 20 + n)
        service.submit(tries, split="test", user="user0", metadata={"model": model}, filename=f"try{n}.tsv")
        service.worker.drain()
    for i, (model, org, jitter, answered, open_weights, params) in enumerate(MODELS):
        meta = {
            "model": model,
            "organization": org,
            "open_weights": open_weights,
            "parameters_b": params,
            "model_link": f"https://huggingface.co/example/{model.lower()}",
            "contact_email": f"team{i}@example.org",
        }
        receipt = service.submit(
            predictions(private_test, jitter, answered, i),
            split="test",
            user=f"user{i}",
            metadata=meta,
            publish=True,
            filename=f"{model}.tsv",
            declarations=DECLARATIONS[i % len(DECLARATIONS)],
        )
        if i < len(MODELS) - 1:
            service.worker.drain()
            service.approve(receipt.submission_id, by="boss")
    service.submit(
        predictions(public_val, 40.0, 0.95, 9),
        split="validation",
        user="alice",
        metadata={"model": "Alice-VLM"},
        filename="alice.tsv",
    )
    service.add_reported("boss", model="Gemini 2.5 Pro (paper)", organization="Google", score=34.38, source=PAPER)
    service.add_reported("boss", model="Human expert (paper)", score=75.4, source=PAPER)
    service.worker.drain()
    flagged = next(r for r in service.public_table() if r["model"] == FLAGGED[0])
    service.flag(str(flagged["submission_id"]), "boss", *FLAGGED[1:])
    first = next(r for r in service.public_table() if r["model"] == MODELS[0][0])
    record = {"pr_url": HUB_PR, "repo_id": "example/navigator-72b", "opened_at": "2026-11-25T10:00:00.000000Z"}
    service.requests.commit({f"hub/{first['submission_id']}.json": json.dumps(record).encode()}, message="hub PR")
    return broken_example(public_val, home.parent / "predictions_validation.tsv")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    parser.add_argument("--home", type=Path, default=None)
    args = parser.parse_args()
    home = args.home or Path(tempfile.mkdtemp(prefix="navitrace-shots-")) / "home"
    example = seed(home)
    port = free_port()
    env = {
        "LEADERBOARD_HOME": str(home),
        "MAINTAINERS": "boss",
        "GRADIO_SERVER_PORT": str(port),
        "PATH": "/usr/bin:/bin",
        "HOME": str(home.parent),
        "SCORE_INTERVAL_S": "3600",  # one publish at start, then nothing rewrites the table while we shoot
    }
    server = subprocess.Popen([sys.executable, "app.py"], cwd=ROOT, env=env)
    try:
        url = f"http://127.0.0.1:{port}"
        for _ in range(200):
            try:
                if httpx.get(url, timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        hub_pr_link(home)
        shoot(url, args.out, example)
    finally:
        server.terminate()
        server.wait(timeout=20)


def hub_pr_link(home: Path) -> None:
    """The first model's ``hub_pr_url`` in the published table. The table reads it from ``hub/{id}.json``
    once the scheduler's Hub job writes it; until then this puts it there, so the entry page's link is shot."""
    from leaderboard.publishing.table import TABLE_PATH, table_bytes
    from leaderboard.storage.local import LocalStorage

    results = LocalStorage(home / "results")

    def rows() -> list[dict]:
        return [json.loads(line) for line in (results.read(TABLE_PATH) or b"").decode().splitlines() if line]

    # The app's worker publishes once at start and would undo an earlier patch: keep it for 20 s.
    for _ in range(100):
        table = rows()
        if not any(r.get("hub_pr_url") for r in table):
            for row in table:
                row["hub_pr_url"] = HUB_PR if row.get("model") == MODELS[0][0] else row.get("hub_pr_url")
            results.commit({TABLE_PATH: table_bytes(table)}, message="the Hub pull request of the first model")
        time.sleep(0.2)


LAPTOP = {"width": 1440, "height": 900}
PHONE = {"width": 390, "height": 844}


def shoot(url: str, out: Path, example: Path) -> None:
    """Every page at 1440x900 (``name.png``, the whole page) and at 390x844 (``name-phone.png``, the first screen)."""
    from playwright.sync_api import sync_playwright

    out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        for viewport, suffix, full in ((LAPTOP, "", True), (PHONE, "-phone", False)):
            page = browser.new_page(viewport=viewport)
            _pages(page, url, example, lambda name, end=suffix: str(out / f"{name}{end}.png"), full)
            page.close()
        browser.close()


def _pages(page, url: str, example: Path, path, full: bool) -> None:  # noqa: ANN001 (playwright's Page)
    from playwright.sync_api import expect

    def shot(name: str, wait_ms: int = 800) -> None:
        page.wait_for_timeout(wait_ms)
        page.screenshot(path=path(name), full_page=full)

    page.goto(url)
    expect(page.locator("#leaderboard-table")).to_contain_text("Navigator-72B")
    shot("leaderboard", 0)
    ids = [
        str(a.get_attribute("href")).removeprefix("/entry/")
        for a in page.locator("#leaderboard-table a.nt-entry").all()
    ]
    page.goto(f"{url}/?flagged=1")  # the flagged entry, one click away ("Show flagged")
    expect(page.locator("#leaderboard-table")).to_contain_text("contamination")
    page.locator("#board-summary").evaluate("e => e.scrollIntoView({block: 'start'})")  # a phone: the rows
    shot("leaderboard-flagged", 0)
    page.goto(f"{url}/entry/{ids[0]}")
    expect(page.locator("#entry-page")).to_contain_text("Navigator-72B")
    expect(page.locator("#entry-declarations")).to_be_visible()
    shot("entry", 0)
    page.locator("#entry-declarations").scroll_into_view_if_needed()
    shot("entry-declarations", 0)  # on a phone the first screen is the headline: this one shows the declarations
    page.goto(f"{url}/compare?compare={ids[0]},{ids[1]}")
    expect(page.locator("#compare-headline")).to_contain_text("A − B")
    shot("compare", 0)
    page.goto(f"{url}/about")
    expect(page.locator("#about-page")).to_be_visible()
    page.screenshot(path=path("about"), full_page=False)

    page.goto(url)
    page.get_by_label("User name (local sign-in)").fill("alice")
    page.get_by_role("button", name="Sign in locally").click()
    expect(page.locator("#identity")).to_contain_text("Signed in as alice")
    page.locator("#nt-nav").get_by_role("link", name="My submissions").click()
    expect(page.locator("#my-submissions-table")).to_contain_text("FINISHED")
    shot("my-submissions", 500)

    page.get_by_role("tab", name="Explorer").click()
    page.get_by_label("Your validation submission (optional)").click()
    page.get_by_role("option", name="Alice-VLM").first.click()
    page.get_by_label("Row of that submission (worst first)").click()
    page.get_by_role("option").nth(3).click()
    expect(page.locator("#explorer-breakdown")).to_contain_text("Row score")
    shot("explorer")

    page.get_by_role("tab", name="Submit").click()
    page.locator("#submit-file input[type=file]").set_input_files(str(example))
    expect(page.locator("#validation-report")).to_contain_text("rows", timeout=60_000)
    shot("submit", 500)

    page.get_by_role("button", name="Sign out").click()
    page.get_by_label("User name (local sign-in)").fill("boss")
    page.get_by_role("button", name="Sign in locally").click()
    page.get_by_role("link", name="Maintainers' desk").click()
    expect(page.locator("#pending-table")).to_contain_text("OpenWalk-3B")
    shot("maintainers")


def broken_example(key: AnswerKey, path: Path) -> Path:
    """A validation file with two broken rows and some missing ones, to show what the report says."""
    lines = predictions(key, 30.0, 0.9, 5).decode().splitlines()
    for index, cell in ((3, "[[0.5, 0.9], [0.5, 0.1]]"), (5, "I would walk straight ahead.")):
        sample_id, embodiment, _ = lines[index].split("\t")
        lines[index] = f"{sample_id}\t{embodiment}\t{cell}"
    path.write_text("\n".join(lines) + "\n", "utf-8")
    return path


if __name__ == "__main__":
    main()
