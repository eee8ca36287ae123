"""The board's charts as HTML, drawn once per change of the results (no gradio, no plotting library).

- ``grouped_bars``: the top models side by side per embodiment or per task category, one bar each,
  with its value written beside it and a legend that wraps (never cut) on a phone.
- ``progress``: the best score reached by each date, overall and per embodiment, as a step line.
Only scored submissions carry breakdowns: reported rows and the baseline have none. Every name is
escaped; colours come from a fixed palette, so a model keeps its colour across both bar charts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from scoring.penalty_table import EMBODIMENTS
from space.pages.board import best_per_model, ranked
from space.pages.charts_progress import progress
from space.pages.html import esc, legend, number

__all__ = ["grouped_bars", "labels", "per_category", "per_embodiment", "progress", "top_entries", "y_range"]

TOP = 6
PALETTE = ("#2563eb", "#d97706", "#059669", "#db2777", "#7c3aed", "#0e7490")  # distinct, also in grey print
Row = Mapping[str, object]


def top_entries(rows: Iterable[Row], split: str, top: int = TOP) -> list[dict[str, object]]:
    """The best ``top`` scored submissions of ``split`` (those with breakdowns), one per model, best first."""
    scored = [r for r in ranked(rows, split) if r.get("kind") == "submission" and r.get("per_embodiment")]
    return best_per_model(scored)[:top]


def labels(entries: list[dict[str, object]]) -> list[str]:
    """A unique legend label per entry: the model name, with the rank when two share a name.

    >>> labels([{"model": "M", "rank": 1}, {"model": "M", "rank": 3}, {"model": "N", "rank": 2}])
    ['M (#1)', 'M (#3)', 'N']
    """
    names = [str(e.get("model") or "?") for e in entries]
    return [f"{n} (#{e.get('rank')})" if names.count(n) > 1 else n for n, e in zip(names, entries)]


def per_embodiment(rows: Iterable[Row], split: str, top: int = TOP) -> str:
    """Grouped bars of the top models per embodiment (embodiments in the usual order); "" when none."""
    entries = top_entries(rows, split, top)
    return grouped_bars("Per embodiment", "chart-embodiment", entries, "per_embodiment", list(EMBODIMENTS))


def per_category(rows: Iterable[Row], split: str, top: int = TOP) -> str:
    """Grouped bars of the top models per task category (categories A to Z); "" when none."""
    entries = top_entries(rows, split, top)
    categories = sorted({c for e in entries for c in _mapping(e.get("per_category"))})
    return grouped_bars("Per task category", "chart-category", entries, "per_category", categories)


def y_range(scores: Iterable[float | None]) -> tuple[float, float]:
    """The score axis: from the baseline (0, or below when a score is negative) to a perfect 100.

    >>> y_range([12.0, 80.0]), y_range([-31.0, None])
    ((0.0, 100.0), (-40.0, 100.0))
    """
    lowest = min((s for s in scores if s is not None), default=0.0)
    return min(0.0, 10.0 * (lowest // 10.0)), 100.0


def grouped_bars(title: str, elem_id: str, entries: Sequence[Row], column: str, groups: Sequence[str]) -> str:
    """One block per group, one horizontal bar per model in it; the value is written after each bar."""
    names = labels([dict(e) for e in entries])
    values = {(i, g): _score(e, column, g) for i, e in enumerate(entries) for g in groups}
    shown_groups = [g for g in groups if any(values[(i, g)] is not None for i in range(len(entries)))]
    if not shown_groups:
        return ""
    low, high = y_range(values.values())
    zero = _at(0.0, low, high)
    blocks = []
    for group in shown_groups:
        bars = []
        for i, name in enumerate(names):
            value = values[(i, group)]
            if value is None:
                continue
            start, end = sorted((zero, _at(value, low, high)))
            tip = f"{name} · {group}: {number(value)}"
            bars.append(
                f'<div class="nt-bar-row" title="{esc(tip)}"><span class="nt-bar-track">'
                f'<span class="nt-bar" style="left:{start:.2f}%;width:{max(end - start, 0.4):.2f}%;'
                f'background:{PALETTE[i % len(PALETTE)]}"></span></span>'
                f'<span class="nt-bar-value">{number(value)}</span></div>'
            )
        blocks.append(f'<div class="nt-bar-group"><div class="nt-bar-label">{esc(group)}</div>{"".join(bars)}</div>')
    return (
        f'<figure class="nt-chart" id="{esc(elem_id)}"><figcaption>{esc(title)} '
        f'<span class="nt-small">score, 0 = baseline, 100 = perfect</span></figcaption>'
        f'{legend(names, PALETTE)}<div class="nt-bars">{"".join(blocks)}</div></figure>'
    )


def _at(value: float, low: float, high: float) -> float:
    return 100.0 * (min(max(value, low), high) - low) / (high - low)


def _score(entry: Row, column: str, name: str) -> float | None:
    value = _mapping(entry.get(column)).get(name)
    return None if not isinstance(value, int | float) else round(float(value), 2)


def _mapping(value: object) -> Mapping[str, object]:
    return value if isinstance(value, Mapping) else {}
