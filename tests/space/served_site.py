"""The whole site (``space.web.server.build_app``) served in this process on a free port, for tests over HTTP."""

from __future__ import annotations

import contextlib
import dataclasses
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import uvicorn
from fastapi import FastAPI
from starlette.routing import Mount

from app import build_desk, build_workspace
from leaderboard import Settings
from space.web.server import DESK_PATH, WORKSPACE_PATH, build_app
from space.web.services import Services
from space.web.settings import SpaceSettings
from space.workspace import gradio_internals

START_TIMEOUT_S = 60.0


@dataclass(frozen=True)
class Site:
    url: str
    app: FastAPI
    services: Services

    def mounted(self, path: str) -> object:
        """The Gradio app mounted at ``path`` (``WORKSPACE_PATH`` or ``DESK_PATH``)."""
        return next(r.app for r in self.app.routes if isinstance(r, Mount) and r.path == path)

    @property
    def workspace(self):
        return self.mounted(WORKSPACE_PATH)

    @property
    def desk(self):
        return self.mounted(DESK_PATH)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def served(settings: Settings, space: SpaceSettings, services: Services | None = None) -> Iterator[Site]:
    """Serve the site until the block ends; ``space.server_port`` is where (use ``free_port()``)."""
    services = services or Services.create(settings, space)
    app = build_app(settings, space, services, build_workspace(services), build_desk(services))
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=space.server_port, log_level="warning", proxy_headers=False)
    )
    thread = threading.Thread(target=server.run, name="site", daemon=True)
    thread.start()
    deadline = time.monotonic() + START_TIMEOUT_S
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError(f"the site did not start on port {space.server_port}")
        time.sleep(0.05)
    try:
        yield Site(f"http://127.0.0.1:{space.server_port}", app, services)
    finally:
        server.should_exit = True
        thread.join(timeout=15)


@contextlib.contextmanager
def demo_site(home: Path, datasets: tuple[Path, Path], key_cache: Path, monkeypatch, **space: object) -> Iterator[Site]:
    """The whole site over the demo datasets, ``boss`` its maintainer, with Gradio's analytics quiet as app.main has
    them (set before any Blocks is made); ``space``: SpaceSettings fields."""
    for name, value in gradio_internals.QUIET_ANALYTICS.items():
        monkeypatch.setenv(name, value)
    env = {"LEADERBOARD_HOME": str(home), "ANSWER_KEY_DATASET": str(datasets[0]),
           "PUBLIC_DATASET": str(datasets[1]), "MAINTAINERS": "boss"}  # fmt: skip
    settings = dataclasses.replace(Settings.from_env(env), answer_key_cache=key_cache)
    with served(settings, SpaceSettings(server_port=free_port(), **space)) as running:  # type: ignore[arg-type]
        yield running
