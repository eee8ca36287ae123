"""Seeding the running app through its own API, and the secrets an attacker would be after.

Helpers only (the fixtures are in this folder's ``conftest.py``).
"""

from __future__ import annotations

import csv
import io
import json
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

from leaderboard import Leaderboard, Settings
from scoring import load_answer_key
from scoring.examples import write_example
from tests.browser.conftest import MAINTAINER, RunningApp
from tests.hardening.web import web_api

VICTIM, ATTACKER = "eve", "mallory"
VICTIM_EMAIL = "hidden-person@example.org"
QUOTA = 3  # TEST_SUBMISSIONS_PER_DAY of the web tests' app
CHANGES_NOTHING = ("reviews", "reported", "control", "flags")  # folders only maintainer actions write


def service_of(app: RunningApp) -> Leaderboard:
    """A second process' view of the app's stores (as the CLI has), for seeding and checking."""
    env = {
        "LEADERBOARD_HOME": str(app.home),
        "ANSWER_KEY_DATASET": str(app.private),
        "PUBLIC_DATASET": str(app.public),
        "MAINTAINERS": MAINTAINER,
        "TEST_SUBMISSIONS_PER_DAY": str(QUOTA),
    }
    return Leaderboard(Settings.from_env(env))


class Files:
    """Valid submission files; each seed gives a different file (other predictions, other bytes)."""

    def __init__(self, app: RunningApp, folder: Path) -> None:
        self.app, self.folder = app, folder
        self.cache = folder / "cache"

    def make(self, split: str, seed: int = 0, kind: str = "noisy") -> Path:
        path = self.folder / f"{split}-{kind}-{seed}.tsv"
        if not path.exists():
            dataset = self.app.private if split == "test" else self.app.public  # noisy test traces need the key
            write_example(load_answer_key(dataset, split, self.cache), kind, path, seed=seed)
        return path


def submit(app: RunningApp, cookie: str | None, path: Path, split: str, **meta: object) -> web_api.Answer:
    """The Submit tab's endpoint, the file uploaded first as the page does it."""
    fields: dict[str, object] = {
        "model": "A model",
        "organization": "",
        "model_link": "",
        "paper_link": "",
        "contact_email": "",
        "description": "",
        "open_weights": "",
        "parameters_b": "",
        "publish": False,
        # The declarations: read only for a public test submission, which needs them.
        "trained_on": "none",
        "test_images_beyond_inference": "no",
        "code_link": "",
        "best_of": 1,
        "share_on_hub": False,
    }
    unknown = set(meta) - set(fields)
    assert not unknown, unknown
    fields.update(meta)
    file = web_api.upload(app.url, path, cookie)
    return web_api.call(app.url, "submit", [file, split, *fields.values()], cookie)


def receipt_id(answer: web_api.Answer) -> str:
    found = re.search(r"class='nt-id'>([0-9a-f]{16})<", answer.text)
    assert found, answer.text[:800]
    return found.group(1)


def wait_scored(service: Leaderboard, submission_id: str, timeout_s: float = 90) -> None:
    deadline = time.monotonic() + timeout_s
    while (status := service.status(submission_id).status) != "FINISHED":
        assert status != "FAILED" and time.monotonic() < deadline, f"{submission_id} is {status}"
        time.sleep(0.2)


@dataclass
class Seeded:
    test_id: str
    validation_id: str
    reported_id: str  # "reported-…", as the maintainers' dropdown names it
    secrets: dict[str, list[str]] = field(default_factory=dict)  # what must never leave, by kind


def seed(app: RunningApp, files: Files) -> Seeded:
    """eve's scored and approved test submission with a contact e-mail, her validation one, a reported row."""
    service = service_of(app)
    eve = web_api.sign_in(app.url, VICTIM)
    meta = {"model": "Eve-Secret-VLM", "contact_email": VICTIM_EMAIL, "publish": True}
    test_file = files.make("test", seed=7)
    test_id = receipt_id(submit(app, eve, test_file, "test", **meta))
    validation_id = receipt_id(submit(app, eve, files.make("validation", seed=7), "validation", **meta))
    reported = service.add_reported(MAINTAINER, model="Paper figure", score=12.5, source="https://arxiv.org/abs/1")
    for sid in (test_id, validation_id):
        wait_scored(service, sid)
    service.approve(test_id, by=MAINTAINER)
    seeded = Seeded(test_id, validation_id, f"reported-{reported.row_id}")
    seeded.secrets = secrets_of(app, seeded, test_file)
    return seeded


def secrets_of(app: RunningApp, seeded: Seeded, upload: Path) -> dict[str, list[str]]:
    """Strings that must never reach anyone but a maintainer, by kind."""
    rows_text = (app.home / "requests" / "private" / seeded.test_id / "rows.tsv").read_text("utf-8")
    numbers = []
    for row in csv.DictReader(io.StringIO(rows_text), delimiter="\t"):
        for column in ("score", "dtw", "fde", "raw"):
            if row[column] and float(row[column]) not in (0.0, 100.0):
                numbers += [row[column], f"{float(row[column]):.4f}"]  # as stored, and rounded as a page might
    key = load_answer_key(app.private, "test", app.home.parent / "secret-cache")
    coordinates = []
    for sample in key.samples:
        for traces in (sample.ground_truth or {}).values():
            x, y = traces[0][0]  # each expert trace's start point, written the ways JSON or HTML would
            coordinates += [f"{x}, {y}", f"{x},{y}"]
    predictions = [r["prediction"] for r in csv.DictReader(io.StringIO(upload.read_text("utf-8")), delimiter="\t")]
    home = app.home.resolve()
    return {
        "contact e-mail": [VICTIM_EMAIL, VICTIM_EMAIL.split("@")[0]],
        "per-row test score": numbers,
        "rows.tsv": ["\t".join(rows_text.splitlines()[1].split("\t")[:4])],
        "test ground truth": coordinates,
        "private path": [str(home), str(home / "cache"), str(app.private.resolve()), "answer-keys/"],
        "eve's upload": predictions[:5],
    }


def leaks(text: str, secrets: dict[str, list[str]], skip: tuple[str, ...] = ()) -> list[str]:
    """``kind: string`` for every secret found in ``text``."""
    return [f"{kind}: {s!r}" for kind, found in secrets.items() if kind not in skip for s in found if s and s in text]


def moderation_state(app: RunningApp) -> dict[str, object]:
    """What a maintainer action changes: reviews, reported rows, the rescore generation, the audit log, the board.

    Audit entries of submissions and of the worker are left out: other tests' submissions may be
    scored while this one runs.
    """
    requests = app.home / "requests"
    state: dict[str, object] = {}
    for folder in CHANGES_NOTHING:
        for path in sorted((requests / folder).rglob("*.json")):
            state[str(path.relative_to(requests))] = path.read_bytes()
    audit = [json.loads(p.read_text()) for p in sorted((requests / "audit").rglob("*.json"))]
    state["audit"] = [e for e in audit if e["who"] != "worker" and e["action"] != "submit"]
    state["board"] = (app.home / "results" / "data" / "leaderboard.jsonl").read_bytes()
    return state
