"""Street furniture, vehicles, people and trees as ``Thing``s of world-space parts.

Sizes are typical real ones in metres, so objects look right next to each other at any
depth. Every function takes the ground position ``(x, z)`` of the object.
"""

from __future__ import annotations

import numpy as np

import synthetic.labels as L
from synthetic.primitives import Colour, Thing, box, ellipse, jitter, shade, wall_x, wall_z

CAR_COLOURS: tuple[Colour, ...] = (
    (0.85, 0.85, 0.86),
    (0.12, 0.12, 0.13),
    (0.55, 0.57, 0.60),
    (0.60, 0.10, 0.10),
    (0.12, 0.22, 0.45),
    (0.75, 0.72, 0.66),
    (0.20, 0.32, 0.25),
    (0.35, 0.36, 0.40),
    (0.90, 0.90, 0.92),
    (0.70, 0.45, 0.15),
)
CLOTH_COLOURS: tuple[Colour, ...] = (
    (0.15, 0.18, 0.30),
    (0.60, 0.12, 0.12),
    (0.85, 0.82, 0.75),
    (0.10, 0.10, 0.10),
    (0.30, 0.45, 0.30),
    (0.55, 0.45, 0.35),
    (0.80, 0.55, 0.20),
    (0.35, 0.35, 0.38),
    (0.25, 0.40, 0.65),
)
SKIN_COLOURS: tuple[Colour, ...] = ((0.92, 0.76, 0.62), (0.78, 0.58, 0.44), (0.55, 0.38, 0.26), (0.36, 0.24, 0.17))
METAL: Colour = (0.42, 0.43, 0.45)


def _pick(rng: np.random.Generator, colours: tuple[Colour, ...]) -> Colour:
    return jitter(rng, colours[int(rng.integers(len(colours)))])


def car(rng: np.random.Generator, x: float, z: float, eye: float, label: int = L.CAR) -> Thing:
    """A car seen from behind: body box, glass cabin, dark tyres; ``(x, z)`` is its rear centre."""
    body = _pick(rng, CAR_COLOURS)
    width, length = rng.uniform(1.7, 1.9), rng.uniform(3.9, 4.7)
    x0, x1 = x - width / 2, x + width / 2
    parts = box(
        label,
        ("body", "body", "body"),
        x0,
        x1,
        z,
        z + length,
        0.3,
        0.95,
        (shade(body, 1.1), shade(body, 0.8), body),
        eye,
        int(rng.integers(1 << 16)),
    )
    inset = 0.12
    parts += box(
        label,
        ("glass", "glass", "glass"),
        x0 + inset,
        x1 - inset,
        z + 0.9,
        z + length - 1.0,
        0.95,
        rng.uniform(1.4, 1.5),
        (shade(body, 1.05), (0.16, 0.18, 0.21), (0.14, 0.16, 0.19)),
        eye,
    )
    for wheel_x in (x0 + 0.35, x1 - 0.35):
        parts.append(wall_z(label, "tyre", z + 0.01, wheel_x - 0.25, wheel_x + 0.25, 0.0, 0.45, (0.06, 0.06, 0.06)))
    parts.append(wall_z(label, "lamp", z - 0.01, x0 + 0.1, x0 + 0.4, 0.7, 0.85, (0.75, 0.08, 0.06)))
    parts.append(wall_z(label, "lamp", z - 0.01, x1 - 0.4, x1 - 0.1, 0.7, 0.85, (0.75, 0.08, 0.06)))
    return Thing(z, parts)


def bus(rng: np.random.Generator, x: float, z: float, eye: float) -> Thing:
    """A city bus seen from behind, with a band of windows along its side."""
    paint = _pick(rng, ((0.15, 0.35, 0.70), (0.85, 0.75, 0.15), (0.80, 0.15, 0.12), (0.90, 0.90, 0.90)))
    x0, x1, length = x - 1.25, x + 1.25, rng.uniform(11.0, 13.0)
    parts = box(
        L.BUS,
        ("body", "body", "body"),
        x0,
        x1,
        z,
        z + length,
        0.3,
        3.1,
        (shade(paint, 1.1), shade(paint, 0.8), paint),
        eye,
    )
    side = x0 if x0 > 0 else x1
    parts.append(wall_x(L.BUS, "glass", side, z + 0.5, z + length - 0.5, 1.3, 2.7, (0.12, 0.14, 0.17)))
    parts.append(wall_z(L.BUS, "glass", z - 0.01, x0 + 0.2, x1 - 0.2, 1.6, 2.8, (0.10, 0.12, 0.15)))
    parts.append(wall_z(L.BUS, "tyre", z - 0.01, x0 + 0.1, x1 - 0.1, 0.0, 0.35, (0.05, 0.05, 0.05)))
    return Thing(z, parts)


