"""HubStorage against the offline fake Hub: retries, backoff, races, lost responses, caching, batching.

Time is a ``FakeClock`` shared by the store and the hub: sleeping advances it, nothing really waits.
"""

from __future__ import annotations

import inspect
import random
import socket
import threading

import pytest
from fake_hub import BRANCH_MOVED, Disconnect, FakeClock, FakeHub, Http, LostResponse, Race, _fail
from huggingface_hub import CommitOperationAdd, CommitOperationDelete, HfApi
from huggingface_hub.errors import HfHubHTTPError, RemoteEntryNotFoundError, RepositoryNotFoundError

from leaderboard.storage.base import StorageError
from leaderboard.storage.batching import DeferredWriter
from leaderboard.storage.hub import HubStorage, RetryPolicy, _retry_after

REPO = "navitrace/requests"


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def hub(tmp_path, clock) -> FakeHub:
    return FakeHub(tmp_path / "hub", clock=clock.now)


def open_hub_store(hub: FakeHub, clock: FakeClock, **options) -> HubStorage:
    return HubStorage(REPO, api=hub.api(), clock=clock.now, sleep=clock.sleep, rng=random.Random(0), **options)


@pytest.fixture
def hub_store(hub, clock) -> HubStorage:
    store = open_hub_store(hub, clock)
    store.commit({"requests/a.json": b"A"}, message="seed")
    return store


def messages(hub: FakeHub) -> list[str]:
    return [c.message for c in hub.history(REPO)]


# -- the fake answers like the Hub -------------------------------------------------------------


def test_fake_refuses_a_stale_parent_with_the_hubs_412(hub):
    api = hub.api()
    api.create_repo(REPO, repo_type="dataset", exist_ok=True)
    stale = api.repo_info(REPO, repo_type="dataset").sha
    hub.external_commit(REPO, {"x": b"1"})
    with pytest.raises(HfHubHTTPError) as caught:
        api.create_commit(
            REPO, [CommitOperationAdd("y", b"2")], commit_message="m", repo_type="dataset", parent_commit=stale
        )
    assert caught.value.response.status_code == 412
    assert BRANCH_MOVED in str(caught.value)


def test_fake_raises_the_clients_not_found_errors(hub):
    api = hub.api()
    with pytest.raises(RepositoryNotFoundError):
        api.repo_info(REPO, repo_type="dataset")
    api.create_repo(REPO, repo_type="dataset")
    with pytest.raises(RemoteEntryNotFoundError):
        api.hf_hub_download(REPO, "missing.txt", repo_type="dataset")
    with pytest.raises(RemoteEntryNotFoundError):  # deleting a file that is not there is a 404 on the Hub
        api.create_commit(REPO, [CommitOperationDelete("missing.txt")], commit_message="m", repo_type="dataset")
    with pytest.raises(HfHubHTTPError) as caught:
        api.create_repo(REPO, repo_type="dataset")
    assert caught.value.response.status_code == 409


def test_fake_refuses_reused_operations_and_skips_no_op_commits(hub):
    api = hub.api()
    api.create_repo(REPO, repo_type="dataset")
    op = CommitOperationAdd("x", b"1")
    first = api.create_commit(REPO, [op], commit_message="m", repo_type="dataset")
    with pytest.raises(ValueError, match="cannot be reused"):
        api.create_commit(REPO, [op], commit_message="m", repo_type="dataset")
    again = api.create_commit(REPO, [CommitOperationAdd("x", b"1")], commit_message="m", repo_type="dataset")
    assert again.oid == first.oid and len(hub.history(REPO)) == 2  # initial commit + one


class SignatureChecked:
    """The fake, but every call is first bound to the installed ``HfApi`` method's signature."""

    def __init__(self, fake: object) -> None:
        self.fake = fake
        self.checked: set[str] = set()

    def __getattr__(self, name: str):
        real, method = inspect.signature(getattr(HfApi, name)), getattr(self.fake, name)

        def call(*args, **kwargs):
            real.bind(None, *args, **kwargs)  # TypeError if the real client would refuse this call
            self.checked.add(name)
            return method(*args, **kwargs)

        return call


