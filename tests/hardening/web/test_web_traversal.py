"""Path traversal through every file-serving route of the app, and through forged file inputs: all refused.

The routes are the app's own: every GET route with a path parameter of the mounted Gradio pages'
``/openapi.json`` (``/submit``, ``/maintainers``: file routes, static assets, the proxy, custom
components, streams) and of the plain site (``PLAIN_ROUTES``: an entry, its JSON, the example files,
our static files), each parameter in turn given a private file's path written eleven ways (absolute,
relative, encoded, double-encoded, backslashes, ``file://``, a NUL suffix, escaping from Gradio's upload
folder, and a symlink planted in that folder). The plain routes that read a name from their query
(``QUERY_ROUTES``: a split, a search, an id) are given the same spellings. ``tests/browser/test_http.py``
has the first, smaller version of this check.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest

from tests.browser.conftest import ROOT, RunningApp
from tests.hardening.web import web_api
from tests.hardening.web.web_seed import Seeded, leaks

# The queue's event streams answer any name with 200 and an error event, never a file.
EVENT_STREAMS = ("/gradio_api/call/",)
KEEP_ALIVE = "/gradio_api/heartbeat/"  # answers any session hash with an endless "ALIVE" stream; serves no file
MOUNTS = ("/submit", "/maintainers")  # the Gradio pages (space/web/guard.py); the site's root has no OpenAPI page
# The plain site's routes with a path parameter (space/site/routes.py, space/site/api.py).
PLAIN_ROUTES = ("/entry/{submission_id}", "/api/entry/{submission_id}", "/examples/{name}", "/static/{name}")
# The plain site's routes that read a name from their query (a split, a search, an id): they may answer (a page
# says "no such split"), never with a file's bytes or a private value.
QUERY_ROUTES = (
    "/?split={v}",
    "/?q={v}",
    "/?entry={v}",
    "/embed?split={v}",
    "/compare?compare={v}",
    "/compare?compare=x&compare={v}",
    "/board.csv?split={v}",
    "/api/board?split={v}",
    "/about?name={v}",
)


@pytest.fixture(scope="module")
def private_files(web_app: RunningApp, seeded: Seeded) -> dict[str, Path]:
    requests = web_app.home / "requests"
    found = {
        "request (e-mail)": requests / "requests" / f"{seeded.test_id}.json",
        "upload": requests / "uploads" / f"{seeded.test_id}.tsv",
        "test rows": requests / "private" / seeded.test_id / "rows.tsv",
        "answer key": next((web_app.home / "cache").rglob("index.json")),
        "private dataset": next(web_app.private.rglob("test-*.parquet")),
    }
    for name, path in found.items():
        assert path.is_file(), name
    return found


def gradio_folder(app: RunningApp) -> Path:
    return app.home.parent / "gradio"  # GRADIO_TEMP_DIR of tests/browser/conftest.start_app


def spellings(path: Path, cache: Path, link: Path) -> dict[str, str]:
    """``path`` written the ways an attacker would try."""
    absolute = str(path.resolve())
    relative = "../" * len(ROOT.parts) + absolute.lstrip("/")
    return {
        "absolute": absolute,
        "relative": relative,
        "encoded": quote(absolute, safe=""),
        "double-encoded": quote(quote(absolute, safe=""), safe=""),
        "encoded dots": relative.replace("..", "%2e%2e"),
        "double-encoded dots": relative.replace("../", "%252e%252e%252f"),
        "backslashes": relative.replace("/", "\\"),
        "file scheme": f"file://{absolute}",
        "NUL suffix": f"{absolute}%00.png",
        "out of the upload folder": f"{cache.resolve()}/{os.path.relpath(absolute, cache.resolve())}",
        "symlink in the upload folder": str(link),
    }


def route_urls(url: str, value: str) -> list[str]:
    """Every GET route with path parameters, with ``value`` in each parameter in turn (``x`` in the others)."""
    templates = list(PLAIN_ROUTES)
    for mount in MOUNTS:
        paths = httpx.get(f"{url}{mount}/openapi.json", timeout=30).json()["paths"]
        templates += [
            mount + template
            for template, methods in paths.items()
            if "get" in methods and "{" in template and not template.startswith(KEEP_ALIVE)
        ]
    urls = []
    for template in templates:
        names = re.findall(r"\{(\w+)\}", template)
        for name in names:
            filled = template
            for other in names:
                filled = filled.replace("{" + other + "}", value if other == name else "x")
            urls.append(filled)
    return urls


def test_every_mounted_page_lists_its_file_routes(web_app: RunningApp):
    """The crawl below cannot pass by finding nothing: each Gradio page's file route is among the routes tried."""
    urls = route_urls(web_app.url, "VALUE")
    for mount in MOUNTS:
        assert f"{mount}/gradio_api/file=VALUE" in urls, (mount, urls[:20])
    assert {"/entry/VALUE", "/api/entry/VALUE", "/static/VALUE"} <= set(urls)


