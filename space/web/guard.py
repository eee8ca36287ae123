"""Who may call, and from where: checked here, once, for every request, before any handler runs.

Two ASGI middlewares share one ``Guard``:

``Door`` wraps the whole app, Gradio's CORS answer included, and refuses with 403 and one line:

1. off a Space, a ``Host`` that is not the app's own address (DNS rebinding: a page on
   ``evil.example`` whose name now points at 127.0.0.1 would otherwise be same-origin with us);
2. an ``Origin`` that is not one of the app's own pages (on a Space ``https://{SPACE_HOST}`` and
   ``https://huggingface.co``, which embeds it; locally the app's own address), and
   ``Origin: null`` (a sandboxed frame, a local file, a redirect from another site);
3. a request without ``Origin`` that changes something (POST, PUT, PATCH, DELETE) while carrying
   a session cookie. Browsers send ``Origin`` on every such request, same-site or not, so this can
   only be a script that copied a cookie (it may add the header: it holds the cookie anyway) or
   a browser too old to say where it is; a script that sends no cookie has no session to abuse and
   passes (a scripted submission proves who it is with its own token, never with ambient cookies);
4. Gradio's ``GET /logout`` from another site (``Sec-Fetch-Site``), which would sign people out;
5. any ``Origin`` on the scripted submission (``SCRIPT_SUBMIT``): it is for scripts, which send
   none and prove who they are with a Hugging Face token (``space/web/script_api.py``); a page, even
   our own, uses the Submit tab.

A refusal carries no ``Access-Control-*`` header: a foreign Origin never gets a CORS answer.

What passes has its address headers cleaned first (``Guard.clean_headers``): Gradio builds the page's
root address, where the page then loads code from, out of ``X-Gradio-Server`` and ``X-Forwarded-Host``,
which any caller can write. ``X-Gradio-Server`` is dropped, and ``X-Forwarded-Host`` is kept only when it
names one of the app's own hosts, so no request can choose where a page (or a cached copy of it) loads
its scripts from.

``Keeper`` sits inside the session middleware, where the signed cookie is decoded:

1. a session is worth something only while the server-side ``SessionBook`` knows its id; signing
   in opens one, signing out (ours or Gradio's ``/logout``) closes it, so a cookie copied before
   sign-out is worth nothing after;
2. uploads need a signed-in session; their size (``Content-Length``) and the user's uploads per
   minute and bytes per hour are checked before a byte is parsed;
3. the scripted submission must say its size, at most one file's limit, before a byte is read;
   who sends it is resolved from its token by the route itself, which then applies the same
   per-user upload limits;
4. every other request body is capped at ``MAX_CALL_KB``; callers without a session may start at
   most ``ANONYMOUS_CALLS_PER_MINUTE`` events per client, signed-in users ``USER_CALLS_PER_MINUTE``;
5. every body must arrive within ``BODY_DEADLINE_S`` (plus a second per 64 KB) of its first byte (408);
6. an event on a mounted Gradio page is read before it queues (``space/workspace/events.py``): the desk's are for
   maintainers only, a visit (``session_hash``) is its opener's alone, and a caller holds at most its cap
   of events waiting, running or unread.

The client is the peer, or with ``TRUSTED_PROXIES`` the address that many entries from the right of
``X-Forwarded-For`` (the proxy appends the real one there; the left is whatever the caller wrote).

docs/SPACE.md has the table of every endpoint, who may call it and at what cost.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections.abc import Callable, MutableMapping
from typing import Any

from starlette.datastructures import Headers
from starlette.requests import cookie_parser
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from space.web.limits import RateLimit, SessionBook
from space.web.refusals import Refusals
from space.web.settings import SpaceSettings
from space.workspace.events import Caller, EventBook

log = logging.getLogger(__name__)
REFUSALS = Refusals()  # one log line per kind of refusal a minute, whoever sends them

HUB_ORIGIN = "https://huggingface.co"
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
SESSION_COOKIE = "session"  # Starlette's SessionMiddleware default, used by Gradio's OAuth and our local sign-in
SESSION_ID = "nt_sid"  # the key of the server-side session id inside the signed session
PRESENTED = "navitrace.presented_session"  # the scope key of the session id a request's cookie named
CHANGES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
UPLOADS = ("/gradio_api/upload", "/gradio_api/process_recording")
EVENTS = ("/gradio_api/queue/join", "/gradio_api/call/", "/gradio_api/run/", "/gradio_api/api/", "/gradio_api/stream/")
JOINS = ("/gradio_api/queue/join", "/gradio_api/call/", "/gradio_api/run/", "/gradio_api/api/")  # each starts one
CALL_V2 = "/gradio_api/call/v2/"  # its body is the inputs by name: no room to say whose visit it is
CANCEL = "/gradio_api/cancel"
# Routes that name a visit in their path or query (a stream of its results, its heartbeat, its media).
VISIT_READS = ("/gradio_api/queue/data", "/gradio_api/heartbeat/", "/gradio_api/stream/")
SIGN_OUT_GETS = ("/logout",)
SCRIPT_SUBMIT = "/script-api/submit"  # the one route a script calls with its own token (space/web/script_api.py)
SESSION_HOURS = 8  # the longest a session lasts when its sign-in names no expiry (a Space's is 480 minutes)
MULTIPART_SLACK = 64 * 1024  # the multipart envelope around one file: boundaries, headers, its name
# Request headers from which Gradio takes the page's root address (``route_utils.get_request_origin``).
DROPPED_HEADERS = frozenset({b"x-gradio-server"})
FORWARDED_HOST = b"x-forwarded-host"
WORKSPACE_PATH = (
    "/submit"  # where Submit, My submissions and the Explorer, a Gradio app, are mounted (space/web/server.py)
)
DESK_PATH = "/maintainers"  # where the maintainers' desk, a Gradio app of its own, is mounted
MOUNTS = (WORKSPACE_PATH, DESK_PATH)


class Guard:
    """The policy: which hosts and origins are the app's own, the sessions, the limits."""

    def __init__(self, space: SpaceSettings, max_file_bytes: int) -> None:
        self.space = space
        self.hosts = None if space.on_space else local_hosts(space)
        own = space.space_hosts if space.on_space else local_hosts(space)
        self.own_hosts = frozenset(h.lower() for h in own)
        self.origins = allowed_origins(space)
        self.sessions = SessionBook(space.max_sessions, space.sessions_per_user)
        self.uploads = RateLimit(space.uploads_per_minute, 60)
        self.upload_bytes = RateLimit(space.upload_mb_per_hour * 1024 * 1024, 3600)
        self.anonymous = RateLimit(space.anonymous_calls_per_minute, 60)
        self.signed_in_calls = RateLimit(space.user_calls_per_minute, 60)
        self.events = EventBook()
        self.maintainer: Callable[[str | None], bool] = lambda user: False  # the service's, set by the site
        self.page_loads: dict[str, tuple[frozenset[int], frozenset[str]]] = {}  # mount -> its load events (ids, names)
        self.max_file_mb = max_file_bytes / 2**20
        self.max_upload_bytes = max_file_bytes + MULTIPART_SLACK
        self.max_call_bytes = space.max_call_kb * 1024

    # --- from where (Door) ---
    def refuse_from_where(self, method: str, path: str, headers: Headers) -> str | None:
        """Why a request may not reach the app from where it comes, or ``None``."""
        path = gradio_route(path)
        if self.hosts is not None:
            host = headers.get("host", "").lower()
            if host not in self.hosts:
                return (
                    f"Host {host[:80]!r} is not this app's address ({', '.join(sorted(self.hosts))}); "
                    "set ALLOWED_HOSTS to serve it under another name."
                )
        origin = headers.get("origin")
        if origin is not None and path == SCRIPT_SUBMIT:
            return (
                f"{SCRIPT_SUBMIT} is for scripts with a Hugging Face token, and this request came from a page "
                f"(Origin {origin[:80]!r}); in a browser, use the Submit tab."
            )
        if origin is not None:
            if origin.strip().lower() == "null":
                return "Origin 'null' (a sandboxed frame, a local file or a redirect from another site) is refused."
            if origin.strip().lower().rstrip("/") not in self.origins:
                return f"Origin {origin[:80]!r} is another site: only this app's own pages may call it."
        elif method in CHANGES and SESSION_COOKIE in cookie_parser(headers.get("cookie", "")):
            return (
                "A signed-in request that changes something must come from this app's own page "
                "(its Origin header is missing)."
            )
        if path in SIGN_OUT_GETS and headers.get("sec-fetch-site") in ("cross-site", "same-site"):
            return "Signing out from another site is refused."
        return None

    def clean_headers(self, raw: list[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
        """``raw`` without the headers by which a caller could choose the page's root address."""
        kept = []
        for name, value in raw:
            name = name.lower()
            if name in DROPPED_HEADERS:
                continue
            if name == FORWARDED_HOST:
                first = value.decode("latin-1").split(",")[0].strip().lower()
                if first not in self.own_hosts:
                    continue
            kept.append((name, value))
        return kept

    def body_deadline(self, length: int | None) -> float:
        """Seconds a body of ``length`` bytes may take from its first read: the base, plus one per 64 KB (a
        64 MB file at the slowest link a submitter should have, ~64 KB/s); a chunked one, the largest upload's."""
        size = self.max_upload_bytes if length is None else length
        return self.space.body_deadline_s + size / 65536

    # --- who (Keeper) ---
    def admit(self, session: MutableMapping[str, Any] | None) -> tuple[str | None, str | None]:
        """``(session id, user)`` of a session the server still knows; forgets the sign-in of any other."""
        if not session or "oauth_info" not in session:
            return None, None
        sid, user = session.get(SESSION_ID), user_of(session.get("oauth_info"))
        if user is None or self.sessions.user(sid) != user:
            session.pop("oauth_info", None)
            session.pop(SESSION_ID, None)
            return None, None
        return sid, user

    def settle(self, session: MutableMapping[str, Any] | None, started: str | None) -> None:
        """As the answer leaves: a sign-in opens a server-side session, a sign-out closes it."""
        if session is None:
            return
        user = user_of(session.get("oauth_info"))
        if user is not None:
            if self.sessions.user(session.get(SESSION_ID)) != user:
                session[SESSION_ID] = self.sessions.open(user, expiry_of(session["oauth_info"]))
                log.info("session opened for %s (%d open)", user, len(self.sessions))
        elif SESSION_ID in session or started:
            self.sessions.close(started)
            self.sessions.close(session.pop(SESSION_ID, None))

    def refuse_body(self, path: str, user: str | None, client: str, length: int | None) -> tuple[int, str, int | None]:
        """``(status, reason, retry after)`` for a request body this caller may not send; status 0: allowed."""
        path = gradio_route(path)
        if path in UPLOADS:
            if user is None:
                return 403, "Sign in to upload a file: uploads are for signed-in users only.", None
            if length is None:
                return 411, "An upload must say its size (Content-Length).", None
            if length > self.max_upload_bytes:
                size, limit = length / 2**20, self.max_file_mb
                return 413, f"An upload of {size:.0f} MB is over the limit of one file of {limit:.0f} MB.", None
            wait = self.uploads.take(user)
            if wait is not None:
                return 429, f"Too many uploads: {self.space.uploads_per_minute} a minute per user.", wait
            wait = self.upload_bytes.take(user, length)
            if wait is not None:
                return 429, f"Too much uploaded: {self.space.upload_mb_per_hour} MB an hour per user.", wait
            return 0, "", None
        if path == SCRIPT_SUBMIT:  # the token, then the per-user limits: the route's, once it knows the user
            if length is None:
                return 411, "A scripted submission must say its size (Content-Length).", None
            if length > self.max_upload_bytes:
                size, limit = length / 2**20, self.max_file_mb
                return 413, f"A submission of {size:.0f} MB is over the limit of one file of {limit:.0f} MB.", None
            return 0, "", None
        if length is None or length > self.max_call_bytes:
            return 413, f"A request body may hold at most {self.space.max_call_kb} KB (and must say its size).", None
        if path.startswith(EVENTS):
            if user is None:
                wait = self.anonymous.take(client)
                if wait is not None:
                    limit = self.space.anonymous_calls_per_minute
                    return 429, f"Too many calls: {limit} a minute without signing in.", wait
            else:
                wait = self.signed_in_calls.take(user)
                if wait is not None:
                    return 429, f"Too many calls: {self.space.user_calls_per_minute} a minute per user.", wait
        return 0, "", None

    # --- whose visit (Keeper, on the mounted Gradio pages) ---
    def caller(self, sid: str | None, user: str | None, client: str, scope: Scope) -> Caller:
        """Who calls; ``former``: the session its cookie named, when the server no longer knows it (expired, signed
        out elsewhere), so that the page it opened keeps working, signed out."""
        presented = scope.get(PRESENTED)
        former = f"session:{presented}" if isinstance(presented, str) else None
        if sid is not None and user is not None:
            return Caller(owner=f"session:{sid}", key=f"user:{user}", signed_in=True)
        return Caller(owner=f"address:{client}", key=f"address:{client}", signed_in=False, former=former)

    def refuse_event(self, mount: str, route: str, user: str | None, fn_index: object) -> str | None:
        """Why this caller may not start an event on ``mount`` at all, before it queues: on the desk, anything
        but what its page runs as it opens (which tells a visitor to sign in as a maintainer)."""
        loads = self.page_loads.get(mount)
        opening = loads is not None and (fn_index in loads[0] or route.rsplit("/", 1)[-1] in loads[1])
        if mount == DESK_PATH and not opening and not self.maintainer(user):
            who = f"{user!r} is" if user else "You are not signed in, so you are"
            return f"{who} not a maintainer: the maintainers' desk is for users listed in MAINTAINERS only."
        if route.startswith(CALL_V2):
            return f"{CALL_V2}... is not served here; use {route.replace(CALL_V2, '/gradio_api/call/')[:80]}."
        return None

    def cap(self, caller: Caller) -> int:
        return self.space.events_in_flight if caller.signed_in else self.space.anonymous_events_in_flight

    def client_of(self, scope: Scope, headers: Headers) -> str:
        """The caller's address: with ``n`` trusted proxies in front (the Hub's one on a Space), the ``n``-th
        ``X-Forwarded-For`` entry from the right, the last one a proxy of ours wrote; the entries left of it are
        the caller's own words. With none, or a chain shorter than the proxies, the peer's address."""
        return client_address(scope, headers, self.space.proxies)


class Door:
    """Host and Origin, before anything else (Gradio's CORS answer and routes included)."""

    def __init__(self, app: ASGIApp, guard: Guard) -> None:
        self.app, self.guard = app, guard

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            why = self.guard.refuse_from_where(scope.get("method", "GET"), scope["path"], Headers(scope=scope))
            if why is not None:
                REFUSALS.note(f"{scope.get('method', 'WS')} {scope['path'][:120]}", "", why)
                if scope["type"] == "websocket":
                    await send({"type": "websocket.close", "code": 1008, "reason": why[:120]})
                    return
                await PlainTextResponse(why, status_code=403)(scope, receive, send)
                return
            scope = {**scope, "headers": self.guard.clean_headers(list(scope.get("headers", [])))}
        await self.app(scope, receive, send)


class Keeper:
    """Sessions the server still knows, uploads for signed-in users, request bodies within limits."""

    def __init__(self, app: ASGIApp, guard: Guard) -> None:
        self.app, self.guard = app, guard

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        session = scope.get("session")
        if session and session.get(SESSION_ID):
            scope[PRESENTED] = session.get(SESSION_ID)  # before ``admit`` forgets an ended one
        started, user = self.guard.admit(session)
        headers = Headers(scope=scope)
        client = self.guard.client_of(scope, headers)
        scope.setdefault("state", {})["client"] = client  # for the routes' own per-client limits (request.state)
        mount, route = mount_of(scope["path"])
        if mount is not None and scope["method"] == "GET" and route.startswith(VISIT_READS):
            visit = _visit_read(route, scope.get("query_string", b""))
            why = visit and self.guard.events.whose(mount, visit, self.guard.caller(started, user, client, scope))
            if why:
                await _refuse(scope, receive, send, 403, why, user or client)
                return
        if scope["method"] in CHANGES:
            length = _length(headers)
            status, why, wait = self.guard.refuse_body(scope["path"], user, client, length)
            if status:
                await _refuse(scope, receive, send, status, why, user or client, wait)
                return
            if mount is not None and (route.startswith(JOINS) or route == CANCEL):
                await self._event(scope, receive, send, session, started, user, client, (mount, route))
                return
            if length != 0:
                await self._with_deadline(scope, receive, send, session, started, length)
                return

        async def settled(message: Message) -> None:
            if message["type"] == "http.response.start":
                self.guard.settle(session, started)
            await send(message)

        await self.app(scope, receive, settled)

    async def _event(
        self,
        scope: Scope,
        receive: Receive,
        send: Send,
        session: Any,
        started: str | None,
        user: str | None,
        client: str,
        where: tuple[str, str],
    ) -> None:
        """An event on a mounted Gradio page: refused before it queues when the caller may not start it, names
        another caller's visit, or would hold more than the caller's share; else passed on, and counted."""
        mount, route = where
        caller = self.guard.caller(started, user, client, scope)
        body = Body(receive, self.guard.body_deadline(_length(Headers(scope=scope))))
        data = await body.read()
        if body.late:
            await _refuse(scope, receive, send, 408, "The request body did not arrive in time.", user or client)
            return
        try:
            fields = json.loads(data) if data else {}
        except ValueError:
            fields = None
        fn_index = fields.get("fn_index") if isinstance(fields, dict) else None
        why = self.guard.refuse_event(mount, route, user, fn_index)
        if why:
            await _refuse(scope, receive, send, 403, why, user or client)
            return
        named = fields.get("session_hash") if isinstance(fields, dict) else None
        why = self.guard.events.whose(mount, named[:128], caller) if isinstance(named, str) else None
        if why:
            await _refuse(scope, receive, send, 403, why, user or client)
            return
        if route == CANCEL:
            await self.app(scope, _replay(data, receive), _settling(send, self.guard, session, started))
            return
        if isinstance(fields, dict) and not isinstance(named, str):
            # a script's call without a visit (``/gradio_api/call/{name}``): a visit of its own, as Gradio would make
            # (calls sharing one would read each other's results), held by this caller like any other
            named = "call-" + secrets.token_hex(12)
            fields["session_hash"] = named
            data = json.dumps(fields).encode()
            scope = {**scope, "headers": _with_length(scope["headers"], len(data))}
        if isinstance(named, str):
            why = self.guard.events.join(mount, named[:128], caller, self.guard.cap(caller))
            if why:
                await _refuse(scope, receive, send, 429, why, user or client, 5)
                return
        try:
            await self.app(scope, _replay(data, receive), _settling(send, self.guard, session, started))
        finally:
            if isinstance(named, str):
                self.guard.events.done(caller)

    async def _with_deadline(
        self, scope: Scope, receive: Receive, send: Send, session: Any, started: str | None, length: int | None
    ) -> None:
        """The app, with a body that must arrive within the guard's deadline from its first read (a slow sender
        would otherwise hold a handler, and the slot it waited for, as long as it likes): past it the app
        reads a disconnect and the caller gets a 408."""
        body = Body(receive, self.guard.body_deadline(length))
        answered = False

        async def settled(message: Message) -> None:
            nonlocal answered
            if body.late:
                return  # the app's answer to a body it never got in full: the 408 below says why
            if message["type"] == "http.response.start":
                answered = True
                self.guard.settle(session, started)
            await send(message)

        try:
            await self.app(scope, body.receive, settled)
        except Exception:
            if not body.late:
                raise
            # the app gave up on the body it was reading (a client that stopped sending): the 408 says why
        if body.late and not answered:
            why = f"The request body did not arrive within {body.deadline_s:.0f} s."
            REFUSALS.note(f"{scope['method']} {scope['path'][:120]}", "a slow sender", why)
            await PlainTextResponse(why, status_code=408, headers={"Connection": "close"})(scope, receive, send)


class Body:
    """A request's ``receive`` with a deadline from its first read; a late body reads as a disconnect."""

    def __init__(self, receive: Receive, deadline_s: float) -> None:
        self._receive, self.deadline_s = receive, deadline_s
        self._ends: float | None = None
        self.late = False
        self._whole = False  # the last part has come: later reads wait for the real disconnect, without a deadline

    async def receive(self) -> Message:
        if self.late:
            return {"type": "http.disconnect"}
        if self._whole:
            return await self._receive()
        loop = asyncio.get_running_loop()
        if self._ends is None:
            self._ends = loop.time() + self.deadline_s
        try:
            message = await asyncio.wait_for(self._receive(), max(0.0, self._ends - loop.time()))
        except TimeoutError:
            self.late = True
            return {"type": "http.disconnect"}
        self._whole = message["type"] != "http.request" or not message.get("more_body", False)
        return message

    async def read(self) -> bytes:
        """The whole body (its size already checked against the caps), or what came before the deadline."""
        chunks: list[bytes] = []
        while True:
            message = await self.receive()
            if message["type"] != "http.request":
                return b"".join(chunks)
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                return b"".join(chunks)


def load_events(blocks: Any) -> tuple[frozenset[int], frozenset[str]]:
    """The ids and API names of the events a Gradio page runs as it opens, from its public configuration."""
    found = [d for d in blocks.get_config_file()["dependencies"] if any(t[1] == "load" for t in d["targets"])]
    return frozenset(d["id"] for d in found), frozenset(d["api_name"] for d in found if d.get("api_name"))


def mount_of(path: str) -> tuple[str | None, str]:
    """``(mount, route inside it)`` of a path on a mounted Gradio page, else ``(None, path)``."""
    for mount in MOUNTS:
        if path == mount or path.startswith(mount + "/"):
            return mount, path[len(mount) :] or "/"
    return None, path


def _visit_read(route: str, query: bytes) -> str | None:
    """The visit a stream, heartbeat or media route names (its query's ``session_hash`` or its path)."""
    if route.startswith("/gradio_api/queue/data"):
        for part in query.decode("latin-1").split("&"):
            name, _, value = part.partition("=")
            if name == "session_hash":
                return value
        return None
    parts = route.split("/")  # /gradio_api/heartbeat/{hash}, /gradio_api/stream/{hash or event id}/...
    return parts[3] if len(parts) > 3 and parts[3] else None


def _replay(data: bytes, receive: Receive) -> Receive:
    """``receive`` for an app after the body was read: the body once, then the connection's own messages."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": data, "more_body": False}
        return await receive()

    return replay


def _settling(send: Send, guard: Guard, session: Any, started: str | None) -> Send:
    async def settled(message: Message) -> None:
        if message["type"] == "http.response.start":
            guard.settle(session, started)
        await send(message)

    return settled


def _with_length(headers: list[tuple[bytes, bytes]], length: int) -> list[tuple[bytes, bytes]]:
    kept = [(k, v) for k, v in headers if k.lower() not in (b"content-length", b"transfer-encoding")]
    return [*kept, (b"content-length", str(length).encode())]


async def _refuse(
    scope: Scope, receive: Receive, send: Send, status: int, why: str, who: str, wait: int | None = None
) -> None:
    REFUSALS.note(f"{scope['method']} {scope['path'][:120]}", who, why)
    extra = {"Retry-After": str(wait)} if wait else None
    text = f"{why} Try again in {wait} s." if wait else why
    await PlainTextResponse(text, status_code=status, headers=extra)(scope, receive, send)


def client_address(scope: Scope, headers: Headers, proxies: int) -> str:
    """See ``Guard.client_of``; every ``X-Forwarded-For`` header counts, joined in order, as RFC 7230 says."""
    client = scope.get("client")
    peer = str(client[0]) if client else "unknown"
    if proxies < 1:
        return peer
    chain = [entry.strip() for value in headers.getlist("x-forwarded-for") for entry in value.split(",")]
    chain = [entry for entry in chain if entry]
    if len(chain) < proxies:
        return peer
    return chain[-proxies][:64]


def local_hosts(space: SpaceSettings) -> frozenset[str]:
    """The ``Host`` values the app answers to off a Space: loopback names at its port, its name, ``ALLOWED_HOSTS``."""
    port = space.server_port
    names = set(LOOPBACK_NAMES)
    if space.server_name not in ("0.0.0.0", "::", ""):
        names.add(space.server_name.lower())
    hosts = {f"{name}:{port}" for name in names}
    if port in (80, 443):  # a browser leaves the default port out of Host
        hosts |= names
    return frozenset(hosts | set(space.allowed_hosts))


def allowed_origins(space: SpaceSettings) -> frozenset[str]:
    """The pages that may call: the Space's own host(s) and huggingface.co, or the app's local address."""
    if space.on_space:
        return frozenset({f"https://{host}" for host in space.space_hosts} | {HUB_ORIGIN})
    return frozenset(f"{scheme}://{host}" for host in local_hosts(space) for scheme in ("http", "https"))


def gradio_route(path: str) -> str:
    """The Gradio route a path names, its mount's prefix removed: every mounted page's uploads and events are
    limited alike."""
    return mount_of(path)[1]


def user_of(info: object) -> str | None:
    if not isinstance(info, dict):
        return None
    name = (info.get("userinfo") or {}).get("preferred_username")
    return str(name) if name else None


def expiry_of(info: dict) -> float:
    latest = time.time() + SESSION_HOURS * 3600
    expires = info.get("expires_at")
    return min(float(expires), latest) if isinstance(expires, (int, float)) else latest


def _length(headers: Headers) -> int | None:
    """The body's size; ``None`` when it is not said (chunked). A request with neither header has no body."""
    text = headers.get("content-length")
    if text is None:
        return None if "transfer-encoding" in headers else 0
    return int(text) if text.strip().isdigit() else None