def person(rng: np.random.Generator, x: float, z: float) -> Thing:
    """A standing pedestrian: legs, torso, arms and head, about 1.6-1.9 m tall."""
    tall = rng.uniform(1.6, 1.9)
    hip, shoulder, half = 0.47 * tall, 0.82 * tall, rng.uniform(0.19, 0.24)
    trousers, shirt, skin = _pick(rng, CLOTH_COLOURS), _pick(rng, CLOTH_COLOURS), _pick(rng, SKIN_COLOURS)
    parts = [
        wall_z(L.PERSON, "cloth", z, x - half * 0.85, x - 0.02, 0.0, hip, trousers),
        wall_z(L.PERSON, "cloth", z, x + 0.02, x + half * 0.85, 0.0, hip, trousers),
        wall_z(L.PERSON, "cloth", z, x - half, x + half, hip - 0.05, shoulder, shirt),
        wall_z(L.PERSON, "cloth", z, x - half - 0.08, x - half, hip, shoulder - 0.03, shade(shirt, 0.85)),
        wall_z(L.PERSON, "cloth", z, x + half, x + half + 0.08, hip, shoulder - 0.03, shade(shirt, 0.85)),
        ellipse(L.PERSON, "skin", (x, shoulder + 0.13 * tall / 1.75, z), 0.1, 0.13, skin),
        ellipse(
            L.PERSON,
            "hair",
            (x, shoulder + 0.18 * tall / 1.75, z - 0.01),
            0.1,
            0.07,
            _pick(rng, ((0.1, 0.08, 0.06), (0.35, 0.25, 0.15), (0.6, 0.5, 0.3))),
        ),
    ]
    return Thing(z, parts)


def tree(rng: np.random.Generator, x: float, z: float, height: float | None = None) -> Thing:
    """A deciduous or conifer tree: a trunk and a lumpy crown, all labelled vegetation."""
    height = height or rng.uniform(5.0, 11.0)
    green = jitter(rng, ((0.22, 0.36, 0.16), (0.28, 0.40, 0.18), (0.18, 0.30, 0.17))[int(rng.integers(3))], 0.1)
    trunk_h = height * rng.uniform(0.3, 0.45)
    parts = [wall_z(L.VEGETATION, "bark", z, x - 0.15, x + 0.15, 0.0, trunk_h + 0.5, (0.28, 0.22, 0.16))]
    crown = (height - trunk_h) / 2
    for k in range(3):
        dx, dy = rng.uniform(-0.35, 0.35) * crown, rng.uniform(-0.25, 0.2) * crown
        parts.append(
            ellipse(
                L.VEGETATION,
                "foliage",
                (x + dx, trunk_h + crown + dy, z - 0.01 * k),
                crown * rng.uniform(0.7, 0.95),
                crown * rng.uniform(0.8, 1.0),
                shade(green, 1 + 0.06 * k),
                seed=int(rng.integers(1 << 16)),
                wobble=rng.uniform(0.8, 1.1, 9),
            )
        )
    return Thing(z, parts)


def hedge(rng: np.random.Generator, x0: float, x1: float, z0: float, z1: float, eye: float) -> Thing:
    """A trimmed hedge (vegetation) along the ground rectangle ``[x0, x1] x [z0, z1]``."""
    green = jitter(rng, (0.20, 0.33, 0.15), 0.1)
    parts = box(
        L.VEGETATION,
        ("foliage", "foliage", "foliage"),
        x0,
        x1,
        z0,
        z1,
        0.0,
        rng.uniform(0.8, 1.4),
        (shade(green, 1.15), shade(green, 0.9), green),
        eye,
        int(rng.integers(1 << 16)),
    )
    return Thing(z0, parts)


