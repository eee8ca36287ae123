"""The page's HTML, built once and served to every visitor: ``GET /`` must not cost a configuration copy.

So is ``GET /config``, the same configuration as JSON.

Gradio's page route deep-copies the whole page configuration (~160 kB of JSON for ~120 components)
and renders its template on every request: ~10 ms of interpreter time alone, and under 50 viewers a
third of the app's CPU (issue 11: ``py-spy`` of ``benchmarks/load_test.py``). Yet the HTML depends
only on where the page is served from: its root URL, which Gradio derives from the scheme, ``Host``,
``X-Forwarded-Host``/``-Proto`` and the mount's ``root_path`` (``route_utils.get_root_url``; the query
is stripped), and on Gradio's own password sign-in (``access-token-*`` cookies) and deep links, which
this app does not use. So the first answer for a given address is kept and sent to the next visitors.

What is kept is bounded: ``MAX_PAGES`` addresses, each for ``TTL_S`` seconds (the configuration does
not change while the app runs, the TTL only bounds how long a surprise could last). Anything unusual
(a deep link, Gradio's auth cookie, a non-200 answer, an answer that sets a cookie) passes through
uncached. Middlewares outside this one (compression, security headers, the session check) still run
on every request.
"""

from __future__ import annotations

import time
from collections import OrderedDict

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

# ``/config`` is the same configuration as JSON (what ``gradio_client`` and an embedding page read first):
# a deep copy of it per request too, ~5-10 ms each; 20 clients connecting at once held the interpreter
# for most of a second (py-spy of benchmarks/load_test.py). Only without a query: ``page`` and
# ``deep_link`` change the answer.
CACHED_PATHS = frozenset({"/", "/config"})
QUERY_FREE_PATHS = frozenset({"/config"})
MAX_PAGES = 16  # distinct addresses the page is served under (loopback names, a Space's hosts)
TTL_S = 60.0
KEY_HEADERS = ("host", "x-forwarded-host", "x-forwarded-proto", "x-forwarded-port", "forwarded")


class PageCache:
    """ASGI middleware: ``GET /`` answered from a copy of the first answer for the same address."""

    def __init__(self, app: ASGIApp, clock=time.monotonic) -> None:
        self.app = app
        self.clock = clock
        self.pages: OrderedDict[tuple, tuple[float, Message, bytes]] = OrderedDict()
        self.hits = self.misses = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        key = self._key(scope)
        if key is None:
            await self.app(scope, receive, send)
            return
        kept = self.pages.get(key)
        if kept is not None and self.clock() - kept[0] < TTL_S:
            self.hits += 1
            _, start, body = kept
            await send(start)
            await send({"type": "http.response.body", "body": body, "more_body": False})
            return
        self.misses += 1
        await self._fill(key, scope, receive, send)

    async def _fill(self, key: tuple, scope: Scope, receive: Receive, send: Send) -> None:
        start: Message | None = None
        chunks: list[bytes] = []

        async def keep(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                start = message
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))
                if not message.get("more_body") and _cacheable(start):
                    self.pages[key] = (self.clock(), start, b"".join(chunks))  # type: ignore[assignment]
                    self.pages.move_to_end(key)
                    while len(self.pages) > MAX_PAGES:
                        self.pages.popitem(last=False)
            await send(message)

        await self.app(scope, receive, keep)

    @staticmethod
    def _key(scope: Scope) -> tuple | None:
        if scope["type"] != "http" or scope["method"] != "GET" or scope["path"] not in CACHED_PATHS:
            return None
        headers = Headers(scope=scope)
        query = scope.get("query_string", b"")
        if b"deep_link" in query or (query and scope["path"] in QUERY_FREE_PATHS):
            return None
        if "access-token" in headers.get("cookie", ""):
            return None
        return (scope["path"], scope.get("scheme"), scope.get("root_path", ""), *(headers.get(h) for h in KEY_HEADERS))


def _cacheable(start: Message | None) -> bool:
    if start is None or start.get("status") != 200:
        return False
    return not any(name.lower() == b"set-cookie" for name, _ in start.get("headers", []))