def test_no_file_route_serves_a_private_file_however_it_is_spelled(web_app: RunningApp, private_files):
    cache = gradio_folder(web_app)
    tried, served, statuses = 0, [], Counter()
    with httpx.Client(base_url=web_app.url, timeout=10) as client:
        for name, path in private_files.items():
            planted = cache / "planted" / f"{path.name}"
            planted.parent.mkdir(parents=True, exist_ok=True)
            planted.unlink(missing_ok=True)
            planted.symlink_to(path.resolve())  # as if a handler had returned a link to a private file
            secret = path.read_bytes()[:64]
            for how, spelled in spellings(path, cache, planted).items():
                for route in route_urls(web_app.url, spelled):
                    tried += 1
                    status, content = web_api.get_bounded(client, route, 2)
                    statuses[status] += 1
                    stream = route.removeprefix(MOUNTS[0]).removeprefix(MOUNTS[1]).startswith(EVENT_STREAMS)
                    if secret in content or (200 <= status < 300 and not stream):
                        served.append(f"{name} ({how}) at {route}: {status}")
    assert not served, "\n".join(served[:30])
    assert web_app.process.poll() is None and httpx.get(web_app.url, timeout=10).status_code == 200
    print(f"\n{tried} requests for {len(private_files)} private files, all refused: {dict(sorted(statuses.items()))}")


def test_no_page_reads_a_file_named_in_its_query(web_app: RunningApp, private_files, seeded: Seeded):
    cache = gradio_folder(web_app)
    tried, served, statuses = 0, [], Counter()
    with httpx.Client(base_url=web_app.url, timeout=10) as client:
        for name, path in private_files.items():
            planted = cache / "planted" / f"query-{path.name}"
            planted.parent.mkdir(parents=True, exist_ok=True)
            planted.unlink(missing_ok=True)
            planted.symlink_to(path.resolve())
            secret = path.read_bytes()[:64]
            for how, spelled in spellings(path, cache, planted).items():
                for template in QUERY_ROUTES:
                    route = template.format(v=quote(spelled, safe="/%\\:"))
                    tried += 1
                    status, content = web_api.get_bounded(client, route, 2)
                    statuses[status] += 1
                    text = content.decode("utf-8", errors="replace")
                    # The page may quote the query back (escaped, cut): that is the asker's own text, not a leak.
                    found = leaks(text, seeded.secrets, ("private path",))
                    if secret in content or found or status >= 500:
                        served.append(f"{name} ({how}) at {route}: {status} {found}")
    assert not served, "\n".join(served[:30])
    assert web_app.process.poll() is None and httpx.get(web_app.url, timeout=10).status_code == 200
    print(f"\n{tried} requests naming {len(private_files)} private files in a query: {dict(sorted(statuses.items()))}")


def test_a_forged_file_input_cannot_name_a_private_file(web_app: RunningApp, private_files, seeded: Seeded):
    """The Submit tab's file input takes uploads only: a client naming a server path instead is refused."""
    cache = gradio_folder(web_app)
    cookie = web_api.sign_in(web_app.url, "forger")
    path = private_files["upload"]
    planted = cache / "planted" / "forged.tsv"
    planted.unlink(missing_ok=True)
    planted.symlink_to(path.resolve())
    for how, spelled in spellings(path, cache, planted).items():
        forged = {"path": spelled, "orig_name": "x.tsv", "meta": {"_type": "gradio.FileData"}}
        for api_name, args in (
            ("check_file", [forged, "test"]),
            ("submit", [forged, "test", "M", *[""] * 7, False, *[None] * 4, False]),
        ):
            answer = web_api.call(web_app.url, api_name, args, cookie)
            assert not answer.ok and "rows read" not in answer.text, (how, api_name, answer.text[:300])
            assert not leaks(answer.text, seeded.secrets), (how, api_name)
    assert not [e for e in web_api_submissions(web_app) if e == "forger"], "a forged file was stored"


def web_api_submissions(app: RunningApp) -> list[str]:
    return [p.read_text() for p in (app.home / "requests" / "requests").glob("*.json") if '"forger"' in p.read_text()]
