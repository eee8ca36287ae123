"""The app counts what it is answering (space/web/request_count.py) so that background work can step aside."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, StreamingResponse
from starlette.routing import Route
from starlette.testclient import TestClient

from leaderboard import Settings
from leaderboard.runtime.pages_first import Gauge
from space.web.request_count import CountRequests
from space.web.settings import SpaceSettings
from tests.space.served_site import Site, free_port, served
from tests.space.test_gradio_internals import visit


class Recording(Gauge):
    """A gauge that remembers each count it took."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.counts: list[int] = []

    def _add(self, step: int) -> None:
        super()._add(step)
        self.counts.append(self.count)


@pytest.fixture
def gauge(tmp_path) -> Recording:
    return Recording(tmp_path / "pages_busy")


def test_a_request_counts_until_answered_and_a_stream_only_until_it_starts(gauge):
    seen: dict[str, int] = {}

    async def work(request: Request) -> PlainTextResponse:
        seen["work"] = gauge.count
        return PlainTextResponse("done")

    async def stream(request: Request) -> StreamingResponse:
        async def events():
            yield "data: first\n\n"
            seen["streaming"] = gauge.count  # the answer has started: the stream only waits now
            yield "data: second\n\n"

        return StreamingResponse(events(), media_type="text/event-stream")

    async def broken(request: Request) -> PlainTextResponse:
        raise RuntimeError("a handler that fails")

    app = Starlette(routes=[Route("/work", work), Route("/stream", stream), Route("/broken", broken)])
    with TestClient(CountRequests(app, gauge), raise_server_exceptions=False) as client:
        assert client.get("/work").text == "done"
        assert "second" in client.get("/stream").text
        assert client.get("/broken").status_code == 500
    assert seen == {"work": 1, "streaming": 0}
    assert gauge.count == 0  # nothing left counted, the failure included


def test_a_page_event_waiting_for_a_check_leaves_the_count_meanwhile(gauge, settings, files):
    from space.web.offload import Offload

    checks = Offload(settings, pages_busy=gauge)
    try:
        gauge.enter()  # the Submit tab's event, which asks for the check
        checks.validate(files["validation-noisy"], "validation")
    finally:
        checks.close()
    assert gauge.counts == [1, 0, 1]  # out while the child checked, back for the rest of the event


@pytest.fixture
def site(tmp_path, demo_dataset, demo_public, key_cache) -> Iterator[Site]:
    env = {"LEADERBOARD_HOME": str(tmp_path / "home"), "ANSWER_KEY_DATASET": str(demo_dataset),
           "PUBLIC_DATASET": str(demo_public)}  # fmt: skip
    settings = dataclasses.replace(Settings.from_env(env), answer_key_cache=key_cache)
    with served(settings, SpaceSettings(server_port=free_port())) as running:
        try:
            yield running
        finally:
            for pool in (running.services.checks, running.services.drawings):
                if pool is not None:
                    pool.close()


def test_the_site_counts_a_board_request_while_it_is_drawn_and_ends_at_zero(site: Site):
    gauge = site.services.pages_busy
    assert gauge is not None
    during: list[int] = []
    snapshot = site.services.board.snapshot

    def counted_snapshot():  # what every public page reads first
        during.append(gauge.count)
        return snapshot()

    site.services.board.snapshot = counted_snapshot  # type: ignore[method-assign]
    with httpx.Client(base_url=site.url, timeout=60) as client:
        for query in ("", "?q=a", "?sort=model"):  # three views of the board
            assert client.get(f"/{query}").status_code == 200
        visit(client)  # a signed-in page's visit: its requests counted, its streams not held in the count
    assert during and min(during) >= 1  # the request being answered is counted
    assert gauge.count == 0  # every request left the count again
