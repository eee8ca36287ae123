"""The service on a misbehaving Hub, over HTTP: each fault at every kind of request, random chaos, lost answers.

Nothing acknowledged is lost, nothing is done twice, and the page says what is happening. The
service's own retries wait on a fake clock; the client's own backoff is recorded, not waited for.

    .venv/bin/python -m pytest tests/hub/test_faults_http.py -s                         # figures printed
    FAULTS_HUB_ROUNDS=20 .venv/bin/python -m pytest tests/hub/test_faults_http.py -s -k chaos
"""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

import pytest

from leaderboard.service import Leaderboard
from leaderboard.storage import CommitLimitReached, StorageError
from leaderboard.storage.answer_keys import AnswerKeys
from scoring import load_answer_key
from scoring.examples import write_example
from space.workspace.errors import describe
from tests.hub import chaos
from tests.hub.clock import FakeClock
from tests.hub.conftest import BOSS, BOSS_TOKEN
from tests.hub.hub_faults import KINDS, Fault, Http, Lost, Race, Reset, Slow
from tests.hub.server import LocalHub
from tests.hub.service_checks import Upload, check_scored_once, try_to_submit
from tests.hub.service_on_hub import ANSWER_KEY, PUBLIC, REQUESTS, UNLIMITED, hub_settings, seed_datasets, service_on
from tests.service_fixtures import DECLARED

ROUNDS = int(os.environ.get("FAULTS_HUB_ROUNDS", "2"))
SEED = int(os.environ.get("FAULTS_HUB_SEED", "5"))
SERVICE_KINDS = (
    "create_repo",
    "repo_info",
    "validate_yaml",
    "preupload",
    "commit",
    "paths_info",
    "tree",
    "resolve",
    "cdn",
)  # fmt: skip  (every kind of request the service and its answer key make)


@pytest.fixture
def deployed(hub: LocalHub, demo_dataset: Path, demo_public: Path) -> LocalHub:
    seed_datasets(hub, demo_dataset, demo_public)
    return hub


@pytest.fixture
def keys(deployed: LocalHub, tmp_path_factory) -> dict:
    """The answer keys as the Hub serves them (their revision is the Hub commit), built before any fault."""
    cache = tmp_path_factory.mktemp("hub-keys")
    return {split: load_answer_key(ANSWER_KEY, split, cache, token=BOSS_TOKEN) for split in ("test", "validation")}


def make_uploads(folder: Path, keys: dict, first: int, count: int) -> list[Upload]:
    made = []
    for n in range(first, first + count):
        split = "test" if n % 3 else "validation"
        path = folder / f"{split}-{n}.tsv"
        folder.mkdir(parents=True, exist_ok=True)
        write_example(keys[split], "noisy", path, seed=7000 + n)
        made.append(Upload(path, split, f"user{n % 4}", f"model-{n}", publish=True))
    return made


def settle(service: Leaderboard, hub: LocalHub, uploads: list[Upload], shown: Counter) -> None:
    """The Hub has recovered: people retry what was refused; the worker and the maintainers catch up."""
    hub.faults.clear()
    for upload in [u for u in uploads if u.acknowledged is None]:
        try_to_submit(service, hub, upload, shown)
    service.worker.drain()
    for upload in uploads:
        if service.registry.review(upload.acknowledged).decision != "approved":
            service.approve(upload.acknowledged, by=BOSS)
    service.worker.drain()


def attempt(action, shown: Counter) -> None:
    try:
        action()
    except StorageError as error:
        shown[describe(error).split(";")[0]] += 1


FAULTS: dict[str, Fault] = {
    "429": Http(429, retry_after=2),
    "500": Http(500),
    "502": Http(502),
    "503": Http(503),
    "reset": Reset(),
    "lost 502": Lost(502),
    "lost reset": Lost(None),
    "slow": Slow(0.6),
    "412 race": Race(),
}