def pole(rng: np.random.Generator, x: float, z: float, label: int = L.POLE, height: float = 3.2) -> Thing:
    """A thin metal pole; traffic-sign poles get a sign plate on top."""
    parts = [wall_z(label, "metal", z, x - 0.05, x + 0.05, 0.0, height, METAL)]
    if label == L.POLE:
        colour = ((0.1, 0.3, 0.7), (0.8, 0.1, 0.1), (0.95, 0.95, 0.95))[int(rng.integers(3))]
        parts.append(wall_z(L.TRAFFIC_SIGN_FRONT, "sign", z - 0.02, x - 0.3, x + 0.3, height - 0.6, height, colour))
    return Thing(z, parts)


def street_light(rng: np.random.Generator, x: float, z: float, arm: float) -> Thing:
    """A lamp post with an arm reaching ``arm`` metres sideways and a lamp head."""
    height = rng.uniform(5.5, 7.5)
    parts = [
        wall_z(L.STREET_LIGHT, "metal", z, x - 0.07, x + 0.07, 0.0, height, (0.30, 0.31, 0.33)),
        wall_z(L.STREET_LIGHT, "metal", z, min(x, x + arm), max(x, x + arm), height - 0.08, height, (0.30, 0.31, 0.33)),
        wall_z(
            L.STREET_LIGHT,
            "lamp_head",
            z - 0.01,
            x + arm - 0.3,
            x + arm + 0.3,
            height - 0.22,
            height - 0.04,
            (0.85, 0.85, 0.78),
        ),
    ]
    return Thing(z, parts)


def utility_pole(rng: np.random.Generator, x: float, z: float) -> Thing:
    """A wooden utility pole with a cross-arm."""
    height = rng.uniform(7.0, 9.0)
    return Thing(
        z,
        [
            wall_z(L.UTILITY_POLE, "wood", z, x - 0.12, x + 0.12, 0.0, height, (0.33, 0.26, 0.19)),
            wall_z(L.UTILITY_POLE, "wood", z, x - 0.9, x + 0.9, height - 0.6, height - 0.45, (0.30, 0.24, 0.18)),
        ],
    )


def bench(rng: np.random.Generator, x: float, z: float, eye: float) -> Thing:
    """A park bench seen from the front or back."""
    wood = jitter(rng, (0.45, 0.32, 0.2))
    parts = box(
        L.BENCH, ("wood", "wood", "wood"), x - 0.9, x + 0.9, z, z + 0.5, 0.4, 0.47, (shade(wood, 1.15), wood, wood), eye
    )
    parts.append(wall_z(L.BENCH, "wood", z + 0.45, x - 0.9, x + 0.9, 0.47, 0.9, shade(wood, 0.9)))
    parts.append(wall_z(L.BENCH, "metal", z - 0.01, x - 0.85, x - 0.75, 0.0, 0.4, (0.15, 0.15, 0.15)))
    parts.append(wall_z(L.BENCH, "metal", z - 0.01, x + 0.75, x + 0.85, 0.0, 0.4, (0.15, 0.15, 0.15)))
    return Thing(z, parts)


def trash_can(rng: np.random.Generator, x: float, z: float, eye: float) -> Thing:
    """A public bin."""
    colour = jitter(rng, ((0.2, 0.35, 0.25), (0.25, 0.25, 0.27), (0.75, 0.55, 0.1))[int(rng.integers(3))])
    return Thing(
        z,
        box(
            L.TRASH_CAN,
            ("metal", "metal", "metal"),
            x - 0.3,
            x + 0.3,
            z,
            z + 0.6,
            0.0,
            1.0,
            (shade(colour, 0.6), shade(colour, 0.85), colour),
            eye,
        ),
    )


def barrier(rng: np.random.Generator, x0: float, x1: float, z: float) -> Thing:
    """A red and white construction barrier across ``[x0, x1]``."""
    parts = [wall_z(L.BARRIER, "barrier", z, x0, x1, 0.5, 1.0, (0.85, 0.15, 0.12), int(rng.integers(1 << 16)))]
    parts += [wall_z(L.BARRIER, "metal", z + 0.01, x, x + 0.06, 0.0, 1.0, (0.35, 0.35, 0.35)) for x in (x0, x1 - 0.06)]
    return Thing(z, parts)
