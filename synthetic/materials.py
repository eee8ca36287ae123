"""Materials: how each part ``kind`` modulates its base colour, pixel by pixel.

A material gets a ``Pixels`` view (the pixels of every part of that kind, with their plane
coordinates in metres) and edits ``colour`` and ``glow`` (light emitted, e.g. lit windows)
in place. Patterns live in ``textures``; this module only chooses and mixes them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from synthetic.textures import Noise, bricks, grid_lines, hash2, tiles, windows

Array = NDArray[np.float32]


@dataclass
class Pixels:
    """The pixels of one material: plane coordinates, footprint, owners and their part table.

    ``colour`` and ``glow`` are views into the renderer's buffers: edit them in place.
    """

    u: Array
    v: Array
    size: Array  # metres per pixel
    owner: NDArray[np.int32]
    parts: PartValues
    colour: Array  # (n, 3)
    glow: Array  # (n, 3), light emitted, added after exposure
    noise: Noise
    night: float  # 0 by day, 1 at night: how many windows are lit, how bright lamps glow

    @property
    def seed(self) -> NDArray[np.int64]:
        return self.parts.seed[self.owner]

    @property
    def top(self) -> Array:
        """Height of the owning part's highest point (metres)."""
        return self.parts.top[self.owner]

    @property
    def mid(self) -> Array:
        """Mean height of the owning part's corners (metres)."""
        return self.parts.mid[self.owner]

    def scale(self, factor: Array | float) -> None:
        self.colour *= np.asarray(factor, dtype=np.float32).reshape(-1, 1) if np.ndim(factor) else factor

    def mix(self, target: Array | tuple[float, float, float], weight: Array) -> None:
        weight = np.asarray(weight, dtype=np.float32).reshape(-1, 1)
        self.colour *= 1.0 - weight
        self.colour += weight * np.asarray(target, dtype=np.float32).reshape(-1, 3)


@dataclass
class PartValues:
    """Per-part values materials read, indexed by owner id."""

    seed: NDArray[np.int64]
    top: Array
    mid: Array
    windows: Array  # (parts, 6) facade rhythm, see ``textures.window_rhythm``


def asphalt(p: Pixels) -> None:
    p.scale(1.0 + 0.07 * p.noise(p.u, p.v, 0.6, p.size) + 0.08 * p.noise(p.u + 17, p.v, 7.0, p.size))


def paving(p: Pixels) -> None:
    cell = 0.3 + 0.3 * (p.seed % 3) / 2.0
    p.scale(tiles(p.u, p.v, p.size, cell, 7) * (1.0 + 0.05 * p.noise(p.u, p.v, 1.3, p.size)))


def curb(p: Pixels) -> None:
    p.scale(1.08 * bricks(p.v, p.u, p.size, 1.0, 0.6, 3) * (1.0 + 0.04 * p.noise(p.u, p.v, 4.0, p.size)))


def crosswalk(p: Pixels) -> None:
    p.scale(bricks(p.u, p.v, p.size, 0.22, 0.11, 5))


def paint(p: Pixels) -> None:
    p.scale(1.0 - 0.1 * np.clip(p.noise(p.u, p.v, 2.5, p.size), 0.0, 2.0))


def grass(p: Pixels) -> None:
    if float(p.colour[:, 0].mean()) > 0.7:  # snow-covered lawn
        p.scale(1.0 + 0.04 * p.noise(p.u, p.v, 1.0, p.size))
        return
    p.scale(
        1.0
        + 0.16 * p.noise(p.u, p.v, 1.6, p.size)
        + 0.12 * p.noise(p.u + 5, p.v, 9.0, p.size)
        + 0.16 * p.noise(p.u + 9, p.v, 40.0, p.size)
    )  # blades, visible only close up
    dry = np.clip(0.5 * p.noise(p.u, p.v, 0.15), 0.0, 1.0) * 0.35
    p.mix((0.52, 0.47, 0.3), dry)


def dirt(p: Pixels) -> None:
    p.scale(1.0 + 0.14 * p.noise(p.u, p.v, 1.2, p.size) + 0.12 * p.noise(p.u + 3, p.v, 10.0, p.size))


def facade(p: Pixels) -> None:
    p.scale(1.0 + 0.04 * p.noise(p.u, p.v, 0.8, p.size))
    p.scale(np.where(p.top - p.v < 0.45, 0.82, 1.0))  # cornice
    glass, frame, lit = windows(p.u, p.v, p.size, p.parts.windows[p.owner], p.seed)
    # Glass mirrors the sky: brighter towards the top of each pane, with blotchy reflections.
    pane = np.clip((p.v % 3.3) / 3.3, 0.0, 1.0)
    tone = 0.22 + 0.12 * pane + 0.08 * np.clip(p.noise(p.u, p.v + 50.0, 0.5), -1.0, 1.0)
    shine = np.array([0.62, 0.7, 0.8], np.float32) * tone[:, None] * (1.0 - 0.55 * p.night)
    p.colour[glass] = shine[glass]
    p.mix((0.85, 0.85, 0.85), 0.35 * frame)
    on = glass & (lit < 0.45 * p.night)
    p.glow[on] += np.array([0.9, 0.72, 0.42], np.float32) * 0.55


