"""A full disk (ENOSPC, injected by ``faults_disk.FullDisk``) during intake, result writing and an
answer-key cache build: a clear error, nothing half-written visible, and a consistent state once
space returns: a submission is acknowledged whole or not at all, a job whose result could not be
written is scored again (without using up its attempts), a cache is built whole or not at all.
"""

from __future__ import annotations

import dataclasses
import logging
from pathlib import Path

import pytest
from faults_app import journal_leftovers, service_settings
from faults_disk import BLOCK, FullDisk
from faults_invariants import Audited, Upload, check_every_submission_finished_once

from leaderboard.config import Settings
from leaderboard.records.entries import FINISHED, PENDING, summary_path
from leaderboard.service import Leaderboard
from leaderboard.storage import LocalStorage, StorageError
from scoring import load_answer_key, score_submission
from scoring.examples import write_example
from space.workspace.errors import describe
from tests.browser.conftest import MAINTAINER
from tests.service_fixtures import DECLARED


@pytest.fixture
def settings(tmp_path: Path, demo_dataset: Path, demo_public: Path, key_cache: Path) -> Settings:
    return service_settings(tmp_path / "home", demo_dataset, demo_public, key_cache)


@pytest.fixture
def upload(tmp_path: Path, test_key) -> Upload:
    path = tmp_path / "test.tsv"
    write_example(test_key, "noisy", path, seed=3)
    return Upload(path, "test", "alice", "Model", publish=True, approve=True)


def submit(service: Leaderboard, upload: Upload) -> str:
    metadata = {"model": upload.model, "contact_email": "alice@example.org"}
    return service.submit(
        upload.path, split=upload.split, user=upload.user, metadata=metadata, publish=True, declarations=DECLARED
    ).submission_id


def nothing_visible(service: Leaderboard, home: Path) -> None:
    assert service.requests.list() == [] and service.registry.ids() == []
    assert journal_leftovers(home / "requests") == {"committed": 0, "staging": 0, "retired": 0}


@pytest.mark.parametrize("free", [0, 3000, BLOCK + 3000], ids=["full", "room-for-one-file", "room-for-some-files"])
def test_intake_on_a_full_disk_acknowledges_nothing_and_says_why(settings, upload, monkeypatch, free):
    service = Leaderboard(settings)
    settings.locks_folder.mkdir(parents=True)  # as on a deployment that has run before the disk filled up
    disk = FullDisk(settings.home, free).install(monkeypatch)
    with pytest.raises(StorageError, match="No space left on device") as refused:
        submit(service, upload)
    assert disk.refused
    shown = describe(refused.value)  # what the Submit page says
    assert shown.startswith("The server's disk is full, so nothing was changed") and str(settings.home) not in shown
    nothing_visible(service, settings.home)
    assert service.quota_left(upload.user) == settings.test_submissions_per_day

    disk.free = None  # space is back: the same submit goes through, once
    upload.acknowledged = submit(service, upload)
    assert service.registry.ids() == [upload.acknowledged]
    assert Audited.read(service)("submit", upload.acknowledged) == 1


def test_a_result_the_disk_cannot_hold_is_scored_again_once_space_returns(settings, upload, monkeypatch, caplog,
                                                                          test_key):  # fmt: skip
    service = Leaderboard(settings)
    earlier = Upload(upload.path.with_name("earlier.tsv"), "test", "bob", "Earlier", publish=True, approve=False)
    write_example(test_key, "noisy", earlier.path, seed=4)
    earlier.acknowledged = submit(service, earlier)
    service.worker.drain()  # a deployment that has scored before: its folders exist
    upload.acknowledged = submit(service, upload)
    service.approve(upload.acknowledged, by=MAINTAINER)
    disk = FullDisk(settings.home).install(monkeypatch)
    for _ in range(settings.max_attempts + 1):  # more rounds than a job has attempts
        disk.free = BLOCK + 1500  # nearly full: a claim fits, the summary and the rows do not
        with pytest.raises(StorageError, match="No space left on device"):
            service.worker.drain()
        job = service.registry.job(upload.acknowledged)
        assert job.status == PENDING and job.attempts == 0, job
        assert service.requests.read(summary_path(upload.acknowledged)) is None
        assert journal_leftovers(settings.home / "requests")["committed"] == 0
    assert "could not store the result" in service.status(upload.acknowledged).message
    assert "back in the queue" in caplog.text

    disk.free = None
    assert service.worker.drain() == 1
    starts = check_every_submission_finished_once(service, [earlier, upload], {"test": test_key}, settings.baseline_raw)
    assert starts == {1: 2}


