"""What ``space/workspace/gradio_internals.py`` does to Gradio, over HTTP against the real site: each test fails when a
Gradio upgrade renames or changes what a workaround relies on (no version pin).

Gradio keeps a copy of the page per visit (``gradio.state_holder``); the app keeps at most ``MAX_VISITS``
of them and drops a visit's copy once its tab has closed. These tests load the signed-in pages over HTTP,
as a browser does, many more times than the bound, and look at the server's store itself: its size, not a
timing.
"""

from __future__ import annotations

import secrets
import sys
from collections.abc import Iterator
from types import SimpleNamespace

import httpx
import pytest

from space.web.server import DESK_PATH, WORKSPACE_PATH
from space.web.settings import SpaceSettings
from space.workspace import gradio_internals
from tests.space.served_site import Site, demo_site

BOUND = 5
VISITS = 4 * BOUND


@pytest.fixture
def site(tmp_path, demo_dataset, demo_public, key_cache, monkeypatch) -> Iterator[Site]:
    with demo_site(tmp_path / "home", (demo_dataset, demo_public), key_cache, monkeypatch, max_visits=BOUND) as running:
        yield running


@pytest.fixture
def served_(site: Site):
    """``(url, the workspace's Gradio app, the desk's)``: visits go to ``WORKSPACE_PATH`` unless told otherwise."""
    return site.url, site.workspace, site.desk


def visit(client: httpx.Client, path: str = WORKSPACE_PATH, session: str | None = None) -> str:
    """Load a page as a browser does: the page, then every event it fires on load, in one new session
    (or in ``session``)."""
    client.get(f"{path}/").raise_for_status()
    config = client.get(f"{path}/config").json()
    session = session or secrets.token_hex(6)
    for dep in load_events(config):
        event_id = post_event(client, config, dep, session, path)
        stream = client.get(f"{path}/gradio_api/call/{dep['api_name']}/{event_id}").text
        assert "event: complete" in stream, stream[:300]
    return session


def load_events(config: dict) -> list[dict]:
    loads = [d for d in config["dependencies"] if any(t[1] == "load" for t in d["targets"]) and d.get("api_name")]
    assert loads, "the page fires no load event: nothing would be measured"
    return loads


def post_event(client: httpx.Client, config: dict, dep: dict, session: str, path: str = WORKSPACE_PATH) -> str:
    """Queue ``dep`` with the page's default inputs in ``session``; its event id (its answer is not read)."""
    data = [_value(config, i) for i in dep["inputs"]]
    posted = client.post(f"{path}/gradio_api/call/{dep['api_name']}", json={"data": data, "session_hash": session})
    posted.raise_for_status()
    return str(posted.json()["event_id"])


def test_page_visits_keep_at_most_max_visits_states(served_):
    url, demo, desk = served_
    seen = []
    with httpx.Client(base_url=url, timeout=60) as client:
        for _ in range(VISITS):
            seen.append(visit(client))
            seen.append(visit(client, DESK_PATH))
    kept = demo.state_holder.session_data
    assert len(kept) <= BOUND, f"{len(kept)} visits kept after {VISITS}, bound {BOUND}"
    assert len(desk.state_holder.session_data) <= BOUND
    assert list(kept) == [s for s in seen if s in kept][-len(kept) :], "the newest visits are the ones kept"
    assert len(demo.state_holder.time_last_used) <= BOUND  # Gradio's side table shrinks with it


def test_the_queue_keeps_few_past_events_and_never_summarises_them(served_):
    url, demo, _ = served_
    with httpx.Client(base_url=url, timeout=60) as client:
        for _ in range(VISITS):
            visit(client)
    queue = demo.get_blocks()._queue
    assert queue.events_recorded >= VISITS  # events were recorded: the bound below is not vacuous
    assert len(queue.event_analytics) <= int(gradio_internals.QUIET_ANALYTICS["GRADIO_ANALYTICS_MAX_EVENTS"])
    assert queue.ANAYLTICS_CACHE_FREQUENCY == sys.maxsize  # (sic) Gradio read the setting: no summary ever
    # Gradio rebuilds this pandas summary of every recorded event after each event unless told not to.
    assert queue.cached_event_analytics_summary == {"functions": {}}


def test_a_closed_visit_leaves_nothing(served_):
    url, demo, _ = served_
    with httpx.Client(base_url=url, timeout=60) as client:
        sessions = [visit(client) for _ in range(3)]
    holder = demo.state_holder
    assert set(sessions) <= set(holder.session_data)
    holder.session_data[sessions[0]].is_closed = True  # what Gradio's heartbeat does when the tab closes
    assert gradio_internals.forget_closed(holder) == 1
    assert sessions[0] not in holder.session_data and sessions[0] not in holder.time_last_used
    assert set(sessions[1:]) <= set(holder.session_data)  # open visits keep their state


