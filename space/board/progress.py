"""Progress over time: the best score reached by each date, overall and per embodiment (``space/board/charts.py``
draws it as a step line)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import date

from scoring.penalty_table import EMBODIMENTS

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
