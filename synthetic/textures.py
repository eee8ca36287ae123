"""Procedural textures evaluated in metric plane coordinates.

Every function takes ``u, v`` (metres along the surface) and ``size`` (metres covered by one
pixel there) and returns a brightness factor per pixel. Detail finer than a pixel fades
out instead of aliasing, which is what makes far tiles and windows read as texture.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray
from scipy.ndimage import gaussian_filter, map_coordinates

Array = NDArray[np.float32]
TABLE = 128


class Noise:
    """Smooth value noise from a random periodic table, sampled bilinearly."""

    def __init__(self, rng: np.random.Generator) -> None:
        table = gaussian_filter(rng.standard_normal((TABLE, TABLE)), 1.2, mode="wrap")
        self.table = (table / table.std()).astype(np.float32)

    def __call__(self, u: Array, v: Array, frequency: float, size: Array | None = None) -> Array:
        """Noise of unit deviation at ``frequency`` features per metre, faded below pixel size."""
        coords = np.stack((v * np.float32(frequency), u * np.float32(frequency)))
        values = map_coordinates(self.table, coords, order=1, mode="grid-wrap", prefilter=False)
        if size is not None:
            values *= fade(size * frequency)
        return values


def fade(cycles_per_pixel: NDArray[np.floating]) -> Array:
    """1 for detail much larger than a pixel, 0 once a feature spans under two pixels."""
    return np.clip(1.5 - 3.0 * cycles_per_pixel, 0.0, 1.0).astype(np.float32)


def hash2(i: NDArray[np.int64], j: NDArray[np.int64], seed: int = 0) -> Array:
    """A repeatable pseudo-random number in [0, 1) per integer cell ``(i, j)``."""
    h = (i * 374761393 + j * 668265263 + seed * 2147483647) & 0xFFFFFFFF
    h = ((h ^ (h >> 13)) * 1274126177) & 0xFFFFFFFF
    return ((h ^ (h >> 16)) & 0xFFFF).astype(np.float32) / 65536.0


def grid_lines(u: Array, v: Array, size: Array, cell_u: Array | float, cell_v: Array | float, width: float) -> Array:
    """Coverage (0-1) of the joints of a grid of ``cell_u x cell_v`` metre cells.

    The line is anti-aliased over the pixel footprint and fades out when cells get smaller
    than a few pixels, so far paving turns to a flat tone instead of moire.
    """
    du = np.abs(((u / cell_u) + 0.5) % 1.0 - 0.5) * cell_u
    dv = np.abs(((v / cell_v) + 0.5) % 1.0 - 0.5) * cell_v
    distance = np.minimum(du, dv)
    cover = np.clip((width / 2 + size / 2 - distance) / np.maximum(size, 1e-6), 0.0, 1.0)
    return (cover * fade(size / np.minimum(cell_u, cell_v) * 4)).astype(np.float32)


def tiles(u: Array, v: Array, size: Array, cell: Array | float, seed: int, joint: float = 0.012) -> Array:
    """Paving: per-tile brightness variation and dark joints."""
    i = np.floor(u / cell).astype(np.int64)
    j = np.floor(v / cell).astype(np.int64)
    tone = 1.0 + 0.12 * (hash2(i, j, seed) - 0.5) * fade(size / cell * 2)
    return (tone * (1.0 - 0.35 * grid_lines(u, v, size, cell, cell, joint))).astype(np.float32)


def bricks(u: Array, v: Array, size: Array, length: float, height: float, seed: int) -> Array:
    """Running-bond bricks (for walls, curbs and coloured crossings)."""
    row = np.floor(v / height).astype(np.int64)
    shifted = u + (row % 2) * (length / 2)
    col = np.floor(shifted / length).astype(np.int64)
    tone = 1.0 + 0.16 * (hash2(col, row, seed) - 0.5) * fade(size / height * 2)
    return (tone * (1.0 - 0.3 * grid_lines(shifted, v, size, length, height, 0.012))).astype(np.float32)


def window_rhythm(seed: int) -> tuple[float, float, float, float, float, float]:
    """Floor height, bay width, window width and height, sill height, shop front (0/1)."""
    r = np.random.default_rng(seed)
    floor, bay = r.uniform(3.0, 3.6), r.uniform(2.2, 3.6)
    return (
        floor,
        bay,
        bay * r.uniform(0.38, 0.6),
        floor * r.uniform(0.42, 0.58),
        r.uniform(0.8, 1.0),
        float(r.random() < 0.6),
    )


def windows(
    u: Array, v: Array, size: Array, rhythm: Array, seed: NDArray[np.int64]
) -> tuple[NDArray[np.bool_], Array, Array]:
    """Window grid of facades: which pixels are glass, frame coverage, a random value per window.

    ``rhythm`` holds each pixel's ``window_rhythm`` row; ground floors may be shop fronts.
    """
    floor, bay, win_w, win_h, sill, shop = (rhythm[:, k] for k in range(6))
    row = np.floor(v / floor).astype(np.int64)
    wide = (row == 0) & (shop > 0.5)
    fu = np.where(wide, (u % bay) - 0.15, (u % bay) - (bay - win_w) / 2)
    width = np.where(wide, bay - 0.3, win_w)
    fv = np.where(wide, (v % floor) - 0.35, (v % floor) - sill)
    height = np.where(wide, floor - 0.8, win_h)
    inside = (fu >= 0) & (fu < width) & (fv >= 0) & (fv < height) & (v > 0.3)
    edge = np.minimum(np.minimum(fu, width - fu), np.minimum(fv, height - fv))
    frame = np.clip((0.08 + size - edge) / np.maximum(size, 1e-6), 0.0, 1.0) * inside
    lit = hash2(np.floor(u / bay).astype(np.int64), row, 0) * 0.5 + hash2(seed % 65536, row, 1) * 0.5
    visible = fade(size / win_w * 3) > 0.0
    return inside & visible, frame.astype(np.float32), lit
