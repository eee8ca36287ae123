"""Progress over time: the best score reached by each date, overall and per embodiment (an SVG step line).

Drawn on a small fixed canvas that scales with the page: the labels stay readable on a phone, and
only the first and the last date are written on the time axis, so they never overlap.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import date

from scoring.penalty_table import EMBODIMENTS
from space.pages.html import esc, legend, number

Row = Mapping[str, object]
WIDTH, HEIGHT = 400.0, 230.0
LEFT, RIGHT, TOP, BOTTOM = 34.0, 10.0, 10.0, 26.0
SERIES_COLOURS = ("#0f172a", "#2563eb", "#d97706", "#059669", "#db2777", "#7c3aed")
Point = tuple[date, float, str]  # when, best score so far, the model that holds it


def best_by_date(rows: Iterable[Row], split: str) -> dict[str, list[Point]]:
    """Per series ("Overall", then each embodiment): the dates where the best score rose, with the new best.

    >>> rows = [{"split": "test", "kind": "submission", "model": "A", "score": 5.0, "submitted_at": "2026-01-02"},
    ...         {"split": "test", "kind": "submission", "model": "B", "score": 3.0, "submitted_at": "2026-01-03"},
    ...         {"split": "test", "kind": "reported", "model": "C", "score": 9.0, "submitted_at": "2026-02-01"}]
    >>> [(str(d), s, m) for d, s, m in best_by_date(rows, "test")["Overall"]]
    [('2026-01-02', 5.0, 'A'), ('2026-02-01', 9.0, 'C')]
    """
    dated = sorted(
        ((when, r) for r in rows if r.get("split") == split and r.get("kind") != "baseline" if (when := _day(r))),
        key=lambda pair: pair[0],
    )
    series: dict[str, list[Point]] = {"Overall": []}
    series.update({e: [] for e in EMBODIMENTS})
    for when, row in dated:
        _rise(series["Overall"], when, row.get("score"), row)
        per = row.get("per_embodiment")
        for embodiment in EMBODIMENTS:
            _rise(series[embodiment], when, per.get(embodiment) if isinstance(per, Mapping) else None, row)
    return {name: points for name, points in series.items() if points}


def progress(rows: Iterable[Row], split: str) -> str:
    """The chart as HTML (an SVG and its legend); "" when no entry of ``split`` has a date."""
    series = best_by_date(rows, split)
    if not series:
        return ""
    days = [d for points in series.values() for d, _, _ in points]
    first, last = min(days), max(days)
    end = max(last, first.fromordinal(first.toordinal() + 1))  # one date still gets a width
    scores = [s for points in series.values() for _, s, _ in points]
    low = min(0.0, 10.0 * (min(scores) // 10.0))
    x = _scale(first.toordinal(), end.toordinal(), LEFT, WIDTH - RIGHT)
    y = _scale(low, 100.0, HEIGHT - BOTTOM, TOP)
    parts = [_axes(low, y, first, last, x)]
    # The embodiments first and "Overall" last, so the overall line is drawn on top where they meet.
    for i, (name, points) in reversed(list(enumerate(series.items()))):
        colour = SERIES_COLOURS[i % len(SERIES_COLOURS)]
        parts.append(_step_line(points, x, y, end, colour, 2.6 if name == "Overall" else 1.6))
        parts += [
            f'<circle cx="{x(d.toordinal()):.1f}" cy="{y(s):.1f}" r="3" fill="{colour}">'
            f"<title>{esc(f'{name}: {number(s)} by {model} on {d.isoformat()}')}</title></circle>"
            for d, s, model in points
        ]
    label = f"Best score by date on the {split} split, overall and per embodiment"
    svg = (
        f'<svg class="nt-progress-svg" viewBox="0 0 {WIDTH:.0f} {HEIGHT:.0f}" role="img" aria-label="{esc(label)}">'
        f"{''.join(parts)}</svg>"
    )
    caption = f'Progress over time <span class="nt-small">best score reached by each date ({esc(split)} split)</span>'
    return (
        f'<figure class="nt-chart nt-progress" id="chart-progress"><figcaption>{caption}</figcaption>'
        f"{legend(list(series), SERIES_COLOURS)}{svg}</figure>"
    )


def _rise(points: list[Point], when: date, score: object, row: Row) -> None:
    if not isinstance(score, int | float):
        return
    if not points or float(score) > points[-1][1]:
        points.append((when, float(score), str(row.get("model") or "?")))


def _day(row: Row) -> date | None:
    try:
        return date.fromisoformat(str(row.get("submitted_at") or "")[:10])
    except ValueError:
        return None


def _scale(lo: float, hi: float, out_lo: float, out_hi: float):
    span = (hi - lo) or 1.0
    return lambda v: out_lo + (float(v) - lo) / span * (out_hi - out_lo)


def _step_line(points: Sequence[Point], x, y, end: date, colour: str, width: float) -> str:
    """Flat until the next rise, then up; carried on to the last date of the chart."""
    coords: list[str] = []
    for i, (when, score, _) in enumerate(points):
        if i:
            coords.append(f"{x(when.toordinal()):.1f},{y(points[i - 1][1]):.1f}")
        coords.append(f"{x(when.toordinal()):.1f},{y(score):.1f}")
    coords.append(f"{x(end.toordinal()):.1f},{y(points[-1][1]):.1f}")
    return f'<polyline points="{" ".join(coords)}" fill="none" stroke="{colour}" stroke-width="{width}"/>'


def _axes(low: float, y, first: date, last: date, x) -> str:
    ticks = sorted({low, 0.0, 50.0, 100.0})
    lines = [
        f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(t):.1f}" y2="{y(t):.1f}" class="nt-grid"/>'
        f'<text x="{LEFT - 4}" y="{y(t) + 4:.1f}" text-anchor="end" class="nt-axis">{t:g}</text>'
        for t in ticks
    ]
    base = HEIGHT - BOTTOM + 16
    lines.append(f'<text x="{LEFT}" y="{base}" class="nt-axis">{first.isoformat()}</text>')
    if last != first:
        lines.append(
            f'<text x="{WIDTH - RIGHT}" y="{base}" text-anchor="end" class="nt-axis">{last.isoformat()}</text>'
        )
    return "".join(lines)
