"""The running app as any HTTP client sees it: sign in, list every event endpoint, call one with raw HTTP.

Endpoints are read from the Gradio pages' own ``/config`` (every event listener, documented or not), so
a listener added later is probed without anyone editing a list. Calls go through
``/gradio_api/call/{api_name}``, the route ``gradio_client`` uses too, with the session cookie of
a local sign-in when there is one. Given the site's address, the Gradio functions here speak to the
signed-in page mounted at ``/submit`` (the site's root is a plain page); given ``desk(url)``, to the desk.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx

FILE_URL = re.compile(r'"url":\s*"([^"]*/gradio_api/file=[^"]+)"')


@dataclass(frozen=True)
class Endpoint:
    api_name: str
    inputs: tuple[dict, ...]  # the input components' config entries (type, props)
    targets: tuple[int, ...]  # the components whose events trigger it


@dataclass(frozen=True)
class Answer:
    ok: bool  # the handler completed ("event: complete"), as opposed to an error event or HTTP error
    text: str  # everything the server sent back, for scanning


def sign_in(url: str, user: str) -> str:
    """The session cookie of the local development sign-in as ``user``."""
    response = httpx.post(f"{url}/local-auth/sign-in", data={"user": user}, timeout=30)
    assert response.status_code == 303, (user, response.status_code, response.text[:300])
    return response.cookies["session"]


def headers(cookie: str | None, url: str | None = None) -> dict[str, str]:
    """The session cookie, and the ``Origin`` a browser on the app's page would send (the app refuses a
    signed-in change without one: space/web/guard.py)."""
    origin = f"{httpx.URL(url).scheme}://{httpx.URL(url).netloc.decode()}" if url else None
    return ({"Cookie": f"session={cookie}"} if cookie else {}) | ({"Origin": origin} if origin else {})


def gradio(url: str) -> str:
    """The Gradio app a site or page address names: the site's root means the signed-in page at ``/submit``."""
    return f"{url.rstrip('/')}/submit" if httpx.URL(url).path in ("", "/") else url


def desk(url: str) -> str:
    """The maintainers' desk, a page (and API) of its own beside the app's page."""
    return f"{url}/maintainers"


def config(url: str) -> dict:
    return httpx.get(f"{gradio(url)}/config", timeout=30).json()


def endpoints(cfg: dict) -> list[Endpoint]:
    """Every event listener of the page that has an API name (all of them in Gradio 6, documented or not)."""
    components = {c["id"]: c for c in cfg["components"]}
    found = []
    for dep in cfg["dependencies"]:
        if not dep.get("api_name") or dep.get("api_visibility") == "private":
            continue  # "private" listeners cannot be called over the API at all
        inputs = tuple(components[i] for i in dep["inputs"])
        found.append(Endpoint(dep["api_name"], inputs, tuple(t[0] for t in dep["targets"] if t[0] is not None)))
    return found


def inside(cfg: dict, elem_id: str) -> set[int]:
    """Ids of the component with ``elem_id`` and of everything laid out inside it."""
    root = next(c["id"] for c in cfg["components"] if c["props"].get("elem_id") == elem_id)

    def walk(node: dict, under: bool) -> Iterator[int]:
        under = under or node["id"] == root
        if under:
            yield node["id"]
        for child in node.get("children", []):
            yield from walk(child, under)

    return set(walk(cfg["layout"], False))


def upload(url: str, path: Path, cookie: str | None = None) -> dict:
    """Upload like the browser does; the ``FileData`` to pass as a file input."""
    with open(path, "rb") as handle:
        response = httpx.post(
            f"{gradio(url)}/gradio_api/upload",
            files={"files": (path.name, handle)},
            headers=headers(cookie, url),
            timeout=60,
        )
    response.raise_for_status()
    return {"path": response.json()[0], "orig_name": path.name, "meta": {"_type": "gradio.FileData"}}


def call(
    url: str, api_name: str, data: list, cookie: str | None = None, session: str | None = None, **extra: object
) -> Answer:
    """Run one endpoint to its end; the whole answer as text (SSE stream included).

    ``session``: a Gradio session hash, so that calls share what earlier ones changed (a dropdown's
    choices), as the page's do; ``extra`` goes into the request body as it is.
    """
    body = {"data": data, **({"session_hash": session} if session else {}), **extra}
    with httpx.Client(base_url=gradio(url), headers=headers(cookie, url), timeout=120) as client:
        posted = client.post(f"/gradio_api/call/{api_name}", json=body)
        if posted.status_code != 200:
            return Answer(False, f"HTTP {posted.status_code}: {posted.text}")
        event = posted.json()["event_id"]
        stream = client.get(f"/gradio_api/call/{api_name}/{event}").text
    return Answer("event: complete" in stream, stream)


def data_of(answer: Answer) -> list:
    """The output values of a completed call."""
    for line in answer.text.splitlines():
        if line.startswith("data:") and answer.ok:
            return json.loads(line[len("data:") :])
    raise AssertionError(f"no data in {answer.text[:500]}")


def error_of(answer: Answer) -> str:
    return "" if answer.ok else answer.text


def plausible(endpoint: Endpoint, text: str | None, file: dict | None, number: float = 1.0) -> list:
    """Arguments a person could send: each component's own value, or ``text`` in every free-text slot.

    Dropdowns and textboxes get ``text`` (a submission id, a reported row's id); radios and
    checkbox groups keep their value; numbers get ``number``; checkboxes are ticked (so that a
    confirmation box never stops a call before the permission check); file inputs get ``file``.
    """
    args: list = []
    for component in endpoint.inputs:
        kind, props = component["type"], component["props"]
        if kind in ("textbox", "dropdown"):
            args.append(text if text is not None else props.get("value"))
        elif kind == "number":
            args.append(number)
        elif kind == "checkbox":
            args.append(True)
        elif kind == "file":
            args.append(file)
        elif kind == "state":
            args.append(None)  # the server keeps state per session; what a client sends is ignored
        else:
            args.append(props.get("value"))
    return args


def get_bounded(client: httpx.Client, url: str, seconds: float = 10.0) -> tuple[int, bytes]:
    """Status and body of ``GET url`` as far as it came within ``seconds``: a route that streams
    forever (``/gradio_api/dev/reload``) cannot stall a crawl. Status 0: the server hung up."""
    chunks, deadline = [], time.monotonic() + seconds
    try:
        with client.stream("GET", url) as response:
            for chunk in response.iter_bytes():
                chunks.append(chunk)
                if time.monotonic() > deadline:
                    break
    except httpx.TransportError:  # nothing more to say (a quiet stream), or the connection was dropped
        return (response.status_code if chunks else 0), b"".join(chunks)
    return response.status_code, b"".join(chunks)


def get_text(client: httpx.Client, url: str, seconds: float = 10.0) -> str:
    return get_bounded(client, url, seconds)[1].decode("utf-8", errors="replace")


def file_urls(text: str) -> set[str]:
    """Every ``/gradio_api/file=`` URL an answer hands out (downloads, images)."""
    return set(FILE_URL.findall(text))
