"""Light and weather: sky colours, exposure, haze, sun direction, rain and snow overlays."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from PIL import Image, ImageDraw

from synthetic.camera import Camera
from synthetic.textures import Noise

Array = NDArray[np.float32]
RGB = tuple[float, float, float]

# (zenith, horizon) sky colours by lighting, and overcast ones by weather (daylight).
SKY_BY_LIGHT: dict[str, tuple[RGB, RGB]] = {
    "Day": ((0.30, 0.52, 0.86), (0.72, 0.82, 0.93)),
    "Dusk": ((0.22, 0.27, 0.52), (0.98, 0.63, 0.40)),
    "Night": ((0.02, 0.03, 0.07), (0.13, 0.12, 0.17)),
}
OVERCAST: dict[str, tuple[RGB, RGB]] = {
    "Cloudy": ((0.58, 0.62, 0.68), (0.80, 0.82, 0.85)),
    "Rainy": ((0.42, 0.45, 0.49), (0.60, 0.62, 0.65)),
    "Snowy": ((0.70, 0.72, 0.76), (0.86, 0.87, 0.89)),
}


@dataclass(frozen=True)
class Atmosphere:
    zenith: RGB
    horizon: RGB
    exposure: float
    tint: RGB
    haze_distance: float  # metres at which ~63 % of a surface's colour is haze
    clouds: float  # 0 clear .. 1 overcast
    sun: tuple[float, float, float]  # brightness of walls facing right (+X), left (-X) and the camera
    night: float  # 0 day, ~0.5 dusk, 1 night: lamps and windows
    wet: bool
    snowing: bool


def atmosphere(rng: np.random.Generator, lighting: str, weather: str) -> Atmosphere:
    zenith, horizon = SKY_BY_LIGHT[lighting]
    if lighting == "Day" and weather in OVERCAST:
        zenith, horizon = OVERCAST[weather]
    elif weather in OVERCAST and lighting == "Dusk":
        grey = OVERCAST[weather]
        zenith = tuple(0.5 * a + 0.5 * b * 0.7 for a, b in zip(zenith, grey[0]))  # type: ignore[assignment]
        horizon = tuple(0.5 * a + 0.5 * b * 0.8 for a, b in zip(horizon, grey[1]))  # type: ignore[assignment]
    exposure = {"Day": 1.0, "Dusk": 0.72, "Night": 0.42}[lighting] * (0.86 if weather == "Rainy" else 1.0)
    tint = {"Day": (1.0, 1.0, 1.0), "Dusk": (1.08, 0.88, 0.74), "Night": (0.78, 0.84, 1.1)}[lighting]
    haze = {"Sunny": 450.0, "Cloudy": 260.0, "Rainy": 120.0, "Snowy": 95.0}[weather]
    clouds = {"Sunny": 0.15, "Cloudy": 0.75, "Rainy": 1.0, "Snowy": 0.95}[weather]
    if weather == "Sunny" and lighting == "Day":
        strong, weak = rng.uniform(0.95, 1.05), rng.uniform(0.62, 0.75)
        sun = (strong, weak, rng.uniform(0.78, 0.88)) if rng.random() < 0.5 else (weak, strong, rng.uniform(0.78, 0.88))
    else:
        sun = (0.88, 0.86, 0.9)
    night = {"Day": 0.0, "Dusk": 0.45, "Night": 1.0}[lighting]
    return Atmosphere(zenith, horizon, exposure, tint, haze, clouds, sun, night, weather == "Rainy", weather == "Snowy")


def sky(camera: Camera, rows: NDArray[np.int64], cols: NDArray[np.int64], atm: Atmosphere, noise: Noise) -> Array:
    """Sky colour at the given pixels: a vertical gradient with clouds."""
    height = np.clip((camera.horizon - rows) / max(camera.horizon, 1.0), 0.0, 1.0).astype(np.float32)
    t = (height**0.6)[:, None]
    colour = (1 - t) * np.asarray(atm.horizon, np.float32) + t * np.asarray(atm.zenith, np.float32)
    # Clouds: noise in image units stretched sideways, denser with more cloud cover.
    scale = 6.0 / camera.width
    x, y = cols.astype(np.float32) * scale, rows.astype(np.float32) * scale * 3.0
    n = 0.6 * noise(x, y, 1.0) + 0.4 * noise(x * 2.3 + 7, y * 2.3, 1.0)
    cover = np.clip((n + 1.8 * atm.clouds - 1.0) * 0.8, 0.0, 1.0) * (0.35 + 0.65 * t[:, 0])
    cloud = np.asarray(atm.horizon, np.float32) * (1.05 - 0.25 * atm.clouds) + 0.04
    if atm.night > 0.9:
        cloud = np.asarray(atm.zenith, np.float32) * 2.5
    colour = colour * (1 - cover[:, None]) + cloud * cover[:, None] * (1.0 - 0.12 * np.clip(n, 0, 1))[:, None]
    return colour.astype(np.float32)


def precipitation(image: Array, rng: np.random.Generator, atm: Atmosphere) -> None:
    """Rain streaks or snow flakes drawn over the finished ``(H, W, 3)`` image, in place."""
    if not (atm.wet or atm.snowing):
        return
    height, width = image.shape[:2]
    layer = Image.new("L", (width, height), 0)
    draw = ImageDraw.Draw(layer)
    unit = width / 1000.0
    if atm.wet:
        slant = rng.uniform(-0.25, 0.25)
        for _ in range(int(260 * width * height / 1e6) + 20):
            x, y, length = rng.uniform(0, width), rng.uniform(0, height), rng.uniform(12, 34) * unit
            draw.line(
                [(x, y), (x + slant * length, y + length)], fill=int(rng.integers(50, 110)), width=max(1, round(unit))
            )
    else:
        for _ in range(int(900 * width * height / 1e6) + 30):
            x, y, r = rng.uniform(0, width), rng.uniform(0, height), rng.uniform(0.6, 2.6) * unit
            draw.ellipse([x - r, y - r, x + r, y + r], fill=int(rng.integers(120, 230)))
    alpha = np.asarray(layer, dtype=np.float32)[:, :, None] / 255.0
    image *= 1.0 - alpha
    image += alpha * 0.92
