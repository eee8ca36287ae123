"""What ``bench_pages.py`` measures in Chromium: time to the first screen, a page's static copy, a first visit's bytes.

Time to the first screen is taken in the page itself: a script added before any of the page's own (Playwright's
init script) looks on every animation frame, from the navigation's start, for the page's ready element, and
records ``performance.now()`` (milliseconds since ``performance.timeOrigin``, the navigation's start, redirects
included) in the first frame where it is laid out inside the viewport with a non-empty box and is visible
(``checkVisibility``): the frame that paints it. Playwright only polls for that figure afterwards, so its own
polling adds nothing to it.
"""

from __future__ import annotations

import json
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

NAVIGATION_TIMEOUT_MS = 120_000  # the app's first page after a start waits for its datasets

READY_JS = """selector => {
  if (window.top !== window) return;
  const seen = () => {
    const el = document.querySelector(selector);
    if (!el || !el.checkVisibility({opacityProperty: true, visibilityProperty: true})) return false;
    const b = el.getBoundingClientRect();
    return b.width > 0 && b.height > 0 && b.top < innerHeight && b.bottom > 0 && b.left < innerWidth && b.right > 0;
  };
  const tick = () => {
    if (seen()) window.__navitraceReady = performance.now();
    else requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}"""

# The rendered document without its scripts, every stylesheet's rules inlined in one <style> (in document order,
# constructed sheets last), form controls' state written into attributes: what the reader sees, as one file. URLs
# of the same origin (fonts and images in the rules, sources of elements) become absolute paths, where ``snapshot``
# saves the files the page loaded; data: URLs stay as they are.
SNAPSHOT_JS = """() => {
  const local = (u, base) => {
    if (u.startsWith('data:')) return u;
    const at = new URL(u, base);
    return at.origin === location.origin ? at.pathname + at.search : at.href;
  };
  const rules = s => {
    try {
      const text = [...s.cssRules].map(r => r.cssText).join('\\n'), base = s.href || document.baseURI;
      return text.replace(/url\\((['"]?)([^'")]+)\\1\\)/g, (m, q, u) => `url("${local(u, base)}")`);
    } catch (e) { return ''; }
  };
  const css = [...document.styleSheets, ...(document.adoptedStyleSheets || [])].map(rules).join('\\n');
  for (const i of document.querySelectorAll('input')) {
    if (i.type === 'checkbox' || i.type === 'radio') i.toggleAttribute('checked', i.checked);
    else if (i.type !== 'file') i.setAttribute('value', i.value);
  }
  for (const t of document.querySelectorAll('textarea')) t.textContent = t.value;
  for (const o of document.querySelectorAll('option')) o.toggleAttribute('selected', o.selected);
  const copy = document.documentElement.cloneNode(true);
  copy.querySelectorAll('script, style, link[rel~="stylesheet"], link[rel~="modulepreload"], link[rel~="preload"]')
    .forEach(e => e.remove());
  copy.querySelectorAll('[src]').forEach(e => e.setAttribute('src', local(e.getAttribute('src'), document.baseURI)));
  const style = document.createElement('style');
  style.textContent = css;
  copy.querySelector('head').appendChild(style);
  return '<!doctype html>\\n' + copy.outerHTML;
}"""


def ready_ms(page, url: str) -> float:
    """Navigate ``page`` (its context carries ``READY_JS``) to ``url``; ms from navigation start to the ready frame."""
    page.goto(url, wait_until="commit", timeout=NAVIGATION_TIMEOUT_MS)
    handle = page.wait_for_function("() => window.__navitraceReady", polling=50, timeout=NAVIGATION_TIMEOUT_MS)
    return float(handle.json_value())


def timed_context(browser, size: tuple[int, int], selector: str):
    """A fresh context (an empty cache) whose pages record when ``selector`` first shows (``READY_JS``)."""
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    context.add_init_script(script=f"({READY_JS})({json.dumps(selector)})")
    return context


def cold_and_warm(browser, size: tuple[int, int], selector: str, url: str) -> tuple[float, float]:
    """A first visit in a fresh context, then the same address again in that context (its cache warm)."""
    context = timed_context(browser, size, selector)
    try:
        page = context.new_page()
        cold = ready_ms(page, url)
        warm = ready_ms(page, url)
    finally:
        context.close()
    return cold, warm


