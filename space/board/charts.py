"""The board's charts as inline SVG with presentation attributes (no inline style: the CSP has no 'unsafe-inline').

What is drawn is ``space/board/chart_series.py``'s and ``progress.py``'s data (the top models per
embodiment and per task category, the best score reached by each date); this module only draws it.
With a single date, progress is a sentence and a short list, not four flat lines on top of each other.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from scoring.penalty_table import EMBODIMENTS
from space.board.chart_series import PALETTE, labels, top_entries, y_range
from space.board.progress import SERIES_COLOURS, best_by_date
from space.site.html import esc, number

Row = Mapping[str, object]
WIDTH, BAR_END, BAR, STEP, GROUP_HEAD = 400.0, 340.0, 10.0, 14.0, 17.0  # STEP: a value label's line box (~13.5)
P_WIDTH, P_HEIGHT, P_LEFT, P_RIGHT, P_TOP, P_BOTTOM = 400.0, 220.0, 34.0, 12.0, 10.0, 26.0


def charts_html(rows: Sequence[Row], split: str) -> str:
    """The three charts of ``split`` for the default board's rows; "" when nothing is scored yet."""
    entries = top_entries(rows, split)
    names = labels(entries)
    categories = sorted({c for e in entries for c in _mapping(e.get("per_category"))})
    parts = [
        grouped_bars("Per embodiment", "chart-embodiment", entries, names, "per_embodiment", list(EMBODIMENTS)),
        grouped_bars("Per task category", "chart-category", entries, names, "per_category", categories),
        progress(rows, split),
    ]
    drawn = [p for p in parts if p]
    return f'<div class="nt-charts">{"".join(drawn)}</div>' if drawn else ""


def legend(names: Sequence[str], family: str) -> str:
    items = "".join(
        f'<li><i class="nt-sw nt-{family}{i % 6}" aria-hidden="true"></i>{esc(n)}</li>' for i, n in enumerate(names)
    )
    return f'<ul class="nt-legend" aria-label="Legend">{items}</ul>'


def grouped_bars(
    title: str, elem_id: str, entries: Sequence[Row], names: Sequence[str], column: str, groups: Sequence[str]
) -> str:
    """One block per group, one horizontal bar per model; the value is written after each bar."""
    values = {(i, g): _score(e, column, g) for i, e in enumerate(entries) for g in groups}
    shown = [g for g in groups if any(values[(i, g)] is not None for i in range(len(entries)))]
    if not shown:
        return ""
    low, high = y_range(values.values())
    zero = _at(0.0, low, high)
    parts, y = [], 0.0
    for group in shown:
        parts.append(f'<text x="0" y="{y + 12:.0f}" class="nt-chart-group">{esc(group)}</text>')
        y += GROUP_HEAD
        for i, name in enumerate(names):
            value = values[(i, group)]
            if value is None:
                continue
            start, end = sorted((zero, _at(value, low, high)))
            parts.append(
                f'<rect x="{start:.1f}" y="{y:.1f}" width="{max(end - start, 1.0):.1f}" height="{BAR}" '
                f'fill="{PALETTE[i % len(PALETTE)]}"><title>{esc(f"{name} · {group}: {number(value)}")}</title></rect>'
                f'<text x="{WIDTH}" y="{y + 8.5:.1f}" text-anchor="end" class="nt-chart-value">{number(value)}</text>'
            )
            y += STEP
        y += 6
    height = y
    label = f"{title}: the scores of the top {len(names)} models"
    svg = (
        f'<svg class="nt-chart-svg" viewBox="0 0 {WIDTH:.0f} {height:.0f}" role="img" aria-label="{esc(label)}">'
        f'<line x1="{zero:.1f}" x2="{zero:.1f}" y1="0" y2="{height:.0f}" stroke="#64748b"/>{"".join(parts)}</svg>'
    )
    return (
        f'<figure class="nt-chart" id="{esc(elem_id)}"><figcaption>{esc(title)} '
        f'<span class="nt-small">score, 0 = baseline, 100 = perfect</span></figcaption>'
        f"{legend(names, 'c')}{svg}</figure>"
    )