@pytest.mark.parametrize("name", list(FAULTS))
def test_each_fault_at_every_kind_of_request(name, deployed, keys, tmp_path, client_sleeps, capsys):
    hub, fault, clock = deployed, FAULTS[name], FakeClock()
    settings = hub_settings(tmp_path / "space", tmp_path / "keys")  # keys rebuilt from the Hub, under the faults
    service = service_on(settings, clock, timeout_s=0.3)
    for kind in SERVICE_KINDS:
        hub.faults.add(kind, fault, fault)  # the first two requests of every kind
    uploads, shown = make_uploads(tmp_path / "files", keys, 1, 3), Counter()
    for upload in uploads:
        try_to_submit(service, hub, upload, shown)
    attempt(service.worker.drain, shown)
    for upload in [u for u in uploads if u.acknowledged]:
        attempt(lambda u=upload: service.approve(u.acknowledged, by=BOSS), shown)
    served = sum(n for (kind, _), n in hub.faults.served.items())
    settle(service, hub, uploads, shown)
    figures = check_scored_once(hub, service, uploads, keys, settings.baseline_raw)
    assert service.published_table() == service.public_table()
    kinds_hit = sorted({kind for kind, _ in hub.faults.served})
    with capsys.disabled():
        print(f"\n{name}: {served} faults on {kinds_hit}; {figures}; shown to people: {dict(shown)}")
    assert served >= 2 * 6 and figures["doubles"] == figures["lost"] == 0
    assert set(kinds_hit) >= {"repo_info", "preupload", "commit", "resolve", "tree"}


def test_the_answer_key_retries_its_listing_and_its_download_apart(deployed, demo_public, tmp_path):
    # hf_hub_download does not retry a download whose connection is reset (a ReadError): the answer
    # key's own retry does, starting over the download alone, so resets on the dataset info before it
    # spend none of its tries. Tried as one, 3 + 3 resets were 6 failures of 5 tries.
    hub, sleeps = deployed, []
    keys = AnswerKeys(hub_settings(tmp_path / "space", tmp_path / "keys"), sleep=sleeps.append)
    hub.faults.add("repo_info", *[Reset()] * 3, repo=PUBLIC)
    hub.faults.add("cdn", *[Reset()] * 3)
    seeded = load_answer_key(demo_public, "test", tmp_path / "local")  # the folder the Hub copy was made from
    assert [s.sample_id for s in keys.public("test").samples] == [s.sample_id for s in seeded.samples]
    assert [c.status for c in hub.calls("repo_info", repo=PUBLIC)] == [None, None, None, 200]  # not asked again
    assert [c.status for c in hub.calls("cdn")] == [None, None, None, 200]
    assert len(sleeps) == 6


CHAOS = {"moderate": 0.1, "heavy": 0.2}  # chance per request of every kind


@pytest.mark.slow
@pytest.mark.parametrize("level", sorted(CHAOS))
def test_under_random_faults_every_acknowledged_write_lands_once(
    level, deployed, keys, tmp_path, client_sleeps, capsys
):
    hub, clock = deployed, FakeClock()
    service = service_on(hub_settings(tmp_path / "space", tmp_path / "keys", **UNLIMITED), clock, timeout_s=0.3)
    service.publish()  # the repositories exist before the chaos starts
    hub.faults.chaos(SEED, chaos.rates(CHAOS[level], SERVICE_KINDS), chaos.pick)
    uploads: list[Upload] = []
    shown: Counter = Counter()
    for _ in range(ROUNDS):
        uploads += make_uploads(tmp_path / "files", keys, len(uploads), 4)
        for upload in [u for u in uploads if u.acknowledged is None]:
            try_to_submit(service, hub, upload, shown)
        for upload in [u for u in uploads if u.acknowledged]:
            attempt(lambda u=upload: service.approve(u.acknowledged, by=BOSS), shown)
        attempt(service.worker.drain, shown)
    served = Counter({f"{k}: {f}": n for (k, f), n in hub.faults.served.items()})
    settle(service, hub, uploads, shown)
    figures = check_scored_once(hub, service, uploads, keys, service.settings.baseline_raw)
    with capsys.disabled():
        print(f"\nHub chaos, {level} ({ROUNDS} rounds, seed {SEED}, {CHAOS[level]} per request): {figures}")
        print(f"  requests: {len(hub.calls())}, faults: {sum(served.values())}, service sleeps: {len(clock.sleeps)}")
        print(f"  shown to people: {dict(shown)}")
        for name, count in sorted(served.items()):
            print(f"  {name}: {count}")
    assert sum(served.values()) > 10


