"""``LocalHub``: the emulator served by uvicorn on 127.0.0.1 in a thread, and the test's handle on it.

    with LocalHub.start() as hub:
        hub.add_user("boss", "hf_boss", orgs=["org"])
        hub.url                        # HF_ENDPOINT for the clients
        hub.faults.add("commit", Http(503))
        hub.calls("commit")            # what went over the wire
        hub.files("org/requests")      # the test's view, no HTTP

Signed LFS URLs point at ``http://localhost:{port}``: the same server under another host name,
so the client treats it as a CDN (it does not send its token there), as with the real Hub.
"""

from __future__ import annotations

import logging
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import uvicorn

from tests.hub.emulator import HubEmulator
from tests.hub.hub_faults import FaultPlan, Recorder
from tests.hub.hub_state import LFS_THRESHOLD, Commit, HubState, Quota, User

START_TIMEOUT_S = 10.0


class _QuietResets(logging.Filter):
    """uvicorn reports a connection the app reset on purpose (a ``Reset`` fault) as an error: not one here."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "returned without starting response" not in record.getMessage()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class LocalHub:
    def __init__(self, lfs_threshold: int = LFS_THRESHOLD, clock: Callable[[], float] = time.monotonic) -> None:
        self.state = HubState(lfs_threshold=lfs_threshold, clock=clock)  # clock: the commit quota's
        self.faults = FaultPlan()
        self.calls = Recorder()
        self.app = HubEmulator(self.state, self.faults, self.calls)
        self.url = ""
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None

    @classmethod
    @contextmanager
    def start(
        cls, lfs_threshold: int = LFS_THRESHOLD, clock: Callable[[], float] = time.monotonic
    ) -> Iterator[LocalHub]:
        hub = cls(lfs_threshold, clock)
        hub._serve()
        try:
            yield hub
        finally:
            hub._stop()

    def _serve(self) -> None:
        errors = logging.getLogger("uvicorn.error")
        if not any(isinstance(f, _QuietResets) for f in errors.filters):
            errors.addFilter(_QuietResets())
        port = free_port()
        self.url = self.app.url = f"http://127.0.0.1:{port}"
        self.app.storage_url = f"http://localhost:{port}"
        config = uvicorn.Config(
            self.app, host="127.0.0.1", port=port, http="h11", lifespan="off", log_level="warning", access_log=False
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, name="local-hub", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + START_TIMEOUT_S
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError(f"the local Hub did not start on port {port}")
            time.sleep(0.01)

    def _stop(self) -> None:
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=10)

    # -- the test's handle ---------------------------------------------------------------------

    def add_user(self, name: str, token: str, orgs: tuple[str, ...] = (), role: str = "write") -> User:
        return self.state.add_user(name, token, orgs, role)

    def revoke(self, token: str) -> None:
        self.state.revoke(token)

    def set_quota(self, commits: int, window_s: float, retry_after: bool = True) -> None:
        """At most ``commits`` per repository in any ``window_s`` seconds (a scaled hour), then 429."""
        self.state.quota = Quota(commits, window_s, retry_after)

    def files(self, repo_id: str, revision: str = "main", repo_type: str = "dataset") -> dict[str, bytes]:
        return self.state.files(repo_id, revision, repo_type)

    def history(self, repo_id: str, repo_type: str = "dataset") -> list[Commit]:
        return self.state.history(repo_id, repo_type)

    def messages(self, repo_id: str) -> list[str]:
        return [c.message for c in self.history(repo_id)]
