"""Scenery shared by the scene generators: building rows, skylines, tree lines, mountains."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

import synthetic.labels as L
import synthetic.objects as objects
from synthetic.camera import NEAR, Camera
from synthetic.primitives import Colour, Part, Thing, ground, jitter, wall_x, wall_z

FACADE_COLOURS: tuple[Colour, ...] = (
    (0.82, 0.77, 0.68),
    (0.90, 0.88, 0.84),
    (0.63, 0.61, 0.59),
    (0.58, 0.32, 0.24),
    (0.80, 0.64, 0.40),
    (0.70, 0.74, 0.77),
    (0.82, 0.70, 0.64),
    (0.52, 0.47, 0.42),
    (0.86, 0.82, 0.62),
)
FAR = 130.0  # depth of the backdrop; nothing is placed beyond it
Block = tuple[float, float, float, float]  # z0, z1, X of the facade, height


def facade_row(
    rng: np.random.Generator,
    side: int,
    line: Callable[[float], float],
    z_start: float,
    z_end: float,
    skip: Sequence[tuple[float, float]] = (),
) -> tuple[list[Part], list[Block]]:
    """Buildings along one side of a street (``side`` -1 left, +1 right), far to near.

    ``line(z)`` is the X of the building line; ``skip`` lists depth ranges left open (cross
    streets). A block starting right after a skipped range gets a long front face: the
    corner building along the cross street.
    """
    walls: list[Part] = []
    blocks: list[Block] = []
    z = z_start
    corner = False
    while z < z_end:
        z1 = min(z + rng.uniform(9.0, 26.0), z_end)
        hole = next(((a, b) for a, b in skip if a < z1 and b > z), None)
        if hole is not None and hole[0] <= z + 1.0:
            z, corner = hole[1], True
            continue
        if not corner and rng.random() < 0.15 and z > NEAR + 2:
            z += rng.uniform(2.0, 6.0)  # a gap between buildings
            continue
        z1 = min(z1, hole[0]) if hole else z1
        x = line((z + z1) / 2) + side * rng.uniform(0.0, 0.5)
        height = rng.uniform(7.0, 24.0)
        colour = jitter(rng, FACADE_COLOURS[int(rng.integers(len(FACADE_COLOURS)))])
        seed = int(rng.integers(1 << 30))
        walls.append(wall_x(L.BUILDING, "facade", x, z, z1, 0.0, height, colour, seed))
        if z > NEAR + 0.5:
            depth = 70.0 if corner else rng.uniform(8.0, 15.0)
            walls.append(wall_z(L.BUILDING, "facade", z, x, x + side * depth, 0.0, height, colour, seed))
        blocks.append((z, z1, x, height))
        z, corner = z1, False
    walls.sort(key=lambda part: -float(part.points[:, 2].min()))  # far first: near walls hide far ones
    return walls, blocks


def skyline(rng: np.random.Generator, camera: Camera, low: float = 8.0, high: float = 35.0) -> list[Part]:
    """Distant buildings across the whole view at ``FAR``: they close the end of the street."""
    half = camera.lateral_extent(FAR) * 1.1
    parts = []
    x = -half
    while x < half:
        width = rng.uniform(8.0, 25.0)
        colour = jitter(rng, (0.62, 0.63, 0.66), 0.1)
        parts.append(
            wall_z(
                L.BUILDING,
                "backdrop",
                FAR,
                x,
                x + width,
                0.0,
                rng.uniform(low, high),
                colour,
                int(rng.integers(1 << 30)),
            )
        )
        x += width
    return parts


def treeline(rng: np.random.Generator, camera: Camera, depth: float = FAR, height: float = 12.0) -> Part:
    """A forest edge at ``depth``: a lumpy band of vegetation across the view."""
    half = camera.lateral_extent(depth) * 1.2
    x = np.linspace(-half, half, 60)
    top = height * (0.75 + 0.25 * rng.random(60)) + 3.0 * np.sin(x / rng.uniform(6, 14) + rng.uniform(0, 6))
    points = np.concatenate((np.column_stack((x, top)), [[half, 0.0], [-half, 0.0]]))
    xyz = np.column_stack((points[:, 0], points[:, 1], np.full(len(points), depth)))
    colour = jitter(rng, (0.17, 0.27, 0.14), 0.1)
    return Part(L.VEGETATION, "foliage", xyz, colour, ("z", depth), seed=int(rng.integers(1 << 30)))


def mountains(rng: np.random.Generator, camera: Camera, snowy: bool) -> Part:
    """A far mountain ridge, drawn first, behind everything else."""
    depth = 3000.0
    half = camera.lateral_extent(depth) * 1.2
    x = np.linspace(-half, half, 40)
    ridge = np.cumsum(rng.normal(0.0, 45.0, 40))
    top = 150.0 + 120.0 * rng.random() + ridge - ridge.mean()
    points = np.concatenate((np.column_stack((x, np.maximum(top, 40.0))), [[half, 0.0], [-half, 0.0]]))
    xyz = np.column_stack((points[:, 0], points[:, 1], np.full(len(points), depth)))
    colour = (0.78, 0.80, 0.86) if snowy else jitter(rng, (0.42, 0.46, 0.52), 0.08)
    return Part(L.MOUNTAIN, "mountain", xyz, colour, ("z", depth), seed=int(rng.integers(1 << 30)))


def lights_along(
    rng: np.random.Generator,
    line: Callable[[float], float],
    arm: float,
    z0: float,
    z1: float,
    avoid: Sequence[tuple[float, float]] = (),
) -> list[Thing]:
    """Street lights every 18-30 m along ``X = line(z)``, their arms reaching ``arm``."""
    things = []
    z = z0 + rng.uniform(0.0, 10.0)
    while z < z1:
        if not any(a - 1 < z < b + 1 for a, b in avoid):
            things.append(objects.street_light(rng, line(z), z, arm))
        z += rng.uniform(18.0, 30.0)
    return things


def trees_along(
    rng: np.random.Generator,
    line: Callable[[float], float],
    z0: float,
    z1: float,
    spacing: tuple[float, float] = (7.0, 11.0),
    avoid: Sequence[tuple[float, float]] = (),
) -> list[Thing]:
    """A row of trees along ``X = line(z)``."""
    things = []
    z = z0 + rng.uniform(0.0, spacing[0])
    while z < z1:
        if not any(a - 2 < z < b + 2 for a, b in avoid):
            things.append(objects.tree(rng, line(z) + rng.uniform(-0.2, 0.2), z))
        z += rng.uniform(*spacing)
    return things


def base_ground(label: int, kind: str, colour: Colour) -> list[Part]:
    """Ground under everything, out to the backdrop, so no gap shows sky below the horizon."""
    xz = np.array([[-400.0, NEAR], [400.0, NEAR], [400.0, FAR + 1], [-400.0, FAR + 1]])
    return [ground(label, kind, xz, colour)]
