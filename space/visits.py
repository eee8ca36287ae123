"""What a page visit leaves on the server, bounded: Gradio's per-visit state and event sets.

Every visit (one browser tab, one ``session_hash``) that fires an event gets a
``gradio.state_holder.SessionState``: a copy of the page's configuration for every component
(~1 kB each, ~100 kB a visit) plus its ``gr.State`` values. Gradio keeps up to 10,000 of them
and, when a tab closes, only marks its entry closed (its ``gr.State`` values go after an hour;
the entry itself stays). Steadily viewed, the server therefore grows by one entry per page load
until the cap, ~1 GB later, and its once-a-second sweep of expired state walks all of them on the
event loop: the page slows as it ages (issue 14, attack 11).

Gradio's queue also keeps, per visit, the set of its events not yet delivered
(``Queue.pending_event_ids_session``). A delivered event leaves its visit's set empty, and the set
stays: one per visit, forever, and ``GET /gradio_api/call/{api}/{event_id}`` for an event already
done searches all of them. The 30-minute soak of 2026-11-27 (50 viewers, 78,827 page loads) saw the
app's RSS grow 339 -> 389 MB and the page's p95 rise from 0.21 s to 0.41 s by minute 29; a probe of
live objects put 2,700 new empty sets a minute, one per page load, at the top. ``forget_delivered``
drops the empty ones.

``bound`` keeps at most ``MAX_VISITS`` entries (the oldest is forgotten past it) and ``forget_closed``
drops a visit's entry as soon as its tab has closed. A forgotten visit that calls again is simply
a new one: it starts from the page's defaults, which every handler here accepts.

Gradio's queue also records every event for its monitoring page (up to 10,000) and, after *every*
event, monitoring on or off, rebuilds a pandas summary of all of them (``Queue.compute_analytics_summary``):
~70 ms of CPU at 1,000 recorded events, ~0.5 s at 10,000 on a busy 2-core machine. Steady viewing
fills it in minutes, so each event costs more than the one before. The app serves no monitoring
(``enable_monitoring=False``), so ``quiet_analytics`` keeps ``ANALYTICS_KEPT`` events and never
summarises them.
"""

from __future__ import annotations

import asyncio
import logging
import sys

from gradio.queueing import Queue
from gradio.state_holder import StateHolder

log = logging.getLogger(__name__)

SWEEP_S = 5.0  # how often closed visits are dropped
ANALYTICS_KEPT = 100  # events Gradio's queue remembers for a monitoring page this app does not serve


def quiet_analytics(queue: Queue) -> None:
    """No summary of past events after each event, and few of them kept (see the module's docstring)."""
    queue.ANALYTICS_MAX_EVENTS = ANALYTICS_KEPT
    queue.ANAYLTICS_CACHE_FREQUENCY = sys.maxsize  # (sic, Gradio's spelling) summarise after never


def bound(holder: StateHolder, capacity: int) -> None:
    """At most ``capacity`` visits kept; Gradio's ``StateHolder.update`` evicts the oldest past it."""
    holder.capacity = capacity


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


async def keep_bounded(holder: StateHolder, queue: Queue | None = None, every_s: float = SWEEP_S) -> None:
    """Run ``forget_closed`` (and ``forget_delivered`` of ``queue``) every ``every_s`` seconds until cancelled
    (the server's lifespan owns it)."""
    while True:
        await asyncio.sleep(every_s)
        try:
            forget_closed(holder)
            if queue is not None:
                forget_delivered(queue)
        except Exception:  # a sweep that fails must not end the sweeping; the next one tries again
            log.exception("dropping what closed visits left failed")
