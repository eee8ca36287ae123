"""Turn a rasterised ``Scene`` into a photo-like RGB image.

Each pixel knows the part that covers it, hence the plane it lies in; from the camera
we recover its metric coordinates on that plane and its depth. Materials texture the
base colours in those coordinates, then come sun and ambient occlusion, street lights,
exposure and tint, haze with distance, precipitation and a little lens softness and grain.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from PIL import Image, ImageFilter

from synthetic.atmosphere import Atmosphere, atmosphere, precipitation, sky
from synthetic.camera import NEAR, Camera
from synthetic.layout import Layout
from synthetic.materials import MATERIALS, PartValues, Pixels
from synthetic.primitives import Part
from synthetic.scene import Scene, rasterise
from synthetic.textures import Noise, window_rhythm

Array = NDArray[np.float32]
PLANES = {"x": 1, "y": 2, "z": 3}
KIND_NAMES = tuple(MATERIALS)
SHADED_PIXELS = 1024 * 768
# A 3x3 binomial blur: rasterised edges are pixel-sharp, camera edges are not.
SOFTEN = ImageFilter.Kernel((3, 3), (1, 2, 1, 2, 4, 2, 1, 2, 1), 16)


@dataclass
class PartTable:
    """Per-part values as arrays indexed by owner id (0 is the sky)."""

    colour: Array
    plane: NDArray[np.int8]
    level: NDArray[np.float64]
    origin: NDArray[np.float64]
    kind: NDArray[np.int16]
    values: PartValues

    @classmethod
    def of(cls, parts: list[Part]) -> PartTable:
        n = len(parts) + 1
        values = PartValues(
            np.zeros(n, np.int64), np.zeros(n, np.float32), np.zeros(n, np.float32), np.ones((n, 6), np.float32)
        )
        table = cls(
            np.zeros((n, 3), np.float32), np.zeros(n, np.int8), np.zeros(n), np.zeros(n), np.zeros(n, np.int16), values
        )
        for i, part in enumerate(parts, start=1):
            table.colour[i] = part.colour
            kind, level = part.plane or ("z", 100.0)
            table.plane[i], table.level[i], table.origin[i] = PLANES[kind], level, part.origin
            table.kind[i] = KIND_NAMES.index(part.kind) if part.kind in MATERIALS else KIND_NAMES.index("metal")
            values.seed[i], values.top[i], values.mid[i] = part.seed, part.points[:, 1].max(), part.points[:, 1].mean()
            if part.kind == "facade":
                values.windows[i] = window_rhythm(part.seed)
        return table


@dataclass
class Surface:
    """The non-sky pixels: flat indices, owners, plane coordinates, world X and Z, depth."""

    index: NDArray[np.int64]
    owner: NDArray[np.int32]
    u: Array
    v: Array
    x: Array
    z: Array
    depth: Array
    size: Array


def render_photo(layout: Layout, rng: np.random.Generator) -> Image.Image:
    """The layout's image at its camera's size.

    Large images are shaded at about 0.8 megapixels and upscaled: the shading costs
    per pixel, and the lens softening a full-size render gets looks the same.
    """
    camera = layout.camera
    scale = min(1.0, (SHADED_PIXELS / (camera.width * camera.height)) ** 0.5)
    if scale > 0.95:
        return render(rasterise(layout), layout, rng)
    small = Camera(
        round(camera.width * scale),
        round(camera.height * scale),
        camera.focal * scale,
        camera.horizon * scale,
        camera.eye_height,
    )
    image = render(rasterise(layout, small), layout, rng, soften=False)
    return image.resize((camera.width, camera.height), Image.Resampling.BICUBIC)


def render(scene: Scene, layout: Layout, rng: np.random.Generator, soften: bool = True) -> Image.Image:
    """The RGB image of ``scene`` under the layout's lighting and weather."""
    camera = scene.camera
    atm = atmosphere(rng, layout.lighting, layout.weather)
    noise = Noise(rng)
    table = PartTable.of(scene.parts)
    flat = scene.owners.ravel()
    image = np.empty((flat.size, 3), np.float32)
    sky_index = np.flatnonzero(flat == 0)
    image[sky_index] = sky(camera, sky_index // camera.width, sky_index % camera.width, atm, noise)
    surface = _surface(camera, table, flat)
    colour, glow = _materials(surface, table, noise, atm)
    colour *= _shading(surface, table, atm)[:, None]
    if atm.wet:
        ground = table.plane[surface.owner] == PLANES["y"]
        colour[ground] = colour[ground] * 0.78 + 0.14 * np.asarray(atm.horizon, np.float32)
    colour *= _light(surface, scene, atm)[:, None] * np.asarray(atm.tint, np.float32) * atm.exposure
    haze = (1.0 - np.exp(-surface.depth / atm.haze_distance))[:, None]
    colour = colour * (1.0 - haze) + haze * np.asarray(atm.horizon, np.float32)
    image[surface.index] = colour + glow
    picture = image.reshape(camera.height, camera.width, 3)
    _bloom(picture, scene, atm)
    precipitation(picture, rng, atm)
    return _finish(picture, rng, soften)


def _surface(camera: Camera, table: PartTable, flat: NDArray[np.int32]) -> Surface:
    """Metric plane coordinates of every non-sky pixel (see ``Part.plane``)."""
    index = np.flatnonzero(flat)
    owner = flat[index]
    dx = (index % camera.width).astype(np.float32) + 0.5 - np.float32(camera.cx)
    dy = (index // camera.width).astype(np.float32) + 0.5 - np.float32(camera.horizon)
    plane, level = table.plane[owner], table.level[owner].astype(np.float32)
    f, eye = np.float32(camera.focal), np.float32(camera.eye_height)
    depth = np.empty(index.size, np.float32)
    ground, side, front = plane == 2, plane == 1, plane == 3
    depth[ground] = f * (eye - level[ground]) / np.maximum(dy[ground], 0.5)
    depth[side] = f * level[side] / np.where(dx[side] * level[side] > 0, dx[side], np.copysign(0.5, level[side]))
    depth[front] = level[front]
    depth = np.clip(depth, NEAR, 5000.0)
    x = dx * depth / f
    height = eye - dy * depth / f
    u = np.where(side, depth, x) - table.origin[owner].astype(np.float32)
    v = np.where(ground, depth, height)
    world_x = np.where(side, level, x)
    size = depth / f
    # A ground pixel spans much more depth than width: fade detail by the longer side.
    size = np.where(ground, size * np.maximum(depth / np.maximum(eye - level, 0.2), 1.0) ** 0.5, size)
    return Surface(index, owner, u, v, world_x, depth, depth, size.astype(np.float32))


def _materials(surface: Surface, table: PartTable, noise: Noise, atm: Atmosphere) -> tuple[Array, Array]:
    """Base colours textured by each kind's material.

    Pixels are sorted by kind once, so every material works on contiguous views.
    """
    kinds = table.kind[surface.owner]
    order = np.argsort(kinds, kind="stable")
    owner = surface.owner[order]
    u, v, size = surface.u[order], surface.v[order], surface.size[order]
    colour = table.colour[owner]
    glow = np.zeros_like(colour)
    sorted_kinds = kinds[order]
    bounds = np.concatenate(([0], np.flatnonzero(np.diff(sorted_kinds)) + 1, [order.size]))
    for a, b in zip(bounds[:-1], bounds[1:]):
        if a == b:
            continue
        pixels = Pixels(u[a:b], v[a:b], size[a:b], owner[a:b], table.values, colour[a:b], glow[a:b], noise, atm.night)
        MATERIALS[KIND_NAMES[sorted_kinds[a]]](pixels)
    unsorted, unsorted_glow = np.empty_like(colour), np.empty_like(glow)
    unsorted[order], unsorted_glow[order] = colour, glow
    return unsorted, unsorted_glow


def _shading(surface: Surface, table: PartTable, atm: Atmosphere) -> Array:
    """Sun on walls by the way they face, and darkening where walls meet the ground."""
    plane = table.plane[surface.owner]
    level = table.level[surface.owner]
    factor = np.ones(surface.index.size, np.float32)
    side = plane == 1
    factor[side] = np.where(level[side] < 0, atm.sun[0], atm.sun[1])
    factor[plane == 3] = atm.sun[2]
    vertical = plane != 2
    factor[vertical] *= 1.0 - 0.28 * np.exp(-np.maximum(surface.v[vertical], 0.0) / 0.35)
    return factor


def _lamps(scene: Scene) -> list[NDArray[np.float64]]:
    return [p.points.mean(axis=0) for p in scene.parts if p.kind == "lamp_head"]


def _light(surface: Surface, scene: Scene, atm: Atmosphere) -> Array:
    """Ambient light, plus pools of light under street lamps after dark."""
    light = np.ones(surface.index.size, np.float32)
    if atm.night <= 0.0:
        return light
    light *= 1.0 - 0.35 * atm.night
    for lamp in _lamps(scene):
        d2 = (surface.x - lamp[0]) ** 2 + (surface.z - lamp[2]) ** 2
        light += (2.2 * atm.night) * np.exp(-d2 / (2 * 4.5**2)) * (surface.v < lamp[1])
    return light


def _bloom(picture: Array, scene: Scene, atm: Atmosphere) -> None:
    """A soft halo around each lamp head after dark."""
    if atm.night <= 0.0:
        return
    camera = scene.camera
    for lamp in _lamps(scene):
        (x, y), depth = camera.project(lamp[None, :])[0], max(float(lamp[2]), NEAR)
        radius = camera.focal * 0.9 / depth
        x0, x1 = int(max(x - 3 * radius, 0)), int(min(x + 3 * radius + 1, camera.width))
        y0, y1 = int(max(y - 3 * radius, 0)), int(min(y + 3 * radius + 1, camera.height))
        if x0 >= x1 or y0 >= y1:
            continue
        yy, xx = np.mgrid[y0:y1, x0:x1]
        halo = np.exp(-((xx - x) ** 2 + (yy - y) ** 2) / (2 * radius**2)).astype(np.float32)
        picture[y0:y1, x0:x1] += halo[:, :, None] * np.array([1.0, 0.85, 0.6], np.float32) * 0.5 * atm.night


def _finish(picture: Array, rng: np.random.Generator, soften: bool) -> Image.Image:
    """Vignette, sensor grain and a slight lens softness, then 8-bit RGB."""
    height, width = picture.shape[:2]
    ys = (np.arange(height, dtype=np.float32) - height / 2) / (height / 2)
    xs = (np.arange(width, dtype=np.float32) - width / 2) / (width / 2)
    picture *= (1.0 - 0.18 * (ys[:, None] ** 2 * 0.6 + xs[None, :] ** 2 * 0.4))[:, :, None]
    picture += (rng.random((height, width, 1), dtype=np.float32) - 0.5) * np.float32(0.04)
    pixels = np.clip(picture * 255.0 + 0.5, 0, 255).astype(np.uint8)
    image = Image.fromarray(pixels, "RGB")
    return image.filter(SOFTEN) if soften else image