def test_when_retries_run_out_the_user_is_told_and_nothing_is_acknowledged(deployed, keys, tmp_path, client_sleeps):
    hub, clock = deployed, FakeClock()
    service = service_on(hub_settings(tmp_path / "space", tmp_path / "keys"), clock)
    service.publish()
    upload = make_uploads(tmp_path / "files", keys, 1, 1)[0]
    hub.faults.add("commit", *[Http(503)] * 20)
    with pytest.raises(StorageError) as refused:
        service.submit(
            upload.path,
            split=upload.split,
            user=upload.user,
            metadata={"model": "M"},
            publish=True,
            declarations=DECLARED,
        )
    message = describe(refused.value)
    assert message.startswith("The server could not store this right now and nothing was changed")
    assert "503" not in message and "http" not in message  # the Hub's answer goes to the log
    assert not [p for p in hub.files(REQUESTS) if p.startswith(("requests/", "uploads/", "audit/"))]
    assert 30 <= sum(clock.sleeps) <= 60  # backed off within the 60 s budget
    hub.faults.clear()
    receipt = service.submit(
        upload.path, split=upload.split, user=upload.user, metadata={"model": "M"}, publish=True, declarations=DECLARED
    )
    assert service.registry.ids() == [receipt.submission_id]  # the same submit, later: stored once


def lose_the_answer_then_go_silent(hub: LocalHub, message_starts: str) -> None:
    """The next commit whose message starts so lands, but its answer is lost; from then on the Hub answers
    nothing (503) until the retry budget is spent."""
    hub.faults.add("commit", Lost(502), match=lambda call: call.detail.get("message", "").startswith(message_starts))

    def after_the_lost_one(call) -> bool:
        return hub.faults.served[("commit", "Lost")] > 0

    for kind in ("commit", "repo_info", "paths_info"):
        hub.faults.add(kind, *[Http(503)] * 40, match=after_the_lost_one)


def test_a_lost_answer_then_silence_is_not_acknowledged_and_the_retry_does_not_double(deployed, keys, tmp_path):
    hub, clock = deployed, FakeClock()
    service = service_on(hub_settings(tmp_path / "space", tmp_path / "keys"), clock)
    service.publish()
    upload = make_uploads(tmp_path / "files", keys, 1, 1)[0]
    lose_the_answer_then_go_silent(hub, "submission")
    shown: Counter = Counter()
    try_to_submit(service, hub, upload, shown)
    assert upload.acknowledged is None and list(shown) == ["The server did not get a confirmation from its store"]
    hub.faults.clear()
    try_to_submit(service, hub, upload, shown)  # the person tries again: the same submission, not a second one
    assert service.registry.ids() == [upload.acknowledged]
    assert sum(m.startswith("submission") for m in hub.messages(REQUESTS)) == 1


def test_a_result_whose_answer_was_lost_is_not_put_back_and_not_scored_twice(deployed, keys, tmp_path):
    hub, clock = deployed, FakeClock()
    service = service_on(hub_settings(tmp_path / "space", tmp_path / "keys"), clock)
    service.publish()
    upload = make_uploads(tmp_path / "files", keys, 1, 1)[0]
    try_to_submit(service, hub, upload, Counter())
    service.approve(upload.acknowledged, by=BOSS)
    lose_the_answer_then_go_silent(hub, "finished")
    with pytest.raises(StorageError, match="may still appear") as refused:
        service.worker.drain()
    assert refused.value.outcome_unknown
    hub.faults.clear()
    assert service.worker.drain() == 0  # it had landed: FINISHED, nothing to redo, no release written over it
    assert not any(m.startswith("release") for m in hub.messages(REQUESTS))
    check_scored_once(hub, service, [upload], keys, service.settings.baseline_raw)


def test_a_commit_quota_429_beyond_the_budget_is_a_clear_error_at_once(deployed, keys, tmp_path):
    hub, clock = deployed, FakeClock()
    service = service_on(hub_settings(tmp_path / "space", tmp_path / "keys"), clock)
    service.publish()  # the repositories' first commits
    hub.state.clock = clock.now
    hub.set_quota(commits=1, window_s=3600)  # the Hub's "128 per hour", scaled down
    first, second = make_uploads(tmp_path / "files", keys, 1, 2)
    try_to_submit(service, hub, first, Counter())
    with pytest.raises(CommitLimitReached, match="hourly commit limit is reached") as refused:
        service.submit(second.path, split=second.split, user=second.user, metadata={"model": "M"})
    assert "http" not in str(refused.value) and "per hour" not in str(refused.value) and sum(clock.sleeps) == 0
    assert service.registry.ids() == [first.acknowledged]
    assert [k for k in KINDS if k == "commit"] and hub.calls("commit")[-1].status == 429
