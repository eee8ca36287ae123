"""Green scenes: a dirt track through the countryside, a country road, a city park."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

import synthetic.labels as L
import synthetic.objects as objects
from synthetic.camera import NEAR, Camera
from synthetic.layout import EMBODIMENTS, WALKERS, Layout, Task
from synthetic.primitives import Part, Thing, band, ground, jitter, strip, wall_x
from synthetic.scenery import FACADE_COLOURS, FAR, base_ground, mountains, skyline, treeline

GRASS = (0.34, 0.45, 0.21)
SNOW = (0.88, 0.9, 0.94)


def _meadow(rng: np.random.Generator, snowy: bool) -> list[Part]:
    label = L.SNOW if snowy else L.TERRAIN
    return base_ground(label, "grass", SNOW if snowy else jitter(rng, GRASS, 0.12))


def _constant(x: float) -> Callable[[NDArray[np.float64]], NDArray[np.float64]]:
    return lambda z: np.full_like(z, x)


def _winding(rng: np.random.Generator, sway: float):  # noqa: ANN202 - returns the centre line X(z)
    """A path centre line through the camera position that wanders ``sway`` metres sideways."""
    period, phase, bend = rng.uniform(18.0, 40.0), rng.uniform(0, 2 * np.pi), rng.uniform(-0.004, 0.004)
    return lambda z: sway * (np.sin(np.asarray(z) / period + phase) - np.sin(phase)) + bend * np.asarray(z) ** 2


def _scatter_trees(rng: np.random.Generator, centre, clear: float, count: int, spread: float = 18.0) -> list[Thing]:
    """Trees around the path, never on it (``clear`` metres either side of ``centre(z)``)."""
    things = []
    for _ in range(count):
        z = rng.uniform(4.0, 70.0)
        offset = rng.uniform(clear + 1.0, clear + spread) * rng.choice([-1, 1])
        things.append(objects.tree(rng, float(centre(z)) + offset, z))
    return things


def trail_layout(rng: np.random.Generator, camera: Camera, lighting: str, weather: str) -> Layout:
    """A dirt track across meadows towards a forest, sometimes with mountains behind."""
    snowy = weather == "Snowy"
    centre = _winding(rng, rng.uniform(1.0, 4.0))
    width = rng.uniform(1.4, 2.6)
    dirt = jitter(rng, (0.52, 0.43, 0.32), 0.08)
    track = band(L.SAND, "dirt", _offset(centre, -width / 2), _offset(centre, width / 2), NEAR, FAR, dirt)
    ground_parts = _meadow(rng, snowy) + [track]
    features = ["a dirt track", "meadows"]
    if weather == "Rainy" and rng.random() < 0.7:
        z = rng.uniform(6.0, 14.0)
        angle = np.linspace(0, 2 * np.pi, 18, endpoint=False)
        xz = np.column_stack((centre(z) + width * 0.35 * np.cos(angle), z + rng.uniform(0.8, 1.6) * np.sin(angle)))
        ground_parts.append(ground(L.WATER, "water", xz, (0.32, 0.36, 0.42)))
        features.append("a puddle on the track")
    walls = ([mountains(rng, camera, snowy)] if rng.random() < 0.6 else []) + [treeline(rng, camera)]
    things = _scatter_trees(rng, centre, width / 2, int(rng.integers(4, 14)))
    if rng.random() < 0.4:
        side = rng.choice([-1, 1])
        for z0 in np.arange(2.0, 50.0, 6.0):
            x = float(centre(z0 + 3)) + side * (width / 2 + 1.2)
            walls.append(wall_x(L.FENCE, "fence", x, z0, z0 + 6.0, 0.0, 1.1, (0.4, 0.32, 0.24), int(z0)))
        features.append("a wooden fence")
    z_goal = rng.uniform(22.0, 45.0)
    goal = (float(centre(z_goal)), 0.0, float(z_goal))
    categories = ["Semantic Terrain"] + (["Geometric Terrain"] if rng.random() < 0.3 else [])
    task = Task("trail", "Directional", categories, {e: goal for e in EMBODIMENTS}, {"where": "track"})
    return Layout(
        camera,
        "Rural",
        "Natural",
        lighting,
        weather,
        ground_parts,
        walls,
        things,
        task,
        "a dirt track in the countryside",
        features,
    )


def farm_layout(rng: np.random.Generator, camera: Camera, lighting: str, weather: str) -> Layout:
    """A country road seen from its right edge, with a farmhouse and its drive on the right."""
    snowy = weather == "Snowy"
    width = rng.uniform(5.0, 6.5)
    right = rng.uniform(0.3, 0.9)  # the camera stands on the road, just inside its right edge
    z_house = rng.uniform(18.0, 32.0)
    house_x = right + rng.uniform(7.0, 10.0)
    drive = np.array([[right - 0.5, z_house - 3.0], [right + 2.0, z_house - 2.0], [house_x - 0.4, z_house - 1.0]])
    ground_parts = _meadow(rng, snowy) + _country_road(rng, right, width)
    ground_parts.append(strip(L.SAND, "dirt", drive, 3.0, (0.5, 0.43, 0.33)))
    walls = [mountains(rng, camera, snowy)] if rng.random() < 0.5 else []
    walls.append(treeline(rng, camera, rng.uniform(70.0, FAR)))
    things = [objects.utility_pole(rng, right - width - 1.5, z) for z in np.arange(rng.uniform(3, 12), 90.0, 30.0)]
    trees = _scatter_trees(rng, _constant(right - width / 2), width / 2 + 1.0, int(rng.integers(3, 9)))
    # No tree in front of the house or on its drive.
    things += [t for t in trees if not (z_house - 8 < t.depth < z_house + 10 and t.parts[0].points[0, 0] > right)]
    things.append(_farmhouse(rng, house_x, z_house - 2.5))
    if rng.random() < 0.5:
        goal = (float(house_x - 1.2), 0.0, float(z_house - 1.0))
        task = Task("farm", "Goal-directed", ["Semantic Terrain"], {e: goal for e in EMBODIMENTS}, {"side": "right"})
    else:
        z = rng.uniform(25.0, 45.0)
        goals = {e: (float(right - 0.8), 0.0, float(z)) for e in WALKERS}
        goals["Bicycle"] = (float(right - 1.3), 0.0, float(z))
        task = Task("follow", "Directional", ["Semantic Terrain"], goals, {"where": "road"})
    features = ["a farmhouse on the right", "utility poles"]
    return Layout(
        camera, "Rural", "Natural", lighting, weather, ground_parts, walls, things, task, "a country road", features
    )


def _country_road(rng: np.random.Generator, right: float, width: float) -> list[Part]:
    """Asphalt between ``right - width`` and ``right`` with a painted edge line on each side."""
    asphalt = jitter(rng, (0.34, 0.34, 0.35), 0.04)
    parts = [band(L.ROAD, "asphalt", _constant(right - width), _constant(right), NEAR, FAR, asphalt)]
    for a in (right - width + 0.2, right - 0.32):
        parts.append(
            band(L.LANE_MARKING, "paint", _constant(a), _constant(a + 0.12), NEAR, FAR, (0.85, 0.85, 0.82), steps=4)
        )
    return parts


def _farmhouse(rng: np.random.Generator, x: float, z: float) -> Thing:
    """A gabled house: its side along the road at ``X = x`` and its gable end facing the camera."""
    colour = jitter(rng, FACADE_COLOURS[int(rng.integers(len(FACADE_COLOURS)))])
    height = rng.uniform(6.0, 9.0)
    gable = np.array([[x, 0, z], [x + 10, 0, z], [x + 10, height, z], [x + 5, height + 3.5, z], [x, height, z]])
    side = wall_x(L.BUILDING, "facade", x, z, z + 11.5, 0.0, height, colour, 7)
    return Thing(z, [side, Part(L.BUILDING, "facade", gable, colour, ("z", z), origin=x, seed=11)])


def park_layout(rng: np.random.Generator, camera: Camera, lighting: str, weather: str) -> Layout:
    """A paved path through a city park with benches, lamps, trees and people."""
    centre = _winding(rng, rng.uniform(0.5, 2.5))
    width = rng.uniform(2.5, 4.0)
    pave = jitter(rng, (0.6, 0.58, 0.54), 0.06)
    path = band(L.PEDESTRIAN_AREA, "paving", _offset(centre, -width / 2), _offset(centre, width / 2), NEAR, FAR, pave)
    walls = skyline(rng, camera, 15.0, 45.0) + [treeline(rng, camera, rng.uniform(60.0, 100.0), 10.0)]
    things = _scatter_trees(rng, centre, width / 2 + 0.5, int(rng.integers(6, 16)), 14.0)
    side = int(rng.choice([-1, 1]))
    z_bench = rng.uniform(9.0, 22.0)
    things.append(objects.bench(rng, float(centre(z_bench)) + side * (width / 2 + 0.6), z_bench, camera.eye_height))
    for z in np.arange(rng.uniform(4, 10), 60.0, rng.uniform(14, 22)):
        things.append(objects.street_light(rng, float(centre(z)) - side * (width / 2 + 0.4), float(z), 0.0))
    categories = ["Semantic Terrain"]
    for _ in range(int(rng.integers(0, 3))):
        z = rng.uniform(7.0, 30.0)
        things.append(objects.person(rng, float(centre(z)) + rng.uniform(-0.6, 0.6) * width / 2, z))
        if z < z_bench and "Dynamic Obstacle" not in categories:
            categories.append("Dynamic Obstacle")
    if rng.random() < 0.55:
        goal = (float(centre(z_bench)) + side * (width / 2 - 0.5), 0.0, float(z_bench - 0.6))
        task = Task(
            "bench", "Goal-directed", categories, {e: goal for e in WALKERS}, {"side": "left" if side < 0 else "right"}
        )
    else:
        z = rng.uniform(25.0, 45.0)
        goals = {e: (float(centre(z)), 0.0, float(z)) for e in EMBODIMENTS}
        task = Task("trail", "Directional", categories, goals, {"where": "path"})
    ground_parts = _meadow(rng, weather == "Snowy") + [path]
    return Layout(
        camera,
        "Urban",
        "Natural",
        lighting,
        weather,
        ground_parts,
        walls,
        things,
        task,
        "a path through a city park",
        ["benches", "trees", "street lamps"],
    )


def _offset(
    centre: Callable[[NDArray[np.float64]], NDArray[np.float64]], by: float
) -> Callable[[NDArray[np.float64]], NDArray[np.float64]]:
    return lambda z: centre(z) + by
