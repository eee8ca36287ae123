"""``HubStorage`` over HTTP, on the real client: plain use, retries and backoff, lost races, lost answers, reads.

``HubStorage``'s own waits run on a ``FakeClock`` (nothing really sleeps); the client's own backoff
(``http_backoff``, for listings, preuploads and downloads) is recorded by ``client_sleeps``.
"""

from __future__ import annotations

import random
import socket
import threading

import httpx2
import pytest
from huggingface_hub import HfApi
from huggingface_hub.errors import HfHubHTTPError
from huggingface_hub.utils import hf_raise_for_status

from leaderboard.storage.base import StorageError
from leaderboard.storage.hub import HubStorage, RetryPolicy, _retry_after
from tests.hub import chaos
from tests.hub.clock import FakeClock
from tests.hub.conftest import BOSS_TOKEN
from tests.hub.hub_faults import Http, Lost, Race, Reset, Slow
from tests.hub.hub_state import git_blob_sha1
from tests.hub.server import LocalHub

REPO = "org/requests"


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


def open_hub_store(clock: FakeClock, **options) -> HubStorage:
    return HubStorage(REPO, token=BOSS_TOKEN, clock=clock.now, sleep=clock.sleep, rng=random.Random(0), **options)


@pytest.fixture
def hub_store(hub: LocalHub, clock: FakeClock) -> HubStorage:
    store = open_hub_store(clock)
    store.commit({"requests/a.json": b"A"}, message="seed")
    return store


def commits_sent(hub: LocalHub) -> int:
    return len(hub.calls("commit"))


# -- plain use ---------------------------------------------------------------------------------


def test_first_use_creates_a_private_dataset_repo_once(hub, clock):
    store = open_hub_store(clock)
    assert hub.calls() == []  # nothing at construction
    assert store.read("requests/a.json") is None
    store.commit({"requests/a.json": b"A"})
    assert [c.detail["payload"]["visibility"] for c in hub.calls("create_repo")] == ["private"]
    assert hub.state.repo(REPO).private and hub.messages(REPO) == ["initial commit", "update"]


def test_an_existing_public_repo_is_reused(hub, clock):
    hub.state.create(REPO, private=False)
    hub.state.external_commit(REPO, {"data/leaderboard.jsonl": b"{}\n"})
    store = open_hub_store(clock, private=False)
    assert store.read("data/leaderboard.jsonl") == b"{}\n"
    assert not hub.state.repo(REPO).private and [c.status for c in hub.calls("create_repo")] == [409]


def test_read_list_and_layout(hub, hub_store):
    hub_store.commit({"requests/b.json": b"B", "uploads/b.tsv": b"t", "README.md": b"# r"})
    assert hub_store.list() == ["README.md", "requests/a.json", "requests/b.json", "uploads/b.tsv"]  # no .gitattributes
    assert hub_store.list("requests") == hub_store.list("requests/") == ["requests/a.json", "requests/b.json"]
    assert hub_store.list("req") == [] and hub_store.list("nothing") == []
    assert hub_store.list("requests/a.json") == []  # a file is not a folder
    assert hub_store.read("uploads/b.tsv") == b"t" and hub_store.read("uploads") is None
    assert hub_store.read("README.md") is not None and hub_store.read("missing.json") is None


def test_a_long_listing_follows_the_hubs_pages(hub, hub_store):
    hub.app.page_size = 4
    hub_store.commit({f"jobs/{n:02d}.json": b"{}" for n in range(11)})
    assert hub_store.list("jobs") == [f"jobs/{n:02d}.json" for n in range(11)]
    assert len(hub.calls("tree")) == 3


def test_each_commit_is_one_hub_commit_on_its_parent(hub, hub_store):
    hub_store.commit({"x/1": b"1"}, message="one")
    hub_store.commit({"x/2": b"2"}, ["x/1"], message="two")
    history = hub.history(REPO)
    assert [c.message for c in history] == ["initial commit", "seed", "one", "two"]
    assert [c.detail["parent"] for c in hub.calls("commit")] == [c.sha for c in history[:-1]]
    assert hub_store.head() == history[-1].sha
    assert set(hub.files(REPO)) == {".gitattributes", "requests/a.json", "x/2"}


