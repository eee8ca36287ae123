"""A store for ``bench_pages.py``: the browser tests' 8-scene datasets and eight published test entries.

    python benchmarks/pages/seed.py FOLDER      # run from the app's checkout (bench_pages.py does: cwd and PYTHONPATH)

It runs with the checkout that serves the store (``--app-dir`` of ``bench_pages.py``), so the store is written by
the same code that reads it. Prints, as JSON, the environment the app needs to serve it.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from leaderboard import Leaderboard, Settings
from scoring import load_answer_key
from scoring.examples import write_example
from synthetic import write_demo_dataset
from tests.conftest import BROWSER_SAMPLES, BROWSER_SIZE
from tests.service_fixtures import DECLARED, MAINTAINER

# (model, example kind, seed): rank 1 is Perfect, then the noisy ones by their jitter, Straight near the baseline.
ENTRIES = [("Perfect", "perfect", 0), *((f"Noisy-{s}", "noisy", s) for s in range(1, 7)), ("Straight", "straight", 0)]


def seed(folder: Path) -> dict[str, str]:
    private = write_demo_dataset(folder / "navitrace", samples=BROWSER_SAMPLES, size=BROWSER_SIZE)
    public = write_demo_dataset(folder / "navitrace-public", samples=BROWSER_SAMPLES, size=BROWSER_SIZE, public=True)
    env = {
        "LEADERBOARD_HOME": str(folder / "home"),
        "ANSWER_KEY_DATASET": str(private),
        "PUBLIC_DATASET": str(public),
        "MAINTAINERS": MAINTAINER,
        "MIN_ROWS_PER_FIGURE": "1",  # the 8-scene dataset would otherwise withhold every interval of the entry page
    }
    service = Leaderboard(Settings.from_env(env))
    key = load_answer_key(private, "test", folder / "cache")
    ids = []
    for n, (model, kind, example_seed) in enumerate(ENTRIES):
        path = folder / "files" / f"{model}.tsv"
        write_example(key, kind, path, seed=example_seed)
        metadata = {"model": model, "organization": f"Lab {n % 3}", "contact_email": "bench@example.org"}
        receipt = service.submit(
            path, split="test", user=f"bench{n}", metadata=metadata, publish=True, declarations=DECLARED
        )
        ids.append(receipt.submission_id)
    service.worker.drain()
    for submission_id in ids:
        service.approve(submission_id, by=MAINTAINER)
    return env


if __name__ == "__main__":
    print(json.dumps(seed(Path(sys.argv[1]))))