def test_the_public_board_is_no_gradio_page_and_the_workspace_does_not_carry_the_desk(served_):
    url, workspace, desk = served_
    board = httpx.get(f"{url}/", timeout=30)
    assert board.status_code == 200 and "gradio_config" not in board.text and "leaderboard-table" in board.text
    page = httpx.get(f"{url}{WORKSPACE_PATH}/config", timeout=30).json()
    ids = {c["props"].get("elem_id") for c in page["components"]}
    names = {d.get("api_name") for d in page["dependencies"]}
    assert "approve-button" not in ids and not names & {"approve", "reject", "maintainers_refresh"}
    desk_page = httpx.get(f"{url}{DESK_PATH}/config", timeout=30).json()
    assert {"approve", "reject", "maintainers_refresh"} <= {d.get("api_name") for d in desk_page["dependencies"]}


def test_visits_are_bounded_by_gradios_own_setting(served_):
    _, workspace, desk = served_
    assert workspace.state_holder.capacity == desk.state_holder.capacity == BOUND


def test_max_visits_is_a_setting():
    assert SpaceSettings.from_env({"MAX_VISITS": "7"}).max_visits == 7
    assert SpaceSettings.from_env({}).max_visits == SpaceSettings().max_visits


def _value(config: dict, component_id: int) -> object:
    component = next(c for c in config["components"] if c["id"] == component_id)
    return component["props"].get("value")


def test_delivered_events_leave_no_set_per_visit(served_):
    """Gradio kept an empty set per visit once its events were delivered: one per page load, forever
    (the 2026-11-27 soak: +50 MB and p95 x2 in 30 minutes)."""
    url, demo, _ = served_
    with httpx.Client(base_url=url, timeout=60) as client:
        sessions = [visit(client) for _ in range(VISITS)]
    pending = demo.get_blocks()._queue.pending_event_ids_session
    left = [s for s in sessions if s in pending]
    assert left and all(not pending[s] for s in left)  # what Gradio leaves: the bound below is not vacuous
    assert gradio_internals.forget_delivered(demo.get_blocks()._queue) >= len(left)
    assert not any(s in pending for s in sessions)
    with httpx.Client(base_url=url, timeout=60) as client:
        visit(client, session=sessions[0])  # the same visit calls again: each event completes (visit asserts it)
    assert sessions[0] in pending and not pending[sessions[0]]  # Gradio made its set again, and emptied it


def test_a_waiting_visit_keeps_its_mailbox_through_many_new_visits(served_):
    """Gradio evicted the oldest visit's mailbox at its 2,001st new visit even while that visit's event was in
    flight; the next message for it raised in the queue's loop and stopped the queue for everyone (the
    2026-11-27 attack benchmark: 503 "Queue is stopped" from then on). Here the bound is ``BOUND`` visits."""
    url, demo, _ = served_
    with httpx.Client(base_url=url, timeout=60) as client:
        config = client.get(f"{WORKSPACE_PATH}/config").json()
        load, waiting = load_events(config)[0], secrets.token_hex(6)
        event_id = post_event(client, config, load, waiting)  # its answer unread: in flight, as behind a long draw
        others = [visit(client) for _ in range(VISITS)]
        mailboxes = demo.get_blocks()._queue.pending_messages_per_session
        assert len(mailboxes) <= BOUND + 1, f"{len(mailboxes)} mailboxes kept after {VISITS} visits"
        assert waiting in mailboxes and others[-1] in mailboxes
        stream = client.get(f"{WORKSPACE_PATH}/gradio_api/call/{load['api_name']}/{event_id}").text
        assert "event: complete" in stream, stream[:300]  # the waiting visit still gets its answer
        visit(client)  # and the queue still serves everyone
    assert not demo.get_blocks()._queue.stopped


def test_a_message_for_a_gone_mailbox_is_dropped_not_raised(served_):
    """Gradio deletes a visit's mailbox when its reader disconnects, while its event may still run: the
    message that event sends next must not raise in the queue's loop (which would stop the queue)."""
    _, demo, _ = served_
    gone = SimpleNamespace(session_hash="reader-left", alive=True, _id="e1")
    demo.get_blocks()._queue.send_message(gone, SimpleNamespace(event_id=None))
    assert not demo.get_blocks()._queue.stopped


def test_mounted_pages_check_file_inputs_as_launched_ones_do(served_):
    """Gradio skips its check of an input's file (an upload, not a blocked path) until ``has_launched``."""
    _, workspace, desk = served_
    assert workspace.get_blocks().has_launched and desk.get_blocks().has_launched


def test_events_a_page_left_unread_are_counted_and_can_be_forgotten(served_):
    """``space/workspace/events.py`` caps what one caller holds with ``pending_counter`` and forgets what a page
    that left never read with ``unread_forgetter``: Gradio itself keeps an unread result, and its mailbox, for ever."""
    url, demo, _ = served_
    blocks = demo.get_blocks()
    pending, forget = gradio_internals.pending_counter(blocks), gradio_internals.unread_forgetter(blocks)
    with httpx.Client(base_url=url, timeout=60) as client:
        config = client.get(f"{WORKSPACE_PATH}/config").json()
        left = secrets.token_hex(6)
        post_event(client, config, load_events(config)[0], left)  # its answer never read: the page left
        assert pending(left) == 1
        assert forget(left) and pending(left) == 0
        assert left not in blocks._queue.pending_messages_per_session
        visit(client)  # the queue still serves everyone
    assert not blocks._queue.stopped