def test_nothing_to_do_makes_no_hub_call(hub, hub_store):
    before = len(hub.calls())
    hub_store.commit({})
    assert len(hub.calls()) == before
    hub_store.commit({}, ["never/was.json"])  # deleting what is not there is a no-op, not a 404
    assert commits_sent(hub) == 1 and len(hub.history(REPO)) == 2


def test_rewriting_identical_content_adds_no_commit(hub, hub_store):
    hub_store.commit({"requests/a.json": b"A"})
    assert len(hub.history(REPO)) == 2 and commits_sent(hub) == 1  # the client drops it after the preupload


@pytest.mark.parametrize("bad", ["", "/abs", "a/../b", "a//b", "a\\b", "./a"])
def test_bad_paths_are_refused(hub_store, bad):
    with pytest.raises(ValueError, match="relative POSIX path"):
        hub_store.commit({bad: b"x"})


def test_writing_and_deleting_one_path_is_refused(hub_store):
    with pytest.raises(ValueError, match="both written and deleted"):
        hub_store.commit({"a": b"1"}, ["a"])


def test_the_real_client_unreachable_is_retried_then_refused(clock):
    # A local port nobody listens on refuses at once: the client's own exceptions are classified as retryable.
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    api = HfApi(endpoint=f"http://127.0.0.1:{port}", token="hf_fake")
    store = HubStorage(REPO, api=api, clock=clock.now, sleep=clock.sleep, retry=RetryPolicy(max_attempts=3))
    with pytest.raises(StorageError, match="could not create the repository"):
        store.read("a")
    assert len(clock.sleeps) == 2
    store._repo_ready = True  # as if created: the commit path against an unreachable Hub
    with pytest.raises(StorageError, match="nothing was stored"):
        store.commit({"a": b"1"})


# -- rate limits and server errors ---------------------------------------------------------------


def test_429_waits_at_least_retry_after(hub, hub_store, clock):
    hub.faults.add("commit", Http(429, retry_after=7))
    hub_store.commit({"x": b"1"}, message="after 429")
    assert len(clock.sleeps) == 1 and clock.sleeps[0] >= 7
    assert hub.messages(REPO)[-1] == "after 429" and [c.status for c in hub.calls("commit")] == [200, 429, 200]


@pytest.mark.parametrize("status", [500, 502, 503])
def test_server_errors_back_off_exponentially_with_jitter(hub, hub_store, clock, status):
    hub.faults.add("commit", Http(status), Http(status), Http(status))
    hub_store.commit({"x": b"1"})
    # Attempt n waits uniform [d/2, d] with d = 1, 2, 4 s (RetryPolicy defaults).
    assert [d / 2 <= s <= d for s, d in zip(clock.sleeps, [1, 2, 4], strict=True)] == [True] * 3
    assert hub.files(REPO)["x"] == b"1"


def test_backoff_is_capped(hub, clock):
    store = open_hub_store(clock, retry=RetryPolicy(base_s=1, cap_s=4, budget_s=1000, max_attempts=20))
    store.commit({"seed": b""})
    hub.faults.add("commit", *[Http(503)] * 6)
    store.commit({"x": b"1"})
    assert max(clock.sleeps) <= 4 and min(clock.sleeps[3:]) >= 2  # 1, 2, 4, 4, 4, 4 with jitter


def test_rate_limit_reset_header_counts_as_retry_after():
    url = "http://127.0.0.1/api/datasets/a/b/commit/main"
    response = httpx2.Response(429, headers={"RateLimit": '"api";r=0;t=55'}, request=httpx2.Request("POST", url))
    with pytest.raises(HfHubHTTPError) as caught:
        hf_raise_for_status(response)
    assert _retry_after(caught.value) == 55


def test_retry_after_beyond_the_budget_gives_up_at_once(hub, hub_store, clock):
    hub.faults.add("commit", Http(429, retry_after=3600))
    with pytest.raises(StorageError, match="nothing was stored"):
        hub_store.commit({"x": b"1"})
    assert clock.sleeps == [] and "x" not in hub.files(REPO)


def test_gives_up_within_the_budget_and_nothing_is_visible(hub, hub_store, clock):
    head = hub_store.head()
    hub.faults.add("commit", *[Http(429, retry_after=5)] * 100)
    start = clock.now()
    with pytest.raises(StorageError, match="gave up after .* nothing was stored"):
        hub_store.commit({"requests/a.json": b"changed", "requests/new.json": b"N"})
    assert clock.now() - start <= RetryPolicy().budget_s
    assert hub.history(REPO)[-1].sha == head
    assert hub_store.read("requests/a.json") == b"A" and hub_store.read("requests/new.json") is None


