"""A pedestrian square with a terrace: stairs up the middle, a ramp beside them.

The scene that separates embodiments most: people and legged robots take the stairs,
wheeled robots must use the ramp. Steps are drawn as alternating risers (Wall) and treads
(Curb): Mapillary Vistas has no stairs label, and that is what segmenters tend to output.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

import synthetic.labels as L
import synthetic.objects as objects
from synthetic.camera import NEAR, Camera
from synthetic.layout import WALKERS, Layout, Task
from synthetic.primitives import Colour, Part, Thing, ground, jitter, shade, wall_z
from synthetic.scenery import FACADE_COLOURS, FAR, facade_row, lights_along, skyline
from synthetic.streets import SIDEWALK_COLOURS

FAR_X = 80.0  # metres: the square and the terrace wall reach beyond the view on both sides


@dataclass(frozen=True)
class Terrace:
    """Dimensions in metres: the terrace wall at depth ``z``, stairs and ramp up to ``rise``."""

    rise: float
    z: float
    steps: int
    run: float  # depth of one step
    stairs_x: float  # centre of the stairs
    stairs_width: float
    ramp: tuple[float, float]  # X range
    ramp_length: float
    toward: float  # +1 if the ramp is right of the stairs, -1 if left

    @classmethod
    def random(cls, rng: np.random.Generator, camera: Camera) -> Terrace:
        # Low enough below the eye that the terrace itself shows, not just its front wall.
        rise = rng.uniform(0.45, min(1.0, camera.eye_height - 0.6))
        steps = max(3, round(rise / 0.15))
        run = rng.uniform(0.3, 0.38)
        ramp_length = rise * rng.uniform(6.0, 8.0)
        z = max(ramp_length + rng.uniform(4.0, 7.0), steps * run + rng.uniform(5.0, 9.0))
        # The ramp starts nearer than the stairs, so it goes near the view centre to stay in view.
        toward = -1.0 if rng.random() < 0.5 else 1.0
        ramp_width = rng.uniform(1.8, 2.6)
        ramp_mid = toward * rng.uniform(0.2, 1.6)
        ramp = (ramp_mid - ramp_width / 2, ramp_mid + ramp_width / 2)
        width = rng.uniform(3.0, 6.0)
        inner = ramp[0] if toward > 0 else ramp[1]  # the ramp edge facing the stairs
        stairs_x = inner - toward * (rng.uniform(0.8, 2.0) + width / 2)
        return cls(rise, z, steps, run, stairs_x, width, ramp, ramp_length, toward)


def plaza_layout(rng: np.random.Generator, camera: Camera, lighting: str, weather: str) -> Layout:
    """A square in front of a terrace; the task is to get onto the terrace, right above the stairs."""
    pave = jitter(rng, SIDEWALK_COLOURS[int(rng.integers(len(SIDEWALK_COLOURS)))], 0.05)
    t = Terrace.random(rng, camera)
    low = np.array([[-FAR_X, NEAR], [FAR_X, NEAR], [FAR_X, t.z], [-FAR_X, t.z]])
    high = np.array([[-FAR_X, t.z], [FAR_X, t.z], [FAR_X, FAR], [-FAR_X, FAR]])
    ground_parts = [
        ground(L.PEDESTRIAN_AREA, "paving", low, pave, seed=1),
        ground(L.PEDESTRIAN_AREA, "paving", high, pave, level=t.rise, seed=2),
    ]
    concrete = jitter(rng, (0.62, 0.61, 0.58), 0.05)
    walls = skyline(rng, camera) + _back_buildings(rng, camera, t.z, t.rise)
    walls.append(wall_z(L.WALL, "wall", t.z, -FAR_X, FAR_X, 0.0, t.rise, concrete))
    for side in (-1, 1):
        if rng.random() < 0.6:
            walls += facade_row(rng, side, _constant(side * rng.uniform(8.0, 13.0)), NEAR, t.z - 0.5)[0]
    things = [
        Thing(t.z - t.steps * t.run, _stairs(t, concrete)),
        Thing(t.z - t.ramp_length, _ramp(t, shade(concrete, 1.08), concrete)),
    ]
    things += _furniture(rng, camera, t.z, t.rise)
    goal_x = t.stairs_x + rng.uniform(-0.3, 0.3) * t.stairs_width  # straight up the stairs: wheels must detour
    goal = (float(goal_x), float(t.rise), float(t.z + rng.uniform(2.0, 6.0)))
    task = Task(
        "stairs",
        "Goal-directed",
        ["Stairs", "Geometric Terrain"],
        {e: goal for e in WALKERS},
        {"side": "left" if t.toward < 0 else "right"},
    )
    return Layout(
        camera,
        "Urban",
        "Structured",
        lighting,
        weather,
        ground_parts,
        walls,
        things,
        task,
        "a pedestrian square with a raised terrace",
        ["stairs up to the terrace", "a ramp beside them"],
    )


def _stairs(t: Terrace, colour: Colour) -> list[Part]:
    """Treads and risers from the top step down, so nearer steps are drawn over farther ones."""
    x0, x1 = t.stairs_x - t.stairs_width / 2, t.stairs_x + t.stairs_width / 2
    z_top, rise, steps, run = t.z, t.rise, t.steps, t.run
    z0, h = z_top - steps * run, rise / steps
    parts: list[Part] = []
    for side_x in (x0, x1):
        if side_x * (1 if side_x == x0 else -1) > 0:  # only the cheek wall turned to the camera
            cheek = np.array([[side_x, 0.0, z0], [side_x, 0.0, z_top], [side_x, rise, z_top]])
            parts.append(Part(L.WALL, "wall", cheek, colour, ("x", side_x)))
    for k in reversed(range(steps)):
        za, zb = z0 + k * run, z0 + (k + 1) * run
        level = (k + 1) * h
        tread = np.array([[x0, level, za], [x1, level, za], [x1, level, zb], [x0, level, zb]])
        parts.append(Part(L.CURB, "tread", tread, colour, ("y", level)))
        parts.append(wall_z(L.WALL, "riser", za, x0, x1, k * h, level, colour))
    return parts


def _ramp(t: Terrace, surface: Colour, colour: Colour) -> list[Part]:
    """A straight ramp up to the terrace, a low side wall and a railing on its outer edge."""
    x0, x1 = t.ramp
    z_top, rise, z0 = t.z, t.rise, t.z - t.ramp_length
    outer = x1 if t.toward > 0 else x0
    parts = []
    seen = x1 if x1 < 0 else (x0 if x0 > 0 else None)  # the side wall turned to the camera
    if seen is not None:
        side = np.array([[seen, 0.0, z0], [seen, 0.0, z_top], [seen, rise, z_top]])
        parts.append(Part(L.WALL, "wall", side, colour, ("x", seen)))
    top = np.array([[x0, 0.0, z0], [x1, 0.0, z0], [x1, rise, z_top], [x0, rise, z_top]])
    parts.append(Part(L.PEDESTRIAN_AREA, "ramp", top, surface, ("y", rise / 2)))
    rail = np.array([[outer, 0.0, z0], [outer, rise, z_top], [outer, rise + 0.95, z_top], [outer, 0.95, z0]])
    parts.append(Part(L.FENCE, "fence", rail, (0.35, 0.36, 0.38), ("x", outer)))
    return parts


def _back_buildings(rng: np.random.Generator, camera: Camera, z_wall: float, rise: float) -> list[Part]:
    """Buildings closing the terrace, standing on its level."""
    z = z_wall + rng.uniform(14.0, 30.0)
    half = camera.lateral_extent(z) * 1.2
    parts, x = [], -half
    while x < half:
        w = rng.uniform(10.0, 22.0)
        colour = jitter(rng, FACADE_COLOURS[int(rng.integers(len(FACADE_COLOURS)))])
        parts.append(
            wall_z(
                L.BUILDING,
                "facade",
                z + rng.uniform(0, 3),
                x,
                x + w,
                rise,
                rise + rng.uniform(8, 20),
                colour,
                int(rng.integers(1 << 30)),
            )
        )
        x += w
    parts.sort(key=lambda p: -float(p.points[0, 2]))
    return parts


def _furniture(rng: np.random.Generator, camera: Camera, z_wall: float, rise: float) -> list[Thing]:
    """Lamps and planted trees on the lower square, people and benches on the terrace."""
    things = lights_along(rng, _constant(-6.5), 1.2, 3.0, z_wall - 1.0) if rng.random() < 0.6 else []
    for _ in range(int(rng.integers(0, 3))):
        z = z_wall + rng.uniform(3.0, 12.0)
        person = objects.person(rng, rng.uniform(-6, 6), z)
        things.append(Thing(z, [_lift(p, rise) for p in person.parts]))
    for _ in range(int(rng.integers(0, 2))):
        x, z = rng.choice([-1, 1]) * rng.uniform(5.0, 8.0), rng.uniform(4.0, z_wall - 2.0)
        things.append(objects.tree(rng, x, z, rng.uniform(4.0, 7.0)))
    return things


def _constant(x: float) -> Callable[[float], float]:
    return lambda z: x


def _lift(part: Part, dy: float) -> Part:
    points = part.points + np.array([0.0, dy, 0.0])
    return Part(part.label, part.kind, points, part.colour, part.plane, part.origin, part.seed)
