"""The compare view (``/?compare=<id_a>,<id_b>``): two public entries side by side, group by group,
with the paired bootstrap interval of each difference ("A − B = +3.10 [+1.20, +5.00]").

Pure functions over two public rows and their differences (``EntryIntervals.compare``); no gradio.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from leaderboard.statistics import GroupFigure, format_difference
from scoring.penalty_table import EMBODIMENTS
from space.entry.view import MAX_ID, bars, label
from space.site.html import esc, number, table

Row = Mapping[str, object]
KIND_ORDER = {"score": 0, "per_embodiment": 1, "per_category": 2}
HELP = (
    "A − B per group, with the 95% paired bootstrap interval of the difference (both entries resampled on the "
    "same images). An interval that excludes 0 means the difference is unlikely to be chance. Rows without "
    "per-row scores (reported figures, the baseline) have no interval."
)


def compare_ids(query: Mapping[str, str]) -> tuple[str, str] | None:
    """The two ids of ``?compare=a,b`` (the value cut before it is split), or ``None``.

    >>> compare_ids({"compare": "abc, def"}), compare_ids({"compare": "abc"})
    (('abc', 'def'), None)
    """
    value = str(query.get("compare") or "")[: 2 * MAX_ID + 1]
    parts = [p.strip()[:MAX_ID] for p in value.split(",")]
    return (parts[0], parts[1]) if len(parts) == 2 and all(parts) else None


def ordered(differences: Sequence[GroupFigure]) -> list[GroupFigure]:
    def key(g: GroupFigure) -> tuple:
        place = EMBODIMENTS.index(g.name) if g.name in EMBODIMENTS else 0
        return KIND_ORDER.get(g.kind, 9), place, g.name

    return sorted(differences, key=key)


def compare_html(row_a: Row, row_b: Row, differences: Sequence[GroupFigure]) -> str:
    rows = ordered(differences)
    overall = next((g for g in rows if g.kind == "score"), None)
    a_name, b_name = label(row_a), label(row_b)
    head = (
        f'<p class="nt-big" id="compare-headline"><b>A</b> = {esc(a_name)}<br><b>B</b> = {esc(b_name)}<br>'
        f"A − B = <b>{esc(format_difference(overall.value, overall.interval) if overall else '—')}</b></p>"
    )
    if row_a.get("split") != row_b.get("split"):
        head += (
            '<div class="nt-note nt-note-warn">These entries are on different splits: their scores are '
            "not on the same images, so no paired interval is given.</div>"
        )
    lines = [
        [
            esc(_group_name(g)),
            esc(number(g.a)),
            esc(number(g.b)),
            _difference_cell(g),
        ]
        for g in rows
    ]
    grid = table(
        ["group", "A", "B", "A − B"],
        lines,
        css="nt-table",
        numeric=[False, True, True, True],
        element_id="compare-table",
    )
    chart = bars(
        [GroupFigure(g.kind, _group_name(g), g.value, g.interval) for g in rows], "compare-bars", low=0.0, signed=True
    )
    return (
        f'<div class="nt-entry" id="compare-view">{head}{grid}<h3>Differences (A − B)</h3>{chart}'
        f"<p class='nt-small'>{esc(HELP)}</p></div>"
    )


def _difference_cell(g: GroupFigure) -> str:
    """``+3.10`` over ``[+1.20, +5.00]``: two short lines, so the column fits a phone."""
    text = format_difference(g.value, g.interval)
    point, _, rest = text.partition(" ")
    return f"<b>{esc(point)}</b>" + (f"<br><span class='nt-small'>{esc(rest)}</span>" if rest else "")


def _group_name(g: GroupFigure) -> str:
    if g.kind == "score":
        return "overall"
    return f"{g.name} (category)" if g.kind == "per_category" else g.name