def test_every_call_hub_storage_makes_fits_the_real_client(hub, clock):
    api = SignatureChecked(hub.api())
    store = HubStorage(REPO, api=api, clock=clock.now, sleep=clock.sleep)
    store.commit({"a/1": b"1", "a/2": b"2"})
    store.commit({"a/3": b"3"}, ["a/1"])
    assert store.read("a/2") == b"2" and store.read("a/1") is None and store.list("a") == ["a/2", "a/3"]
    hub.inject("create_commit", LostResponse(502))
    store.commit({"a/4": b"4"})
    assert api.checked == {"create_repo", "repo_info", "create_commit", "get_paths_info", "list_repo_tree",
                           "hf_hub_download"}  # fmt: skip


def test_the_real_client_unreachable_is_retried_then_refused(clock):
    # No network needed: a local port nobody listens on refuses at once. This checks that the
    # installed client's own exceptions (not the fake's) are classified as retryable.
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    api = HfApi(endpoint=f"http://127.0.0.1:{port}", token="hf_fake")
    store = HubStorage(REPO, api=api, clock=clock.now, sleep=clock.sleep, retry=RetryPolicy(max_attempts=3))
    with pytest.raises(StorageError, match="could not create the repository"):
        store.read("a")
    assert len(clock.sleeps) == 2
    store._repo_ready = True  # as if created: exercise the commit path against the real client too
    with pytest.raises(StorageError, match="nothing was stored"):
        store.commit({"a": b"1"})


# -- plain use ---------------------------------------------------------------------------------


def test_first_use_creates_a_private_dataset_repo_once(hub, clock):
    store = open_hub_store(hub, clock)
    assert hub.calls["create_repo"] == 0  # nothing at construction
    assert store.read("requests/a.json") is None
    store.commit({"requests/a.json": b"A"})
    assert hub.calls["create_repo"] == 1
    assert hub.repo(REPO).private is True
    assert messages(hub) == ["initial commit", "update"]


def test_an_existing_public_repo_is_reused(hub, clock):
    hub.create(REPO, private=False)
    hub.external_commit(REPO, {"data/leaderboard.jsonl": b"{}\n"})
    store = open_hub_store(hub, clock, private=False)
    assert store.read("data/leaderboard.jsonl") == b"{}\n"
    assert hub.repo(REPO).private is False


def test_read_list_and_layout(hub_store):
    hub_store.commit({"requests/b.json": b"B", "uploads/b.tsv": b"t", "README.md": b"# r"})
    assert hub_store.list() == ["README.md", "requests/a.json", "requests/b.json", "uploads/b.tsv"]  # no .gitattributes
    assert hub_store.list("requests") == hub_store.list("requests/") == ["requests/a.json", "requests/b.json"]
    assert hub_store.list("req") == [] and hub_store.list("nothing") == []
    assert hub_store.list("requests/a.json") == []  # a file is not a folder
    assert hub_store.read("uploads/b.tsv") == b"t" and hub_store.read("uploads") is None
    assert hub_store.exists("README.md") and not hub_store.exists("missing.json")


def test_each_commit_is_one_hub_commit_on_its_parent(hub, hub_store):
    hub_store.commit({"x/1": b"1"}, message="one")
    hub_store.commit({"x/2": b"2"}, ["x/1"], message="two")
    history = hub.history(REPO)
    assert [c.message for c in history] == ["initial commit", "seed", "one", "two"]
    assert all(c.parent == p.sha for p, c in zip(history, history[1:], strict=False))
    assert hub_store.head() == history[-1].sha
    assert set(hub.files(REPO)) == {".gitattributes", "requests/a.json", "x/2"}


