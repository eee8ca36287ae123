"""The full-image penalty field of one ground-truth trace, for pictures (the explorer).

Scoring never builds it (it reads the field only under the predicted line); showing people
where a trace would be charged does.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray
from scipy.ndimage import distance_transform_edt

from scoring.geometry import Pixels
from scoring.penalty_table import penalties_at
from scoring.row import NEAR_DISTANCE


def penalty_field(labels: NDArray[np.integer], truth_pixels: Pixels, embodiment: str) -> NDArray[np.float64]:
    """``H x W`` penalty per pixel: the label's scaled cost where farther than 35 px from the trace, else 0.

    Same definition as docs/METRIC.md step 1 (Euclidean distance in pixels, exact for the lattice).

    >>> labels = np.full((1, 80), 13, dtype=np.uint8)  # a row of road
    >>> field = penalty_field(labels, np.array([[0, 0]]), "Human")
    >>> float(field[0, 35]), float(field[0, 36])
    (0.0, 320.0)
    """
    costs = penalties_at(np.asarray(labels), embodiment)
    if len(truth_pixels) == 0:
        return costs
    far_from = np.ones(labels.shape, dtype=bool)
    far_from[truth_pixels[:, 0], truth_pixels[:, 1]] = False
    distance = distance_transform_edt(far_from)
    return np.where(distance > NEAR_DISTANCE, costs, 0.0)
