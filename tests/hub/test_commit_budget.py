"""The commit budget against the local Hub that enforces the quota, over HTTP.

The Hub allows 128 commits per repository per hour, then answers 429. Before: 5 commits per
submission (submission, claim, finished, approval; one results update), scoring stopped with the
raw 429 text, a late submitter waited up to a minute for it, and parallel approvals ended in a
filelock traceback. The hour is scaled down here (``CommitQuota(commits, window_s)``).

    .venv/bin/python -m pytest tests/hub/test_commit_budget.py -s      # the figures printed
"""

from __future__ import annotations

import json
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

import pytest

from leaderboard.jobs.claim_batches import claim_batch, commit_claims
from leaderboard.jobs.claims import read_job
from leaderboard.jobs.queue import Holder
from leaderboard.records.entries import FINISHED, PENDING, job_path
from leaderboard.records.errors import QuotaExceeded
from leaderboard.service import Leaderboard
from leaderboard.storage import CommitLimitReached, open_store
from leaderboard.storage.base import clock_time
from leaderboard.storage.commit_log import CommitQuota
from leaderboard.storage.commit_quota import Level
from leaderboard.storage.locks import Busy, process_lock
from scoring import load_answer_key
from scoring.examples import write_example
from space.workspace.errors import describe
from tests.hub.conftest import BOSS, BOSS_TOKEN
from tests.hub.hub_faults import Race
from tests.hub.quota_service import commits_in, quota_service, quota_store
from tests.hub.server import LocalHub
from tests.hub.service_checks import Upload, check_scored_once
from tests.hub.service_on_hub import ANSWER_KEY, REQUESTS, RESULTS, seed_datasets
from tests.service_fixtures import DECLARED

HOUR = CommitQuota(commits=128, window_s=3600)  # the Hub's own figures


@pytest.fixture
def deployed(hub: LocalHub, demo_dataset: Path, demo_public: Path) -> LocalHub:
    seed_datasets(hub, demo_dataset, demo_public)
    return hub


@pytest.fixture
def keys(deployed: LocalHub, tmp_path_factory) -> dict:
    cache = tmp_path_factory.mktemp("hub-keys")
    return {split: load_answer_key(ANSWER_KEY, split, cache, token=BOSS_TOKEN) for split in ("test", "validation")}


def uploads(folder: Path, keys: dict, count: int) -> list[Upload]:
    """``count`` files from as many users (a deadline: everyone submits once)."""
    folder.mkdir(parents=True, exist_ok=True)
    made = []
    for n in range(count):
        split = "test" if n % 3 else "validation"
        path = folder / f"{split}-{n}.tsv"
        write_example(keys[split], "noisy", path, seed=4100 + n)
        made.append(Upload(path, split, f"author{n}", f"model-{n}", publish=True))
    return made


def submit(service: Leaderboard, upload: Upload) -> str:
    metadata = {"model": upload.model, "contact_email": f"{upload.user}@example.org"}
    receipt = service.submit(
        upload.path, split=upload.split, user=upload.user, metadata=metadata, publish=True, declarations=DECLARED
    )
    upload.acknowledged = receipt.submission_id
    return receipt.submission_id


def test_batching_cuts_the_commits_per_submission_from_5(deployed: LocalHub, keys, tmp_path: Path):
    hub = deployed
    service = quota_service(hub, tmp_path / "space", tmp_path / "keys", HOUR)
    service.publish()
    made = uploads(tmp_path / "files", keys, 8)
    before = {repo: len(hub.history(repo)) for repo in (REQUESTS, RESULTS)}
    for upload in made:
        submit(service, upload)
    assert service.worker.drain() == 8
    scoring = commits_in(hub, REQUESTS, before[REQUESTS] + 8)
    for upload in made:
        service.approve(str(upload.acknowledged), by=BOSS)
    spent = {repo: len(hub.history(repo)) - before[repo] for repo in (REQUESTS, RESULTS)}
    per_submission = sum(spent.values()) / len(made)
    print(f"\ncommits per submission: {per_submission:.2f} (before: 5); {spent}; the worker's: {scoring}")
    # One claim and one outcome commit for the 8 jobs (before: 8 of each); each approval is a person's
    # commit and updates the public table (2 commits); the intake's acknowledgement is 1.
    assert [m.split(":")[0] for m in scoring] == ["claim 8 jobs", "finished 8 jobs"]
    assert spent == {REQUESTS: 8 + 2 + 8, RESULTS: 8} and per_submission == 26 / 8
    check_scored_once(hub, service, made, keys, service.settings.baseline_raw)


