"""The site: one ASGI app for the public pages, the sign-in, the scripted API and the signed-in Gradio pages.

What everyone reads is plain routes drawn once per results version (``space/site/routes.py``: the board, entries,
compare, About, the embed, the JSON API, the CSV): no Gradio front end boots for a reader. What signed-in
people do stays in Gradio, mounted with ``gr.mount_gradio_app``: Submit, My submissions and the Explorer
at ``WORKSPACE_PATH``, the maintainers' desk at ``DESK_PATH``. One signed session serves both (ours off
a Space, Gradio's OAuth routes and session on a Space), and the guard stands in front of every route,
plain or Gradio, as ordinary middlewares, outermost first:

``Door`` (Host, Origin, the address headers cleaned) -> ``SecurityHeaders`` (CSP) -> gzip ->
``CountRequests`` (scoring steps aside while pages are answered) -> the session -> ``Keeper``
(server-side sessions, caps and limits on bodies).

Gradio serves files only from its own cache (uploads and what handlers return): there are no
``allowed_paths``, and ``LEADERBOARD_HOME`` and the answer-key cache are ``blocked_paths``, so even a
handler returning a path in there by mistake could not publish it. Gradio's ``/monitoring`` routes
are off: they would tell anyone every endpoint's name and call count.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import gradio as gr
import uvicorn
from fastapi import FastAPI
from starlette.middleware.gzip import GZipMiddleware
from starlette.routing import Mount

from leaderboard import Settings
from leaderboard.runtime import Gauge
from scoring import MAX_FILE_BYTES
from space.board.csv_route import routes as board_routes
from space.site.api import routes as api_routes
from space.site.health_route import routes as health_routes
from space.site.routes import routes as public_routes
from space.site.shell import asset
from space.web.auth import local_session, sign_in_routes, viewer_of
from space.web.guard import DESK_PATH, WORKSPACE_PATH, Door, Guard, Keeper, load_events
from space.web.long_lived import freeze_long_lived
from space.web.request_count import CountRequests
from space.web.script_api import routes as script_routes
from space.web.security_headers import SecurityHeaders, policy_for
from space.web.services import Services
from space.web.settings import SpaceSettings
from space.workspace.a11y import ANNOUNCED
from space.workspace.gradio_internals import (
    attach_hf_sign_in,
    bound_visits,
    check_files,
    keep_safe,
    pending_counter,
    unread_forgetter,
)
from space.workspace.theme import CSS, THEME

__all__ = ["DESK_PATH", "WORKSPACE_PATH", "build_app", "guarded", "private_paths", "serve"]

# The shared header's own stylesheet on the Gradio pages (the plain pages' site.css styles whole pages).
HEAD = f'<link rel="stylesheet" href="{asset("header.css")}">'
GRACEFUL_STOP_S = 3  # open event streams are cut after this long on SIGTERM: a stop ends in seconds


def private_paths(settings: Settings) -> list[str]:
    """Folders no HTTP route may serve: local state (requests, uploads, results, demo data) and the key cache."""
    folders = {settings.home, settings.cache_folder, settings.requests_folder, settings.demo_folder}
    return sorted(str(Path(p).resolve()) for p in folders)


def build_app(
    settings: Settings, space: SpaceSettings, services: Services, workspace: gr.Blocks, desk: gr.Blocks
) -> FastAPI:
    """The whole site; ``workspace`` (Submit, My submissions, Explorer) and ``desk`` are the Gradio pages."""
    guard = Guard(space, MAX_FILE_BYTES)
    guard.maintainer = services.leaderboard.is_maintainer
    app = FastAPI(docs_url=None, redoc_url=None, openapi_url=None, lifespan=_lifespan(space))
    viewer = viewer_of(services.auth)
    for route in (
        *public_routes(services, viewer),
        *api_routes(services),
        *health_routes(services),
        *board_routes(services),
        *script_routes(services, guard),
        *sign_in_routes(space),
    ):
        app.router.routes.append(route)
    for path, blocks in ((WORKSPACE_PATH, workspace), (DESK_PATH, desk)):
        blocks.queue(default_concurrency_limit=4)
        bound_visits(blocks, space.max_visits)
        gr.mount_gradio_app(
            app, blocks, path, **_serving(settings), theme=THEME, css=CSS, head=HEAD, i18n=gr.I18n(en=ANNOUNCED)
        )
        check_files(blocks)
        guard.events.attach(path, pending_counter(blocks), unread_forgetter(blocks))
        guard.page_loads[path] = load_events(blocks)
    guarded(app, guard, services.pages_busy)
    return app


def guarded(app: FastAPI, guard: Guard, pages_busy: Gauge | None = None) -> FastAPI:
    """``app`` behind the guard, the session, the security headers and compression, in the site's order."""
    # ``add_middleware`` puts each one outside the ones added before it: the keeper first, the door last.
    app.add_middleware(Keeper, guard=guard)
    _sessions(app, guard.space)
    if pages_busy is not None:
        app.add_middleware(CountRequests, gauge=pages_busy)
    app.add_middleware(GZipMiddleware, minimum_size=1024)
    app.add_middleware(SecurityHeaders, headers=policy_for(guard.space))
    app.add_middleware(Door, guard=guard)
    return app


def serve(app: FastAPI, space: SpaceSettings) -> None:
    """Serve until SIGTERM or Ctrl-C (uvicorn's own handlers), then return."""
    config = uvicorn.Config(
        app,
        host=space.server_name,
        port=space.server_port,
        log_level="warning",
        proxy_headers=False,  # who is calling is the guard's to read (space/web/guard.py), not uvicorn's
        timeout_graceful_shutdown=GRACEFUL_STOP_S,
    )
    uvicorn.Server(config).run()


def _sessions(app: FastAPI, space: SpaceSettings) -> None:
    """The signed session: on a Space, Gradio's OAuth routes and session, at the site's root where the Hub's
    redirect comes back (``/login/callback``); elsewhere the local development sign-in's."""
    if space.on_space:
        attach_hf_sign_in(app)
    else:
        session = local_session()
        app.add_middleware(session.cls, *session.args, **session.kwargs)


def _serving(settings: Settings) -> dict[str, Any]:
    return dict(
        allowed_paths=[],
        blocked_paths=private_paths(settings),
        max_file_size=MAX_FILE_BYTES,
        # Only our own messages (gr.Error, made by space.workspace.errors) reach the page: Gradio's errors can name
        # server paths, e.g. the blocked_paths when a forged file input points into them.
        show_error=False,
        footer_links=["gradio"],
        run_history=False,
        enable_monitoring=False,  # /monitoring/summary would list every endpoint, maintainer ones too, with counts
        ssr_mode=False,
    )


def _lifespan(space: SpaceSettings) -> Any:
    """The server's start and stop: Gradio's queues made safe against strangers, long-lived objects frozen."""

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        mounted = [route.app for route in app.routes if isinstance(route, Mount) and hasattr(route.app, "get_blocks")]
        sweeps = [asyncio.create_task(keep_safe(one, space.max_visits)) for one in mounted]
        freeze_long_lived("server started")
        try:
            yield
        finally:
            for sweep in sweeps:
                sweep.cancel()

    return lifespan
