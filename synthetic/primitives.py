"""World-space polygons: the building blocks of a synthetic scene.

Every surface is a flat polygon in world metres. A ``Part`` also records the plane it lies
in (``("y", level)`` for ground, ``("x", X)`` for a wall parallel to the street, ``("z", Z)``
for a face turned to the camera) so the renderer can texture it in metric coordinates,
which makes tiles, windows and stripes shrink correctly with distance.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from synthetic.camera import NEAR

Colour = tuple[float, float, float]
Plane = tuple[str, float]


@dataclass(frozen=True, eq=False)
class Part:
    """One flat polygon with a Vistas label and a material ``kind`` for the renderer."""

    label: int
    kind: str
    points: NDArray[np.float64]  # (n, 3) world [X, Y, Z]
    colour: Colour
    plane: Plane | None = None
    origin: float = 0.0  # texture phase along the plane (e.g. where a facade starts)
    seed: int = 0  # per-part variation (window rhythm, tile size, ...)


@dataclass(eq=False)
class Thing:
    """An object drawn as a unit, its parts back to front, sorted with others by ``depth``."""

    depth: float
    parts: list[Part] = field(default_factory=list)


def ground(label: int, kind: str, xz: NDArray[np.float64], colour: Colour, level: float = 0.0, seed: int = 0) -> Part:
    """A polygon lying on the horizontal plane ``Y = level`` from ``(n, 2)`` [X, Z] vertices."""
    xz = np.asarray(xz, dtype=np.float64).reshape(-1, 2)
    xz = np.column_stack((xz[:, 0], np.maximum(xz[:, 1], NEAR)))
    points = np.column_stack((xz[:, 0], np.full(len(xz), level), xz[:, 1]))
    return Part(label, kind, points, colour, ("y", level), seed=seed)


def depths(z0: float, z1: float, steps: int = 24) -> NDArray[np.float64]:
    """Depth samples from ``z0`` to ``z1``, denser near the camera where curves show most."""
    z0 = max(z0, NEAR)
    return np.geomspace(z0, max(z1, z0 * 1.0001), steps)


def band(
    label: int,
    kind: str,
    left: Callable[[NDArray[np.float64]], NDArray[np.float64]],
    right: Callable[[NDArray[np.float64]], NDArray[np.float64]],
    z0: float,
    z1: float,
    colour: Colour,
    level: float = 0.0,
    seed: int = 0,
    steps: int = 24,
) -> Part:
    """The ground between two lateral boundaries ``X = left(Z)`` and ``X = right(Z)``."""
    z = depths(z0, z1, steps)
    xz = np.concatenate((np.column_stack((left(z), z)), np.column_stack((right(z), z))[::-1]))
    return ground(label, kind, xz, colour, level, seed)


def strip(label: int, kind: str, path: NDArray[np.float64], width: float, colour: Colour, seed: int = 0) -> Part:
    """A ground ribbon of constant ``width`` along a polyline of ``(n, 2)`` [X, Z] points."""
    path = np.asarray(path, dtype=np.float64)
    tangent = np.gradient(path, axis=0)
    tangent /= np.maximum(np.linalg.norm(tangent, axis=1, keepdims=True), 1e-9)
    normal = np.column_stack((tangent[:, 1], -tangent[:, 0])) * (width / 2.0)
    return ground(label, kind, np.concatenate((path + normal, (path - normal)[::-1])), colour, seed=seed)


def wall_x(
    label: int, kind: str, x: float, z0: float, z1: float, y0: float, y1: float, colour: Colour, seed: int = 0
) -> Part:
    """A vertical rectangle in the plane ``X = x`` (a facade along the street)."""
    z0 = max(z0, NEAR)
    points = np.array([[x, y0, z0], [x, y0, z1], [x, y1, z1], [x, y1, z0]], dtype=np.float64)
    return Part(label, kind, points, colour, ("x", x), origin=z0, seed=seed)


def wall_z(
    label: int, kind: str, z: float, x0: float, x1: float, y0: float, y1: float, colour: Colour, seed: int = 0
) -> Part:
    """A vertical rectangle in the plane ``Z = z``, facing the camera."""
    points = np.array([[x0, y0, z], [x1, y0, z], [x1, y1, z], [x0, y1, z]], dtype=np.float64)
    return Part(label, kind, points, colour, ("z", z), origin=x0, seed=seed)


def ellipse(
    label: int,
    kind: str,
    centre: tuple[float, float, float],
    rx: float,
    ry: float,
    colour: Colour,
    seed: int = 0,
    wobble: NDArray[np.float64] | None = None,
) -> Part:
    """A vertical ellipse facing the camera; ``wobble`` (radial factors) makes it lumpy."""
    angle = np.linspace(0.0, 2.0 * np.pi, 28, endpoint=False)
    scale = (
        np.ones_like(angle)
        if wobble is None
        else np.interp(angle, np.linspace(0.0, 2.0 * np.pi, len(wobble) + 1), np.append(wobble, wobble[0]))
    )
    x = centre[0] + rx * scale * np.cos(angle)
    y = centre[1] + ry * scale * np.sin(angle)
    points = np.column_stack((x, y, np.full_like(x, centre[2])))
    return Part(label, kind, points, colour, ("z", centre[2]), origin=centre[0], seed=seed)


def box(
    label: int,
    kinds: tuple[str, str, str],
    x0: float,
    x1: float,
    z0: float,
    z1: float,
    y0: float,
    y1: float,
    colours: tuple[Colour, Colour, Colour],
    eye: float,
    seed: int = 0,
) -> list[Part]:
    """The faces of an axis-aligned box a camera at ``(0, eye, 0)`` sees: top, side, front.

    ``kinds`` and ``colours`` are given in that order; hidden faces are left out.
    """
    parts = []
    if y1 < eye:
        top = np.array([[x0, y1, z0], [x1, y1, z0], [x1, y1, z1], [x0, y1, z1]], dtype=np.float64)
        parts.append(Part(label, kinds[0], top, colours[0], ("y", y1), seed=seed))
    if x0 > 0.0:
        parts.append(wall_x(label, kinds[1], x0, z0, z1, y0, y1, colours[1], seed))
    elif x1 < 0.0:
        parts.append(wall_x(label, kinds[1], x1, z0, z1, y0, y1, colours[1], seed))
    parts.append(wall_z(label, kinds[2], z0, x0, x1, y0, y1, colours[2], seed))
    return parts


def shade(colour: Colour, factor: float) -> Colour:
    """``colour`` scaled by ``factor`` and clipped to [0, 1]."""
    return (min(colour[0] * factor, 1.0), min(colour[1] * factor, 1.0), min(colour[2] * factor, 1.0))


def jitter(rng: np.random.Generator, colour: Colour, amount: float = 0.06) -> Colour:
    """``colour`` with a small random brightness and hue change."""
    values = np.clip(np.asarray(colour) * rng.uniform(1 - amount, 1 + amount) + rng.normal(0, amount / 3, 3), 0, 1)
    return (float(values[0]), float(values[1]), float(values[2]))