def snapshot(browser, size: tuple[int, int], selector: str, url: str, folder: Path, name: str) -> Path:
    """The page at ``url`` once ``selector`` shows, as ``folder/name.html`` (``SNAPSHOT_JS``), with the fonts and
    images it loaded from its own origin saved under ``folder`` at their paths."""
    context = timed_context(browser, size, selector)
    origin = urlsplit(url)._replace(path="", query="", fragment="").geturl()
    assets = []
    try:
        page = context.new_page()
        page.on("response", lambda r: assets.append(r) if r.request.resource_type in ("font", "image") else None)
        ready_ms(page, url)
        page.wait_for_load_state("load")
        html = page.evaluate(SNAPSHOT_JS)
        for response in assets:
            at = urlsplit(response.url)
            target = (folder / at.path.lstrip("/")).resolve()
            mine = response.url.startswith(origin + "/") and not at.path.endswith("/")
            if mine and response.ok and target.is_relative_to(folder.resolve()):
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(response.body())
    finally:
        context.close()
    out = folder / f"{name}.html"
    out.write_text(html)
    return out


@dataclass
class Transfer:
    """A first visit's network, from Chromium's DevTools protocol: bytes as they crossed the wire (compressed,
    headers included: ``Network.loadingFinished.encodedDataLength``, or the received chunks of a stream still open)."""

    requests: int = 0
    failed: int = 0
    bytes: int = 0
    decoded_bytes: int = 0  # bodies after decompression
    js_files: int = 0
    js_bytes: int = 0
    js_decoded_bytes: int = 0
    css_bytes: int = 0
    compressed: int = 0  # responses with a Content-Encoding
    by_type: dict[str, int] = field(default_factory=dict)  # resource type -> bytes
    largest: list[tuple[str, int]] = field(default_factory=list)  # (url, bytes), the five largest


def first_visit(browser, size: tuple[int, int], selector: str, url: str, settle_s: float = 1.0) -> Transfer:
    """Everything a fresh context loads for ``url`` until ``selector`` shows, the network is idle and ``settle_s``."""
    context = timed_context(browser, size, selector)
    seen: dict[str, dict] = defaultdict(lambda: {"type": "Other", "url": "", "chunks": 0, "decoded": 0})
    try:
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")

        def sent(e: dict) -> None:
            seen[e["requestId"]].update(url=e["request"]["url"], type=e.get("type", "Other"))

        def answered(e: dict) -> None:
            headers = {k.lower(): v for k, v in e["response"]["headers"].items()}
            seen[e["requestId"]].update(type=e.get("type", "Other"), encoding=headers.get("content-encoding", ""))

        def chunk(e: dict) -> None:
            seen[e["requestId"]]["chunks"] += e.get("encodedDataLength", 0)
            seen[e["requestId"]]["decoded"] += e.get("dataLength", 0)

        cdp.on("Network.requestWillBeSent", sent)
        cdp.on("Network.responseReceived", answered)
        cdp.on("Network.dataReceived", chunk)
        cdp.on("Network.loadingFinished", lambda e: seen[e["requestId"]].update(wire=e["encodedDataLength"]))
        cdp.on("Network.loadingFailed", lambda e: seen[e["requestId"]].update(failed=True))
        ready_ms(page, url)
        try:
            page.wait_for_load_state("networkidle", timeout=15_000)
        except Exception:  # a stream the page keeps open: what it received so far is counted
            pass
        time.sleep(settle_s)
        cdp.detach()
    finally:
        context.close()
    return tally(list(seen.values()))


def tally(requests: list[dict]) -> Transfer:
    out, by_type, sizes = Transfer(), defaultdict(int), []
    for r in requests:
        wire = int(r.get("wire", r["chunks"]))
        out.requests += 1
        out.failed += bool(r.get("failed"))
        out.bytes += wire
        out.decoded_bytes += r["decoded"]
        out.compressed += bool(r.get("encoding"))
        by_type[r["type"]] += wire
        sizes.append((r["url"], wire))
        if r["type"] == "Script":
            out.js_files += 1
            out.js_bytes += wire
            out.js_decoded_bytes += r["decoded"]
        elif r["type"] == "Stylesheet":
            out.css_bytes += wire
    out.by_type = dict(sorted(by_type.items(), key=lambda kv: -kv[1]))
    out.largest = sorted(sizes, key=lambda s: -s[1])[:5]
    return out
