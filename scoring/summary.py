"""The summary of a scored submission: the one record every reader of a result shares.

Written by ``scoring.aggregate.summarise``; stored as JSON (``to_dict``, the keys of docs/METRIC.md's
summary, in this order); read back with ``from_dict`` by the service, the table and the pages.
Every field is an aggregate over rows: nothing here is per row, so all of it may be published.
Scores are on the 0-100 scale anchored at the straight-forward baseline (higher is better);
``None`` where a mean has no rows (shown as "—").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields


@dataclass(frozen=True)
class Summary:
    score: float | None  # coverage-aware mean over every expected row (invalid and missing rows = 0)
    score_valid_only: float | None  # the mean over valid rows only (the notebook's Total Score)
    coverage: float | None  # valid rows / expected rows, in [0, 1]
    n_expected: int | None = None
    n_valid: int | None = None
    n_invalid: int | None = None
    n_missing: int | None = None
    per_embodiment: dict[str, float | None] = field(default_factory=dict)
    per_category: dict[str, float | None] = field(default_factory=dict)
    per_metadata: dict[str, dict[str, float | None]] = field(default_factory=dict)
    baseline_raw: float | None = None  # the B the scores were normalised with
    scorer_version: str | None = None
    dataset_revision: str | None = None
    # Figures set to None because too few valid rows stood behind them (the leaderboard's disclosure
    # rule), e.g. "per_embodiment.Bicycle"; empty for a summary nothing was withheld from.
    withheld: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, object]:
        """The JSON object of a stored summary (the same keys, in the same order, as ever; ``withheld``
        only when something was)."""
        data = asdict(self)
        if not self.withheld:
            del data["withheld"]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Summary:
        """A stored summary; keys it does not know are ignored, missing ones are ``None`` (or empty)."""
        known = {f.name for f in fields(cls)}
        values = {k: v for k, v in data.items() if k in known}
        return cls(**{"score": None, "score_valid_only": None, "coverage": None, **values})  # type: ignore[arg-type]


SUMMARY_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(Summary) if f.name != "withheld")
