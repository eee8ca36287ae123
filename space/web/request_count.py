"""The app's count of what it is answering, for its background processes to step aside (``runtime/pages_first.py``).

An HTTP request counts (``CountRequests``, just inside the door) until the last byte of its answer, or until
its answer turns out to be an event stream (``text/event-stream``: a visit's heartbeat, Gradio's queue stream,
an API call's result stream): a stream only waits. Readers' pages are plain requests, counted whole; the
signed-in pages' Gradio events run after their request has been answered and are not counted (their heavy
work, checks and drawings, runs in children below the pages on the CPU anyway).

A page event that waits for a child process steps out of the count meanwhile (``Offload`` uses
``Gauge.away``).
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from leaderboard.runtime import Gauge

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


def _streams(message: Message) -> bool:
    if message["type"] != "http.response.start":
        return False
    return any(name.lower() == b"content-type" and value.startswith(STREAM) for name, value in message["headers"])


def _last(message: Message) -> bool:
    return message["type"] == "http.response.body" and not message.get("more_body", False)
