"""The board and one entry as JSON: ``GET /api/board?split=test`` and ``GET /api/entry/{submission_id}``.

The board's JSON is the CSV (``space/board/csv_rows.py``) with types: the same columns in the same order,
the same rows in the same order, the same ranks and rank ranges (both come from ``space.board.ranks.ranked``), numbers
as numbers, booleans as booleans, empty cells as ``null``. Every public row of the split is there, as in the
CSV: flagged entries (ranked where their score places them among the unflagged, ``flag_kind`` set) and
Hub-reported rows (``kind`` "hub", unranked); a reader filters them as they like. An entry's JSON is its row of
its split's board (the same keys) and, once the public datasets are prepared, each group's figure with its 95%
interval (overall, per embodiment, per task category: ``EntryIntervals``, aggregates only).

``?release=v1`` asks for that release's board or entry (the live one while it is current, else its frozen rows,
whose bodies are drawn once and kept; a frozen entry's groups come without intervals); the board's JSON names the
release it is (``release``), each row its own.

Each body is drawn once per results version (``services.board.snapshot().version``) and key (split, or id),
kept with its ETag (a hash of the body) in a bounded cache, and sent with ``Cache-Control: public, no-cache``:
any cache may keep it (nothing in it depends on who asks) but must ask again before each use, which costs a
304 without a body as long as the results have not changed, and never shows a stale board after a new result.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from functools import partial

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from leaderboard.publishing import is_name
from leaderboard.records import InvalidAction
from leaderboard.statistics import GroupFigure, figures_alone
from space.board import csv_rows
from space.board.cache import Snapshot
from space.board.controls import SPLITS
from space.board.drawn import Drawn
from space.board.page import last_updated
from space.entry.page import intervals_of
from space.entry.view import MAX_ID
from space.releases.book import FROZEN, ReleaseBook
from space.releases.moves import current_release
from space.web.services import Services

Row = Mapping[str, object]
BOARD_PATH, ENTRY_PATH = "/api/board", "/api/entry/{submission_id}"
# Ids the table makes: 24 hex digits, "reported-…", "baseline-test", "hub-…" (an old store's are alike).
ID_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
BODIES = 2048  # bodies kept: two boards and each public entry of the current results version
BYTES = 64_000_000  # and at most this many bytes of them in all
MAX_IF_NONE_MATCH = 4096  # characters of an If-None-Match header read (a browser sends one tag)
HEADERS = {"Cache-Control": "public, no-cache", "Vary": "Accept-Encoding"}


@dataclass(frozen=True)
class Body:
    """A drawn response: its bytes and its strong ETag."""

    data: bytes
    etag: str

    @classmethod
    def of(cls, value: object) -> Body:
        return cls.of_bytes(json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode())

    @classmethod
    def of_bytes(cls, data: bytes) -> Body:
        return cls(data, f'"{hashlib.sha256(data).hexdigest()[:32]}"')  # 128 bits: no two versions collide


def routes(services: Services) -> list[BaseRoute]:
    """The JSON API's routes (GET, and HEAD with it)."""
    api = Api(services)
    return [Route(BOARD_PATH, api.board, methods=["GET"]), Route(ENTRY_PATH, api.entry, methods=["GET"])]


