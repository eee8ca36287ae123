"""A realistic desk for the browser tests: a seeded app with pending, contested, flagged and private entries.

Seeded through the service before the app starts (scored by ``worker.drain``), then served with a
one-hour scoring interval so nothing moves under the tests:

- ``original``: olga's private test submission; ``copy``: carl's 1-px copy of it, asking to be published;
- ``declared``: dana's public test entry with its declarations (trained on validation, best of 3, a code link);
- ``rejected``: erin's public test entry, rejected; ``approved``: frank's, approved and flagged (evidence link);
- ``private``: vera's validation file, kept private.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from playwright.sync_api import FloatRect, Locator, Page, expect

from scoring import load_answer_key
from scoring.examples import write_example
from tests.browser.conftest import MAINTAINER, RunningApp, start_app

LAPTOP = {"width": 1440, "height": 900}
PHONE = {"width": 390, "height": 844}
EVIDENCE = "https://huggingface.co/spaces/x/navitrace/discussions/9"
CODE = "https://github.com/dana/walker"
DECLARED = {"trained_on": "none", "test_images_beyond_inference": False, "best_of": 1}


@dataclass(frozen=True)
class Desk:
    app: RunningApp
    original: str
    copy: str
    declared: str
    rejected: str
    approved: str
    private: str


def seed_desk(folder: Path, private: Path, public: Path) -> Desk:
    """The seeded store (see the module's docstring), then the app on it."""
    from leaderboard import Leaderboard, Settings

    environ = {
        "LEADERBOARD_HOME": str(folder / "home"),
        "ANSWER_KEY_DATASET": str(private),
        "PUBLIC_DATASET": str(public),
        "MAINTAINERS": MAINTAINER,
    }
    service = Leaderboard(Settings.from_env(environ))
    key = load_answer_key(private, "test", folder / "cache")

    def example(name: str, seed: int) -> Path:
        path = folder / f"{name}.tsv"
        write_example(key, "noisy", path, seed=seed)
        return path

    def submit(path: Path, user: str, model: str, split: str = "test", **extra: object) -> str:
        meta = {"model": model, "contact_email": f"{user}@example.org", **extra.pop("metadata", {})}  # type: ignore[dict-item]
        if extra.get("publish") and split == "test":
            extra.setdefault("declarations", DECLARED)
        view = service.submit(path, split=split, user=user, metadata=meta, **extra)  # type: ignore[arg-type]
        service.worker.drain()
        return view.submission_id

    original_file = example("original", 41)
    original = submit(original_file, "olga", "Olga-Nav")
    copy = submit(jittered(original_file, folder / "copy.tsv"), "carl", "Carl-Nav", publish=True)
    assert (service.status(copy).likely_copy or {}).get("of") == original
    declarations = {
        "trained_on": "validation",
        "test_images_beyond_inference": True,
        "best_of": 3,
        "code_link": CODE,
    }
    description = "A long description of a walking model " * 6
    declared = submit(
        example("dana", 7), "dana", "Dana-Walker", publish=True, declarations=declarations,
        metadata={"description": description.strip()},
    )  # fmt: skip
    rejected = submit(example("erin", 9), "erin", "Erin-Nav", publish=True)
    service.reject(rejected, MAINTAINER, "the file answers rows it was not asked")
    approved = submit(example("frank", 11), "frank", "Frank-Nav", publish=True)
    service.approve(approved, MAINTAINER)
    service.flag(approved, MAINTAINER, "unverified", "no code to check it", EVIDENCE)
    validation = load_answer_key(private, "validation", folder / "cache")
    vera = folder / "vera.tsv"
    write_example(validation, "noisy", vera, seed=13)
    private_id = submit(vera, "vera", "Vera-Val", split="validation")
    app = start_app(folder, private, public, SCORE_INTERVAL_S="3600")
    return Desk(app, original, copy, declared, rejected, approved, private_id)


def jittered(source: Path, out: Path) -> Path:
    """``source`` with every point moved by one pixel: a copy the worker marks."""
    rng = np.random.default_rng(5)
    frame = pd.read_csv(source, sep="\t", dtype=str, keep_default_na=False)
    frame["prediction"] = [
        json.dumps([[x + int(rng.choice((-1, 1))), y + int(rng.choice((-1, 1)))] for x, y in json.loads(cell)])
        for cell in frame["prediction"]
    ]
    frame.to_csv(out, sep="\t", index=False)
    return out


def in_viewport(page: Page, locator: Locator) -> FloatRect:
    """The element's box, asserted to be entirely inside the viewport."""
    box = locator.bounding_box()
    size = page.viewport_size
    assert box is not None and size is not None, "not drawn"
    assert 0 <= box["y"] and box["y"] + box["height"] <= size["height"] + 1, f"{box} outside {size}"
    assert 0 <= box["x"] and box["x"] + box["width"] <= size["width"] + 1, f"{box} outside {size}"
    return box


def answered(page: Page, elem_id: str) -> Locator:
    """The answer under ``elem_id`` once the page has moved the focus to it (its signal that it is drawn)."""
    note = page.locator(f"#{elem_id} [tabindex='-1']")
    expect(note).to_be_focused()
    return page.locator(f"#{elem_id}")


def near(a: FloatRect, b: FloatRect, within: float = 250) -> bool:
    """Whether two boxes are within ``within`` px of each other vertically (an answer beside its button)."""
    gap = max(a["y"] - (b["y"] + b["height"]), b["y"] - (a["y"] + a["height"]), 0)
    return gap <= within


def pick(page: Page, submission_id: str) -> None:
    """Pick an entry on the desk and wait until its detail shows."""
    box = page.get_by_label("Submission to act on")
    box.click()
    page.get_by_role("option", name=submission_id).first.click()
    expect(page.locator("#maint-detail")).to_contain_text(submission_id)


def open_section(page: Page, title: str, inside: Locator) -> None:
    """Open one of the desk's accordions by its title and wait until ``inside`` (something in it) shows."""
    if not inside.is_visible():
        page.get_by_role("button", name=title).click()
    expect(inside).to_be_visible()
