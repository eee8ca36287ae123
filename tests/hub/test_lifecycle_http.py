"""The whole lifecycle on the Hub, over HTTP, with the settings a Space uses: nothing Python-level faked.

Private answer key, public dataset, private requests repo, public results repo. Submit, score,
approve; a stranger loads the results with ``datasets.load_dataset`` and is refused the answer
key and the requests repo; a restart on an empty disk finds everything on the Hub.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import datasets
import pytest
from huggingface_hub import HfApi
from huggingface_hub.errors import RepositoryNotFoundError

from leaderboard import cli
from leaderboard.records.entries import FINISHED, PENDING
from leaderboard.service import Leaderboard
from scoring import AnswerKeyError, load_answer_key, score_submission
from scoring.answer_key_source import resolve_split
from tests.hub.clients import point_clients_at
from tests.hub.conftest import BOSS, BOSS_TOKEN
from tests.hub.hub_faults import Http
from tests.hub.server import LocalHub
from tests.hub.service_on_hub import ANSWER_KEY, PUBLIC, REQUESTS, RESULTS, hub_environ, hub_settings, seed_datasets
from tests.service_fixtures import DECLARED, kept_summary


@pytest.fixture
def deployed(hub: LocalHub, demo_dataset: Path, demo_public: Path) -> LocalHub:
    seed_datasets(hub, demo_dataset, demo_public)
    return hub


def submit(service: Leaderboard, path: Path, split: str = "test", publish: bool = True) -> str:
    metadata = {"model": f"Model {path.stem}", "contact_email": "alice@example.org"}
    declared = DECLARED if publish and split == "test" else None  # a public test entry's declarations
    return service.submit(
        path, split=split, user="alice", metadata=metadata, publish=publish, declarations=declared
    ).submission_id


def test_submit_score_approve_publish_and_a_restart_on_an_empty_disk(
    deployed: LocalHub, tmp_path: Path, key_cache: Path, test_key, validation_key, monkeypatch, files
):
    hub = deployed
    settings = hub_settings(tmp_path / "space", tmp_path / "keys")
    service = Leaderboard(settings)
    test_id, validation_id = (
        submit(service, files["test-noisy"]),
        submit(service, files["validation-noisy"], "validation"),
    )
    pending = submit(service, files["test-noisy1"], publish=False)  # acknowledged, scored only after the restart
    assert [service.status(i).status for i in (test_id, validation_id, pending)] == [PENDING] * 3
    assert service.worker.drain(max_jobs=2) == 2
    assert hub.state.repo(REQUESTS).private and not hub.state.repo(RESULTS).private
    for submission_id in (test_id, validation_id):
        service.approve(submission_id, by=BOSS)
    local = kept_summary(score_submission(files["test-noisy"], test_key, baseline_raw=settings.baseline_raw))
    expected = dataclasses.replace(local, dataset_revision=hub.history(ANSWER_KEY)[-1].sha)  # same rows, off the Hub
    assert service.status(test_id).summary == expected

    # A stranger, on another machine, with no token: the results load; the private repos refuse.
    point_clients_at(hub, monkeypatch, tmp_path / "stranger")
    before = len(hub.calls())
    table = datasets.load_dataset(RESULTS, split="train")
    submitted = [row for row in table if row["kind"] == "submission"]
    assert sorted(row["submission_id"] for row in submitted) == sorted([test_id, validation_id])
    assert next(r for r in submitted if r["submission_id"] == test_id)["score"] == pytest.approx(expected.score)
    assert b"alice@example.org" not in b"".join(hub.files(RESULTS).values())
    with pytest.raises(datasets.exceptions.DatasetNotFoundError):
        datasets.load_dataset(ANSWER_KEY, split="test")
    with pytest.raises(RepositoryNotFoundError):
        HfApi(token=False).list_repo_files(REQUESTS, repo_type="dataset")
    with pytest.raises(RepositoryNotFoundError):
        HfApi(token=False).hf_hub_download(REQUESTS, f"uploads/{test_id}.tsv", repo_type="dataset")
    stranger = hub.calls()[before:]
    assert not any(c.token_sent for c in stranger) and {c.status for c in stranger if c.repo == RESULTS} <= {
        200,
        302,
        404,
    }
    assert {c.status for c in stranger if c.repo in (ANSWER_KEY, REQUESTS)} == {401}  # as the Hub: no such repo
    assert all(c.user == BOSS for c in hub.calls()[:before] if c.token_sent)

    # A restart on an empty disk (a new Space, new caches): the state comes back from the Hub.
    point_clients_at(hub, monkeypatch, tmp_path / "new-machine-client")
    again = Leaderboard(hub_settings(tmp_path / "new-machine", tmp_path / "new-keys"))
    assert again.status(test_id).summary == expected and again.status(pending).status == PENDING
    assert again.published_table() == service.published_table()
    assert again.worker.drain() == 1 and again.status(pending).status == FINISHED
    assert again.status(pending).attempts == 1 and not again.status(pending).public


def test_a_500_on_the_dataset_info_request_does_not_refuse_a_submission(
    deployed: LocalHub, tmp_path: Path, files, capsys, monkeypatch
):
    # Before the fix `python -m leaderboard submit` failed with "cannot open dataset 'org/public': Server error '500'".
    hub = deployed
    monkeypatch.setattr("leaderboard.storage.answer_keys.time.sleep", lambda s: None)
    hub.faults.add("repo_info", Http(500), repo=PUBLIC)
    args = ["submit", str(files["test-noisy"]), "--split", "test", "--model", "M", "--user", "alice"]
    assert cli.main(args, hub_environ(tmp_path / "space")) == 0
    submission_id = capsys.readouterr().out.strip().splitlines()[-1]
    assert [c.status for c in hub.calls("repo_info", repo=PUBLIC)][:2] == [500, 200]
    assert f"requests/{submission_id}.json" in hub.files(REQUESTS)


def test_a_wrong_token_with_a_warm_cache_is_not_authorised_and_never_scores_stale_rows(
    deployed: LocalHub, tmp_path: Path
):
    load_answer_key(ANSWER_KEY, "test", tmp_path / "keys", token=BOSS_TOKEN)
    datasets.load_dataset(ANSWER_KEY, split="test", token=BOSS_TOKEN)  # a warm datasets cache, as after any load
    for token in ("hf_wrong_token", None):
        with pytest.raises(AnswerKeyError) as refused:
            load_answer_key(ANSWER_KEY, "test", tmp_path / "keys", token=token)
        assert "not authorised" in str(refused.value) and "has no split" not in str(refused.value)
        assert "old local copy is cached, and it is never scored against" in str(refused.value)
        with pytest.raises(AnswerKeyError, match="not authorised"):
            resolve_split(ANSWER_KEY, "test", token)  # what the build reads: no stale rows either


def test_a_full_hub_download_cache_is_a_clear_storage_error(deployed: LocalHub, tmp_path: Path, monkeypatch):
    from leaderboard.storage import StorageError
    from leaderboard.storage.hub import HubStorage
    from space.workspace.errors import describe
    from tests.hardening.faults.faults_disk import FullDisk

    cache = tmp_path / "space" / "requests"
    HubStorage(REQUESTS, token=BOSS_TOKEN, cache_dir=cache).commit({"requests/a.json": json.dumps({"a": 1}).encode()})
    store = HubStorage(REQUESTS, token=BOSS_TOKEN, cache_dir=cache)  # after a restart: the file comes from the Hub
    FullDisk(cache, free=0).install(monkeypatch)
    with pytest.raises(StorageError, match="the Hub download cache .* is full") as full:
        store.read("requests/a.json")
    assert describe(full.value).startswith("The server's disk is full")
