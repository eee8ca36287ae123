"""``HubStorage.commit(expect=...)`` over HTTP: ``parent_commit`` used as the compare-and-swap it is.

A conditional commit is sent on the parent whose content it expects; after a 412 it is re-based
only when the new head still holds the expected bytes, and otherwise refused with ``Conflict``
without another commit going over the wire.
"""

from __future__ import annotations

import pytest

from leaderboard.storage import Conflict
from leaderboard.storage.hub import HubStorage
from tests.hub.clock import FakeClock
from tests.hub.hub_faults import Lost, Race
from tests.hub.server import LocalHub
from tests.hub.test_hub_storage_http import REPO, open_hub_store

JOB = "jobs/x.json"


@pytest.fixture
def store(hub: LocalHub) -> HubStorage:
    store = open_hub_store(FakeClock())
    store.commit({JOB: b"PENDING"}, message="seed")
    return store


def test_what_was_read_is_checked_without_another_request_and_the_parent_is_the_head_read(hub, store):
    read = store.read(JOB)
    head, before = store.head(), len(hub.calls())
    store.commit({JOB: b"RUNNING by me"}, message="claim", expect={JOB: read})
    claim = hub.calls("commit")[-1]
    assert claim.detail["parent"] == head and claim.status == 200
    assert [c.kind for c in hub.calls()[before:]] == ["preupload", "commit"]  # no paths-info: the read answered
    assert hub.files(REPO)[JOB] == b"RUNNING by me"


def test_a_change_elsewhere_is_rebased_and_lands(hub, store):
    read = store.read(JOB)
    hub.faults.add("commit", Race({"requests/other.json": b"another submission"}))
    store.commit({JOB: b"RUNNING by me"}, message="claim", expect={JOB: read})
    assert [c.status for c in hub.calls("commit")][-2:] == [412, 200]
    assert hub.messages(REPO)[-2:] == ["other writer", "claim"]


def test_a_change_to_the_expected_file_is_a_conflict_and_nothing_is_sent_again(hub, store):
    read = store.read(JOB)
    hub.faults.add("commit", Race({JOB: b"RUNNING by another worker"}))
    with pytest.raises(Conflict, match="changed since it was read; nothing was stored"):
        store.commit({JOB: b"RUNNING by me"}, message="claim", expect={JOB: read})
    assert [c.status for c in hub.calls("commit")][-1:] == [412]  # one 412, then a paths-info, no second commit
    assert hub.calls()[-1].kind == "paths_info"
    assert hub.files(REPO)[JOB] == b"RUNNING by another worker" and "claim" not in hub.messages(REPO)


def test_a_stale_read_is_refused_before_anything_is_sent(hub, store):
    read = store.read(JOB)
    hub.state.external_commit(REPO, {JOB: b"FINISHED by another worker"})
    store.head()  # the store learns the new head (another read, a TTL running out)
    sent = len(hub.calls("commit"))
    with pytest.raises(Conflict):
        store.commit({JOB: b"RUNNING by me"}, message="heartbeat", expect={JOB: read})
    assert len(hub.calls("commit")) == sent and hub.files(REPO)[JOB] == b"FINISHED by another worker"


def test_expecting_no_file_is_a_create_if_absent(hub, store):
    store.commit({"jobs/new.json": b"RUNNING"}, message="first", expect={"jobs/new.json": None})
    with pytest.raises(Conflict):
        store.commit({"jobs/new.json": b"RUNNING too"}, message="second", expect={"jobs/new.json": None})
    assert hub.files(REPO)["jobs/new.json"] == b"RUNNING"


def test_a_conditional_commit_whose_answer_was_lost_is_acknowledged_not_refused(hub, store):
    read = store.read(JOB)
    hub.faults.add("commit", Lost(502))
    store.commit({JOB: b"RUNNING by me"}, message="claim", expect={JOB: read})  # landed: its own change is no conflict
    assert hub.messages(REPO).count("claim") == 1 and len(hub.calls("commit")) == 2
