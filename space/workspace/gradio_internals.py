"""What remains of Gradio's internals that this app touches, each with why; nothing else in the product does.

Readers never reach Gradio (the public pages are plain routes, ``space/site/routes.py``): what is left serves the
signed-in pages (``/submit``, ``/maintainers``), which anyone may still open, so a stranger's visits and
events must stay bounded there too. Each item names the Gradio attribute it relies on, and
``tests/space/test_gradio_internals.py`` fails when an upgrade renames or removes one (not a version pin).

1. **Visits kept** (``bound_visits``): ``Blocks.state_session_capacity``, the value ``launch(state_session_capacity=)``
   sets; ``mount_gradio_app`` has no such parameter, so it is set on the Blocks before mounting. Gradio's
   ``StateHolder`` then keeps at most that many visits' state (the oldest forgotten past it).
2. **Closed visits forgotten at once** (``forget_closed``: ``StateHolder.session_data``, ``time_last_used``,
   ``lock``, ``delete_state``): Gradio only marks a closed tab's state and keeps the entry until the cap, and
   its once-a-second expiry sweep walks every entry on the event loop: the server grew by one entry a visit.
3. **Delivered events' empty sets dropped** (``forget_delivered``: ``Queue.pending_event_ids_session``):
   Gradio keeps one empty set per visit forever once its events are delivered.
4. **Mailboxes evicted only when idle** (``Mailboxes``, ``protect``: ``Queue.pending_messages_per_session``,
   an ``LRUCache(2000)``, and ``Queue.send_message``): Gradio evicts the oldest visit's message queue even
   while its events run; the next message for it raised ``KeyError`` in the loop that starts events and
   stopped the queue for everyone (``503 Queue is stopped`` until a restart), which anyone could cause by
   keeping one event waiting and opening 2,000 visits. Busy mailboxes are never evicted; a message for a
   visit whose mailbox is gone is dropped.
5. **Events held per visit** (``pending_counter``, ``unread_forgetter``: ``Queue.pending_event_ids_session``,
   ``pending_messages_per_session``): how many events of a visit wait, run, or wait to be read;
   ``space/workspace/events.py`` sums them per caller to cap what one caller holds, and forgets what a page that left
   never read (Gradio would keep it, and its mailbox, for the life of the process).
6. **File inputs checked on mounted pages** (``check_files``: ``Blocks.has_launched``): Gradio checks that an
   input's file is an upload and serves nothing in ``blocked_paths`` only once ``has_launched`` is set, which
   ``launch()`` does and ``mount_gradio_app`` does not: a forged file input naming a server path was read.
   ``tests/hardening/web/test_web_traversal.py`` and ``tests/browser/test_http.py`` hold it.

7. **Gradio's own helpers outside its ``gr`` namespace**: ``gradio.oauth.attach_oauth`` (the Hugging Face
   sign-in's routes on a Space, at the site's root), ``gradio.utils.get_upload_folder`` (where uploads are kept,
   to clean them) and ``gradio.processing_utils.save_pil_to_cache`` (the Explorer's picture saved where Gradio
   serves files): ``attach_hf_sign_in``, ``upload_folder``, ``save_picture``.

Gradio's analytics of past events (a pandas summary after *every* event, up to 10,000 kept) is turned down
with its own settings, ``GRADIO_ANALYTICS_CACHE_FREQUENCY`` and ``GRADIO_ANALYTICS_MAX_EVENTS``
(``QUIET_ANALYTICS``, set by ``app.main`` before any Blocks exists).
"""

from __future__ import annotations

import asyncio
import logging
import sys
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import gradio as gr
from gradio.queueing import Queue
from gradio.state_holder import StateHolder
from gradio.utils import LRUCache

log = logging.getLogger(__name__)


def attach_hf_sign_in(app: Any) -> None:
    """Gradio's Hugging Face OAuth routes and session on ``app`` (what ``launch()`` does on a Space)."""
    from gradio.oauth import attach_oauth

    attach_oauth(app)


