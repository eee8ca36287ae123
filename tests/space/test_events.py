"""Whose visit is whose, and what one caller holds (``space/workspace/events.py``), with a stand-in queue and clock."""

from __future__ import annotations

from space.workspace.events import Caller, EventBook

ALICE = Caller("session:a1", "user:alice", True)
ALICE_PHONE = Caller("session:a2", "user:alice", True)
STRANGER = Caller("address:9.9.9.9", "address:9.9.9.9", False)
WORK = "/submit"


class Queue:
    """Gradio's pending events per visit, as the book sees them."""

    def __init__(self) -> None:
        self.pending: dict[str, int] = {}
        self.reading: set[str] = set()

    def count(self, visit: str) -> int:
        return self.pending.get(visit, 0)

    def forget(self, visit: str) -> bool:
        if visit in self.reading:
            return False
        self.pending.pop(visit, None)
        return True


def book(queue: Queue, now: list[float], **kwargs) -> EventBook:
    made = EventBook(clock=lambda: now[0], **kwargs)
    made.attach(WORK, queue.count, queue.forget)
    return made


def joined(events: EventBook, queue: Queue, visit: str, caller: Caller, cap: int) -> str | None:
    """One join as the Keeper makes it: admitted, queued by Gradio, answered."""
    why = events.join(WORK, visit, caller, cap)
    if why is None:
        queue.pending[visit] = queue.pending.get(visit, 0) + 1
        events.done(caller)
    return why


def test_a_visit_is_its_openers_and_nobody_elses():
    queue, now = Queue(), [0.0]
    events = book(queue, now)
    assert joined(events, queue, "v1", ALICE, cap=8) is None
    assert "belongs to another sign-in" in (events.whose(WORK, "v1", STRANGER) or "")
    assert "belongs to another sign-in" in (joined(events, queue, "v1", ALICE_PHONE, cap=8) or "")
    assert events.whose(WORK, "v1", ALICE) is None and events.whose(WORK, "never-seen", STRANGER) is None


def test_one_user_holds_at_most_the_cap_across_sessions_and_visits():
    queue, now = Queue(), [0.0]
    events = book(queue, now)
    answers = [joined(events, queue, f"v{i}", (ALICE, ALICE_PHONE)[i % 2], cap=3) for i in range(6)]
    assert answers[:3] == [None] * 3 and all("at most 3 at once" in (a or "") for a in answers[3:])
    queue.pending["v0"] = 0  # one is read
    assert joined(events, queue, "v9", ALICE, cap=3) is None
    assert joined(events, queue, "s1", STRANGER, cap=3) is None  # others have their own allowance


def test_joins_on_their_way_in_count_before_gradio_holds_them():
    """A burst of joins is checked before any reaches Gradio's queue: those admitted and not yet answered count."""
    queue, now = Queue(), [0.0]
    events = book(queue, now)
    admitted = [events.join(WORK, f"b{i}", STRANGER, cap=2) for i in range(5)]
    assert admitted[:2] == [None, None] and all(admitted[2:])
    assert events.held(STRANGER.key) == 2


def test_what_a_page_that_left_never_read_stops_counting_unless_a_stream_reads_it():
    queue, now = Queue(), [0.0]
    events = book(queue, now, unread_s=60)
    for i in range(2):
        assert joined(events, queue, f"gone{i}", STRANGER, cap=2) is None
    assert joined(events, queue, "late", STRANGER, cap=2)  # full
    queue.reading.add("gone1")  # that page is still there, its stream open
    now[0] = 61.0
    assert joined(events, queue, "late", STRANGER, cap=2) is None  # gone0 forgotten; gone1 still counts
    assert "gone0" not in queue.pending and queue.pending["gone1"] == 1


def test_a_caller_keeps_a_bounded_number_of_visits():
    queue, now = Queue(), [0.0]
    events = book(queue, now, per_caller=3)
    for i in range(3):
        assert joined(events, queue, f"v{i}", STRANGER, cap=100) is None
    assert "pages open" in (joined(events, queue, "v3", STRANGER, cap=100) or "")
    queue.pending["v0"] = 0  # an idle visit makes room
    assert joined(events, queue, "v3", STRANGER, cap=100) is None


def test_a_page_whose_sign_in_ended_keeps_working_signed_out_and_nobody_else_gets_in():
    queue, now = Queue(), [0.0]
    events = book(queue, now)
    assert joined(events, queue, "v1", ALICE, cap=8) is None
    ended = Caller("address:1.2.3.4", "address:1.2.3.4", False, former=ALICE.owner)  # her cookie, session gone
    assert events.whose(WORK, "v1", ended) is None and joined(events, queue, "v1", ended, cap=8) is None
    assert events.whose(WORK, "v1", STRANGER) is not None