def test_nothing_to_do_makes_no_hub_call(hub, hub_store):
    before = sum(hub.calls.values())
    hub_store.commit({})
    assert sum(hub.calls.values()) == before
    hub_store.commit({}, ["never/was.json"])  # deleting what is not there is a no-op, not a 404
    assert hub.calls["create_commit"] == 1 and len(hub.history(REPO)) == 2


def test_rewriting_identical_content_adds_no_commit(hub, hub_store):
    hub_store.commit({"requests/a.json": b"A"})
    assert len(hub.history(REPO)) == 2


@pytest.mark.parametrize("bad", ["", "/abs", "a/../b", "a//b", "a\\b", "./a"])
def test_bad_paths_are_refused(hub_store, bad):
    with pytest.raises(ValueError, match="relative POSIX path"):
        hub_store.commit({bad: b"x"})


def test_writing_and_deleting_one_path_is_refused(hub_store):
    with pytest.raises(ValueError, match="both written and deleted"):
        hub_store.commit({"a": b"1"}, ["a"])


# -- rate limits and server errors ---------------------------------------------------------------


def test_429_waits_at_least_retry_after(hub, hub_store, clock):
    hub.inject("create_commit", Http(429, retry_after=7))
    hub_store.commit({"x": b"1"}, message="after 429")
    assert len(clock.sleeps) == 1 and clock.sleeps[0] >= 7
    assert messages(hub)[-1] == "after 429" and hub.calls["create_commit"] == 3  # seed, refused, landed


@pytest.mark.parametrize("status", [500, 502, 503])
def test_server_errors_back_off_exponentially_with_jitter(hub, hub_store, clock, status):
    hub.inject("create_commit", Http(status), Http(status), Http(status))
    hub_store.commit({"x": b"1"})
    # Attempt n waits uniform [d/2, d] with d = 1, 2, 4 s (RetryPolicy defaults).
    assert [d / 2 <= s <= d for s, d in zip(clock.sleeps, [1, 2, 4], strict=True)] == [True] * 3
    assert hub.files(REPO)["x"] == b"1"


def test_backoff_is_capped(hub, clock):
    store = open_hub_store(hub, clock, retry=RetryPolicy(base_s=1, cap_s=4, budget_s=1000, max_attempts=20))
    store.commit({"seed": b""})
    hub.inject("create_commit", *[Http(503)] * 6)
    store.commit({"x": b"1"})
    assert max(clock.sleeps) <= 4 and min(clock.sleeps[3:]) >= 2  # 1, 2, 4, 4, 4, 4 with jitter


def test_rate_limit_reset_header_counts_as_retry_after():
    with pytest.raises(HfHubHTTPError) as caught:
        _fail(
            429, "POST", "https://huggingface.co/api/datasets/a/b/commit/main", headers={"RateLimit": '"api";r=0;t=55'}
        )
    assert _retry_after(caught.value) == 55


def test_retry_after_beyond_the_budget_gives_up_at_once(hub, hub_store, clock):
    hub.inject("create_commit", Http(429, retry_after=3600))
    with pytest.raises(StorageError, match="nothing was stored"):
        hub_store.commit({"x": b"1"})
    assert clock.sleeps == [] and "x" not in hub.files(REPO)


def test_gives_up_within_the_budget_and_nothing_is_visible(hub, hub_store, clock):
    head = hub_store.head()
    hub.inject("create_commit", *[Http(429, retry_after=5)] * 100)
    start = clock.now()
    with pytest.raises(StorageError, match="gave up after .* nothing was stored"):
        hub_store.commit({"requests/a.json": b"changed", "requests/new.json": b"N"})
    assert clock.now() - start <= RetryPolicy().budget_s
    assert hub.repo(REPO).head.sha == head
    assert hub_store.read("requests/a.json") == b"A" and hub_store.read("requests/new.json") is None


