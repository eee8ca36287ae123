"""The service on a misbehaving Hub: 429 with Retry-After, 500/502/503, lost races and lost answers.

The stores are ``HubStorage`` over the offline fake Hub (``tests/leaderboard/fake_hub.py``), whose
``chaos`` draws a fault for each Hub call at the given rates. Writes must be retried with backoff
and land; a receipt must mean the commit is on ``main`` at that moment; when the retries run out
the user gets a clear error and nothing is acknowledged. Time is a fake clock: nothing waits.

    .venv/bin/python -m pytest tests/hardening/faults/test_faults_hub_chaos.py -s                 # 3 rounds
    FAULTS_HUB_ROUNDS=40 .venv/bin/python -m pytest tests/hardening/faults/test_faults_hub_chaos.py -s
"""

from __future__ import annotations

import os
import random
from collections import Counter
from pathlib import Path

import pytest
from faults_app import service_settings
from faults_invariants import Audited, Upload, check_every_submission_finished_once

from leaderboard.config import Settings
from leaderboard.records import request_path, upload_path
from leaderboard.service import Leaderboard
from leaderboard.storage import StorageError
from leaderboard.storage.hub import HubStorage
from scoring.examples import write_example
from space.errors import describe
from tests.browser.conftest import MAINTAINER
from tests.leaderboard.fake_hub import FakeClock, FakeHub, Http, LostResponse

ROUNDS = int(os.environ.get("FAULTS_HUB_ROUNDS", "3"))
SEED = int(os.environ.get("FAULTS_HUB_SEED", "5"))
REQUESTS, RESULTS = "org/requests", "org/results"
# Chances per Hub call (commits and reads alike). "heavy" exhausts retries now and then: users see errors.
CHAOS = {
    "moderate": {"throttle": 0.1, "unavailable": 0.1, "race": 0.05, "lost": 0.05},
    "heavy": {"throttle": 0.2, "unavailable": 0.2, "race": 0.1, "lost": 0.1},
}
HUB_CALLS = ("create_commit", "repo_info", "hf_hub_download", "list_repo_tree", "get_paths_info")


@pytest.fixture
def settings(tmp_path: Path, demo_dataset: Path, demo_public: Path, key_cache: Path) -> Settings:
    return service_settings(
        tmp_path / "home",
        demo_dataset,
        demo_public,
        key_cache,
        TEST_SUBMISSIONS_PER_DAY="100000",
        LEADERBOARD_QUEUED_PER_USER="100000",
    )


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def hub(tmp_path: Path, clock: FakeClock) -> FakeHub:
    return FakeHub(tmp_path / "hub", clock=clock.now)


def on_hub(settings: Settings, hub: FakeHub, clock: FakeClock, seed: int = 0, api: object = None) -> Leaderboard:
    def store(repo: str, private: bool) -> HubStorage:
        rng = random.Random(seed)
        client = api or hub.api()
        return HubStorage(repo, api=client, private=private, clock=clock.now, sleep=clock.sleep, rng=rng)

    return Leaderboard(settings, requests_store=store(REQUESTS, True), results_store=store(RESULTS, False))


def make_uploads(folder: Path, keys: dict, first: int, count: int) -> list[Upload]:
    made = []
    for n in range(first, first + count):
        split = "test" if n % 3 else "validation"
        path = folder / f"{split}-{n}.tsv"
        write_example(keys[split], "noisy", path, seed=7000 + n)
        made.append(Upload(path, split, f"user{n % 4}", f"model-{n}", split == "test", split == "test" and n % 2 == 1))
    return made


def submit(service: Leaderboard, upload: Upload) -> str:
    metadata = {"model": upload.model, "contact_email": "someone@example.org"}
    receipt = service.submit(
        upload.path, split=upload.split, user=upload.user, metadata=metadata, publish=upload.publish
    )
    return receipt.submission_id


