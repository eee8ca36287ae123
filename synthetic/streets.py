"""The ground of an urban street: a cross-section of bands, markings, crossings.

A street is a list of lateral ``Band``s (sidewalk, curb, parking, lanes, bike lane, ...) in
street coordinates ``u`` (metres, road centre at 0), bent along the depth by
``X = u + shift + bend * Z**2``. It may have a cross street (an intersection) and a zebra
crossing; both come with curb cuts, as real ones do.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

import synthetic.labels as L
from synthetic.primitives import Colour, Part, band, ground, jitter
from synthetic.scenery import FAR

ASPHALT: Colour = (0.31, 0.31, 0.32)
PAINT: Colour = (0.88, 0.88, 0.85)
SIDEWALK_COLOURS: tuple[Colour, ...] = ((0.63, 0.61, 0.58), (0.58, 0.50, 0.46), (0.68, 0.65, 0.58), (0.52, 0.52, 0.53))


@dataclass(frozen=True)
class Band:
    name: str
    label: int
    kind: str
    colour: Colour
    u0: float
    u1: float

    @property
    def mid(self) -> float:
        return (self.u0 + self.u1) / 2


@dataclass
class Street:
    """Street geometry; ``crossing`` and ``junction`` are depth ranges ``(z0, z1)`` or None.

    ``corner`` is the depth of the cross street's sidewalks on either side of the junction.
    """

    bands: list[Band]
    shift: float
    bend: float
    crossing: tuple[float, float] | None
    junction: tuple[float, float] | None
    corner: float
    zebra: bool

    def x(self, u: float | NDArray[np.float64], z: float | NDArray[np.float64]) -> NDArray[np.float64]:
        return np.asarray(u + self.shift + self.bend * np.asarray(z) ** 2, dtype=np.float64)

    def find(self, name: str) -> Band | None:
        return next((b for b in self.bands if b.name == name), None)

    def sidewalk(self, side: int) -> Band:
        """The sidewalk on ``side`` (-1 left, +1 right); every street has both."""
        return next(b for b in self.bands if b.name == ("sidewalk_l" if side < 0 else "sidewalk_r"))

    def along(self, u: float) -> Callable[[float], float]:
        """``z -> X`` of the line at street position ``u`` (for placing things along it)."""
        return lambda z: float(self.x(u, z))

    def edge(self, side: int) -> float:
        """``u`` of the outer edge of the sidewalk on ``side`` (-1 left, +1 right)."""
        return self.bands[0].u0 if side < 0 else self.bands[-1].u1

    def kerb(self, side: int) -> Band:
        return next(b for b in self.bands if b.name == ("curb_l" if side < 0 else "curb_r"))

    def lanes(self) -> list[Band]:
        return [b for b in self.bands if b.name.startswith("lane")]

    def open_ranges(self) -> list[tuple[float, float]]:
        """Depth ranges kept free of parked cars and buildings."""
        ranges = []
        if self.crossing:
            ranges.append((self.crossing[0] - 3.0, self.crossing[1] + 1.0))
        if self.junction:
            ranges.append((self.junction[0] - self.corner, self.junction[1] + self.corner))
        return ranges


def cross_section(rng: np.random.Generator, terrain: int) -> list[Band]:
    """Bands from the left sidewalk to the right one, the road centred on ``u = 0``."""
    pave = jitter(rng, SIDEWALK_COLOURS[int(rng.integers(len(SIDEWALK_COLOURS)))], 0.04)
    grass = (0.88, 0.9, 0.93) if terrain == L.SNOW else jitter(rng, (0.33, 0.43, 0.2), 0.1)
    spec: list[tuple[str, int, str, Colour, float]] = [("sidewalk_l", L.SIDEWALK, "paving", pave, rng.uniform(2.5, 5))]
    if rng.random() < 0.25:
        spec.append(("lawn_l", terrain, "grass", grass, rng.uniform(1.0, 1.8)))
    spec.append(("curb_l", L.CURB, "curb", (0.70, 0.69, 0.66), 0.3))
    if rng.random() < 0.35:
        spec.append(("parking_l", L.PARKING, "asphalt", jitter(rng, (0.36, 0.36, 0.37), 0.03), 2.3))
    lanes = int(rng.choice([1, 2, 2, 2, 3, 4]))
    for k in range(lanes):
        spec.append((f"lane{k}", L.ROAD, "asphalt", jitter(rng, ASPHALT, 0.04), rng.uniform(3.0, 3.5)))
    if rng.random() < 0.35:
        colour = [(0.58, 0.26, 0.22), (0.30, 0.48, 0.32), (0.36, 0.36, 0.37)][int(rng.integers(3))]
        spec.append(("bike_r", L.BIKE_LANE, "bikelane", colour, rng.uniform(1.5, 1.9)))
    if rng.random() < 0.45:
        spec.append(("parking_r", L.PARKING, "asphalt", jitter(rng, (0.36, 0.36, 0.37), 0.03), 2.3))
    spec.append(("curb_r", L.CURB, "curb", (0.70, 0.69, 0.66), 0.3))
    if rng.random() < 0.25:
        spec.append(("lawn_r", terrain, "grass", grass, rng.uniform(1.0, 1.8)))
    spec.append(("sidewalk_r", L.SIDEWALK, "paving", pave, rng.uniform(2.5, 5)))
    edges = np.concatenate(([0.0], np.cumsum([s[4] for s in spec])))
    lane_ids = [i for i, s in enumerate(spec) if s[0].startswith("lane")]
    centre = (edges[lane_ids[0]] + edges[lane_ids[-1] + 1]) / 2
    return [
        Band(n, lab, kind, col, float(edges[i] - centre), float(edges[i + 1] - centre))
        for i, (n, lab, kind, col, _) in enumerate(spec)
    ]


def street_ground(rng: np.random.Generator, street: Street) -> list[Part]:
    """All ground parts of ``street``, in drawing order."""
    parts = [
        band(b.label, b.kind, at_u(street, b.u0), at_u(street, b.u1), 0.0, FAR, b.colour, seed=i)
        for i, b in enumerate(street.bands)
    ]
    parts += _markings(rng, street)
    if street.junction:
        parts += _junction(street)
    if street.crossing:
        road = (street.kerb(-1).u1, street.kerb(1).u0)
        parts += _zebra(street, road, street.crossing, across=True)
        parts += _curb_cuts(street, street.crossing)
    for _ in range(int(rng.integers(0, 3))):
        lane = street.lanes()[int(rng.integers(len(street.lanes())))]
        z = rng.uniform(5.0, 40.0)
        angle = np.linspace(0, 2 * np.pi, 16, endpoint=False)
        xz = np.column_stack((street.x(lane.mid, z) + 0.35 * np.cos(angle), z + 0.35 * np.sin(angle)))
        parts.append(ground(L.MANHOLE, "manhole", xz, (0.22, 0.22, 0.23)))
    return parts


def at_u(street: Street, u: float) -> Callable[[NDArray[np.float64]], NDArray[np.float64]]:
    return lambda z: street.x(u, z)


def _line(street: Street, u: float, width: float, z0: float, z1: float, colour: Colour = PAINT) -> Part:
    return band(
        L.LANE_MARKING, "paint", at_u(street, u - width / 2), at_u(street, u + width / 2), z0, z1, colour, steps=6
    )


def _markings(rng: np.random.Generator, street: Street) -> list[Part]:
    """Lane dividers (dashed, or a solid centre line), edge lines and the bike lane line."""
    lanes = street.lanes()
    parts = []
    yellow = rng.random() < 0.25
    for k in range(1, len(lanes)):
        u = lanes[k].u0
        centre = k == len(lanes) // 2 and len(lanes) > 2
        colour = (0.88, 0.72, 0.2) if (yellow and k == len(lanes) // 2) else PAINT
        if centre or rng.random() < 0.15:
            parts.append(_line(street, u, 0.15, 1.0, FAR, colour))
            continue
        z, dash, period = rng.uniform(0, 6), rng.uniform(2.5, 3.5), rng.uniform(8.0, 12.0)
        while z < FAR * 0.6:
            parts.append(_line(street, u, 0.13, z, z + dash, colour))
            z += period
    if rng.random() < 0.5:
        parts.append(_line(street, lanes[0].u0 + 0.25, 0.15, 1.0, FAR))
        parts.append(_line(street, lanes[-1].u1 - 0.25, 0.15, 1.0, FAR))
    bike = street.find("bike_r")
    if bike is not None:
        parts.append(_line(street, bike.u0 + 0.1, 0.2, 1.0, FAR))
    return parts


def _zebra(street: Street, span: tuple[float, float], depth: tuple[float, float], across: bool) -> list[Part]:
    """A zebra crossing over ``span`` (u) x ``depth`` (z): white stripes, plain crosswalk between.

    ``across`` stripes run along the street (people cross it sideways); otherwise they
    run across it (for crossing a cross street while walking along the street).
    """
    u0, u1 = span
    z0, z1 = depth
    if not street.zebra:
        return [
            band(
                L.CROSSWALK_PLAIN, "crosswalk", at_u(street, u0), at_u(street, u1), z0, z1, (0.62, 0.36, 0.30), steps=4
            )
        ]
    parts = [band(L.CROSSWALK_PLAIN, "asphalt", at_u(street, u0), at_u(street, u1), z0, z1, ASPHALT, steps=4)]
    if across:
        for u in np.arange(u0 + 0.2, u1 - 0.4, 1.0):
            parts.append(
                band(L.CROSSWALK_MARKING, "paint", at_u(street, u), at_u(street, u + 0.5), z0, z1, PAINT, steps=4)
            )
    else:
        for z in np.arange(z0 + 0.2, z1 - 0.4, 1.0):
            parts.append(
                band(L.CROSSWALK_MARKING, "paint", at_u(street, u0), at_u(street, u1), z, z + 0.5, PAINT, steps=3)
            )
    return parts


def _curb_cuts(street: Street, depth: tuple[float, float]) -> list[Part]:
    """Lowered curbs where a crossing meets the sidewalks, so wheels need not climb."""
    return [
        band(
            L.CURB_CUT,
            "curbcut",
            at_u(street, k.u0),
            at_u(street, k.u1),
            depth[0],
            depth[1],
            (0.66, 0.64, 0.6),
            steps=4,
        )
        for k in (street.kerb(-1), street.kerb(1))
    ]


def _junction(street: Street) -> list[Part]:
    """A cross street over the junction depths, corner sidewalks and crossings over it."""
    z0, z1 = street.junction  # type: ignore[misc]
    corner = street.corner
    lane = street.lanes()[0]
    far_left, far_right = street.edge(-1) - 400.0, street.edge(1) + 400.0
    parts = [band(L.ROAD, "asphalt", at_u(street, far_left), at_u(street, far_right), z0, z1, lane.colour, steps=4)]
    for side in (-1, 1):
        kerb = street.kerb(side)
        inner = kerb.u0 if side < 0 else kerb.u1
        outer = far_left if side < 0 else far_right
        lo, hi = sorted((inner, outer))
        pave = street.sidewalk(side)
        for a, b in ((z0 - corner, z0), (z1, z1 + corner)):
            parts.append(band(L.SIDEWALK, "paving", at_u(street, lo), at_u(street, hi), a, b, pave.colour, steps=4))
        for a, b in ((z0 - 0.3, z0), (z1, z1 + 0.3)):
            parts.append(band(L.CURB, "curb", at_u(street, lo), at_u(street, hi), a, b, kerb.colour, steps=4))
        walk = (pave.mid - 1.6, pave.mid + 1.6)
        parts += _zebra(street, walk, (z0, z1), across=False)
        for a, b in ((z0 - 0.3, z0), (z1, z1 + 0.3)):
            parts.append(
                band(
                    L.CURB_CUT,
                    "curbcut",
                    at_u(street, walk[0]),
                    at_u(street, walk[1]),
                    a,
                    b,
                    (0.66, 0.64, 0.6),
                    steps=3,
                )
            )
    return parts
