"""``DeferredWriter`` over ``HubStorage`` over HTTP: staged writes make few commits, and stay under the commit quota."""

from __future__ import annotations

import pytest

from leaderboard.storage.base import StorageError
from leaderboard.storage.batching import DeferredWriter
from leaderboard.storage.hub import HubStorage
from tests.hub.clock import FakeClock
from tests.hub.hub_faults import Http
from tests.hub.server import LocalHub
from tests.hub.test_hub_storage_http import REPO, open_hub_store


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def hub_store(hub: LocalHub, clock: FakeClock) -> HubStorage:
    store = open_hub_store(clock)
    store.commit({"requests/a.json": b"A"}, message="seed")
    return store


def test_n_staged_writes_make_one_commit(hub, hub_store):
    writer = DeferredWriter(hub_store, interval_s=30)
    for n in range(50):
        writer.stage({f"audit/2025-01/{n:04d}.json": b"{}"})
    writer.stage({"requests/a.json": b"heartbeat 1"})
    writer.stage({"requests/a.json": b"heartbeat 2"})  # replaces the first
    assert len(hub.calls("commit")) == 1 and writer.pending == 51
    writer.flush()
    assert len(hub.calls("commit")) == 2 and writer.pending == 0
    assert len(hub.calls("commit")[-1].detail["operations"]) == 51
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
    hub.faults.add("commit", *[Http(503)] * 100)
    with pytest.raises(StorageError):
        writer.flush()
    writer.stage({"h": b"new"})  # staged after the failure: wins
    hub.faults.clear()
    writer.flush()
    assert hub.files(REPO)["h"] == b"new" and hub.files(REPO)["audit/1.json"] == b"{}"


def test_an_urgent_change_carries_the_staged_writes(hub, hub_store):
    writer = DeferredWriter(hub_store)
    writer.stage({"status/heartbeat": b"t1", "requests/a.json": b"stale"})
    writer.flush({"requests/a.json": b"acknowledged"}, message="submission")
    assert hub.messages(REPO)[-1] == "submission" and len(hub.calls("commit")) == 2
    assert hub_store.read("requests/a.json") == b"acknowledged" and hub_store.read("status/heartbeat") == b"t1"


def test_a_failed_urgent_flush_keeps_staged_but_not_urgent_writes(hub, hub_store):
    writer = DeferredWriter(hub_store)
    writer.stage({"requests/a.json": b"staged"})
    hub.faults.add("commit", Http(403))
    with pytest.raises(StorageError):
        writer.flush({"requests/a.json": b"urgent", "u": b"1"})
    assert writer.read("requests/a.json") == b"staged" and writer.pending == 1


def test_close_flushes_and_the_background_thread_stops(hub_store):
    with DeferredWriter(hub_store, interval_s=3600) as writer:
        writer.start(tick_s=3600)
        writer.stage({"last/words": b"bye"})
    assert hub_store.read("last/words") == b"bye"


def test_a_bad_path_is_refused_when_staged(hub_store):
    with pytest.raises(ValueError, match="relative POSIX path"):
        DeferredWriter(hub_store).stage({"../escape": b""})


def test_deferred_heartbeats_stay_under_the_commit_quota(hub, clock):
    # A made-up quota of 10 commits per 5 minutes; one heartbeat every 5 s for an hour, flushed every 30 s.
    hub.state.clock = clock.now
    hub.set_quota(commits=10, window_s=300)
    store = open_hub_store(clock)
    writer = DeferredWriter(store, interval_s=30, clock=clock.now)
    for beat in range(720):
        writer.stage({"requests/job.json": b"beat %d" % beat})
        writer.maybe_flush()
        clock.sleep(5)
    writer.close()
    assert {c.status for c in hub.calls("commit")} == {200} and len(hub.history(REPO)) <= 1 + 3600 / 30 + 1
    assert hub.files(REPO)["requests/job.json"] == b"beat 719"


def test_commits_beyond_the_quota_wait_for_it(hub, clock):
    hub.state.clock = clock.now
    hub.set_quota(commits=3, window_s=60)
    store = open_hub_store(clock)
    for n in range(4):
        store.commit({f"r/{n}": b""})  # the 4th one is refused once, then lands after Retry-After
    assert len(hub.history(REPO)) == 5 and clock.sleeps and clock.sleeps[0] >= 1
    assert [c.status for c in hub.calls("commit")] == [200, 200, 200, 429, 200]
