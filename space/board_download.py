"""The board's CSV as a plain download route, ``GET /board.csv?split=test``, and the link the page shows.

The CSV was a ``gr.DownloadButton`` value sent with every page's first event: Gradio then checks the
file against its allowed and blocked paths and hashes it into its cache on each visit, a fifth of the
app's CPU while 50 viewers load the page and files are scored (issue 11: py-spy of the load test).
The file is written once per change of the results (``BoardCache.extras``); this route sends those
bytes, and the page shows a link to it, which costs nothing per visit. It carries an ETag (a hash of the
file, read and hashed once per version) and answers ``If-None-Match`` with a 304, as the JSON API does.
"""

from __future__ import annotations

import anyio
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from space.pages import board_url
from space.pages.board_cache import Extras
from space.pages.html import esc
from space.public.api import Body, answer
from space.services import Services

PATH = "/board.csv"


def routes(services: Services) -> list[Route]:
    read: dict[str, tuple[Extras, Body]] = {}  # per split: the file read last, with the Extras it was written for

    def body(split: str) -> tuple[str, Body]:
        extras = services.board.extras(split)  # written once per results version
        last = read.get(split)
        if last is None or last[0] is not extras:  # a new version: read and hash the file once
            last = read[split] = (extras, Body.of_bytes(extras.csv_path.read_bytes()))
        return extras.csv_path.name, last[1]

    async def board_csv(request: Request) -> Response:
        split = request.query_params.get("split", "test")
        if split not in board_url.SPLITS:
            return PlainTextResponse(f"no split {split[:40]!r}: expected one of {', '.join(board_url.SPLITS)}", 404)
        name, made = await anyio.to_thread.run_sync(body, split)
        disposition = {"Content-Disposition": f'attachment; filename="{name}"'}
        return answer(request, made, "text/csv; charset=utf-8", **disposition)

    return [Route(PATH, board_csv, methods=["GET"])]


def link_html(split: str) -> str:
    """The page's download link for ``split`` (relative: it works under a Space's proxy path too)."""
    split = split if split in board_url.SPLITS else "test"
    return (
        f'<a class="nt-csv-link" id="board-csv-link" href=".{PATH}?split={esc(split)}" download>'
        f"Download CSV ({esc(split)} split)</a>"
    )
