"""Serving the Blocks: the guard, sign-in routes, blocked paths, limits; nothing private is reachable over HTTP.

Gradio serves files only from its own cache (uploads and what handlers return), from
``allowed_paths`` (none here) and from static paths (none here). ``LEADERBOARD_HOME`` and the
answer-key cache are also listed as ``blocked_paths``, so even a handler returning a path in
there by mistake could not publish it. Gradio's ``/monitoring`` routes are off: by default
``/monitoring/summary`` tells anyone every endpoint's name and call count. Who may call and from
where is ``space.guard``'s, in front of every route.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import gradio as gr
from fastapi import FastAPI

from leaderboard import Settings
from leaderboard.pages_first import Gauge
from scoring import MAX_FILE_BYTES
from space.auth import local_sign_in
from space.board_download import routes as board_routes
from space.guard import DESK_PATH, Guard, app_kwargs
from space.long_lived import freeze_long_lived
from space.mailboxes import protect
from space.request_count import count_events
from space.script_api import routes as script_routes
from space.services import Services
from space.settings import SpaceSettings
from space.theme import CSS, THEME
from space.visit_cost import cheap_visits
from space.visits import bound, keep_bounded, quiet_analytics


def private_paths(settings: Settings) -> list[str]:
    """Folders no HTTP route may serve: local state (requests, uploads, results, demo data) and the key cache."""
    folders = {settings.home, settings.cache_folder, settings.requests_folder, settings.demo_folder}
    return sorted(str(Path(p).resolve()) for p in folders)


def launch(
    demo: gr.Blocks,
    settings: Settings,
    space: SpaceSettings,
    services: Services | None = None,
    desk: gr.Blocks | None = None,
    **extra: Any,
) -> None:
    """Start serving (blocks until the server stops; ``prevent_thread_lock=True`` in ``extra`` returns at once).

    With ``services``, the scripted submission route too (``space/script_api.py``). ``desk``, the maintainers'
    page, is served at ``DESK_PATH`` by the same server, behind the same guard and sessions (it is mounted
    inside the page's app, so every request passes the door and the keeper).
    """
    cheap_visits()
    demo.queue(default_concurrency_limit=4)
    guard, base = Guard(space, MAX_FILE_BYTES), local_sign_in(space)
    if services is not None:
        extra_routes = [*script_routes(services, guard), *board_routes(services)]
        base = {**base, "routes": [*base.get("routes", []), *extra_routes]}
    pages_busy = services.pages_busy if services is not None else None
    kwargs = app_kwargs(guard, base, pages_busy)
    holder = FastAPI()  # carries the desk's app and its start-up until the page's app takes them
    if desk is not None:
        desk.queue(default_concurrency_limit=4)
        gr.mount_gradio_app(holder, desk, DESK_PATH, **_serving(settings), **_looks())
        kwargs["routes"] = [*kwargs["routes"], *holder.routes[-1:]]  # the Mount, before Gradio's own routes
    kwargs["lifespan"] = _lifespan(kwargs["lifespan"], holder, space.max_visits, pages_busy)
    demo.launch(
        server_name=space.server_name,
        server_port=space.server_port,
        app_kwargs=kwargs,
        **_serving(settings),
        **_looks(),
        **extra,
    )


def _serving(settings: Settings) -> dict[str, Any]:
    return dict(
        allowed_paths=[],
        blocked_paths=private_paths(settings),
        max_file_size=MAX_FILE_BYTES,
        # Only our own messages (gr.Error, made by space.errors) reach the page: Gradio's errors can name
        # server paths, e.g. the blocked_paths when a forged file input points into them.
        show_error=False,
        footer_links=["gradio"],
        run_history=False,
        enable_monitoring=False,  # /monitoring/summary would list every endpoint, maintainer ones too, with counts
        ssr_mode=False,
    )


def _looks() -> dict[str, Any]:
    return {"theme": THEME, "css": CSS}


def _lifespan(inner: Any, holder: FastAPI, max_visits: int, pages_busy: Gauge | None) -> Any:
    """The server's start and stop: the guard's (``inner``), the desk's Gradio start-up, the bound on visits,
    the events counted in ``pages_busy``."""

    @contextlib.asynccontextmanager
    async def lifespan(app: Any) -> AsyncIterator[None]:
        async with inner(app), holder.router.lifespan_context(holder):
            mounted = [getattr(route, "app", None) for route in holder.routes]
            apps = [app, *(one for one in mounted if hasattr(one, "state_holder"))]
            for one in apps:
                bound(one.state_holder, max_visits)
                quiet_analytics(one.get_blocks()._queue)
                protect(one.get_blocks()._queue, max_visits)
                if pages_busy is not None:
                    count_events(one.get_blocks()._queue, pages_busy)
            sweeps = [asyncio.create_task(keep_bounded(one.state_holder, one.get_blocks()._queue)) for one in apps]
            freeze_long_lived("server started")
            try:
                yield
            finally:
                for sweep in sweeps:
                    sweep.cancel()

    return lifespan
