"""The app's count of what it is answering, for its background processes to step aside (``leaderboard.pages_first``).

Two things count, each from when it begins until it is answered:

- an HTTP request (``CountRequests``, just inside the door): until the last byte of its answer, or until
  its answer turns out to be an event stream (``text/event-stream``: a visit's heartbeat, Gradio's queue
  stream, an API call's result stream). A stream only waits; what it waits for is an event, counted below;
- a Gradio event (``count_events``, on each queue): from when the queue starts processing it until it is
  done (preprocessing, the handler, postprocessing, the messages sent).

A page event that waits for a child process steps out of the count meanwhile (``Offload`` uses
``Gauge.away``).
"""

from __future__ import annotations

from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from leaderboard.pages_first import Gauge

STREAM = b"text/event-stream"


class CountRequests:
    """ASGI middleware: every HTTP request is in ``gauge``'s count until answered (streams: until they start)."""

    def __init__(self, app: ASGIApp, gauge: Gauge) -> None:
        self.app, self.gauge = app, gauge

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        self.gauge.enter()
        counted = True

        async def answered(message: Message) -> None:
            nonlocal counted
            if counted and (_streams(message) or _last(message)):
                counted = False
                self.gauge.leave()
            await send(message)

        try:
            await self.app(scope, receive, answered)
        finally:
            if counted:  # no answer at all (the client went away, an error)
                self.gauge.leave()


def count_events(queue: Any, gauge: Gauge) -> None:
    """Every event of Gradio's ``queue`` is in ``gauge``'s count while the queue processes it."""
    processing = queue.process_events

    async def process_events(*args: Any, **kwargs: Any) -> Any:
        gauge.enter()
        try:
            return await processing(*args, **kwargs)
        finally:
            gauge.leave()

    queue.process_events = process_events


def _streams(message: Message) -> bool:
    if message["type"] != "http.response.start":
        return False
    return any(name.lower() == b"content-type" and value.startswith(STREAM) for name, value in message["headers"])


def _last(message: Message) -> bool:
    return message["type"] == "http.response.body" and not message.get("more_body", False)
