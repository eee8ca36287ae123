"""An urban street scene: the street, its buildings, traffic, people and a task."""

from __future__ import annotations

import numpy as np

import synthetic.labels as L
import synthetic.objects as objects
from synthetic.camera import NEAR, Camera
from synthetic.layout import Layout
from synthetic.primitives import Part, Thing, band, wall_x
from synthetic.scenery import FAR, base_ground, facade_row, lights_along, skyline, trees_along
from synthetic.street_tasks import street_task
from synthetic.streets import Street, at_u, cross_section, street_ground


def street_layout(rng: np.random.Generator, camera: Camera, lighting: str, weather: str) -> Layout:
    """A random street seen from a sidewalk (mostly) or from the bike lane."""
    terrain = L.SNOW if weather == "Snowy" else L.TERRAIN
    street = _street(rng, terrain)
    ground = base_ground(L.SIDEWALK, "paving", street.bands[0].colour) + street_ground(rng, street)
    walls, blocks, sides = _buildings(rng, street, terrain, ground)
    things = _traffic(rng, street, camera) + _furniture(rng, street, camera, sides)
    task, doors, extra = street_task(rng, street, camera, blocks)
    walls += doors
    things += extra
    lanes = len(street.lanes())
    scene = {1: "a one-lane street", 2: "a two-lane street", 3: "a three-lane avenue", 4: "a wide avenue"}[lanes]
    features = _features(street, things, sides)
    return Layout(
        camera,
        "Urban",
        "Structured",
        lighting,
        weather,
        ground,
        skyline(rng, camera) + walls,
        things,
        task,
        scene,
        features,
    )


def _street(rng: np.random.Generator, terrain: int) -> Street:
    bands = cross_section(rng, terrain)
    names = [b.name for b in bands]
    r = rng.random()
    if r < 0.1 and "bike_r" in names:
        where = "bike_r"  # a cyclist's view
    elif r < 0.75:
        where = "sidewalk_r"
    else:
        where = "sidewalk_l"
    home = bands[names.index(where)]
    width = home.u1 - home.u0
    u_cam = rng.uniform(home.u0 + 0.3 * width, home.u1 - 0.3 * width)
    junction, crossing, corner, bend = None, None, rng.uniform(2.5, 4.0), 0.0
    if rng.random() < 0.4:
        z0 = rng.uniform(14.0, 28.0)
        junction = (z0, z0 + rng.uniform(8.0, 12.0))
        if rng.random() < 0.85:
            crossing = (z0 - corner + 0.3, z0 - 0.3)
    else:
        bend = rng.uniform(-0.0025, 0.0025) if rng.random() < 0.6 else 0.0
        if rng.random() < 0.5:
            zx = rng.uniform(7.0, 18.0)
            crossing = (zx, zx + rng.uniform(3.0, 4.5))
    return Street(bands, -u_cam, bend, crossing, junction, corner, bool(rng.random() < 0.8))


def _buildings(
    rng: np.random.Generator, street: Street, terrain: int, ground: list[Part]
) -> tuple[list[Part], dict[int, list], dict[int, bool]]:
    """Facades on each side (85 %), or a fence with trees and a lawn behind it."""
    walls: list[Part] = []
    blocks: dict[int, list] = {}
    sides: dict[int, bool] = {}
    for side in (-1, 1):
        edge = street.edge(side)
        sides[side] = bool(rng.random() < 0.85)
        skip = []
        if street.junction:  # corners are sometimes open squares, which shows more of the cross street
            opening = rng.uniform(4.0, 12.0)
            skip = [(street.junction[0] - street.corner - opening, street.junction[1] + street.corner)]
        if sides[side]:
            row, blocks[side] = facade_row(
                rng, side, street.along(edge), max(NEAR, rng.uniform(-3.0, 3.0)), FAR - 8.0, skip
            )
            walls += row
            continue
        blocks[side] = []
        outer = edge + side * 60.0
        lo, hi = sorted((edge, outer))
        grass = (0.88, 0.9, 0.93) if terrain == L.SNOW else (0.3, 0.42, 0.18)
        ground.insert(1, band(terrain, "grass", at_u(street, lo), at_u(street, hi), NEAR, FAR, grass))
        height = rng.uniform(1.0, 1.8)
        for a, b in _pieces(1.0, 70.0, skip):
            x = float(street.x(edge + side * 0.1, (a + b) / 2))
            walls.append(wall_x(L.FENCE, "fence", x, a, b, 0.0, height, (0.35, 0.36, 0.34), int(rng.integers(1 << 30))))
    return walls, blocks, sides


