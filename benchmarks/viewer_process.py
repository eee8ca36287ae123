"""The simulated viewers, in a process of their own, on one event loop: what they time is the app.

Fifty viewer threads in the benchmark's own interpreter timed mostly that interpreter: each answer waited
for the GIL behind the other threads (and behind the uploaders' or attackers' clients in the same
process): a lone viewer in another process, beside ``load_test.py``'s 50 viewer threads, saw page loads an
order of magnitude faster than the threads did (``benchmarks/JOURNAL.md``). Real viewers are other
machines; here they are ``count`` asyncio tasks (one browser each) in a child process that does nothing
else, so the other load of a benchmark (uploads, attacks) never shares their interpreter. Each pause
between a viewer's loads is drawn at random around ``think_s`` (``THINK_SPREAD``), as people's pauses
vary.

What a viewer does is what a browser does with the board (``space/site/routes.py``): ``GET /`` (plain HTML, drawn
once per results version), then the page's own files (its stylesheet, its script, its icon: the
``<link>`` and ``<script>`` of the page's head), fetched together as a browser's preload scanner does,
through a small HTTP cache that follows the answers' ``Cache-Control`` and validators (``Browser``):

- the files are ``public, max-age=31536000, immutable`` at a hashed address (``?v=``): a browser that has
  them asks nothing (Chromium does not revalidate an immutable file even on reload), so only a first visit
  fetches them, and a visit after a new version of a file (a new address);
- the page is ``private, no-cache`` without a validator: every visit fetches it whole;
- a new person arrives now and then: ``NEW_VISITOR`` of the loads start from an empty cache and new
  connections (the figures would otherwise hold one first visit per viewer for the whole run);
- ``API_SHARE`` of the loads also read ``/api/board?split=test`` (a script or a notebook polling the board),
  with the ETag it holds (``If-None-Match``): a 304 while the results are unchanged. Timed apart.

    viewers = start_viewers(url, 50, 1.0, stop, result)   # result.page fills as loads finish
    stop.set(); [t.join() for t in viewers]

The child prints one JSON line per page load (``[start, GET / s, its files s, files fetched]``, ``start``
on the system-wide monotonic clock, comparable with the parent's ``time.monotonic()``; the files' time is
0 when all came from the cache), per API read (``{"api": [start, s, status]}``), per late wake-up of its
own loop (``{"lag": [when, s]}``) or per error (``{"error": ...}``), and stops when its standard input
closes.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Protocol

import httpx

ROOT = Path(__file__).resolve().parents[1]
# A viewer's pause between loads is drawn from this range of ``think_s`` (mean ``think_s``). With the same
# pause for everyone, viewers delayed together by one slow answer stayed together: they fell into convoys
# that arrived as one burst and queued behind each other: on an idle app the page's p50 was ten times
# that with pauses spread over 0.5-1.5 s, and the convoys re-formed at random, so a run's ratios measured
# them more than the app (benchmarks/JOURNAL.md). People's pauses vary.
THINK_SPREAD = (0.5, 1.5)
NEW_VISITOR = 0.1  # a tenth of the loads are a first visit (an empty cache, new connections): a guess, stated
API_SHARE = 0.1  # a tenth of the loads also read the board's JSON (with the ETag held)
API_PATH = "/api/board?split=test"
# A browser's request headers (Chromium 131's for a navigation); the page is sent compressed when asked.
BROWSER_HEADERS = {
    "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36",
    "accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
    "accept-encoding": "gzip, deflate",
    "accept-language": "en-GB,en;q=0.9",
}
CONNECTIONS = 6  # a browser's connections to one host (HTTP/1.1)


class Samples(Protocol):
    """What the viewers fill (``load_test.Result``)."""

    page: list[tuple[float, float, float]]
    started: float
    lock: threading.Lock

    def error(self, text: str) -> None: ...


def start_viewers(
    url: str, count: int, think_s: float, stop: threading.Event, result: Samples
) -> list[threading.Thread]:
    """``count`` viewers arriving spread over one pause; ``result.started`` marks when they set off.

    Returns two threads to join: the one that collects their loads into ``result`` and the one that,
    once ``stop`` is set, closes the viewers' input so that their process ends."""
    child = subprocess.Popen(
        [sys.executable, "-m", "benchmarks.viewer_process", url, str(count), str(think_s)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdin is not None and child.stdout is not None
    result.started = time.monotonic()
    collector = threading.Thread(target=_collect, args=(child, result), name="viewers-collect", daemon=True)
    stopper = threading.Thread(target=_stop_on, args=(child, stop), name="viewers-stop", daemon=True)
    collector.start()
    stopper.start()
    return [collector, stopper]


def _collect(child: subprocess.Popen[str], result: Samples) -> None:
    assert child.stdout is not None
    for line in child.stdout:
        sample = json.loads(line)
        if isinstance(sample, dict):
            with result.lock:
                if "lag" in sample:  # the viewers' own event loop was late: not the app
                    getattr(result, "viewer_lag", []).append(tuple(sample["lag"]))
                elif "api" in sample:
                    getattr(result, "api", []).append(tuple(sample["api"]))
            if "error" in sample:
                result.error(f"viewer: {sample['error']}")
            continue
        start, page_s, files_s, fetched = sample
        with result.lock:
            result.page.append((start, page_s, files_s))
            if fetched and hasattr(result, "files_fetched"):
                result.files_fetched += 1  # type: ignore[attr-defined]  # load_test.Result has it
    child.wait()


def _stop_on(child: subprocess.Popen[str], stop: threading.Event) -> None:
    stop.wait()
    assert child.stdin is not None
    try:
        child.stdin.close()  # the child finishes the loads in flight and ends
    except OSError:
        pass
    try:
        child.wait(30)
    except subprocess.TimeoutExpired:
        child.kill()


# -- the child -------------------------------------------------------------------------------------


class PageFiles(HTMLParser):
    """The same-site files a browser fetches for a page: stylesheets, icons, scripts."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        given = dict(attrs)
        rel = set((given.get("rel") or "").split())
        address = given.get("href") if tag == "link" and rel & {"stylesheet", "icon"} else None
        address = given.get("src") if tag == "script" else address
        if address and address.startswith("/") and not address.startswith("//") and address not in self.found:
            self.found.append(address)

    @classmethod
    def of(cls, html: str) -> list[str]:
        parser = cls()
        parser.feed(html[: html.find("</head>") + 7] if "</head>" in html else html)
        return parser.found


@dataclass
class Kept:
    """A response a browser keeps: fresh until ``fresh_until`` (monotonic), then revalidated by its validators."""

    fresh_until: float
    etag: str | None
    last_modified: str | None


class Browser:
    """One browser: its connections (``CONNECTIONS`` to the host), its cookies and a private HTTP cache (RFC 9111,
    the parts a browser uses here: ``max-age``, ``no-cache``, ``no-store``, ``ETag``/``Last-Modified``, 304)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.kept: dict[str, Kept] = {}
        self.client = self._client()

    def _client(self) -> httpx.AsyncClient:
        limits = httpx.Limits(max_connections=CONNECTIONS, max_keepalive_connections=CONNECTIONS)
        return httpx.AsyncClient(base_url=self.url, timeout=60, headers=BROWSER_HEADERS, limits=limits)

    async def forget(self) -> None:
        """A new person: an empty cache, no cookies, new connections."""
        await self.client.aclose()
        self.kept.clear()
        self.client = self._client()

    async def get(self, path: str) -> httpx.Response | None:
        """``path`` as the browser has it: ``None`` when the cache answers without asking, else the server's
        response (a 304 refreshes what is kept)."""
        kept = self.kept.get(path)
        if kept is not None and time.monotonic() < kept.fresh_until:
            return None
        headers = {}
        if kept is not None and kept.etag:
            headers["if-none-match"] = kept.etag
        if kept is not None and kept.last_modified:
            headers["if-modified-since"] = kept.last_modified
        response = await self.client.get(path, headers=headers)
        if response.status_code != 304:
            response.raise_for_status()
        self._keep(path, response, kept)
        return response

    def _keep(self, path: str, response: httpx.Response, kept: Kept | None) -> None:
        control = response.headers.get("cache-control", "").lower()
        if "no-store" in control:
            self.kept.pop(path, None)
            return
        found = re.search(r"max-age=(\d+)", control)
        lifetime = 0.0 if "no-cache" in control or not found else float(found.group(1))
        etag = response.headers.get("etag") or (kept.etag if kept else None)
        modified = response.headers.get("last-modified") or (kept.last_modified if kept else None)
        if lifetime or etag or modified:  # without a lifetime or a validator, nothing is gained by keeping it
            self.kept[path] = Kept(time.monotonic() + lifetime, etag, modified)

    async def aclose(self) -> None:
        await self.client.aclose()


async def _load(browser: Browser, files: list[str]) -> tuple[float, float, float, int, list[str]]:
    """One visit of the board: ``(start, GET / s, its files s, files fetched, the page's files)``."""
    start = time.monotonic()
    page = await browser.get("/")
    loaded = time.monotonic()
    if page is not None and page.status_code == 200:
        files = PageFiles.of(page.text)
    fetched = [r for r in await asyncio.gather(*(browser.get(f) for f in files)) if r is not None]
    done = time.monotonic()
    return start, loaded - start, done - loaded if fetched else 0.0, len(fetched), files


async def _api(browser: Browser) -> None:
    start = time.monotonic()
    response = await browser.get(API_PATH)
    if response is not None:
        print(json.dumps({"api": [start, time.monotonic() - start, response.status_code]}), flush=True)


async def _viewer(url: str, think_s: float, delay_s: float, stop: asyncio.Event) -> None:
    try:
        await asyncio.wait_for(stop.wait(), delay_s)  # viewers arrive spread over one pause
        return
    except TimeoutError:
        pass
    browser, files = Browser(url), []
    try:
        while not stop.is_set():
            try:
                if random.random() < NEW_VISITOR:
                    await browser.forget()
                start, page_s, files_s, fetched, files = await _load(browser, files)
                print(json.dumps([start, page_s, files_s, fetched]), flush=True)
                if random.random() < API_SHARE:
                    await _api(browser)
            except Exception as error:  # counted by the parent; the viewer carries on like a reloading person
                print(json.dumps({"error": repr(error)[:300]}), flush=True)
            try:
                await asyncio.wait_for(stop.wait(), think_s * random.uniform(*THINK_SPREAD))
            except TimeoutError:
                pass
    finally:
        await browser.aclose()


async def _watch_lag(stop: asyncio.Event, every_s: float = 0.01, late_s: float = 0.005) -> None:
    """Report each moment this process's event loop woke more than ``late_s`` late: time the viewers would
    count as the app's (``{"lag": [when, seconds late]}``)."""
    while not stop.is_set():
        due = time.monotonic() + every_s
        await asyncio.sleep(every_s)
        late = time.monotonic() - due
        if late > late_s:
            print(json.dumps({"lag": [due, late]}), flush=True)


async def _main(url: str, count: int, think_s: float) -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    # End of standard input (the parent's stop, or its death) ends the viewers.
    waiting = loop.run_in_executor(None, sys.stdin.read)
    waiting.add_done_callback(lambda _: stop.set())
    await asyncio.gather(_watch_lag(stop), *(_viewer(url, think_s, think_s * i / count, stop) for i in range(count)))


if __name__ == "__main__":
    asyncio.run(_main(sys.argv[1], int(sys.argv[2]), float(sys.argv[3])))
    os._exit(0)  # the stdin reader thread may still sit in its read: no interpreter shutdown beside it