def progress(rows: Sequence[Row], split: str) -> str:
    """The best score reached by each date (a step line per series); with one date only, the figures in words."""
    series = best_by_date(rows, split)
    if not series:
        return ""
    days = sorted({d for points in series.values() for d, _, _ in points})
    caption = f'Progress over time <span class="nt-small">best score reached by each date ({esc(split)} split)</span>'
    if len(days) == 1:
        items = "".join(
            f"<li>{esc(name)}: <b>{number(points[-1][1])}</b> ({esc(points[-1][2])})</li>"
            for name, points in series.items()
        )
        note = f"One date so far ({days[0].isoformat()}): the line starts when results of a second date arrive."
        return (
            f'<figure class="nt-chart nt-progress" id="chart-progress"><figcaption>{caption}</figcaption>'
            f'<p class="nt-small" id="progress-one-date">{esc(note)}</p><ul class="nt-best-list">{items}</ul></figure>'
        )
    first, last = days[0], days[-1]
    scores = [s for points in series.values() for _, s, _ in points]
    low = min(0.0, 10.0 * (min(scores) // 10.0))

    def x(day) -> float:
        return P_LEFT + (day.toordinal() - first.toordinal()) / (last.toordinal() - first.toordinal()) * (
            P_WIDTH - P_RIGHT - P_LEFT
        )

    def y(score: float) -> float:
        return P_TOP + (100.0 - score) / (100.0 - low) * (P_HEIGHT - P_BOTTOM - P_TOP)

    parts = [_axes(low, y, first.isoformat(), last.isoformat())]
    for i, (name, points) in reversed(list(enumerate(series.items()))):  # "Overall" drawn last, on top
        colour = SERIES_COLOURS[i % len(SERIES_COLOURS)]
        coords: list[str] = []
        for j, (day, score, _) in enumerate(points):
            if j:
                coords.append(f"{x(day):.1f},{y(points[j - 1][1]):.1f}")
            coords.append(f"{x(day):.1f},{y(score):.1f}")
        coords.append(f"{x(last):.1f},{y(points[-1][1]):.1f}")
        width = 2.6 if name == "Overall" else 1.6
        parts.append(f'<polyline points="{" ".join(coords)}" fill="none" stroke="{colour}" stroke-width="{width}"/>')
        parts += [
            f'<circle cx="{x(d):.1f}" cy="{y(s):.1f}" r="3" fill="{colour}">'
            f"<title>{esc(f'{name}: {number(s)} by {model} on {d.isoformat()}')}</title></circle>"
            for d, s, model in points
        ]
    label = f"Best score by date on the {split} split, overall and per embodiment"
    svg = (
        f'<svg class="nt-chart-svg nt-progress-svg" viewBox="0 0 {P_WIDTH:.0f} {P_HEIGHT:.0f}" role="img" '
        f'aria-label="{esc(label)}">{"".join(parts)}</svg>'
    )
    return (
        f'<figure class="nt-chart nt-progress" id="chart-progress"><figcaption>{caption}</figcaption>'
        f"{legend(list(series), 'p')}{svg}</figure>"
    )


def _axes(low: float, y, first: str, last: str) -> str:
    ticks = sorted({low, 0.0, 50.0, 100.0})
    lines = [
        f'<line x1="{P_LEFT}" x2="{P_WIDTH - P_RIGHT}" y1="{y(t):.1f}" y2="{y(t):.1f}" stroke="#cbd5e1"/>'
        f'<text x="{P_LEFT - 4}" y="{y(t) + 4:.1f}" text-anchor="end" class="nt-chart-axis">{t:g}</text>'
        for t in ticks
    ]
    base = P_HEIGHT - P_BOTTOM + 16
    lines.append(f'<text x="{P_LEFT}" y="{base}" class="nt-chart-axis">{first}</text>')
    lines.append(f'<text x="{P_WIDTH - P_RIGHT}" y="{base}" text-anchor="end" class="nt-chart-axis">{last}</text>')
    return "".join(lines)


def _at(value: float, low: float, high: float) -> float:
    return BAR_END * (min(max(value, low), high) - low) / (high - low)


def _score(entry: Row, column: str, name: str) -> float | None:
    value = _mapping(entry.get(column)).get(name)
    return None if not isinstance(value, int | float) else round(float(value), 2)


def _mapping(value: object) -> Mapping[str, object]:
    return value if isinstance(value, Mapping) else {}
