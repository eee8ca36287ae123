"""Gradio's per-visit message queues ("mailboxes"): none evicted while in use, and none missing can stop the queue.

Gradio's queue keeps one ``asyncio.Queue`` of messages per visit (``Queue.pending_messages_per_session``)
in an ``LRUCache(2000)`` ordered by when the visit first called: the 2,001st new visit evicts the
oldest mailbox, even while its visit still has events waiting or running. The next message for that
visit (its place in the queue, or its result) then raises ``KeyError`` in ``Queue.send_message``, and
when that happens in the loop that starts events (``start_processing`` -> ``broadcast_estimations``),
the loop ends and marks the queue stopped: every event of every visitor is refused with
``503 Queue is stopped`` until the app restarts. Found by ``benchmarks/bench_attack_latency.py``
(2026-11-27): 8 explorer draws kept one visit waiting for a minute while 5 viewers and the other
attacks made ~2,000 new visits; the page never answered again. Anyone can make 2,000 visits: the
Space could be stopped by whoever keeps one event waiting and reloads the page enough.

``protect`` (called at server start, before any visit) gives the queue:

- ``Mailboxes``: at most ``capacity`` mailboxes, evicting the oldest *idle* one (no event of its visit
  pending, no stream reading it). Busy mailboxes are never evicted; there are only as many as events
  in flight, which the callers' limits bound (``space.guard``).
- a ``send_message`` that drops a message for a visit whose mailbox is gone instead of raising: Gradio
  itself deletes a mailbox when its reader disconnects, while that visit's event may still run.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from typing import Any

from gradio.queueing import Queue
from gradio.utils import LRUCache

log = logging.getLogger(__name__)


class Mailboxes(LRUCache):
    """Gradio's ``LRUCache`` of mailboxes, with eviction limited to idle ones (see the module's docstring)."""

    def __init__(self, queue: Queue, capacity: int) -> None:
        super().__init__(capacity)
        self.pending = queue.pending_event_ids_session  # the same dict the queue updates
        self.update(queue.pending_messages_per_session)

    def __setitem__(self, key: str, value: Any) -> None:
        if key not in self and len(self) >= self.max_size:
            self._evict_one_idle()
        OrderedDict.__setitem__(self, key, value)  # not LRUCache's: it would evict blindly
        self.move_to_end(key)

    def idle(self, session: str) -> bool:
        """No event of ``session`` waits, runs or has an unread result, and no stream waits for its messages."""
        box = OrderedDict.__getitem__(self, session)
        return not self.pending.get(session) and not getattr(box, "_getters", None)

    def _evict_one_idle(self) -> None:
        for session in self:  # oldest first
            if self.idle(session):
                del self[session]
                return
        log.warning("all %d visit mailboxes are in use: keeping one more", len(self))


def protect(queue: Queue, capacity: int) -> None:
    """Install ``Mailboxes`` and the forgiving ``send_message`` on ``queue`` (once; at server start)."""
    if isinstance(queue.pending_messages_per_session, Mailboxes):
        queue.pending_messages_per_session.max_size = capacity
        return
    queue.pending_messages_per_session = Mailboxes(queue, capacity)
    deliver = queue.send_message

    def send_message(event: Any, message: Any) -> None:
        if event.session_hash not in queue.pending_messages_per_session:
            log.info("dropped a message for visit %s: its mailbox is gone (its reader left)", event.session_hash)
            return
        deliver(event, message)

    queue.send_message = send_message  # type: ignore[method-assign,assignment]