def test_a_commit_whose_apply_hits_a_full_disk_is_durable_and_applied_later(tmp_path, monkeypatch, caplog):
    store = LocalStorage(tmp_path / "store")
    disk = FullDisk(tmp_path / "store", free=None).install(monkeypatch)
    real_apply = LocalStorage._apply

    def apply_on_a_full_disk(self, entry):
        disk.free = 0  # the disk fills up right after the commit point: the new folder cannot be made
        real_apply(self, entry)

    monkeypatch.setattr(LocalStorage, "_apply", apply_on_a_full_disk)
    with caplog.at_level(logging.ERROR):
        store.commit({"private/x/summary.json": b"{}"}, message="finished x")  # durable: acknowledged
    assert "durable but not yet applied" in caplog.text
    monkeypatch.setattr(LocalStorage, "_apply", real_apply)
    with pytest.raises(StorageError, match="No space left on device"):
        store.read("private/x/summary.json")  # nobody sees a state without it
    disk.free = None
    assert LocalStorage(tmp_path / "store").read("private/x/summary.json") == b"{}"
    assert journal_leftovers(tmp_path / "store")["committed"] == 0


@pytest.mark.parametrize("free", [0, 20_000], ids=["full", "fills-during-the-build"])
def test_an_answer_key_cache_build_on_a_full_disk_leaves_no_cache_and_rebuilds(tmp_path, monkeypatch, demo_dataset,
                                                                               free, test_key, upload):  # fmt: skip
    cache = tmp_path / "cache"
    disk = FullDisk(cache, free).install(monkeypatch)
    with pytest.raises(OSError, match="cannot build the answer-key cache .*No space left on device"):
        load_answer_key(demo_dataset, "test", cache)
    assert disk.refused
    keys = cache / "answer-keys"
    assert not keys.exists() or not any(keys.iterdir())  # neither a half-built cache nor its staging folder
    disk.free = None
    key = load_answer_key(demo_dataset, "test", cache)
    assert score_submission(upload.path, key).summary == score_submission(upload.path, test_key).summary


def test_the_worker_leaves_a_job_queued_while_its_answer_key_cannot_be_built(settings, upload, monkeypatch, tmp_path,
                                                                              test_key):  # fmt: skip
    settings = dataclasses.replace(settings, answer_key_cache=tmp_path / "fresh-cache")
    service = Leaderboard(settings)
    upload.acknowledged = submit(service, upload)  # validation built the public key; the private one is missing
    service.approve(upload.acknowledged, by=MAINTAINER)
    disk = FullDisk(settings.answer_key_cache, free=0).install(monkeypatch)
    with pytest.raises(StorageError, match="No space left on device"):
        service.worker.drain()
    job = service.registry.job(upload.acknowledged)
    assert job.status == PENDING and job.attempts == 0  # not failed, not even claimed
    disk.free = None
    assert service.worker.drain() == 1
    assert service.status(upload.acknowledged).status == FINISHED
    check_every_submission_finished_once(service, [upload], {"test": test_key}, settings.baseline_raw)


def test_a_commit_point_that_cannot_be_made_durable_is_reported_as_possibly_stored(tmp_path, monkeypatch):
    """fsync of the journal failing after the rename: a reader will apply the entry, so "nothing was
    stored" would be a lie; the error says the outcome is unknown (a retry of the same write is safe)."""
    import leaderboard.storage.local as local

    store = LocalStorage(tmp_path / "store")
    real_fsync_dir = local.fsync_dir

    def fsync_dir(folder: Path) -> None:
        if folder.name == "journal":
            raise OSError(28, "No space left on device")
        real_fsync_dir(folder)

    monkeypatch.setattr(local, "fsync_dir", fsync_dir)
    with pytest.raises(StorageError, match="may still appear") as refused:
        store.commit({"requests/x.json": b"x"}, message="submission x")
    assert refused.value.outcome_unknown
    monkeypatch.setattr(local, "fsync_dir", real_fsync_dir)
    assert store.read("requests/x.json") == b"x"
