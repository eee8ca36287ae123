"""The public pages' routes: ``routes(services, viewer_of)`` (``space/web/server.py`` adds them to the site).

``GET /`` the board (``space/board/controls.py``'s parameters, ``?release=`` and ``?since=`` included:
``space/releases/views.py``; ``/?entry=ID`` and ``/?compare=a,b``, the old addresses, redirect), ``/entry/{id}``,
``/compare``, ``/about``, ``/changelog``, ``/embed``, ``/examples/{name}`` and ``/static/{name}``. Bodies are
drawn once per results version and view (``Drawn``), in a worker thread; only the header, which names who is
signed in, is drawn per request (pages are ``private, no-cache``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from functools import partial
from urllib.parse import quote, urlencode

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from leaderboard.publishing import Edition, is_name
from leaderboard.records import InvalidAction
from leaderboard.statistics import GroupFigure, figures_alone
from space.board import page as board_page
from space.board import status_line
from space.board.address import address, controls_of, is_noisy
from space.board.cache import Snapshot
from space.board.controls import Controls
from space.board.drawn import Drawn, TooManyFresh
from space.entry import page as entry_page
from space.entry import view as entry
from space.releases import changelog
from space.releases.book import FROZEN, ReleaseBook
from space.releases.views import ReleaseViews, missing_body
from space.site import about as about_page
from space.site.shell import Meta, Viewer, head, header_html, page, static_file
from space.site.words import TITLE
from space.web.limits import RateLimit
from space.web.services import Services
from space.web.warmup import EXAMPLES

PAGE_HEADERS = {"Cache-Control": "private, no-cache", "Vary": "Cookie"}  # the header names who is signed in
STATIC_TYPES = {
    "site.css": "text/css; charset=utf-8",
    "header.css": "text/css; charset=utf-8",
    "board.js": "text/javascript; charset=utf-8",
    "favicon.svg": "image/svg+xml",
}
EXAMPLE_NAMES = {name for name, _, _ in EXAMPLES}
# The embed is made to be framed by other sites (a project page, a paper's site): its own policy says so.
EMBED_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; "
    "base-uri 'self'; form-action 'self'; frame-ancestors *"
)
MAX_RELEASE = 12  # characters of a release name read (v and up to 6 digits is a name)
AHEAD = 8  # board views drawn ahead of a new results version
DRAW = {"board": board_page.board_body, "embed": board_page.embed_body}
INTERVALS_LATER = (
    "<p class='nt-note nt-note-info' id='entry-intervals-later'>The per-group intervals appear once the public "
    "datasets are prepared (the first start makes them): reload in a few seconds.</p>"
)


def routes(services: Services, viewer_of: Callable[[Request], Viewer]) -> list[BaseRoute]:
    pages = Pages(services, viewer_of)
    return [
        Route("/", pages.board, methods=["GET"]),
        Route("/embed", pages.embed, methods=["GET"]),
        Route("/entry/{submission_id}", pages.entry, methods=["GET"]),
        Route("/compare", pages.compare, methods=["GET"]),
        Route("/about", pages.about, methods=["GET"]),
        Route("/changelog", pages.changelog, methods=["GET"]),
        Route("/examples/{name}", pages.example, methods=["GET"]),
        Route("/static/{name}", pages.static, methods=["GET"]),
    ]


class Pages:
    def __init__(self, services: Services, viewer_of: Callable[[Request], Viewer]) -> None:
        self.services, self.viewer_of = services, viewer_of
        self.drawn: Drawn[str] = Drawn()
        # A search or a filter is any text: each new one is drawn on the request, so each caller may ask for a
        # bounded number of views nobody asked for before (a room of readers shares the views already drawn).
        self.fresh = RateLimit(services.space.fresh_views_per_minute, 60)
        self.intervals = entry_page.intervals_of(services)
        self._static: dict[str, bytes] = {}
        self.releases = ReleaseViews(ReleaseBook(services.leaderboard), services.leaderboard.settings.results_repo)
        services.board.on_change(self.draw_ahead)

    def draw_ahead(self, snapshot: Snapshot) -> None:
        """The default board and the board views read most lately, drawn for ``snapshot`` before readers are
        given it (``BoardCache.on_change``): while files are scored, no reader waits for a drawing."""
        views = [("board", controls_of([]))]
        recent = self.drawn.recent(snapshot.version - 1, 4 * AHEAD)
        views += [v for v in recent if isinstance(v, tuple) and v[0] in DRAW and not v[1].release]  # named: on request
        for kind, controls in list(dict.fromkeys(views))[:AHEAD]:
            self.drawn.get(snapshot.version, (kind, controls), partial(self._draw, kind, snapshot, controls))

    def _draw(self, kind: str, snapshot: Snapshot, controls: Controls) -> str:
        if kind == "board":  # with the notes of its release (space/releases/views.py)
            return self.releases.board_body(snapshot, snapshot, controls)
        return DRAW[kind](snapshot, controls)

    # -- the board ---------------------------------------------------------------------------------------

    async def board(self, request: Request) -> Response:
        params = request.query_params
        old = _legacy(params)
        if old is not None:
            return RedirectResponse(old, status_code=302)
        pairs = params.multi_items()
        controls = controls_of(pairs)
        if is_noisy(pairs):  # a GET form's submission: to the short address of the same view
            return RedirectResponse(address(controls), status_code=303)
        # The usual view of rows in hand is answered on the event loop: a hop to a worker thread and back is most
        # of such a request's time, and what grows when the machine is busy (files being scored).
        snapshot = self.services.board.in_hand()
        if snapshot is None:
            snapshot = await run_in_threadpool(self.services.board.snapshot)
        body: str | None = None if controls.release else self.drawn.kept(snapshot.version, ("board", controls))
        rows = snapshot  # the rows shown: a closed release's own
        if body is None:
            shown = await run_in_threadpool(self.releases.shown, self.drawn, snapshot, controls)
            if shown is None:  # a release never opened
                return self._no_release(request, controls.release)
            rows = shown.rows
            try:
                body = await run_in_threadpool(
                    shown.drawn.get,
                    shown.version,
                    shown.key,
                    lambda: self.releases.board_body(shown.rows, snapshot, controls),
                    self._admit(request),
                )
            except TooManyFresh as error:
                return self._too_many(request, error)
        body = status_line.fill(body, self.services.health)  # scoring's live line, fresher than the drawing
        split = "" if controls.split == "test" else f" ({controls.split} split)"
        release = f" · release {controls.release}" if controls.release else ""
        meta = Meta(
            f"{TITLE}{split}{release}",
            board_page.description(rows, controls),
            self._url(request, address(controls)),
        )
        return self._page(request, meta, "board", body, script=True)

    async def embed(self, request: Request) -> Response:
        # The embed frames the current board: a release's own board is the page's (``/?release=v1``).
        controls = dataclasses.replace(controls_of(request.query_params.multi_items()), release="", since="")
        snapshot = await run_in_threadpool(self.services.board.snapshot)
        try:
            body = await run_in_threadpool(
                self.drawn.get,
                snapshot.version,
                ("embed", controls),
                lambda: board_page.embed_body(snapshot, controls),
                self._admit(request),
            )
        except TooManyFresh as error:
            return self._too_many(request, error)
        meta = Meta(TITLE, board_page.description(snapshot, controls), self._url(request, address(controls)))
        html = f'{head(meta, extra=_BASE)}<body class="nt-embed-body"><main id="main">{body}</main></body></html>'
        headers = {"Cache-Control": "no-cache", "Content-Security-Policy": EMBED_POLICY}
        return HTMLResponse(html, headers=headers)

    def _admit(self, request: Request) -> Callable[[], int | None]:
        """Spends one of the caller's fresh views (the guard put its address on the request)."""
        client = str(getattr(request.state, "client", None) or (request.client.host if request.client else "?"))
        return lambda: self.fresh.take(client)

    def _too_many(self, request: Request, error: TooManyFresh) -> Response:
        limit = self.services.space.fresh_views_per_minute
        text = (
            f"Too many new searches or filters from your address: {limit} a minute. The board's usual views are "
            f"always served; try this one again in {error.retry_after} s."
        )
        headers = {"Retry-After": str(error.retry_after), "Cache-Control": "no-store"}
        return PlainTextResponse(text, status_code=429, headers=headers)

    # -- an entry, two entries ---------------------------------------------------------------------------

    async def entry(self, request: Request) -> Response:
        wanted = entry.entry_id({"entry": request.path_params["submission_id"]}) or ""
        snapshot = await run_in_threadpool(self.services.board.snapshot)
        named = str(request.query_params.get("release") or "")[:MAX_RELEASE]
        if is_name(named):  # a citation's address: the entry as that release showed it (else the name is ignored)
            rows = await run_in_threadpool(self.releases.book.board_of, snapshot, named)
            if rows is None:
                return self._no_release(request, named)
            if rows is not snapshot:
                return await self._frozen_entry(request, wanted, named, rows, snapshot)
        row = entry.find(snapshot.rows, wanted)
        here = self._url(request, f"/entry/{quote(wanted, safe='')}")  # the id as read (cut), not the whole path
        if row is None:
            meta = Meta(f"No such entry · {TITLE}", "No public entry has this id.", here)
            return self._page(request, meta, "board", entry_page.missing_body(wanted), status=404)

        def draw() -> str:
            release = self.releases.entry_line(snapshot, row)
            return entry_page.entry_body(row, self._groups(row), entry.choices(snapshot.rows), release=release)

        if self.services.warmup.ready.is_set() and not self.services.warmup.error:
            body = await run_in_threadpool(self.drawn.get, snapshot.version, ("entry", wanted), draw)
        else:  # not kept: the intervals come once the data is ready
            release = await run_in_threadpool(self.releases.entry_line, snapshot, row)
            body = INTERVALS_LATER + entry_page.entry_body(row, [], entry.choices(snapshot.rows), release=release)
        editions = await run_in_threadpool(self.releases.book.history, snapshot)  # kept per results version
        return self._entry_page(request, row, body, editions, here, f"{row.get('model')} · {TITLE}")

    async def _frozen_entry(self, request: Request, wanted: str, name: str, rows: Snapshot, live: Snapshot) -> Response:
        """Entry ``wanted`` as closed release ``name``'s frozen board has it: drawn once and kept (it never changes)."""
        here = self._url(request, f"/entry/{quote(wanted, safe='')}?release={name}")
        row = entry.find(rows.rows, wanted)
        if row is None:
            meta = Meta(f"Not in release {name} · {TITLE}", f"Release {name}'s board has no such entry.", here)
            return self._page(request, meta, "board", entry_page.missing_in_release_body(wanted, name), status=404)
        found = row
        editions = await run_in_threadpool(self.releases.book.history, live)
        edition = next((e for e in editions if e.name == name), None)
        if edition is None:  # the list was read again in between and no longer names it
            return self._no_release(request, name)
        shown = edition

        def draw() -> str:
            line = changelog.frozen_entry_release(found, shown)
            return entry_page.entry_body(found, figures_alone(found), entry.choices(rows.rows), release=line)

        body = await run_in_threadpool(self.releases.frozen.get, FROZEN, ("entry", name, wanted), draw)
        return self._entry_page(
            request, found, body, editions, here, f"{found.get('model')} · release {name} · {TITLE}"
        )

    def _entry_page(
        self, request: Request, row: dict[str, object], body: str, editions: list[Edition], here: str, title: str
    ) -> HTMLResponse:
        """An entry's page around its drawn ``body``: its citation (naming this site) and its link preview."""
        body = entry_page.citation_in(body, row, self._url(request, ""), editions)
        meta = Meta(title, entry_page.entry_description(row), here, kind="article")
        return self._page(request, meta, "board", body, script=True)  # board.js: the citation's copy buttons

    def _no_release(self, request: Request, name: str) -> HTMLResponse:
        meta = Meta(f"No such release · {TITLE}", "No release has this name.", self._url(request, "/changelog"))
        return self._page(request, meta, "board", missing_body(name), status=404)

    async def compare(self, request: Request) -> Response:
        ids = entry_page.compare_ids(request.query_params.getlist("compare")[:4])
        snapshot = await run_in_threadpool(self.services.board.snapshot)
        found = (None, None) if ids is None else (entry.find(snapshot.rows, ids[0]), entry.find(snapshot.rows, ids[1]))

        def draw() -> str:
            both = found[0] is not None and found[1] is not None
            differences = self._differences(found[0], found[1]) if both else None
            return entry_page.compare_body(entry.choices(snapshot.rows), ids, found, differences)

        ready = self.services.warmup.ready.is_set() and not self.services.warmup.error
        if ready:
            body = await run_in_threadpool(self.drawn.get, snapshot.version, ("compare", ids), draw)
        else:
            body = INTERVALS_LATER + entry_page.compare_body(entry.choices(snapshot.rows), ids, found, [])
        missing = ids is not None and None in found
        where = "/compare" + (f"?{urlencode([('compare', ','.join(ids))])}" if ids else "")
        meta = Meta(
            f"Compare · {TITLE}",
            "Two NaviTrace entries side by side, with paired intervals.",
            self._url(request, where),
        )
        return self._page(request, meta, "board", body, status=404 if missing else 200)

    # -- About, its files, our static files --------------------------------------------------------------

    async def about(self, request: Request) -> Response:
        settings = self.services.leaderboard.settings
        warmup = self.services.warmup
        examples = warmup.example_files() if warmup.ready.is_set() else None
        body = about_page.about_body(
            settings.baseline_raw, not settings.answer_key_dataset, examples, self._url(request, "")
        )
        meta = Meta(
            f"About · {TITLE}",
            "What NaviTrace is, how a trace is scored, the submission file.",
            self._url(request, "/about"),
        )
        return self._page(request, meta, "about", body)

    async def changelog(self, request: Request) -> Response:
        snapshot = await run_in_threadpool(self.services.board.snapshot)
        draw = partial(self.releases.changelog_body, snapshot)
        body = await run_in_threadpool(self.drawn.get, snapshot.version, "changelog", draw)
        meta = Meta(
            f"Changelog · {TITLE}",
            "The board's releases: what changed, why, when, and how ranks moved.",
            self._url(request, "/changelog"),
        )
        return self._page(request, meta, "about", body)

    async def example(self, request: Request) -> Response:
        name = request.path_params["name"]
        found = {p.name: p for p in self.services.warmup.example_files()} if name in EXAMPLE_NAMES else {}
        if name not in found:
            return PlainTextResponse(f"no example file {name[:80]!r} (yet)", status_code=404)
        return FileResponse(
            found[name],
            media_type="text/tab-separated-values; charset=utf-8",
            filename=name,
            headers={"Cache-Control": "no-cache"},
        )

    async def static(self, request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC_TYPES:
            return PlainTextResponse("not found", status_code=404)
        if name not in self._static:
            self._static[name] = await run_in_threadpool(static_file, name)
        # The pages ask for ``?v=<hash of the content>``: a changed file is a new address.
        headers = {"Cache-Control": "public, max-age=31536000, immutable"}
        return Response(self._static[name], media_type=STATIC_TYPES[name], headers=headers)

    # -- helpers -----------------------------------------------------------------------------------------

    def _page(
        self, request: Request, meta: Meta, active: str, body: str, script: bool = False, status: int = 200
    ) -> HTMLResponse:
        path = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        header = header_html(self.viewer_of(request), active, path)
        return HTMLResponse(page(meta, header, body, script=script), status_code=status, headers=PAGE_HEADERS)

    def _url(self, request: Request, path: str) -> str:
        hosts = self.services.space.space_hosts
        origin = f"https://{hosts[0]}" if hosts else str(request.base_url).rstrip("/")
        return origin + path

    def _groups(self, row: dict[str, object]) -> list[GroupFigure]:
        try:
            return self.intervals.groups(row)
        except InvalidAction:
            return []

    def _differences(self, row_a, row_b) -> list[GroupFigure]:
        try:
            return self.intervals.compare(row_a, row_b)
        except InvalidAction:
            return []


_BASE = '<base target="_blank">'


def _legacy(params) -> str | None:
    """Where an old address goes: ``/?entry=ID`` to the entry page, ``/?compare=a,b`` to compare."""
    wanted = entry.entry_id(params)
    if wanted is not None:
        return entry_page.entry_href(wanted)
    pair = str(params.get("compare") or "")[: 2 * entry.MAX_ID + 1].strip()
    if pair:
        return f"/compare?{urlencode([('compare', pair)])}"
    return None