def _pieces(z0: float, z1: float, skip: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """``[z0, z1]`` minus the ``skip`` ranges, cut in pieces short enough to follow a bend."""
    cuts, z = [], z0
    while z < z1:
        end = min(z + 10.0, z1)
        hole = next(((a, b) for a, b in skip if a < end and b > z), None)
        if hole:
            if hole[0] > z:
                cuts.append((z, hole[0]))
            z = hole[1]
            continue
        cuts.append((z, end))
        z = end
    return cuts


def _traffic(rng: np.random.Generator, street: Street, camera: Camera) -> list[Thing]:
    """Parked cars, moving cars and sometimes a bus, clear of the crossings."""
    things = []
    keep_clear = street.open_ranges()
    for name in ("parking_l", "parking_r"):
        lane = street.find(name)
        z = rng.uniform(5.0, 9.0)
        while lane is not None and z < 70.0:
            if rng.random() < 0.75 and not any(a - 4.5 < z < b for a, b in keep_clear):
                things.append(objects.car(rng, float(street.x(lane.mid, z + 2)), z, camera.eye_height))
            z += rng.uniform(5.6, 7.5)
    for lane in street.lanes():
        if rng.random() < 0.4:
            z = rng.uniform(9.0, 60.0)
            if not any(a - 5 < z < b + 1 for a, b in keep_clear):
                things.append(objects.car(rng, float(street.x(lane.mid, z + 2)), z, camera.eye_height))
    if rng.random() < 0.12:
        lane = street.lanes()[-1]
        z = rng.uniform(14.0, 35.0)
        if not any(a - 13 < z < b + 1 for a, b in keep_clear):
            things.append(objects.bus(rng, float(street.x(lane.mid, z + 6)), z, camera.eye_height))
    return things


def _furniture(rng: np.random.Generator, street: Street, camera: Camera, sides: dict[int, bool]) -> list[Thing]:
    """Street lights, sign poles, trees on lawns, bins and benches, people on the sidewalks."""
    things: list[Thing] = []
    avoid = street.open_ranges()
    for side in (-1, 1):
        kerb = street.kerb(side)
        u_light = (kerb.u0 - 0.5) if side < 0 else (kerb.u1 + 0.5)
        if rng.random() < 0.7:
            things += lights_along(rng, street.along(u_light), -side * 1.8, 5.0, 90.0, avoid)
        lawn = street.find("lawn_l" if side < 0 else "lawn_r")
        if lawn is not None:
            things += trees_along(rng, street.along(lawn.mid), 4.0, 90.0, avoid=avoid)
        elif not sides[side]:
            things += trees_along(rng, street.along(street.edge(side) + side * 4.0), 3.0, 80.0, (5.0, 9.0), avoid)
        walk = street.sidewalk(side)
        for _ in range(int(rng.integers(0, 3))):
            z = rng.uniform(6.0, 40.0)
            u = rng.uniform(walk.u0 + 0.4, walk.u1 - 0.4)
            things.append(objects.person(rng, float(street.x(u, z)), z))
        if rng.random() < 0.4:
            z = rng.uniform(6.0, 30.0)
            things.append(objects.pole(rng, float(street.x(u_light, z)), z))
        if rng.random() < 0.35:
            z = rng.uniform(6.0, 30.0)
            u = street.edge(side) - side * 0.6
            make = objects.trash_can if rng.random() < 0.6 else objects.bench
            things.append(make(rng, float(street.x(u, z)), z, camera.eye_height))
    return things


def _features(street: Street, things: list[Thing], sides: dict[int, bool]) -> list[str]:
    """Phrases naming what the scene holds, for the context sentence."""
    labels = {p.label for t in things for p in t.parts}
    found = []
    if street.find("parking_l") or street.find("parking_r"):
        found.append("cars parked along the curb" if L.CAR in labels else "empty parking lanes")
    if street.find("bike_r"):
        found.append("a bike lane on the right")
    if street.crossing:
        found.append("a zebra crossing" if street.zebra else "a paved pedestrian crossing")
    if street.junction:
        found.append("an intersection ahead")
    if L.BUS in labels:
        found.append("a bus in traffic")
    if L.PERSON in labels:
        found.append("pedestrians")
    if not all(sides.values()):
        found.append("a fenced lawn with trees")
    return found
