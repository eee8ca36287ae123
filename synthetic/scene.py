"""Rasterise a ``Layout`` into the label mask and a map of which part covers each pixel.

Polygons are projected by the camera and filled back to front with PIL (a scanline fill,
much faster than per-pixel tests at 1440x1080); the last part drawn over a pixel owns it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from PIL import Image, ImageDraw

import synthetic.labels as L
from synthetic.camera import Camera
from synthetic.layout import Layout
from synthetic.primitives import Part

STAIR_KINDS = frozenset({"riser", "tread"})


@dataclass
class Scene:
    """``labels`` (H x W Vistas ids); ``owners`` (H x W, 0 for sky, k for ``parts[k - 1]``)."""

    camera: Camera
    labels: NDArray[np.uint8]
    owners: NDArray[np.int32]
    parts: list[Part]

    def mask_of_kinds(self, kinds: frozenset[str]) -> NDArray[np.bool_]:
        """Pixels owned by parts of the given kinds (e.g. the steps of a staircase)."""
        wanted = np.zeros(len(self.parts) + 1, dtype=bool)
        wanted[1:] = [p.kind in kinds for p in self.parts]
        return wanted[self.owners]


def rasterise(layout: Layout, camera: Camera | None = None) -> Scene:
    """Draw ground, then walls, then things from far to near; sky is what is left.

    ``camera`` overrides the layout's (the same view at another resolution).
    """
    camera = camera or layout.camera
    size = (camera.width, camera.height)
    labels = Image.new("L", size, L.SKY)
    owners = Image.new("I", size, 0)
    draw_labels, draw_owners = ImageDraw.Draw(labels), ImageDraw.Draw(owners)
    parts: list[Part] = []
    ordered = list(layout.ground) + list(layout.walls)
    for thing in sorted(layout.things, key=lambda t: -t.depth):
        ordered += thing.parts
    for part in ordered:
        xy = camera.project(part.points)
        if not _visible(xy, camera):
            continue
        points = [(float(x), float(y)) for x, y in xy]
        parts.append(part)
        draw_labels.polygon(points, fill=part.label)
        draw_owners.polygon(points, fill=len(parts))
    return Scene(camera, np.asarray(labels, dtype=np.uint8), np.asarray(owners, dtype=np.int32), parts)


def _visible(xy: NDArray[np.float64], camera: Camera) -> bool:
    low, high = xy.min(axis=0), xy.max(axis=0)
    return bool(high[0] >= 0 and high[1] >= 0 and low[0] < camera.width and low[1] < camera.height)
