"""The board's CSV as a plain download route, ``GET /board.csv?split=test``.

The CSV was a ``gr.DownloadButton`` value sent with every page's first event: Gradio then checks the
file against its allowed and blocked paths and hashes it into its cache on each visit, a fifth of the
app's CPU while 50 viewers load the page and files are scored (issue 11: py-spy of the load test).
The file is written once per change of the results (``BoardCache.csv_file``); this route sends those
bytes, and the page shows a link to it, which costs nothing per visit. It carries an ETag (a hash of the
file, read and hashed once per version) and answers ``If-None-Match`` with a 304, as the JSON API does.
"""

from __future__ import annotations

import anyio
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from space.pages import board_url
from space.pages.board_cache import CsvFile
from space.public.api import Body, answer
from space.services import Services

PATH = "/board.csv"


def routes(services: Services) -> list[Route]:
    read: dict[str, tuple[CsvFile, Body]] = {}  # per split: the file read last, with what it was written for

    def body(split: str) -> tuple[str, Body]:
        made = services.board.csv_file(split)  # written once per results version
        last = read.get(split)
        if last is None or last[0] != made:  # a new version: read and hash the file once
            last = read[split] = (made, Body.of_bytes(made.path.read_bytes()))
        return made.path.name, last[1]

    async def board_csv(request: Request) -> Response:
        split = request.query_params.get("split", "test")
        if split not in board_url.SPLITS:
            return PlainTextResponse(f"no split {split[:40]!r}: expected one of {', '.join(board_url.SPLITS)}", 404)
        name, made = await anyio.to_thread.run_sync(body, split)
        disposition = {"Content-Disposition": f'attachment; filename="{name}"'}
        return answer(request, made, "text/csv; charset=utf-8", **disposition)

    return [Route(PATH, board_csv, methods=["GET"])]
