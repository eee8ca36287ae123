"""A level pinhole camera looking down +Z over a flat ground plane.

World units are metres: X to the right, Y up, Z forward; the camera sits at
``(0, eye_height, 0)`` with no pitch or roll, so the horizon is one image row and every
line on the ground converges on the vanishing point ``(cx, horizon)``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

# Nothing is drawn nearer than this: it keeps projected coordinates finite and small.
NEAR = 0.4


@dataclass(frozen=True)
class Camera:
    """Image size in pixels, focal length in pixels, horizon row and eye height in metres."""

    width: int
    height: int
    focal: float
    horizon: float
    eye_height: float

    @classmethod
    def from_ratios(cls, width: int, height: int, focal: float, horizon: float, eye_height: float) -> Camera:
        """``focal`` as a fraction of the width and ``horizon`` of the height keep a scene
        the same at every image size."""
        return cls(width, height, focal * width, horizon * height, eye_height)

    @property
    def cx(self) -> float:
        return self.width / 2.0

    @property
    def metres_per_pixel(self) -> float:
        """Lateral size of one pixel at 1 m depth."""
        return 1.0 / self.focal

    def project(self, points: NDArray[np.float64]) -> NDArray[np.float64]:
        """World ``(n, 3)`` points ``[X, Y, Z]`` to image ``(n, 2)`` points ``[x, y]``."""
        points = np.asarray(points, dtype=np.float64).reshape(-1, 3)
        depth = np.maximum(points[:, 2], NEAR)
        x = self.cx + self.focal * points[:, 0] / depth
        y = self.horizon + self.focal * (self.eye_height - points[:, 1]) / depth
        return np.column_stack((x, y))

    def ground_point(self, x: float, z: float, y: float = 0.0) -> tuple[float, float]:
        """Image position of the world point ``(x, y, z)`` (on the ground by default)."""
        px, py = self.project(np.array([[x, y, z]]))[0]
        return float(px), float(py)

    def ground_depth_of_row(self, row: NDArray[np.float64], level: float = 0.0) -> NDArray[np.float64]:
        """Depth Z of the plane ``Y = level`` seen at image ``row`` (inf at or above the horizon)."""
        below = np.maximum(np.asarray(row, dtype=np.float64) - self.horizon, 1e-3)
        return self.focal * (self.eye_height - level) / below

    def lateral_extent(self, depth: float) -> float:
        """Half the width in metres that the image spans at ``depth``."""
        return depth * self.cx / self.focal
