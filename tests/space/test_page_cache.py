"""The page's HTML is built once per address (space/page_cache.py): the same bytes, fewer builds, bounded."""

from __future__ import annotations

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.routing import Route
from starlette.testclient import TestClient

from space import page_cache
from space.page_cache import PageCache


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def page_app(builds: list[str], cookie: bool = False) -> Starlette:
    async def page(request: Request) -> HTMLResponse:
        builds.append(request.headers.get("host", ""))
        response = HTMLResponse(f"<p>root {request.base_url} build {len(builds)}</p>")
        if cookie:
            response.set_cookie("seen", "1")
        return response

    return Starlette(routes=[Route("/", page, methods=["GET", "POST"]), Route("/other", page), Route("/config", page)])


@pytest.fixture
def clock() -> Clock:
    return Clock()


def client(app: Starlette | PageCache, clock: Clock, host: str = "127.0.0.1:7860") -> TestClient:
    """A client of ``app`` behind a page cache (its own event loop in a thread: no loop shared with other tests)."""
    cached = app if isinstance(app, PageCache) else PageCache(app, clock=clock)
    return TestClient(cached, base_url=f"http://{host}")


def test_the_second_visit_gets_the_first_answer_without_a_build(clock):
    builds: list[str] = []
    with client(page_app(builds), clock) as browser:
        first, second = browser.get("/"), browser.get("/?entry=abc&split=test")
    assert builds == ["127.0.0.1:7860"]
    assert second.text == first.text and second.headers["content-type"] == first.headers["content-type"]


def test_each_address_has_its_own_page_and_a_stale_one_is_rebuilt(clock):
    builds: list[str] = []
    app = page_app(builds)
    with client(app, clock) as here, client(app, clock, "localhost:7860") as there:
        a, b = here.get("/"), there.get("/")
        forwarded = here.get("/", headers={"x-forwarded-proto": "https"})
        clock.now += page_cache.TTL_S + 1
        here.get("/")
    assert "127.0.0.1" in a.text and "localhost" in b.text
    assert len(builds) == 4 and forwarded.text != a.text


def test_deep_links_auth_cookies_other_paths_and_posts_are_never_cached(clock):
    builds: list[str] = []
    with client(page_app(builds), clock) as browser:
        for _ in range(2):
            browser.get("/?deep_link=x")
            browser.get("/", headers={"cookie": "access-token-abc=1"})
            browser.get("/other")
            browser.post("/")
    assert len(builds) == 8


def test_an_answer_that_sets_a_cookie_is_not_kept(clock):
    builds: list[str] = []
    with client(page_app(builds, cookie=True), clock) as browser:
        browser.get("/")
        browser.get("/")
    assert len(builds) == 2


def test_at_most_max_pages_addresses_are_kept(clock):
    builds: list[str] = []
    cache = PageCache(page_app(builds), clock=clock)
    with client(cache, clock) as browser:
        for i in range(page_cache.MAX_PAGES * 3):
            browser.get("/", headers={"host": f"name{i}.example"})
    assert len(cache.pages) == page_cache.MAX_PAGES


def test_the_configuration_is_kept_like_the_page_but_never_for_a_query(clock):
    builds: list[str] = []
    with client(page_app(builds), clock) as browser:
        first, second = browser.get("/config"), browser.get("/config")
        assert len(builds) == 1 and second.text == first.text
        browser.get("/config?page=other")
        browser.get("/config?page=other")
    assert len(builds) == 3  # a query (page, deep_link) changes Gradio's answer: built each time
