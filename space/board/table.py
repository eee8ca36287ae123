"""The board's table for the plain pages: the board's rows and columns, with header links that sort.

The rows are ``board.select``'s and the columns ``board_columns.columns``' (one ranking, one set of
cells for every page and the CSV); what differs from ``board.render`` is only the markup: a header is a
link to the address sorted by it (the same column again reverses it), so sorting works with JavaScript
off; a model links to ``/entry/<id>``; rank, upper-bound rank and model stay in view when the table scrolls
sideways. Sorted by score or rank, each run of entries sharing an upper-bound rank (statistically tied) is drawn
as one group: a bracket beside the upper-bound ranks, two tints taking turns so that neighbouring groups differ.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from functools import partial
from urllib.parse import quote

from space.board import view as board
from space.board.address import address, sorted_by
from space.board.columns import Column, columns, flag_badge, model_cell
from space.board.controls import Controls
from space.site.html import esc

Row = Mapping[str, object]
TIE_SORTS = ("score", "rank", "rank_ub")  # orders in which entries sharing an upper-bound rank stand together


def entry_link(row: Row, release: str = "") -> str:
    """The model's name, linking to its entry page when it is a scored submission; on a board named by its release
    (``?release=v1``), to the entry as that release shows it."""
    if row.get("kind") != "submission":
        return model_cell(row)
    target = quote(str(row.get("submission_id") or ""), safe="")
    name = esc(row.get("model") or "—")
    of = f"?release={quote(release, safe='')}" if release else ""
    return f'<a class="nt-entry" href="/entry/{esc(target)}{esc(of)}">{name}</a>{flag_badge(row.get("flag"))}'


def board_columns(rows: Sequence[Row], view: board.BoardView, release: str = "") -> list[Column]:
    """The view's columns as the board has them, the model cell linking to the plain entry page."""
    categories = (
        sorted({c for r in rows for c in _dict(r.get("per_category"))}) if board.GROUP_CATEGORY in view.groups else []
    )
    values = sorted({v for r in rows for v in _meta(r, view.breakdown)}) if view.breakdown else []
    cols = columns(view.groups, categories, view.breakdown, values, rows)
    link = partial(entry_link, release=release)
    return [dataclasses.replace(c, cell=link) if c.key == "model" else c for c in cols]


def table_html(rows: Sequence[Row], view: board.BoardView, controls: Controls, path: str = "/", empty: str = "") -> str:
    """The table of ``rows`` (already selected for ``view``) with sorting header links to ``path``."""
    cols = board_columns(rows, view, controls.release)
    current, descending = view.sort_column, view.is_descending
    head = "".join(_header(c, controls, current, descending, path) for c in cols)
    body = []
    ties = tie_classes(rows) if current in TIE_SORTS else [""] * len(rows)
    for row, tied in zip(rows, ties, strict=True):
        kind = esc(row.get("kind"))
        flagged = " nt-row-flagged" if board.is_flagged(row) else ""
        cells = "".join(f"<td{_class(c)}>{c.cell(row)}</td>" for c in cols)
        body.append(f'<tr class="nt-row-{kind}{flagged}{tied}">{cells}</tr>')
    if not body:
        body.append(f'<tr><td class="nt-empty" colspan="{len(cols)}">{esc(empty or "No entry.")}</td></tr>')
    wide = " nt-wide" if sum(c.key != "rank_ub" for c in cols) > 16 else ""  # the default view's columns fit
    return (
        f'<div class="nt-table-wrap{wide}" id="board-table-wrap" tabindex="0" role="region" '
        'aria-label="Leaderboard table (scrolls sideways when wider than the page)">'
        f'<table class="nt-table nt-board" id="leaderboard-table" data-sort="{esc(current)}" '
        f'data-desc="{int(descending)}"><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table></div>'
    )


def tie_classes(rows: Sequence[Row]) -> list[str]:
    """Each row's classes as a member of a run of neighbours sharing an upper-bound rank: ``nt-tied`` and
    ``nt-tie-a`` / ``nt-tie-b`` (taking turns run by run), ``nt-tie-first`` and ``nt-tie-last`` at its ends; ""
    for a row tied with nobody shown beside it.

    >>> tie_classes([{"rank_ub": 1}, {"rank_ub": 2}, {"rank_ub": 2}, {"rank_ub": None}])
    ['', ' nt-tied nt-tie-a nt-tie-first', ' nt-tied nt-tie-a nt-tie-last', '']
    """
    keys = [r.get("rank_ub") if isinstance(r.get("rank_ub"), int) else None for r in rows]
    out, turn, start = [""] * len(rows), 0, 0
    while start < len(rows):
        end = start + 1
        while end < len(rows) and keys[start] is not None and keys[end] == keys[start]:
            end += 1
        if end - start > 1:
            for i in range(start, end):
                ends = (" nt-tie-first" if i == start else "") + (" nt-tie-last" if i == end - 1 else "")
                out[i] = f" nt-tied nt-tie-{'ab'[turn % 2]}{ends}"
            turn += 1
        start = end
    return out


def _header(column: Column, controls: Controls, current: str, descending: bool, path: str) -> str:
    title = f' title="{esc(column.tip)}"' if column.tip else ""
    if column.key is None:
        return f'<th scope="col"{title}{_class(column)}>{esc(column.header)}</th>'
    here = column.key == current
    aria = f' aria-sort="{"descending" if descending else "ascending"}"' if here else ""
    arrow = f'<span class="nt-arrow" aria-hidden="true">{"▼" if descending else "▲"}</span>' if here else ""
    href = address(controls, path, sort=sorted_by(controls, column.key, descending, current))
    return (
        f'<th scope="col"{title}{_class(column)}{aria}><a class="nt-sort" href="{esc(href)}" '
        f'data-sort="{esc(column.key)}" target="_self">{esc(column.header)}{arrow}</a></th>'
    )


def _class(column: Column) -> str:
    names = " ".join(n for n in ("nt-num" if column.numeric else "", column.css, _sticky(column)) if n)
    return f' class="{names}"' if names else ""


def _sticky(column: Column) -> str:
    return {"rank": "nt-rank", "rank_ub": "nt-ub-col", "model": "nt-model-col"}.get(column.key or "", "")


def _meta(row: Row, name: str | None) -> dict:
    return _dict(_dict(row.get("per_metadata")).get(name)) if name else {}


def _dict(value: object) -> dict:
    return value if isinstance(value, dict) else {}