def test_max_attempts_bounds_the_retries(hub, clock):
    store = open_hub_store(hub, clock, retry=RetryPolicy(base_s=0.01, budget_s=1000, max_attempts=4))
    store.commit({"seed": b""})
    hub.inject("create_commit", *[Http(502)] * 10)
    with pytest.raises(StorageError, match="after 4 attempts"):
        store.commit({"x": b"1"})
    assert hub.calls["create_commit"] == 1 + 4 and len(clock.sleeps) == 3


@pytest.mark.parametrize("status", [400, 401, 403, 422])
def test_client_errors_are_not_retried(hub, hub_store, clock, status):
    hub.inject("create_commit", Http(status))
    with pytest.raises(StorageError, match="refused"):
        hub_store.commit({"x": b"1"})
    assert clock.sleeps == [] and hub.calls["create_commit"] == 2


def test_a_dropped_connection_is_retried(hub, hub_store):
    hub.inject("create_commit", Disconnect())
    hub.inject("repo_info", Disconnect())  # the head lookup between attempts fails too
    hub_store.commit({"x": b"1"}, message="after disconnect")
    assert messages(hub).count("after disconnect") == 1


# -- lost races ----------------------------------------------------------------------------------


def test_a_lost_race_is_rebased_on_the_new_head(hub, hub_store):
    hub.inject("create_commit", Race({"requests/other.json": b"O"}))
    hub_store.commit({"requests/mine.json": b"M"}, message="mine")
    history = hub.history(REPO)
    assert [c.message for c in history[-2:]] == ["other writer", "mine"]
    assert history[-1].parent == history[-2].sha
    assert hub_store.list("requests") == ["requests/a.json", "requests/mine.json", "requests/other.json"]


def test_several_lost_races_in_a_row(hub, hub_store, clock):
    hub.inject("create_commit", *[Race({f"other/{i}": b"o"}) for i in range(5)])
    hub_store.commit({"mine": b"M"}, message="mine")
    assert messages(hub)[-6:] == ["other writer"] * 5 + ["mine"]
    assert all(0 <= s < RetryPolicy().conflict_pause_s for s in clock.sleeps)


def test_a_race_that_already_deleted_our_target(hub, hub_store):
    hub.inject("create_commit", Race(deletes=("requests/a.json",)))
    hub_store.commit({"requests/b.json": b"B"}, ["requests/a.json"], message="mine")
    assert set(hub.files(REPO)) == {".gitattributes", "requests/b.json"}
    assert messages(hub)[-1] == "mine"


def test_two_writers_with_stale_heads_both_land(hub, clock):
    first, second = open_hub_store(hub, clock), open_hub_store(hub, clock)
    first.commit({"a": b"1"})
    second.commit({"b": b"2"})  # first's known head is now stale
    first.commit({"c": b"3"})
    assert hub.files(REPO).keys() == {".gitattributes", "a", "b", "c"}
    assert first.read("b") == b"2" and second.read("c") == b"3"


