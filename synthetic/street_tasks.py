"""Navigation tasks on a street: follow it, cross it, reach a door, turn at the junction.

Each task returns world goals per embodiment: pedestrians and robots end on a sidewalk,
the bicycle on the road or bike lane. Obstacles the task is about (a person or a barrier
on the sidewalk ahead) are added here, so the category list can name them.
"""

from __future__ import annotations

import numpy as np

import synthetic.labels as L
import synthetic.objects as objects
from synthetic.camera import Camera
from synthetic.layout import WALKERS, Task
from synthetic.primitives import Part, Thing, wall_x
from synthetic.streets import Band, Street

Goal = tuple[float, float, float]


def street_task(
    rng: np.random.Generator, street: Street, camera: Camera, blocks: dict[int, list]
) -> tuple[Task, list[Part], list[Thing]]:
    """Pick a task the street allows; returns it with any walls (doors) and things it adds."""
    home = _home(street)
    side = -1 if home.name.endswith("_l") else 1
    on_walk = home.name.startswith("sidewalk")
    choices, weights = ["follow"], [1.0]
    if street.crossing and on_walk:
        choices.append("cross")
        weights.append(1.3)
    doors = [b for b in blocks.get(side, []) if b[0] < 26.0 and b[1] > 10.0]
    if on_walk and doors:
        choices.append("entrance")
        weights.append(1.0)
    if street.junction:
        choices.append("turn")
        weights.append(1.2)
    kind = choices[int(rng.choice(len(choices), p=np.array(weights) / sum(weights)))]
    if kind == "cross":
        return _cross(rng, street, camera, side), [], []
    if kind == "entrance":
        return _entrance(rng, street, camera, side, doors)
    if kind == "turn":
        return _turn(rng, street, camera, side, blocks), [], []
    return _follow(rng, street, camera, home, on_walk)


def _home(street: Street) -> Band:
    """The band the camera stands in."""
    u = -street.shift
    return next(b for b in street.bands if b.u0 <= u <= b.u1)


def _goal(street: Street, camera: Camera, u: float, z: float) -> Goal:
    """World point at street position ``(u, z)``, pulled inside the view if needed."""
    x = float(street.x(u, z))
    limit = 0.88 * camera.lateral_extent(z)
    return (float(np.clip(x, -limit, limit)), 0.0, float(z))


def _bike_lane(street: Street) -> Band:
    return street.find("bike_r") or street.lanes()[-1]


def _follow(
    rng: np.random.Generator, street: Street, camera: Camera, home: Band, on_walk: bool
) -> tuple[Task, list[Part], list[Thing]]:
    z = rng.uniform(22.0, 42.0)
    categories = ["Semantic Terrain"]
    if street.junction and z > street.junction[0] - street.corner - 2.0:
        if rng.random() < 0.5:
            z = street.junction[0] - street.corner - rng.uniform(1.5, 3.0)
        else:
            z = street.junction[1] + street.corner + rng.uniform(3.0, 10.0)
            categories.append("Social Norms")
    # From the bike lane (a cyclist's photo) the task is the cyclist's alone.
    goals = {e: _goal(street, camera, home.mid, z) for e in WALKERS} if on_walk else {}
    goals["Bicycle"] = _goal(street, camera, _bike_lane(street).mid, z)
    things: list[Thing] = []
    if on_walk and rng.random() < 0.45:
        things, category = _obstacle(rng, street, home)
        categories.append(category)
    where = "sidewalk" if on_walk else ("bike lane" if home.name == "bike_r" else "street")
    return Task("follow", "Directional", categories, goals, {"where": where}), [], things