@pytest.mark.parametrize("level", sorted(CHAOS))
def test_under_429_5xx_and_lost_races_every_acknowledged_write_lands(level, settings, hub, clock, tmp_path, caplog,
                                                                     test_key, validation_key):  # fmt: skip
    keys = {"test": test_key, "validation": validation_key}
    service = on_hub(settings, hub, clock, SEED)
    service.publish()  # the repositories exist before the chaos starts
    hub.chaos(SEED, methods=HUB_CALLS, **CHAOS[level])
    uploads: list[Upload] = []
    figures: Counter = Counter()
    for _ in range(ROUNDS):
        uploads += make_uploads(tmp_path / "files", keys, len(uploads), 4)
        for upload in [u for u in uploads if u.acknowledged is None]:
            try_to_submit(service, hub, upload, figures)
        for upload in [u for u in uploads if u.acknowledged and u.approve]:
            figures["storage errors shown to a maintainer"] += attempt(lambda u=upload: approve(service, u))
        figures["storage errors in a worker round"] += attempt(service.worker.drain)
    hub.clear_faults()  # the Hub recovers: whatever was refused is retried once more
    for upload in [u for u in uploads if u.acknowledged is None]:
        try_to_submit(service, hub, upload, figures)
    for upload in [u for u in uploads if u.approve]:
        approve(service, upload)
    service.worker.drain()
    starts = check_every_submission_finished_once(service, uploads, keys, settings.baseline_raw)
    landed = [c for c in hub.history(REQUESTS) + hub.history(RESULTS) if c.message != "other writer"]
    figures.update(
        {
            "rounds": ROUNDS,
            "submissions acknowledged": sum(u.acknowledged is not None for u in uploads),
            "Hub calls": hub.calls.total(),
            "writes attempted (create_commit calls)": hub.calls["create_commit"],
            "commits landed (ours)": len(landed) - 2,  # less the two "initial commit"s
            "retries (backoff sleeps)": len(clock.sleeps),
            **write_retries(caplog.messages),
            "seconds slept (fake clock)": round(sum(clock.sleeps)),
            **{f"faults injected: {kind}": count for kind, count in hub.faults_served.items()},
        }
    )
    print(f"\nHub chaos, {level} ({ROUNDS} rounds, seed {SEED}, chances per call {CHAOS[level]}):")
    for name, value in sorted(figures.items()):
        print(f"  {name}: {value}")
    print(f"  starts per submission: {dict(sorted(starts.items()))}")
    assert hub.faults_served["Http"] and hub.faults_served["Race"] and hub.faults_served["LostResponse"]


def write_retries(messages: list[str]) -> dict[str, int]:
    """Commit retries by kind, from ``HubStorage``'s warnings ("commit attempt 2 failed (throttled); ...")."""
    kinds = Counter(m.split("failed (", 1)[1].split(")", 1)[0] for m in messages if "commit attempt" in m)
    return {f"write retries: {kind}": count for kind, count in kinds.items()}


def try_to_submit(service: Leaderboard, hub: FakeHub, upload: Upload, figures: Counter) -> None:
    """One user's try: a receipt means the request and the file are on ``main`` already."""
    upload.tries += 1
    try:
        submission_id = submit(service, upload)
    except StorageError as error:
        figures["submissions refused with StorageError"] += 1
        assert "gave up" in str(error) or "could not" in str(error), error
        return
    on_main = hub.files(REQUESTS)
    assert (
        on_main.get(request_path(submission_id)) and on_main.get(upload_path(submission_id)) == upload.path.read_bytes()
    )
    upload.acknowledged = submission_id
    figures["receipts" if upload.tries == 1 else "receipts after a retry"] += 1


def approve(service: Leaderboard, upload: Upload) -> None:
    if service.registry.review(upload.acknowledged).decision != "approved":
        service.approve(upload.acknowledged, by=MAINTAINER)


def attempt(action) -> int:
    """1 when ``action`` gave up with ``StorageError`` (the caller tries again later), else 0."""
    try:
        action()
    except StorageError:
        return 1
    return 0


