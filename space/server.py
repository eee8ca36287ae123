"""Serving the Blocks: the guard, sign-in routes, blocked paths, limits; nothing private is reachable over HTTP.

Gradio serves files only from its own cache (uploads and what handlers return), from
``allowed_paths`` (none here) and from static paths (none here). ``LEADERBOARD_HOME`` and the
answer-key cache are also listed as ``blocked_paths``, so even a handler returning a path in
there by mistake could not publish it. Gradio's ``/monitoring`` routes are off: by default
``/monitoring/summary`` tells anyone every endpoint's name and call count. Who may call and from
where is ``space.guard``'s, in front of every route.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import gradio as gr

from leaderboard import Settings
from scoring import MAX_FILE_BYTES
from space.auth import local_sign_in
from space.guard import Guard, app_kwargs
from space.script_api import routes as script_routes
from space.services import Services
from space.settings import SpaceSettings
from space.theme import CSS, THEME


def private_paths(settings: Settings) -> list[str]:
    """Folders no HTTP route may serve: local state (requests, uploads, results, demo data) and the key cache."""
    folders = {settings.home, settings.cache_folder, settings.requests_folder, settings.demo_folder}
    return sorted(str(Path(p).resolve()) for p in folders)


def launch(
    demo: gr.Blocks, settings: Settings, space: SpaceSettings, services: Services | None = None, **extra: Any
) -> None:
    """Start serving (blocks until the server stops; ``prevent_thread_lock=True`` in ``extra`` returns at once).

    With ``services``, the scripted submission route too (``space/script_api.py``)."""
    demo.queue(default_concurrency_limit=4)
    guard, base = Guard(space, MAX_FILE_BYTES), local_sign_in(space)
    if services is not None:
        base = {**base, "routes": [*base.get("routes", []), *script_routes(services, guard)]}
    demo.launch(
        server_name=space.server_name,
        server_port=space.server_port,
        app_kwargs=app_kwargs(guard, base),
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
        theme=THEME,
        css=CSS,
        **extra,
    )