def test_max_attempts_bounds_the_retries(hub, clock):
    store = open_hub_store(clock, retry=RetryPolicy(base_s=0.01, budget_s=1000, max_attempts=4))
    store.commit({"seed": b""})
    hub.faults.add("commit", *[Http(502)] * 10)
    with pytest.raises(StorageError, match="after 4 attempts"):
        store.commit({"x": b"1"})
    assert commits_sent(hub) == 1 + 4 and len(clock.sleeps) == 3


@pytest.mark.parametrize("status", [400, 401, 403, 422])
def test_client_errors_are_not_retried(hub, hub_store, clock, status):
    hub.faults.add("commit", Http(status))
    with pytest.raises(StorageError, match="refused"):
        hub_store.commit({"x": b"1"})
    assert clock.sleeps == [] and commits_sent(hub) == 2


def test_a_reset_connection_is_retried(hub, hub_store):
    hub.faults.add("commit", Reset())
    hub.faults.add("repo_info", Reset())  # the head lookup between attempts fails too
    hub_store.commit({"x": b"1"}, message="after reset")
    assert hub.messages(REPO).count("after reset") == 1


# -- lost races ----------------------------------------------------------------------------------


def test_a_lost_race_is_rebased_on_the_new_head(hub, hub_store):
    hub.faults.add("commit", Race({"requests/other.json": b"O"}))
    hub_store.commit({"requests/mine.json": b"M"}, message="mine")
    history = hub.history(REPO)
    assert [c.message for c in history[-2:]] == ["other writer", "mine"]
    assert history[-1].parent == history[-2].sha and [c.status for c in hub.calls("commit")][-2:] == [412, 200]
    assert hub_store.list("requests") == ["requests/a.json", "requests/mine.json", "requests/other.json"]


def test_several_lost_races_in_a_row(hub, hub_store, clock):
    hub.faults.add("commit", *[Race({f"other/{i}": b"o"}) for i in range(5)])
    hub_store.commit({"mine": b"M"}, message="mine")
    assert hub.messages(REPO)[-6:] == ["other writer"] * 5 + ["mine"]
    assert all(0 <= s < RetryPolicy().conflict_pause_s for s in clock.sleeps)


def test_a_race_that_already_deleted_our_target(hub, hub_store):
    hub.faults.add("commit", Race({"other": b"o"}, deletes=("requests/a.json",)))
    hub_store.commit({"requests/b.json": b"B"}, ["requests/a.json"], message="mine")
    assert set(hub.files(REPO)) == {".gitattributes", "other", "requests/b.json"}
    assert hub.messages(REPO)[-1] == "mine"


def test_two_writers_with_stale_heads_both_land(hub, clock):
    first, second = open_hub_store(clock), open_hub_store(clock)
    first.commit({"a": b"1"})
    second.commit({"b": b"2"})  # first's known head is now stale
    first.commit({"c": b"3"})
    assert hub.files(REPO).keys() == {".gitattributes", "a", "b", "c"}
    assert first.read("b") == b"2" and second.read("c") == b"3"