def test_when_retries_run_out_the_user_is_told_and_nothing_is_acknowledged(settings, hub, clock, tmp_path, test_key):
    service = on_hub(settings, hub, clock)
    service.publish()
    upload = make_uploads(tmp_path, {"test": test_key}, 1, 1)[0]
    hub.inject("create_commit", *[Http(503)] * 20)
    with pytest.raises(StorageError) as refused:
        submit(service, upload)
    assert "nothing was stored" in str(refused.value)
    message = describe(refused.value)
    assert message.startswith("The server could not store this right now and nothing was changed")
    assert "try again" in message
    assert "503" not in message and "http" not in message  # the Hub's answer goes to the log
    assert not [p for p in hub.files(REQUESTS) if p.startswith(("requests/", "uploads/", "audit/"))]
    assert service.quota_left(upload.user) == settings.test_submissions_per_day
    spent = sum(clock.sleeps)
    assert 30 <= spent <= 60, spent  # backed off within the 60 s budget
    hub.clear_faults()
    assert submit(service, upload) == service.registry.ids()[0]  # the same submit, later: stored once


def lose_the_answer_then_go_silent(hub: FakeHub, api, message_starts: str) -> None:
    """The next commit whose message starts so lands, but its answer is lost; from then on the Hub
    answers nothing until the retry budget is spent."""
    real_commit = api.create_commit

    def create_commit(*args, **kwargs):
        if kwargs["commit_message"].startswith(message_starts):
            api.create_commit = real_commit
            hub.inject("create_commit", LostResponse(502), *[Http(503)] * 40)
            for method in ("repo_info", "get_paths_info"):
                hub.inject(method, *[Http(503)] * 40)
        return real_commit(*args, **kwargs)

    api.create_commit = create_commit


def test_a_lost_answer_then_silence_is_not_acknowledged_and_the_retry_does_not_double(settings, hub, clock, tmp_path,
                                                                                    test_key):  # fmt: skip
    api = hub.api()
    service = on_hub(settings, hub, clock, api=api)
    service.publish()
    upload = make_uploads(tmp_path, {"test": test_key}, 1, 1)[0]
    lose_the_answer_then_go_silent(hub, api, "submission")
    with pytest.raises(StorageError, match="may still appear, unacknowledged"):
        submit(service, upload)
    hub.clear_faults()
    again = submit(service, upload)  # the user tries again: the same submission, not a second one
    assert service.registry.ids() == [again]
    assert Audited.read(service)("submit", again) == 1


def test_a_result_whose_answer_was_lost_is_not_put_back_and_not_scored_twice(settings, hub, clock, tmp_path,
                                                                             test_key, monkeypatch):  # fmt: skip
    api = hub.api()
    service = on_hub(settings, hub, clock, api=api)
    service.publish()
    upload = make_uploads(tmp_path, {"test": test_key}, 1, 1)[0]
    upload.acknowledged = submit(service, upload)
    service.approve(upload.acknowledged, by=MAINTAINER)
    lose_the_answer_then_go_silent(hub, api, "finished")
    release = service.worker._release

    def hub_back_in_time_for_the_release(*args):  # so that a wrong release would land
        hub.clear_faults()
        release(*args)

    monkeypatch.setattr(service.worker, "_release", hub_back_in_time_for_the_release)
    with pytest.raises(StorageError, match="may still appear") as refused:
        service.worker.drain()
    assert refused.value.outcome_unknown
    hub.clear_faults()
    assert service.worker.drain() == 0  # it had landed: FINISHED, nothing to redo
    check_every_submission_finished_once(service, [upload], {"test": test_key}, settings.baseline_raw)


def test_a_commit_quota_429_beyond_the_budget_is_a_clear_error_at_once(settings, tmp_path, clock, test_key):
    hub = FakeHub(tmp_path / "hub", clock=clock.now, commit_limit=(2, 3600))
    service = on_hub(settings, hub, clock)
    service.publish()  # creates the requests repository: its first commit of the hour
    uploads = make_uploads(tmp_path, {"test": test_key}, 1, 2)
    first = submit(service, uploads[0])
    with pytest.raises(StorageError, match="gave up after 1 attempts") as refused:
        submit(service, uploads[1])
    assert "quotas for action: commit" in str(refused.value) and sum(clock.sleeps) == 0
    assert service.registry.ids() == [first]
