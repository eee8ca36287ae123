"""Chart data: the top models of a split compared per embodiment and per category.

Long-format tables (one row per model and group) that a plot component draws directly; no gradio
here. Only scored submissions carry breakdowns: reported rows and the baseline have none.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import pandas as pd

from scoring.penalty_table import EMBODIMENTS
from space.pages.board import ranked

TOP = 6
COLUMNS = ("model", "group", "score")


def top_entries(rows: Iterable[Mapping[str, object]], split: str, top: int = TOP) -> list[dict[str, object]]:
    """The best ``top`` scored submissions of ``split`` (those with breakdowns), best first."""
    scored = [r for r in ranked(rows, split) if r.get("kind") == "submission" and r.get("per_embodiment")]
    return scored[:top]


def labels(entries: list[dict[str, object]]) -> list[str]:
    """A unique legend label per entry: the model name, with the rank when two share a name.

    >>> labels([{"model": "M", "rank": 1}, {"model": "M", "rank": 3}, {"model": "N", "rank": 2}])
    ['M (#1)', 'M (#3)', 'N']
    """
    names = [str(e.get("model") or "?") for e in entries]
    return [f"{n} (#{e.get('rank')})" if names.count(n) > 1 else n for n, e in zip(names, entries)]


def per_embodiment(rows: Iterable[Mapping[str, object]], split: str, top: int = TOP) -> pd.DataFrame:
    """``model, group, score`` with one row per top model and embodiment (embodiments in the usual order)."""
    entries = top_entries(rows, split, top)
    records = [
        (label, embodiment, _score(entry, "per_embodiment", embodiment))
        for entry, label in zip(entries, labels(entries))
        for embodiment in EMBODIMENTS
        if _score(entry, "per_embodiment", embodiment) is not None
    ]
    return pd.DataFrame.from_records(records, columns=list(COLUMNS))


def per_category(rows: Iterable[Mapping[str, object]], split: str, top: int = TOP) -> pd.DataFrame:
    """``model, group, score`` with one row per top model and task category (categories A to Z)."""
    entries = top_entries(rows, split, top)
    categories = sorted({c for e in entries for c in _mapping(e.get("per_category"))})
    records = [
        (label, category, _score(entry, "per_category", category))
        for entry, label in zip(entries, labels(entries))
        for category in categories
        if _score(entry, "per_category", category) is not None
    ]
    return pd.DataFrame.from_records(records, columns=list(COLUMNS))


def _score(entry: Mapping[str, object], column: str, name: str) -> float | None:
    value = _mapping(entry.get(column)).get(name)
    return None if value is None else round(float(value), 2)  # type: ignore[arg-type]


def _mapping(value: object) -> Mapping[str, object]:
    return value if isinstance(value, Mapping) else {}


def y_range(frame: pd.DataFrame) -> list[float]:
    """The score axis: from the baseline (0, or below when a score is negative) to a perfect 100.

    >>> y_range(pd.DataFrame({"score": [12.0, 80.0]})), y_range(pd.DataFrame({"score": [-31.0]}))
    ([0.0, 100.0], [-40.0, 100.0])
    """
    lowest = float(frame["score"].min()) if len(frame) else 0.0
    return [min(0.0, 10.0 * (lowest // 10.0)), 100.0]