def test_at_a_low_quota_submissions_are_acknowledged_then_scored_and_the_pages_say_so_in_words(
    deployed: LocalHub, keys, tmp_path: Path
):
    hub, clock = deployed, WallClock()
    quota = CommitQuota(commits=10, window_s=3600)  # "128 per hour", scaled: a share of 3 kept for intake
    service = quota_service(hub, tmp_path / "space", tmp_path / "keys", quota, clock.now)
    service.publish()
    made = uploads(tmp_path / "files", keys, 11)
    for upload in made[:6]:
        submit(service, upload)
        clock.advance(60)
    # 6 of 10 used: a batch (claim + outcome) would eat into the share kept for acknowledgements.
    assert service.worker.drain() == 0
    low = service.commit_budget()
    resumes = clock_time(clock.start + 3600)  # the 1st commit leaves the window: then 5 fit beside the share of 3
    assert low.level is Level.LOW and low.message == (
        "The Hub's hourly commit limit is nearly used up: submissions are still accepted and stored safely, and "
        f"they will be scored after {resumes}."
    )
    assert [service.status(str(u.acknowledged)).status for u in made[:6]] == [PENDING] * 6
    for upload in made[6:10]:  # acknowledgements still fit: they have their share
        submit(service, upload)
    sent = len(hub.calls("commit"))
    with pytest.raises(CommitLimitReached) as refused:
        submit(service, made[10])
    shown = describe(refused.value)
    print(f"\nshown at the limit: {shown!r}")
    retry_at = clock_time(clock.start + 3600)  # the Hub's Retry-After: when the first commit leaves the window
    assert shown == (
        f"The Hub's hourly commit limit is reached, so nothing was stored; please try again after {retry_at}"
    )
    assert [c.status for c in hub.calls("commit")[sent:]] == [429]  # asked once, no retries within a minute
    full = service.commit_budget()
    assert full.level is Level.FULL and full.message == (
        f"The Hub's hourly commit limit is reached: new submissions can be stored again after {retry_at}; "
        "submissions already acknowledged are safe and will be scored after that."
    )
    with pytest.raises(CommitLimitReached):  # the Hub said when: not asked again before then
        submit(service, made[10])
    assert len(hub.calls("commit")) == sent + 1

    clock.advance(3600)  # the hour moves on: the first 6 acknowledgements leave the window
    submit(service, made[10])
    assert service.worker.drain() == 11 and service.commit_budget().level is Level.OPEN  # batches of 8 and 3
    assert [service.status(str(u.acknowledged)).status for u in made] == [FINISHED] * 11
    scoring = [m.split(":")[0] for m in commits_in(hub, REQUESTS, since=1) if not m.startswith("submission")]
    assert scoring == ["claim 8 jobs", "finished 8 jobs", "claim 3 jobs", "finished 3 jobs"]
    check_scored_once(hub, service, made, keys, service.settings.baseline_raw)