def backdrop(p: Pixels) -> None:
    p.scale(1.0 + 0.05 * p.noise(p.u, p.v, 0.2, p.size))
    rows = np.floor(p.v / 3.2).astype(np.int64)
    cols = np.floor(p.u / 2.8).astype(np.int64)
    light = hash2(cols, rows, 11)
    on = (grid_lines(p.u, p.v, p.size, 2.8, 3.2, 1.4) > 0.5) & (p.v < p.top - 1.0)
    p.scale(np.where(on, 0.86, 1.0))
    p.glow[on & (light < 0.4 * p.night)] += np.array([0.8, 0.65, 0.4], np.float32) * 0.4


def concrete(p: Pixels) -> None:
    p.scale((1.0 + 0.07 * p.noise(p.u, p.v, 1.5, p.size)) * (1.0 - 0.25 * grid_lines(p.u, p.v, p.size, 2.5, 1.2, 0.02)))


def riser(p: Pixels) -> None:
    p.scale(0.78 * (1.0 + 0.06 * p.noise(p.u, p.v, 3.0, p.size)))
    p.scale(np.where(p.top - p.v < 0.025 + p.size, 1.3, 1.0))  # the lit nosing of the step


def tread(p: Pixels) -> None:
    p.scale(1.12 * (1.0 + 0.05 * p.noise(p.u, p.v, 3.0, p.size)))


def glass(p: Pixels) -> None:
    p.scale(1.0 + 0.5 * np.clip(p.noise(p.u, p.v, 1.5, p.size), 0.0, 2.0))


def body(p: Pixels) -> None:
    p.scale(0.9 + 0.2 * np.clip((p.v - 0.3) / 0.7, 0.0, 1.0))
    p.mix((0.95, 0.95, 0.95), np.where(np.abs(p.v - 0.82) < 0.03 + p.size, 0.3, 0.0))


def emissive(p: Pixels) -> None:
    p.glow += p.colour * (1.2 * p.night)


def cloth(p: Pixels) -> None:
    p.scale(1.0 + 0.08 * p.noise(p.u, p.v, 9.0, p.size) - 0.1 * np.clip(p.mid - p.v, 0.0, 1.0))


def grain(p: Pixels) -> None:
    p.scale(1.0 + 0.14 * p.noise(p.u * 5.0, p.v * 0.4, 1.0, p.size * 5.0))


def foliage(p: Pixels) -> None:
    lumps = 0.2 * p.noise(p.u, p.v, 1.1, p.size) + 0.16 * p.noise(p.u + 9, p.v, 3.5, p.size)
    p.scale(np.clip(0.85 + lumps + 0.12 * p.noise(p.u, p.v + 4, 11.0, p.size), 0.45, 1.4))
    p.scale(0.8 + 0.2 * np.clip((p.v - p.mid) / 3.0 + 0.5, 0.0, 1.0))  # crowns are darker underneath


def metal(p: Pixels) -> None:
    p.scale(1.0 + 0.06 * p.noise(p.u, p.v, 4.0, p.size))


def fence(p: Pixels) -> None:
    bars = grid_lines(p.u, p.v * 0 + 500.0, p.size, 0.14, 1000.0, 0.025)
    rails = (np.abs(p.v - (p.top - 0.05)) < 0.05 + p.size / 2) | (np.abs(p.v - 0.15) < 0.04 + p.size / 2)
    cover = np.maximum(bars, rails.astype(np.float32))
    behind = np.array([0.3, 0.36, 0.24], np.float32) * (1.0 + 0.2 * p.noise(p.u, p.v, 1.0, p.size))[:, None]
    p.colour[:] = p.colour * cover[:, None] + behind * (1.0 - cover[:, None])


def barrier(p: Pixels) -> None:
    stripe = ((p.u + p.v) / 0.35) % 1.0 < 0.5
    p.mix((0.95, 0.95, 0.93), stripe.astype(np.float32))


def mountain(p: Pixels) -> None:
    p.scale(1.0 + 0.15 * p.noise(p.u, p.v, 0.01, p.size) + 0.1 * p.noise(p.u, p.v, 0.04, p.size))
    snow = np.clip((p.v - p.top * 0.75) / 40.0 + 0.2 * p.noise(p.u, p.v, 0.02), 0.0, 1.0)
    p.mix((0.9, 0.92, 0.96), snow)


def flat(p: Pixels) -> None:
    del p  # signs, tyres, skin: their base colour is enough


MATERIALS: dict[str, Callable[[Pixels], None]] = {
    "asphalt": asphalt,
    "bikelane": asphalt,
    "manhole": metal,
    "paving": paving,
    "ramp": paving,
    "curbcut": paving,
    "curb": curb,
    "crosswalk": crosswalk,
    "paint": paint,
    "grass": grass,
    "dirt": dirt,
    "facade": facade,
    "backdrop": backdrop,
    "door": metal,
    "wall": concrete,
    "riser": riser,
    "tread": tread,
    "glass": glass,
    "body": body,
    "lamp": emissive,
    "lamp_head": emissive,
    "cloth": cloth,
    "skin": flat,
    "hair": flat,
    "bark": grain,
    "wood": grain,
    "foliage": foliage,
    "metal": metal,
    "sign": flat,
    "tyre": flat,
    "fence": fence,
    "barrier": barrier,
    "mountain": mountain,
    "water": glass,
}