def upload_folder() -> str:
    """Where Gradio keeps uploaded files (``GRADIO_TEMP_DIR``)."""
    from gradio.utils import get_upload_folder

    return get_upload_folder()


def save_picture(image: Any, cache_dir: str, format: str) -> str:
    """``image`` saved in ``cache_dir`` as Gradio saves an image it serves; the path."""
    from gradio.processing_utils import save_pil_to_cache

    return save_pil_to_cache(image, cache_dir=cache_dir, format=format)


SWEEP_S = 5.0  # how often closed visits and delivered events' sets are dropped
QUIET_ANALYTICS = {
    "GRADIO_ANALYTICS_CACHE_FREQUENCY": str(sys.maxsize),  # summarise past events after never
    "GRADIO_ANALYTICS_MAX_EVENTS": "100",  # events kept for a monitoring page this app does not serve
}


def bound_visits(blocks: gr.Blocks, capacity: int) -> None:
    """At most ``capacity`` visits' state kept by ``blocks`` once mounted (item 1)."""
    blocks.state_session_capacity = capacity


def check_files(blocks: gr.Blocks) -> None:
    """Gradio's checks of file paths on a mounted page, as on a launched one (item 6)."""
    blocks.has_launched = True


def pending_counter(blocks: gr.Blocks) -> Callable[[str], int]:
    """session hash -> the events of that visit still pending in ``blocks``' queue (item 5)."""

    def pending(session_hash: str) -> int:
        queue = blocks._queue  # made by ``Blocks.queue()``, which the site calls before mounting
        return len(queue.pending_event_ids_session.get(session_hash, ()))

    return pending


def unread_forgetter(blocks: gr.Blocks) -> Callable[[str], bool]:
    """session hash -> forget the visit's pending events and their results if no stream waits for them (a
    page that left mid-event), and say whether it did (item 5). Its running events' later messages are then
    dropped by ``protect``'s ``send_message``."""

    def forget(session_hash: str) -> bool:
        queue = blocks._queue
        box = queue.pending_messages_per_session.get(session_hash)
        if box is not None and getattr(box, "_getters", None):
            return False  # a stream is reading: the page is still there
        queue.pending_event_ids_session.pop(session_hash, None)
        queue.pending_messages_per_session.pop(session_hash, None)
        return True

    return forget


async def keep_safe(app: Any, capacity: int, every_s: float = SWEEP_S) -> None:
    """Items 2-4 for one mounted Gradio app, until cancelled (the server's lifespan owns it)."""
    holder, queue = app.state_holder, app.get_blocks()._queue
    protect(queue, capacity)
    while True:
        await asyncio.sleep(every_s)
        try:
            forget_closed(holder)
            forget_delivered(queue)
        except Exception:  # a sweep that fails must not end the sweeping; the next one tries again
            log.exception("dropping what closed visits left failed")


def forget_closed(holder: StateHolder) -> int:
    """Drop the state of every visit whose tab has closed; how many were dropped."""
    closed = [sid for sid, state in list(holder.session_data.items()) if state.is_closed]
    for sid in closed:
        holder.delete_state(sid)  # runs the gr.State delete callbacks, as Gradio's own expiry does
        with holder.lock:
            holder.session_data.pop(sid, None)
            holder.time_last_used.pop(sid, None)
    return len(closed)


def forget_delivered(queue: Queue) -> int:
    """Drop the visits' event sets that are empty (every event delivered); how many were dropped.

    Safe on the event loop between two awaits, which is where the sweep runs: Gradio's stream reads a
    visit's set only while one of its events is pending (the set is not empty then), and its next
    ``push`` for that visit makes a new set."""
    pending = queue.pending_event_ids_session
    empty = [session for session, ids in list(pending.items()) if not ids]
    for session in empty:
        if not pending.get(session, True):
            del pending[session]
    return len(empty)


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