def test_concurrent_writers_lose_nothing(hub, clock):
    policy = RetryPolicy(budget_s=10_000, max_attempts=1000)
    writers = [open_hub_store(hub, clock, retry=policy) for _ in range(3)]
    writers[0].commit({"seed": b""})

    def write(index: int, store: HubStorage) -> None:
        for n in range(15):
            store.commit({f"w{index}/{n}": b"%d" % n}, message=f"w{index}-{n}")

    threads = [threading.Thread(target=write, args=(i, s)) for i, s in enumerate(writers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    files = hub.files(REPO)
    assert all(files[f"w{i}/{n}"] == b"%d" % n for i in range(3) for n in range(15))
    assert len(hub.history(REPO)) == 2 + 45  # initial, seed, one per write: no duplicates


# -- lost responses: the commit landed, the answer did not -----------------------------------------


@pytest.mark.parametrize("status", [502, 504, None], ids=["502", "504", "read-timeout"])
def test_a_lost_response_is_not_committed_twice(hub, hub_store, status):
    hub.inject("create_commit", LostResponse(status))
    hub_store.commit({"requests/b.json": b"B"}, ["requests/a.json"], message="mine")
    assert messages(hub).count("mine") == 1
    assert hub.calls["create_commit"] == 2  # seed + the lost one: found at the head, not sent again
    assert hub_store.read("requests/b.json") == b"B" and hub_store.read("requests/a.json") is None


def test_a_lost_response_followed_by_another_writer(hub, hub_store):
    hub.inject("create_commit", LostResponse(503))
    hub.inject("repo_info", Race({"other": b"o"}))  # lands between our lost commit and our head lookup
    hub_store.commit({"mine": b"M"}, message="mine")
    assert messages(hub)[-2:] == ["mine", "other writer"] and hub.calls["create_commit"] == 2


def test_a_lost_large_file_is_recognised_by_its_lfs_sha256(tmp_path, clock):
    hub = FakeHub(tmp_path / "hub", clock=clock.now, lfs_threshold=16)
    store = open_hub_store(hub, clock)
    store.commit({"seed": b""})
    hub.inject("create_commit", LostResponse(500))
    store.commit({"uploads/big.tsv": b"x" * 100}, message="big")
    assert messages(hub).count("big") == 1 and hub.calls["create_commit"] == 2
    assert hub.api().get_paths_info(REPO, ["uploads/big.tsv"], repo_type="dataset")[0].lfs is not None


def test_a_lost_response_found_at_the_last_look(hub, hub_store, clock):
    # The commit lands, its answer is lost, and every later head lookup fails until the budget is spent;
    # the final look after the budget finds it, so it is acknowledged rather than reported as failed.
    hub.inject("create_commit", LostResponse(502))
    hub.inject("repo_info", *[Http(503)] * 6)
    hub.inject("create_commit", *[Http(503)] * 20)
    hub_store.commit({"mine": b"M"}, message="mine")
    assert messages(hub).count("mine") == 1


def test_silence_after_a_lost_response_is_reported_as_unknown(hub, hub_store):
    hub.inject("create_commit", LostResponse(502), *[Http(503)] * 50)
    hub.inject("repo_info", *[Http(503)] * 50)
    with pytest.raises(StorageError, match="may still appear, unacknowledged"):
        hub_store.commit({"mine": b"M"}, message="mine")
    assert messages(hub).count("mine") == 1  # it did land: the caller must not have told anyone


# -- reads and the read cache --------------------------------------------------------------------


def test_repeated_reads_at_one_head_download_once(hub, hub_store):
    hub_store.commit({"other": b"o"})  # a new head whose files are not yet cached, but for "other"
    assert hub_store.read("requests/a.json") == b"A"
    assert hub_store.read("requests/a.json") == b"A"
    assert hub_store.read("other") == b"o"  # seeded by our own commit
    assert hub_store.read("missing") is None and hub_store.read("missing") is None
    assert hub.calls["hf_hub_download"] == 2  # a.json once, missing once


def test_reads_see_other_writers_commits(hub, hub_store):
    assert hub_store.read("requests/a.json") == b"A" and hub_store.list("requests") == ["requests/a.json"]
    hub.external_commit(REPO, {"requests/a.json": b"A2", "requests/z.json": b"Z"})
    assert hub_store.read("requests/a.json") == b"A2"
    assert hub_store.list("requests") == ["requests/a.json", "requests/z.json"]
    hub.external_commit(REPO, {}, ["requests/a.json"])
    assert hub_store.read("requests/a.json") is None and hub_store.list("requests") == ["requests/z.json"]


def test_head_ttl_trades_freshness_for_fewer_calls(hub, clock):
    store = open_hub_store(hub, clock, head_ttl_s=2.0)
    store.commit({"a": b"1"})
    hub.external_commit(REPO, {"a": b"2"})
    lookups = hub.calls["repo_info"]
    assert store.read("a") == b"1"  # within the TTL: the head we know
    assert hub.calls["repo_info"] == lookups
    clock.sleep(2.0)
    assert store.read("a") == b"2"


def test_a_read_retries_a_struggling_hub(hub, hub_store, clock):
    hub.external_commit(REPO, {"requests/b.json": b"B"})  # not in our cache
    hub.inject("hf_hub_download", Http(503), Disconnect(), Http(429, retry_after=3))
    assert hub_store.read("requests/b.json") == b"B"
    assert len(clock.sleeps) == 3 and clock.sleeps[2] >= 3


def test_a_read_gives_up_with_storage_error(hub, hub_store):
    hub.inject("repo_info", *[Http(500)] * 100)
    with pytest.raises(StorageError, match="could not resolve the head"):
        hub_store.read("requests/a.json")


def test_the_cache_is_bounded_and_skips_large_files(hub, clock):
    store = open_hub_store(hub, clock, cache_entries=2, cache_max_bytes=4)
    hub.create(REPO)
    hub.external_commit(REPO, {"a": b"1", "b": b"2", "c": b"3", "big": b"12345"})
    for path in ["a", "b", "c", "a", "big", "big"]:
        store.read(path)
    assert hub.calls["hf_hub_download"] == 6  # "a" was evicted by "c"; "big" is never kept


# -- batching ------------------------------------------------------------------------------------


def test_n_staged_writes_make_one_commit(hub, hub_store):
    writer = DeferredWriter(hub_store, interval_s=30)
    for n in range(50):
        writer.stage({f"audit/2025-01/{n:04d}.json": b"{}"})
    writer.stage({"requests/a.json": b"heartbeat 1"})
    writer.stage({"requests/a.json": b"heartbeat 2"})  # replaces the first
    assert hub.calls["create_commit"] == 1 and writer.pending == 51
    writer.flush()
    assert hub.calls["create_commit"] == 2 and writer.pending == 0
    assert len(hub_store.list("audit")) == 50 and hub_store.read("requests/a.json") == b"heartbeat 2"


def test_maybe_flush_waits_for_the_interval(hub, hub_store, clock):
    writer = DeferredWriter(hub_store, interval_s=30, clock=clock.now)
    writer.stage({"h": b"1"})
    assert not writer.maybe_flush()
    clock.sleep(29.9)
    assert not writer.maybe_flush()
    clock.sleep(0.1)
    assert writer.maybe_flush() and not writer.maybe_flush()  # nothing staged now
    writer.stage({"h": b"2"})
    assert not writer.maybe_flush()  # the interval restarts at each flush
    assert hub.files(REPO)["h"] == b"1"


def test_staged_deletes_and_reads_through_the_writer(hub_store):
    writer = DeferredWriter(hub_store)
    writer.stage({"x": b"1"})
    writer.stage({}, ["requests/a.json"])
    assert writer.read("x") == b"1" and writer.read("requests/a.json") is None
    writer.stage({"x": b"2"}, ["x"])  # deletes apply after puts of the same call
    writer.flush()
    assert hub_store.read("requests/a.json") is None and not hub_store.exists("x")


def test_a_failed_flush_keeps_the_writes_staged(hub, hub_store, clock):
    writer = DeferredWriter(hub_store, clock=clock.now)
    writer.stage({"h": b"old", "audit/1.json": b"{}"})
    hub.inject("create_commit", *[Http(503)] * 100)
    with pytest.raises(StorageError):
        writer.flush()
    writer.stage({"h": b"new"})  # staged after the failure: wins
    hub.clear_faults()
    writer.flush()
    assert hub.files(REPO)["h"] == b"new" and hub.files(REPO)["audit/1.json"] == b"{}"


def test_an_urgent_change_carries_the_staged_writes(hub, hub_store):
    writer = DeferredWriter(hub_store)
    writer.stage({"status/heartbeat": b"t1", "requests/a.json": b"stale"})
    writer.flush({"requests/a.json": b"acknowledged"}, message="submission")
    assert messages(hub)[-1] == "submission" and hub.calls["create_commit"] == 2
    assert hub_store.read("requests/a.json") == b"acknowledged" and hub_store.read("status/heartbeat") == b"t1"


def test_a_failed_urgent_flush_keeps_staged_but_not_urgent_writes(hub, hub_store):
    writer = DeferredWriter(hub_store)
    writer.stage({"requests/a.json": b"staged"})
    hub.inject("create_commit", Http(403))
    with pytest.raises(StorageError):
        writer.flush({"requests/a.json": b"urgent", "u": b"1"})
    assert writer.read("requests/a.json") == b"staged" and writer.pending == 1


def test_close_flushes_and_the_background_thread_stops(hub, hub_store):
    with DeferredWriter(hub_store, interval_s=3600) as writer:
        writer.start(tick_s=3600)
        writer.stage({"last/words": b"bye"})
    assert hub_store.read("last/words") == b"bye"


def test_a_bad_path_is_refused_when_staged(hub_store):
    with pytest.raises(ValueError, match="relative POSIX path"):
        DeferredWriter(hub_store).stage({"../escape": b""})


def test_deferred_heartbeats_stay_under_the_commit_quota(tmp_path, clock):
    # A made-up quota of 10 commits per 5 minutes; one heartbeat every 5 s for an hour, flushed every 30 s.
    hub = FakeHub(tmp_path / "hub", clock=clock.now, commit_limit=(10, 300))
    store = open_hub_store(hub, clock)
    writer = DeferredWriter(store, interval_s=30, clock=clock.now)
    for beat in range(720):
        writer.stage({"requests/job.json": b"beat %d" % beat})
        writer.maybe_flush()
        clock.sleep(5)
    writer.close()
    assert hub.faults_served.total() == 0 and len(hub.history(REPO)) <= 1 + 3600 / 30 + 1
    assert hub.files(REPO)["requests/job.json"] == b"beat 719"


def test_commits_beyond_the_quota_wait_for_it(tmp_path, clock):
    hub = FakeHub(tmp_path / "hub", clock=clock.now, commit_limit=(3, 60))
    store = open_hub_store(hub, clock)
    for n in range(4):
        store.commit({f"r/{n}": b""})  # the 4th one is refused once, then lands after Retry-After
    assert len(hub.history(REPO)) == 5 and clock.sleeps and clock.sleeps[0] >= 1


# -- chaos ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(5))
def test_under_chaos_every_acknowledged_commit_lands_exactly_once(tmp_path, clock, seed):
    hub = FakeHub(tmp_path / "hub", clock=clock.now)
    writers = [open_hub_store(hub, clock) for _ in range(2)]
    writers[0].commit({"seed": b""})
    hub.chaos(seed, methods=("create_commit", "repo_info", "get_paths_info", "hf_hub_download"),
              throttle=0.1, unavailable=0.1, race=0.1, lost=0.1, disconnect=0.05)  # fmt: skip
    rng = random.Random(seed)
    acknowledged, refused = {}, []
    for n in range(40):
        store = rng.choice(writers)
        path, data, message = f"requests/{n}.json", b"%d" % n, f"write {n}"
        try:
            store.commit({path: data}, message=message)
            acknowledged[path] = (data, message)
        except StorageError as err:
            refused.append((path, message, str(err)))
    assert hub.faults_served.total() > 0
    files, history = hub.files(REPO), messages(hub)
    for path, (data, message) in acknowledged.items():
        assert files[path] == data and history.count(message) == 1
    for path, message, error in refused:
        assert history.count(message) <= 1
        assert path not in files or "may still appear" in error
    hub.clear_faults()
    for store in writers:
        assert all(store.read(path) == data for path, (data, _) in acknowledged.items())