class WallClock:
    """``time.time`` that moves only when told: the quota's hour passes in an instant."""

    def __init__(self) -> None:
        self.start = self.t = time.time()

    def now(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


def test_a_restart_remembers_the_count_and_the_hubs_refusal(deployed: LocalHub, tmp_path: Path):
    hub = deployed
    quota = CommitQuota(commits=4, window_s=3600)
    hub.set_quota(quota.commits, quota.window_s)
    first = quota_store(tmp_path / "space", REQUESTS, quota)
    for n in range(3):
        first.commit({f"requests/{n}.json": json.dumps({"n": n}).encode()}, message=f"commit {n}")
    restarted = quota_store(tmp_path / "space", REQUESTS, quota)  # a new process, the same disk
    assert restarted.commit_quota().used == 3 and restarted.commit_quota().left == 1
    hub.state.external_commit(REQUESTS, {"other/writer.txt": b"x"})  # another machine's commit
    hub.state.repo(REQUESTS).commit_times.append(hub.state.clock())  # counted by the Hub, unseen by us
    with pytest.raises(CommitLimitReached):
        restarted.commit({"requests/3.json": b"{}"}, message="commit 3")
    assert restarted.commit_quota().used == 4 and restarted.commit_quota().refused_until is not None
    sent = len(hub.calls("commit"))
    again = quota_store(tmp_path / "space", REQUESTS, quota)
    with pytest.raises(CommitLimitReached):  # remembered: refused without asking the Hub
        again.commit({"requests/3.json": b"{}"}, message="commit 3")
    assert len(hub.calls("commit")) == sent
    # The service's own stores keep the log beside their cache.
    store = open_store(REQUESTS, tmp_path / "space2" / "requests", BOSS_TOKEN)
    assert store.commit_quota() is not None and store.commit_quota().used == 0  # type: ignore[union-attr]


def test_parallel_approvals_all_land_and_a_busy_lock_is_a_sentence(deployed: LocalHub, keys, tmp_path, monkeypatch):
    hub = deployed
    service = quota_service(hub, tmp_path / "space", tmp_path / "keys", HOUR)
    made = uploads(tmp_path / "files", keys, 6)
    ids = [submit(service, upload) for upload in made]
    service.worker.drain()
    with ThreadPoolExecutor(6) as pool:
        reviews = list(pool.map(lambda i: service.approve(i, by=BOSS), ids))
    assert {r.decision for r in reviews} == {"approved"}
    monkeypatch.setattr("leaderboard.storage.locks.DEFAULT_TIMEOUT_S", 0.2)
    with process_lock(service.settings.locks_folder, "moderation"):  # another approval holds it, and holds on
        with pytest.raises(Busy) as busy:
            service.hide(ids[0], by=BOSS)
    assert describe(busy.value) == (
        "The server is busy with another maintainer action (waited 0.2 s); nothing was changed, please try again in "
        "a minute"
    )


def test_a_batch_claim_that_lost_one_job_to_another_worker_takes_only_the_others(deployed, keys, tmp_path):
    from tests.hub.test_claims_http import elsewhere

    hub = deployed
    service = quota_service(hub, tmp_path / "space", tmp_path / "keys", HOUR)
    ids = [submit(service, upload) for upload in uploads(tmp_path / "files", keys, 3)]
    # Another machine's worker takes the middle job just before our batch claim reaches the Hub.
    hub.faults.add("commit", Race({job_path(ids[1]): elsewhere(ids[1])}))  # the next commit: our claim
    entries = service.registry.entries()
    with Holder.here() as holder:
        taken = claim_batch(service.requests, entries, holder, time.time(), 600, 3)
    assert [entry.submission_id for entry, _ in taken] == [ids[0], ids[2]]
    claims = [
        (c.detail["message"].split(":")[0], c.status) for c in hub.calls("commit") if "claim" in c.detail["message"]
    ]
    assert claims == [("claim 3 jobs", 412), ("claim 2 jobs", 200)]  # re-read, re-decided, nothing written blind
    assert read_job(service.requests, ids[1])[0].lease.token == "other-token"


def test_batch_outcomes_skip_a_job_whose_lease_went_elsewhere_and_land_the_rest(deployed, keys, tmp_path):
    from tests.hub.test_claims_http import elsewhere

    hub = deployed
    service = quota_service(hub, tmp_path / "space", tmp_path / "keys", HOUR)
    ids = [submit(service, upload) for upload in uploads(tmp_path / "files", keys, 3)]
    with Holder.here() as holder:
        taken = claim_batch(service.requests, service.registry.entries(), holder, time.time(), 600, 3)
        # Our lease on the first job ran out and another worker finished it meanwhile.
        hub.state.external_commit(REQUESTS, {job_path(ids[0]): elsewhere(ids[0], FINISHED)})
        changes = [(held, replace(held.job, status=FINISHED, lease=None), {}) for _, held in taken]
        landed = commit_claims(service.requests, changes, "finished")
    assert [held.job.submission_id for held in landed] == ids[1:]
    sent = [(c.detail["message"].split(":")[0], c.status) for c in hub.calls("commit")][-2:]
    assert sent == [("finished 3 jobs", 412), ("finished 2 jobs", 200)]
    assert (
        read_job(service.requests, ids[0])[0].lease is None
        and json.loads(hub.files(REQUESTS)[job_path(ids[0])])["attempts"] == 1
    )  # theirs, as they wrote it


def test_two_processes_share_one_commit_log_and_a_torn_log_starts_afresh(tmp_path: Path, caplog):
    from leaderboard.storage.commit_log import CommitLog

    clock = WallClock()
    path = tmp_path / "requests-commits.json"
    app, worker = (CommitLog("org/requests", CommitQuota(10, 3600), path, clock.now) for _ in range(2))
    app.record()
    clock.advance(100)
    worker.record(2)  # the Space's worker process: another CommitLog on the same file
    assert app.state().used == 3 and worker.state().times == (clock.start, clock.start + 100, clock.start + 100)
    # 8 more need the oldest 1 out of the window: at its start + 3600
    assert app.state().free_at(8, clock.now()) == clock.start + 3600
    clock.advance(3500)  # the first commit leaves the window
    assert app.state().used == 2
    path.write_text('{"commits": [1, "two"')  # torn (a full disk mid-write)
    assert app.state().used == 2 and "rewritten from this process's count" in caplog.text  # what it knew stands
    app.record()
    assert json.loads(path.read_text())["commits"] == [clock.start + 100] * 2 + [clock.now()]


def test_a_long_batch_writes_its_outcomes_with_each_heartbeat(deployed: LocalHub, keys, tmp_path, monkeypatch):
    import dataclasses

    import leaderboard.jobs.worker as worker_module

    hub = deployed
    service = quota_service(hub, tmp_path / "space", tmp_path / "keys", HOUR)
    made = uploads(tmp_path / "files", keys, 3)
    ids = [submit(service, upload) for upload in made]
    service.worker.settings = dataclasses.replace(service.settings, lease_s=0.9)  # a heartbeat every 0.3 s
    real = worker_module.score_submission

    def slow(*args, **kwargs):  # each file takes 0.5 s: the batch outlives two heartbeats
        time.sleep(0.5)
        return real(*args, **kwargs)

    monkeypatch.setattr(worker_module, "score_submission", slow)
    assert service.worker.drain() == 3
    messages = [m.split(":")[0] for m in commits_in(hub, REQUESTS, since=1 + len(ids))]
    print(f"\nthe batch's commits: {messages}")
    assert messages[0] == "claim 3 jobs" and messages[-1].startswith("finished")
    assert any(m.startswith("heartbeat and finished") for m in messages)  # outcomes did not wait for the end
    check_scored_once(hub, service, made, keys, service.settings.baseline_raw)


def test_one_account_cannot_spend_everybodys_commits(deployed: LocalHub, keys, tmp_path: Path):
    """Before: one account's 17 validation submissions in 1.9 s filled the (scaled) budget and an honest user's
    test submission was refused. Now each user has a share of the window, validation included
    (``leaderboard/storage/commit_shares.py``: 1/16 of it, 2 of these 32)."""
    hub = deployed
    service = quota_service(hub, tmp_path / "space", tmp_path / "keys", CommitQuota(commits=32, window_s=3600))
    folder = tmp_path / "files"
    folder.mkdir()
    acknowledged, refusal = 0, ""
    for n in range(17):
        path = folder / f"mallory-{n}.tsv"
        write_example(keys["validation"], "noisy", path, seed=5100 + n)
        try:
            submit(service, Upload(path, "validation", "mallory", f"spam-{n}", publish=False))
            acknowledged += 1
        except QuotaExceeded as error:
            refusal = describe(error)
    assert acknowledged == 2 and "each user may make 2 in that time" in refusal, refusal
    honest = uploads(tmp_path / "honest", keys, 3)[1]  # a test file
    assert submit(service, honest)  # acknowledged: the budget is nearly untouched
    print(f"\nmallory: {acknowledged} of 17 acknowledged; then: {refusal!r}")
