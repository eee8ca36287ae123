"""The category penalty table of NaviTrace (label id -> cost per embodiment).

The table ships with the package (``category_penalty.tsv``, a copy of the benchmark's).
docs/METRIC.md: every value is multiplied by 0.8 before use; labels missing from the table
cost 0.
"""

from __future__ import annotations

import csv
from functools import lru_cache
from importlib import resources

import numpy as np
from numpy.typing import NDArray

EMBODIMENTS: tuple[str, ...] = ("Human", "Legged Robot", "Wheeled Robot", "Bicycle")
PENALTY_SCALE = 0.8  # docs/METRIC.md, step 1
# Lookup arrays cover every uint8 label, so a mask value indexes them directly.
TABLE_SIZE = 256


@lru_cache(maxsize=1)
def penalty_lookup() -> dict[str, NDArray[np.float64]]:
    """Scaled penalty per label for each embodiment, as arrays of length 256.

    >>> round(float(penalty_lookup()["Bicycle"][15]), 6)  # Sidewalk for a bicycle: 0.8 x 400
    320.0
    """
    text = resources.files("scoring").joinpath("category_penalty.tsv").read_text("utf-8")
    rows = list(csv.DictReader(text.splitlines(), delimiter="\t"))
    lookup = {}
    for embodiment in EMBODIMENTS:
        values = np.zeros(TABLE_SIZE, dtype=np.float64)
        for row in rows:
            values[int(row["id"])] = PENALTY_SCALE * float(row[embodiment])
        values.setflags(write=False)
        lookup[embodiment] = values
    return lookup


def penalties_at(labels: NDArray[np.integer], embodiment: str) -> NDArray[np.float64]:
    """Scaled penalty of each label value; labels outside 0..255 (or not in the table) cost 0."""
    table = penalty_lookup()[embodiment]
    labels = np.asarray(labels)
    if labels.dtype == np.uint8:
        return table[labels]
    inside = (labels >= 0) & (labels < TABLE_SIZE)
    return np.where(inside, table[np.where(inside, labels, 0)], 0.0)