class Api:
    def __init__(self, services: Services) -> None:
        self.services = services
        self.intervals = intervals_of(services)
        self.kept: Drawn[Body] = Drawn(BODIES, BYTES, weigh=_weight)
        self.indexes: Drawn[Index] = Drawn(2, 2, weigh=lambda index: 1)  # the ids of a version, looked up per entry
        self.releases = ReleaseBook(services.leaderboard)
        self.frozen: Drawn[Body] = Drawn(256, BYTES // 4, weigh=_weight)  # frozen boards' and entries' bodies
        self.frozen_indexes: Drawn[Index] = Drawn(4, 4, weigh=lambda index: 1)  # the ids of a frozen board
        services.board.on_change(self.draw_ahead)

    async def board(self, request: Request) -> Response:
        split = request.query_params.get("split", "test")
        if split not in SPLITS:
            return error(400, f"split {split[:40]!r}: expected one of {', '.join(SPLITS)}")
        release = request.query_params.get("release")
        if release is None:
            snapshot = self.services.board.in_hand()  # as the board page: no thread hop for a body in hand
            kept = self.kept.kept(snapshot.version, ("board", split)) if snapshot is not None else None
            if kept is None:
                kept = await run_in_threadpool(self.board_body, split)
            return answer(request, kept)
        if not is_name(release):
            return bad_release(release)
        body = await run_in_threadpool(self.release_body, split, release)
        if body is None:
            return error(404, f"no release {release!r}")
        return answer(request, body)

    def release_body(self, split: str, release: str) -> Body | None:
        """The board of ``release`` (``?release=v1``): the live one while it is current, else its frozen rows
        (drawn once: they never change); ``None`` for a release never opened."""
        snapshot = self.services.board.snapshot()
        rows = self.releases.board_of(snapshot, release)
        if rows is None:
            return None
        if rows is snapshot:
            return self.board_body(split, snapshot)
        return self.frozen.get(
            FROZEN, (release, split), lambda: Body.of(board_json(rows, split, self.frozen_index(release, rows)))
        )

    async def entry(self, request: Request) -> Response:
        wanted = request.path_params["submission_id"]
        if len(wanted) > MAX_ID or not ID_PATTERN.fullmatch(wanted):
            return error(400, f"id {wanted[:40]!r}: expected at most {MAX_ID} letters, digits, '.', '_' or '-'")
        release = request.query_params.get("release")
        if release is not None and not is_name(release):
            return bad_release(release)
        if release is None:
            found = await run_in_threadpool(self.entry_body, wanted)
        else:
            found = await run_in_threadpool(self.release_entry_body, wanted, release)
        if isinstance(found, str):
            return error(404, found)
        return answer(request, found)

    def frozen_index(self, release: str, rows: Snapshot) -> Index:
        """The tables and ids of a closed release's frozen board, made once for its board and entries alike."""
        return self.frozen_indexes.get(FROZEN, release, lambda: Index.of(rows.rows))

    def board_body(self, split: str, snapshot: Snapshot | None = None) -> Body:
        snapshot, index = self.index(snapshot)
        return self.kept.get(snapshot.version, ("board", split), lambda: Body.of(board_json(snapshot, split, index)))

    def draw_ahead(self, snapshot: Snapshot) -> None:
        """The test board's body for ``snapshot``, made before readers are given it (``BoardCache.on_change``)."""
        self.board_body("test", snapshot)

    def release_entry_body(self, submission_id: str, release: str) -> Body | str:
        """The entry as release ``release``'s board has it (``?release=v1``): the live entry while it is current,
        else its frozen row, whose groups come without intervals (drawn once: it never changes); else why not."""
        snapshot = self.services.board.snapshot()
        rows = self.releases.board_of(snapshot, release)
        if rows is None:
            return f"no release {release!r}"
        if rows is snapshot:
            return self.entry_body(submission_id)
        index = self.frozen_index(release, rows)
        found = index.rows.get(submission_id)
        if found is None:
            return f"release {release}'s board has no entry with the id {submission_id!r}"
        split, row = found
        groups = [_group(g) for g in figures_alone(row)]
        draw = partial(entry_json, rows, split, index.tables[split][0], row, groups)
        return self.frozen.get(FROZEN, ("entry", release, submission_id), lambda: Body.of(draw()))

    def entry_body(self, submission_id: str) -> Body | str:
        """The entry's body, or why not: no public row has the id (private, withdrawn, never made)."""
        snapshot, index = self.index()
        found = index.rows.get(submission_id)
        if found is None:
            return f"no public entry has the id {submission_id!r}"
        split, row = found
        warmup = self.services.warmup
        if not warmup.ready.is_set() or warmup.error:  # the categories are not read yet: no groups, not kept
            return Body.of(entry_json(snapshot, split, index.tables[split][0], row, None))

        def draw() -> Body:
            return Body.of(entry_json(snapshot, split, index.tables[split][0], row, self.groups(snapshot, row)))

        return self.kept.get(snapshot.version, ("entry", submission_id), draw)

    def index(self, snapshot: Snapshot | None = None) -> tuple[Snapshot, Index]:
        taken = snapshot or self.services.board.snapshot()
        return taken, self.indexes.get(taken.version, "index", lambda: Index.of(taken.rows))

    def groups(self, snapshot: Snapshot, row: Row) -> list[dict[str, object]]:
        public = next((r for r in snapshot.rows if r.get("submission_id") == row.get("submission_id")), row)
        try:
            figures = self.intervals.groups(public)
        except InvalidAction:
            return []
        return [_group(g) for g in figures]


def _group(figure: GroupFigure) -> dict[str, object]:
    low, high = (_json(figure.interval[0]), _json(figure.interval[1])) if figure.interval else (None, None)
    return {"kind": figure.kind, "name": figure.name, "value": _json(figure.value), "ci_low": low, "ci_high": high}


@dataclass(frozen=True)
class Index:
    """Each split's table as the board's JSON has it, and every public row by id (made once per version)."""

    tables: dict[str, tuple[list[str], list[dict[str, object]]]]  # split -> (columns, rows)
    rows: dict[str, tuple[str, dict[str, object]]]  # id -> (split, row)

    @classmethod
    def of(cls, rows: list[dict[str, object]]) -> Index:
        tables: dict[str, tuple[list[str], list[dict[str, object]]]] = {}
        found: dict[str, tuple[str, dict[str, object]]] = {}
        for split in SPLITS:  # test first, as the entry page finds an id
            tables[split] = csv_table(rows, split)
            for line in tables[split][1]:
                found.setdefault(str(line["submission_id"]), (split, line))
        return cls(tables, found)


def board_json(snapshot: Snapshot, split: str, index: Index | None = None) -> dict[str, object]:
    header, lines = (index or Index.of(snapshot.rows)).tables[split]
    # The release whose board this is (each row says the release of its own figures, in its "release" column).
    release = current_release(snapshot.rows)
    return {**_about(snapshot, split), "release": release, "columns": header, "rows": lines}


def entry_json(
    snapshot: Snapshot, split: str, header: list[str], row: dict[str, object], groups: list[dict[str, object]] | None
) -> dict[str, object]:
    """``groups``: None while the intervals cannot be computed yet (the app is still preparing its data)."""
    return {**_about(snapshot, split), "columns": header, "row": row, "groups": groups}


def _about(snapshot: Snapshot, split: str) -> dict[str, object]:
    when = last_updated(snapshot)  # a time (UTC) when this process saw the rows change, else the newest date
    stamp = f"{when:%Y-%m-%dT%H:%M:%SZ}" if isinstance(when, datetime) else None if when is None else when.isoformat()
    return {"split": split, "version": snapshot.version, "last_updated": stamp}


def csv_table(rows: Iterable[Row], split: str) -> tuple[list[str], list[dict[str, object]]]:
    """The CSV's header and its rows as typed JSON values (``csv_rows.csv_table``, which the CSV writes too)."""
    header, lines = csv_rows.csv_table(rows, split)
    return header, [dict(zip(header, (_json(v) for v in line), strict=True)) for line in lines]


def _json(value: object) -> object:
    """A cell as JSON: numbers, text, booleans and null as they are; NaN and infinities (never meant) as null."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value if value is None or isinstance(value, str | int | float) else str(value)


def _dict(value: object) -> dict:
    return value if isinstance(value, dict) else {}


def _meta(row: Row, name: str) -> dict:
    return _dict(_dict(row.get("per_metadata")).get(name))


# -- conditional requests (RFC 9110 section 13.1.2) ---------------------------------------------------------


def answer(request: Request, body: Body, media_type: str = "application/json", **headers: str) -> Response:
    """The body with its ETag, or ``304 Not Modified`` without a body when the client holds it already."""
    sent = {**HEADERS, "ETag": body.etag, **headers}
    if matches(request.headers.get("if-none-match"), body.etag):
        return Response(status_code=304, headers=sent)
    return Response(body.data, media_type=media_type, headers=sent)


def matches(if_none_match: str | None, etag: str) -> bool:
    """Whether ``If-None-Match`` names ``etag``: ``*``, or a list of tags compared weakly (``W/"x"`` matches
    ``"x"``).

    >>> matches('W/"a", "b"', '"a"'), matches("*", '"a"'), matches('"b"', '"a"'), matches(None, '"a"')
    (True, True, False, False)
    """
    if not if_none_match:
        return False
    value = if_none_match[:MAX_IF_NONE_MATCH].strip()
    if value == "*":
        return True
    opaque = etag.removeprefix("W/")
    return any(tag == opaque for tag in re.findall(r'(?:W/)?("[^"]*")', value))


def bad_release(release: str) -> Response:
    return error(400, f"release {release[:40]!r}: expected v and a number, such as v1")


def error(status: int, message: str) -> Response:
    return JSONResponse({"error": message}, status_code=status, headers={"Cache-Control": "no-cache"})


def _weight(body: Body) -> int:
    return len(body.data)
