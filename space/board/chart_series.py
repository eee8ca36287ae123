"""What the board's charts show (``space/board/charts.py`` draws them): the top models and their labels, the
score axis. Only scored submissions carry breakdowns: reported rows and the baseline have none. Colours come
from a fixed palette, so a model keeps its colour across both bar charts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from space.board.view import best_per_model, ranked

__all__ = ["labels", "top_entries", "y_range"]

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


def y_range(scores: Iterable[float | None]) -> tuple[float, float]:
    """The score axis: from the baseline (0, or below when a score is negative) to a perfect 100.

    >>> y_range([12.0, 80.0]), y_range([-31.0, None])
    ((0.0, 100.0), (-40.0, 100.0))
    """
    lowest = min((s for s in scores if s is not None), default=0.0)
    return min(0.0, 10.0 * (lowest // 10.0)), 100.0