def _obstacle(rng: np.random.Generator, street: Street, home: Band) -> tuple[list[Thing], str]:
    """A person or a barrier on the sidewalk a few metres ahead of the camera."""
    z = rng.uniform(5.0, 9.0)
    u = float(np.clip(-street.shift + rng.uniform(-0.4, 0.4), home.u0 + 0.4, home.u1 - 0.4))
    if rng.random() < 0.5:
        return [objects.person(rng, float(street.x(u, z)), z)], "Dynamic Obstacle"
    width = min(1.6, (home.u1 - home.u0) * 0.5)
    x0 = float(street.x(u - width / 2, z))
    return [objects.barrier(rng, x0, x0 + width, z)], "Stationary Obstacle"


def _cross(rng: np.random.Generator, street: Street, camera: Camera, side: int) -> Task:
    other = street.sidewalk(-side)
    a, b = street.crossing  # type: ignore[misc]
    z = (a + b) / 2 + rng.uniform(-0.4, 0.4)
    u = other.u1 - 1.0 if side > 0 else other.u0 + 1.0  # just past the curb cut
    goals = {e: _goal(street, camera, u, z) for e in WALKERS}
    detail = {"side": "left" if side > 0 else "right"}
    return Task("cross", "Goal-directed", ["Semantic Terrain", "Social Norms"], goals, detail)


def _entrance(
    rng: np.random.Generator, street: Street, camera: Camera, side: int, doors: list
) -> tuple[Task, list[Part], list[Thing]]:
    z0, z1, x, _ = doors[int(rng.integers(len(doors)))]
    z = rng.uniform(max(z0 + 1.5, 10.0), max(min(z1 - 1.5, 26.0), max(z0 + 1.5, 10.0) + 0.1))
    colour = ((0.25, 0.17, 0.1), (0.15, 0.18, 0.2), (0.45, 0.12, 0.1))[int(rng.integers(3))]
    door = wall_x(L.BUILDING, "door", x - side * 0.03, z - 0.8, z + 0.8, 0.0, 2.5, colour)
    limit = 0.88 * camera.lateral_extent(z)
    goal = (float(np.clip(x - side * 0.9, -limit, limit)), 0.0, float(z))
    categories = ["Semantic Terrain"]
    things: list[Thing] = []
    if rng.random() < 0.3:
        home = _home(street)
        things, category = _obstacle(rng, street, home)
        categories.append(category)
    task = Task(
        "entrance", "Goal-directed", categories, {e: goal for e in WALKERS}, {"side": "right" if side > 0 else "left"}
    )
    return task, [door], things


def _turn(rng: np.random.Generator, street: Street, camera: Camera, side: int, blocks: dict[int, list]) -> Task:
    """Turn into the cross street: walkers end on a corner sidewalk, the bicycle in the cross street.

    The goal is where the camera can see it: past the corner building, inside the view.
    If the near corner is hidden the walkers' goal moves to the far corner (across the
    cross street), as an annotator would pick a visible point.
    """
    z0, z1 = street.junction  # type: ignore[misc]
    turn = -1 if rng.random() < 0.5 else 1
    wanted = rng.uniform(3.0, 9.0)
    near = [b for b in blocks.get(turn, []) if b[1] <= z0]

    def room(z: float) -> float:
        """Metres past the sidewalk's outer edge that are in view at depth ``z``."""
        edge = float(street.x(street.edge(turn), z)) * turn
        seen = abs(near[-1][2]) * z / near[-1][1] if near else np.inf
        return min(seen, 0.85 * camera.lateral_extent(z)) - edge - 0.4

    def goal(z: float) -> Goal:
        return _goal(street, camera, street.edge(turn) + turn * min(wanted, room(z)), z)

    near_corner, far_corner = z0 - street.corner * 0.45, z1 + street.corner * 0.5
    on_foot = goal(near_corner) if room(near_corner) >= 1.5 else goal(far_corner)
    ride = z0 + (z1 - z0) * (0.28 if turn > 0 else 0.72)
    goals = {e: on_foot for e in WALKERS}
    goals["Bicycle"] = goal(ride)
    categories = ["Semantic Terrain"] + (["Social Norms"] if turn != side or on_foot[2] > z1 else [])
    return Task("turn", "Directional", categories, goals, {"side": "right" if turn > 0 else "left"})
