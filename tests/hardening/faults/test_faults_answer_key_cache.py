"""A damaged answer-key cache (truncated, garbled in place, files missing) is noticed on the next
load, logged, rebuilt, and scores exactly as a fresh one. Garbling in place keeps every size, so
only the checksums can tell."""

from __future__ import annotations

import dataclasses
import json
import logging
from collections.abc import Callable
from pathlib import Path

import pytest
from faults_invariants import Upload, check_every_submission_finished_once

from leaderboard.config import Settings
from leaderboard.service import Leaderboard
from scoring import load_answer_key, score_submission
from scoring.examples import write_example
from tests.service_fixtures import DECLARED


def truncate(file: Path) -> None:
    file.write_bytes(file.read_bytes()[: file.stat().st_size // 2])


def garble(file: Path, length: int = 16) -> None:
    """Flip ``length`` bytes from the middle on, keeping the size."""
    data = bytearray(file.read_bytes())
    middle = len(data) // 2
    data[middle : middle + length] = bytes(b ^ 0xFF for b in data[middle : middle + length])
    file.write_bytes(bytes(data))


def move_a_trace(file: Path) -> None:
    """Valid JSON of the right shape, one ground-truth point moved: only a checksum can tell."""
    index = json.loads(file.read_text())
    sample = next(s for s in index["samples"] if s["ground_truth"])
    traces = next(iter(sample["ground_truth"].values()))
    traces[0][0][0] += 7
    file.write_text(json.dumps(index))


DAMAGES: dict[str, tuple[str, Callable[[Path], None]]] = {
    "index.json truncated": ("index.json", truncate),
    "index.json garbled": ("index.json", garble),
    "index.json with a moved trace point": ("index.json", move_a_trace),
    "masks.bin truncated": ("masks.bin", truncate),
    "masks.bin garbled": ("masks.bin", garble),
    "rasters.bin garbled": ("rasters.bin", garble),
    "images.bin truncated": ("images.bin", truncate),
    "masks.bin missing": ("masks.bin", Path.unlink),
    "checksums.json missing": ("checksums.json", Path.unlink),
    "checksums.json garbled": ("checksums.json", garble),
}


@pytest.fixture(scope="module")
def prediction(tmp_path_factory: pytest.TempPathFactory, test_key) -> Path:
    path = tmp_path_factory.mktemp("prediction") / "test.tsv"
    write_example(test_key, "straight", path)  # far from the expert traces: the masks count (penalty)
    return path


@pytest.mark.parametrize("damage", sorted(DAMAGES))
def test_a_damaged_cache_is_rebuilt_and_scores_identically(damage, tmp_path, demo_dataset, prediction, caplog):
    key = load_answer_key(demo_dataset, "test", tmp_path / "cache")
    expected = score_submission(prediction, key)
    name, harm = DAMAGES[damage]
    harm(key.folder / name)
    with caplog.at_level(logging.WARNING):
        rebuilt = load_answer_key(demo_dataset, "test", tmp_path / "cache")
    assert f"answer-key cache {key.folder} is damaged" in caplog.text and "rebuilding it" in caplog.text
    again = score_submission(prediction, rebuilt)
    assert again.summary == expected.summary
    assert [r.as_record() for r in again.rows] == [r.as_record() for r in expected.rows]
    assert load_answer_key(demo_dataset, "test", tmp_path / "cache").folder == key.folder  # whole again: reused
    assert sorted(p.name for p in key.folder.parent.iterdir()) == [key.folder.name]  # no staging left behind


def test_the_worker_scores_identically_after_its_cache_was_damaged(tmp_path, demo_dataset, demo_public, prediction,
                                                                   test_key):  # fmt: skip
    environ = {"LEADERBOARD_HOME": str(tmp_path / "home"), "ANSWER_KEY_DATASET": str(demo_dataset),
               "PUBLIC_DATASET": str(demo_public), "MAINTAINERS": "boss"}  # fmt: skip
    settings = dataclasses.replace(Settings.from_env(environ), answer_key_cache=tmp_path / "cache")
    first = Leaderboard(settings)
    upload = Upload(prediction, "test", "alice", "Model", publish=True, approve=True)
    metadata = {"model": "Model", "contact_email": "alice@example.org"}
    upload.acknowledged = first.submit(
        prediction, split="test", user="alice", metadata=metadata, publish=True, declarations=DECLARED
    ).submission_id
    first.approve(upload.acknowledged, by="boss")
    private = load_answer_key(demo_dataset, "test", settings.cache_folder)
    garble(private.folder / "masks.bin", 1 << 20)  # between two runs of the app: a bad disk, say

    restarted = Leaderboard(settings)
    assert restarted.worker.drain() == 1
    check_every_submission_finished_once(restarted, [upload], {"test": test_key}, settings.baseline_raw)
