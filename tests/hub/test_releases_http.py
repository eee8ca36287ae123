"""Releases on the Hub, over HTTP: opening v2 tags the results dataset ``v1``, and a stranger's
``datasets.load_dataset(repo, revision="v1")`` reads the old board byte for byte after every entry was rescored.

The real ``huggingface_hub`` and ``datasets`` clients against the local Hub (``emulator_refs.py`` serves the
tags: ``create_tag``, ``delete_tag``, ``list_repo_refs``, and a tag wherever a revision is read).
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import datasets
import pytest
from huggingface_hub import HfApi
from huggingface_hub.errors import HfHubHTTPError

from leaderboard.publishing.table import TABLE_PATH
from leaderboard.review.edition_open import frozen_path
from leaderboard.service import Leaderboard
from tests.hub.clients import point_clients_at
from tests.hub.conftest import BOSS, BOSS_TOKEN, MALLORY_TOKEN
from tests.hub.server import LocalHub
from tests.hub.service_on_hub import RESULTS, hub_settings, seed_datasets
from tests.service_fixtures import DECLARED


def _submit(service: Leaderboard, path: Path, model: str) -> str:
    metadata = {"model": model, "contact_email": "alice@example.org"}
    receipt = service.submit(path, split="test", user="alice", metadata=metadata, publish=True, declarations=DECLARED)
    return receipt.submission_id


def _rows(table: datasets.Dataset) -> list[dict]:
    return sorted((dict(r) for r in table), key=lambda r: str(r["submission_id"]))


def test_the_old_release_loads_by_its_tag_after_the_rescore(
    hub: LocalHub, demo_dataset: Path, demo_public: Path, tmp_path: Path, files, monkeypatch
):
    seed_datasets(hub, demo_dataset, demo_public)
    settings = hub_settings(tmp_path / "space", tmp_path / "keys")
    service = Leaderboard(settings)
    ids = [_submit(service, files["test-noisy"], "Noisy"), _submit(service, files["test-perfect"], "Perfect")]
    service.worker.drain()
    for submission_id in ids:
        service.approve(submission_id, by=BOSS)
    v1_table = service.results.read(TABLE_PATH)

    recalibrated = Leaderboard(dataclasses.replace(settings, baseline_raw=2000.0))
    opened = recalibrated.open_release("B recomputed on the full test split", by=BOSS)
    assert opened.edition.name == "v2" and recalibrated.worker.drain() == 2
    refs = HfApi(token=BOSS_TOKEN).list_repo_refs(RESULTS, repo_type="dataset")
    assert [t.name for t in refs.tags] == ["v1"]
    assert hub.calls("create_tag") and {c.status for c in hub.calls("create_tag")} == {200}
    assert hub.files(RESULTS, "v1")[TABLE_PATH] == v1_table == hub.files(RESULTS)[frozen_path("v1")]

    # A stranger, on another machine, with no token: the tag reads the old board, main the new one.
    point_clients_at(hub, monkeypatch, tmp_path / "stranger")
    old = _rows(datasets.load_dataset(RESULTS, revision="v1", split="train"))
    new = _rows(datasets.load_dataset(RESULTS, split="train"))
    frozen = sorted((json.loads(line) for line in v1_table.decode().splitlines()), key=lambda r: r["submission_id"])
    assert [(r["submission_id"], r["score"], r["release"]) for r in old] == [
        (r["submission_id"], r["score"], r["release"]) for r in frozen
    ]
    assert {r["release"] for r in old} == {"v1"} and {r["release"] for r in new} == {"v2"}
    noisy_old, noisy_new = (next(r for r in rows if r["submission_id"] == ids[0]) for rows in (old, new))
    assert noisy_new["score"] < noisy_old["score"]
    stranger = [c for c in hub.calls() if c.repo == RESULTS and not c.token_sent]
    results = hub.state.repo(RESULTS)
    assert results is not None
    tagged = results.tags["v1"]  # the commit that froze v1, not main's head
    assert tagged != hub.history(RESULTS)[-1].sha
    read = [c.path for c in stranger if c.kind == "resolve" and c.path.endswith(TABLE_PATH) and c.status == 200]
    assert f"/datasets/{RESULTS}/resolve/v1/README.md" in [c.path for c in stranger]  # the tag, resolved by the Hub
    assert any(f"/resolve/{tagged}/" in path for path in read)
    assert not any(c.status and c.status >= 400 and c.status != 404 for c in stranger)


def test_only_writers_tag_and_a_tag_is_refused_twice(hub: LocalHub):
    hub.state.seed_files("org/tagged", {"a.txt": b"one"})
    writer, outsider = HfApi(token=BOSS_TOKEN), HfApi(token=MALLORY_TOKEN)
    with pytest.raises(HfHubHTTPError) as refused:
        outsider.create_tag("org/tagged", tag="v1", repo_type="dataset")
    assert refused.value.response.status_code == 403
    writer.create_tag("org/tagged", tag="v1", repo_type="dataset", tag_message="first")
    with pytest.raises(HfHubHTTPError) as twice:
        writer.create_tag("org/tagged", tag="v1", repo_type="dataset")
    assert twice.value.response.status_code == 409
    writer.create_tag("org/tagged", tag="v1", repo_type="dataset", exist_ok=True)  # 409 swallowed by the client
    hub.state.seed_files("org/tagged", {"a.txt": b"two"})
    path = writer.hf_hub_download("org/tagged", "a.txt", repo_type="dataset", revision="v1")
    assert Path(path).read_bytes() == b"one"
    assert writer.dataset_info("org/tagged", revision="refs/tags/v1").sha == hub.history("org/tagged")[-2].sha
    writer.delete_tag("org/tagged", tag="v1", repo_type="dataset")
    assert writer.list_repo_refs("org/tagged", repo_type="dataset").tags == []