def test_concurrent_writers_lose_nothing(hub, clock):
    policy = RetryPolicy(budget_s=10_000, max_attempts=1000)
    writers = [open_hub_store(clock, retry=policy) for _ in range(3)]
    writers[0].commit({"seed": b""})

    def write(index: int, store: HubStorage) -> None:
        for n in range(10):
            store.commit({f"w{index}/{n}": b"%d" % n}, message=f"w{index}-{n}")

    threads = [threading.Thread(target=write, args=(i, s)) for i, s in enumerate(writers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    files = hub.files(REPO)
    assert all(files[f"w{i}/{n}"] == b"%d" % n for i in range(3) for n in range(10))
    assert len(hub.history(REPO)) == 2 + 30  # initial, seed, one per write: no duplicates


# -- lost answers: the commit landed, its answer did not -------------------------------------------


@pytest.mark.parametrize("fault", [Lost(502), Lost(504), Lost(None), Slow(1.0)], ids=["502", "504", "reset", "timeout"])
def test_a_lost_answer_is_not_committed_twice(hub, clock, fault):
    store = open_hub_store(clock, timeout_s=0.5)
    store.commit({"requests/a.json": b"A"}, message="seed")
    hub.faults.add("commit", fault)
    store.commit({"requests/b.json": b"B"}, ["requests/a.json"], message="mine")
    assert hub.messages(REPO).count("mine") == 1
    assert commits_sent(hub) == 2  # seed + the lost one: found at the head, not sent again
    assert store.read("requests/b.json") == b"B" and store.read("requests/a.json") is None


def test_a_lost_answer_followed_by_another_writer(hub, hub_store):
    hub.faults.add("commit", Lost(503))
    hub.faults.add("repo_info", Race({"other": b"o"}))  # lands between our lost commit and our head lookup
    hub_store.commit({"mine": b"M"}, message="mine")
    assert hub.messages(REPO)[-2:] == ["mine", "other writer"] and commits_sent(hub) == 2


def test_a_lost_large_file_is_recognised_by_its_lfs_sha256(start_hub, clock):
    hub = start_hub(lfs_threshold=16)
    store = open_hub_store(clock)
    store.commit({"seed": b""})
    hub.faults.add("commit", Lost(500))
    store.commit({"uploads/big.tsv": b"x" * 100}, message="big")
    assert hub.messages(REPO).count("big") == 1 and commits_sent(hub) == 2
    assert hub.calls("preupload")[-1].detail["modes"] == {"uploads/big.tsv": "lfs"}
    assert HfApi(token=BOSS_TOKEN).get_paths_info(REPO, ["uploads/big.tsv"], repo_type="dataset")[0].lfs is not None


def test_a_lost_answer_found_at_the_last_look(hub, hub_store):
    # The commit lands, its answer is lost, and every later head lookup fails until the budget is spent;
    # the final look after the budget finds it, so it is acknowledged rather than reported as failed.
    hub.faults.add("commit", Lost(502), *[Http(503)] * 20)
    hub.faults.add("repo_info", *[Http(503)] * 6)
    hub_store.commit({"mine": b"M"}, message="mine")
    assert hub.messages(REPO).count("mine") == 1


def test_silence_after_a_lost_answer_is_reported_as_unknown(hub, hub_store):
    hub.faults.add("commit", Lost(502), *[Http(503)] * 50)
    hub.faults.add("repo_info", *[Http(503)] * 50)
    with pytest.raises(StorageError, match="may still appear, unacknowledged"):
        hub_store.commit({"mine": b"M"}, message="mine")
    assert hub.messages(REPO).count("mine") == 1  # it did land: the caller must not have told anyone


# -- reads and the read cache --------------------------------------------------------------------


def test_a_file_is_downloaded_once_whatever_the_head(hub, hub_store):
    hub_store.commit({"other": b"o"})  # a new head; "other" is known from our own commit
    assert hub_store.read("requests/a.json") == b"A"
    assert hub_store.read("requests/a.json") == b"A"
    assert hub_store.read("other") == b"o"
    assert hub_store.read("missing") is None and hub_store.read("missing") is None  # the listing says so
    hub.state.external_commit(REPO, {"requests/b.json": b"B"})  # a new head: a.json unchanged, b.json new
    assert hub_store.read("requests/a.json") == b"A" and hub_store.read("requests/b.json") == b"B"
    # a.json was written by this store (its seed commit): never downloaded; b.json once
    assert [(c.method, c.detail["file"]) for c in hub.calls("resolve")] == [("HEAD", "requests/b.json"),
                                                                            ("GET", "requests/b.json")]  # fmt: skip
    h1, h2 = (c.sha for c in hub.history(REPO)[-2:])
    listings = [c.path.split("/tree/")[1] for c in hub.calls("tree")]
    assert listings == [f"{h1}/requests", h1, f"{h2}/requests"]  # one listing per folder and commit


def test_reads_see_other_writers_commits(hub, hub_store):
    assert hub_store.read("requests/a.json") == b"A" and hub_store.list("requests") == ["requests/a.json"]
    hub.state.external_commit(REPO, {"requests/a.json": b"A2", "requests/z.json": b"Z"})
    assert hub_store.read("requests/a.json") == b"A2"
    assert hub_store.list("requests") == ["requests/a.json", "requests/z.json"]
    hub.state.external_commit(REPO, {}, ["requests/a.json"])
    assert hub_store.read("requests/a.json") is None and hub_store.list("requests") == ["requests/z.json"]


def test_head_ttl_trades_freshness_for_fewer_calls(hub, clock):
    store = open_hub_store(clock, head_ttl_s=2.0)
    store.commit({"a": b"1"})
    hub.state.external_commit(REPO, {"a": b"2"})
    lookups = len(hub.calls("repo_info"))
    assert store.read("a") == b"1"  # within the TTL: the head we know
    assert len(hub.calls("repo_info")) == lookups
    clock.sleep(2.0)
    assert store.read("a") == b"2"


def test_a_read_survives_a_struggling_hub(hub, hub_store, clock, client_sleeps):
    hub.state.external_commit(REPO, {"requests/b.json": b"B"})  # not in our cache
    hub.faults.add("resolve", Http(503), Reset(), Http(429, retry_after=3))
    assert hub_store.read("requests/b.json") == b"B"
    assert [c.status for c in hub.calls("resolve")] == [503, None, 429, 200, 200]  # HEAD x4, then the GET
    assert clock.sleeps + client_sleeps and max(clock.sleeps + client_sleeps) >= 3  # Retry-After honoured


def test_a_read_gives_up_with_storage_error(hub, hub_store):
    hub.faults.add("repo_info", *[Http(500)] * 100)
    with pytest.raises(StorageError, match="could not resolve the head"):
        hub_store.read("requests/a.json")


def test_the_cache_is_bounded_and_skips_large_files(hub, clock):
    store = open_hub_store(clock, cache_entries=2, cache_max_bytes=4)
    hub.state.create(REPO, private=True)
    hub.state.external_commit(REPO, {"a": b"1", "b": b"2", "c": b"3", "big": b"12345"})
    for path in ["a", "b", "c", "a", "big", "big"]:
        assert store.read(path) == hub.files(REPO)[path]
    kept = store._reads.blob_ids()
    assert len(kept) == 2 and git_blob_sha1(b"12345") not in kept  # "a" evicted by "c"; "big" never kept
    # ... so read again, from the client's disk cache at this commit (no request)
    assert [c.detail["file"] for c in hub.calls("resolve") if c.method == "HEAD"] == ["a", "b", "c", "big"]


# -- chaos ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(3))
def test_under_chaos_every_acknowledged_commit_lands_exactly_once(hub, clock, client_sleeps, seed):
    writers = [open_hub_store(clock) for _ in range(2)]
    writers[0].commit({"seed": b""})
    kinds = ("commit", "repo_info", "paths_info", "resolve", "preupload", "tree")
    hub.faults.chaos(seed, chaos.rates(0.15, kinds), chaos.pick)
    rng = random.Random(seed)
    acknowledged, refused = {}, []
    for n in range(30):
        store = rng.choice(writers)
        path, data, message = f"requests/{n}.json", b"%d" % n, f"write {n}"
        try:
            store.commit({path: data}, message=message)
            acknowledged[path] = (data, message)
        except StorageError as err:
            refused.append((path, message, str(err)))
    assert sum(hub.faults.served.values()) > 10
    files, history = hub.files(REPO), hub.messages(REPO)
    for path, (data, message) in acknowledged.items():
        assert files[path] == data and history.count(message) == 1
    for path, message, error in refused:
        assert history.count(message) <= 1
        assert path not in files or "may still appear" in error
    hub.faults.clear()
    for store in writers:
        assert all(store.read(path) == data for path, (data, _) in acknowledged.items())


def test_faults_on_the_lfs_transfer_are_retried_and_the_file_lands_once(start_hub, clock, client_sleeps):
    hub = start_hub(lfs_threshold=16)
    store = open_hub_store(clock)
    store.commit({"seed": b""})
    hub.faults.add("lfs_batch", Http(503))
    hub.faults.add("lfs_upload", Reset(), Http(500))
    hub.faults.add("lfs_verify", Http(502))
    big = bytes(range(256)) * 4
    store.commit({"uploads/big.tsv": big}, message="big")
    assert hub.messages(REPO).count("big") == 1 and hub.files(REPO)["uploads/big.tsv"] == big
    assert [c.status for c in hub.calls() if c.kind.startswith("lfs")] == [503, 200, None, 500, 200, 502, 200]
    assert len(client_sleeps) == 4  # the client's own backoff, one wait per fault
    assert store.read("uploads/big.tsv") == big and len(hub.calls("cdn")) == 1  # an LFS file: read back from the "CDN"
