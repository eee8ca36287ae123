"""The board's CSV as a plain download route, ``GET /board.csv?split=test``.

The CSV was a ``gr.DownloadButton`` value sent with every page's first event: Gradio then checks the
file against its allowed and blocked paths and hashes it into its cache on each visit, a fifth of the
app's CPU while 50 viewers load the page and files are scored (py-spy of the load test).
The file is written once per change of the results (``BoardCache.csv_file``); this route sends those
bytes, and the page shows a link to it, which costs nothing per visit. It carries an ETag (a hash of the
file, read and hashed once per version) and answers ``If-None-Match`` with a 304, as the JSON API does.
``&release=v1`` sends that release's board (its frozen rows once the next release opened: made once).
"""

from __future__ import annotations

import anyio
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from leaderboard.publishing import is_name
from space.board import controls
from space.board.cache import CsvFile
from space.board.csv_rows import csv_bytes
from space.releases.book import ReleaseBook
from space.site.api import Body, answer
from space.web.services import Services

PATH = "/board.csv"
MAX_FROZEN = 32  # closed releases' CSV files kept (per split)


def routes(services: Services) -> list[Route]:
    read: dict[str, tuple[CsvFile, Body]] = {}  # per split: the file read last, with what it was written for
    book = ReleaseBook(services.leaderboard)
    frozen: dict[tuple[str, str], Body] = {}  # (release, split) -> a closed release's CSV: it never changes

    def release_body(split: str, release: str) -> tuple[str, Body] | None:
        snapshot = services.board.snapshot()
        rows = book.board_of(snapshot, release)
        if rows is None:
            return None
        if rows is snapshot:  # the current release, named
            return body(split)
        if (release, split) not in frozen:
            if len(frozen) >= MAX_FROZEN:
                frozen.pop(next(iter(frozen)))
            frozen[(release, split)] = Body.of_bytes(csv_bytes(rows.rows, split))
        return f"navitrace_leaderboard_{split}_{release}.csv", frozen[(release, split)]

    def body(split: str) -> tuple[str, Body]:
        made = services.board.csv_file(split)  # written once per results version
        last = read.get(split)
        if last is None or last[0] != made:  # a new version: read and hash the file once
            last = read[split] = (made, Body.of_bytes(made.path.read_bytes()))
        return made.path.name, last[1]

    async def board_csv(request: Request) -> Response:
        split = request.query_params.get("split", "test")
        if split not in controls.SPLITS:
            return PlainTextResponse(f"no split {split[:40]!r}: expected one of {', '.join(controls.SPLITS)}", 404)
        release = request.query_params.get("release")
        if release is not None and not is_name(release):
            return PlainTextResponse(f"release {release[:40]!r}: expected v and a number, such as v1", 400)
        if release:
            found = await anyio.to_thread.run_sync(release_body, split, release)
            if found is None:
                return PlainTextResponse(f"no release {release!r}", 404)
        else:
            found = await anyio.to_thread.run_sync(body, split)
        name, made = found
        disposition = {"Content-Disposition": f'attachment; filename="{name}"'}
        return answer(request, made, "text/csv; charset=utf-8", **disposition)

    return [Route(PATH, board_csv, methods=["GET"])]
