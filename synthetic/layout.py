"""What a synthetic scene holds, in world coordinates, before anything is drawn.

A ``Layout`` is the output of a scene generator (``streets``, ``places``): ground polygons,
walls, objects, the weather and light, and the navigation ``Task`` with a world-space goal
for every embodiment that can do it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from synthetic.camera import Camera
from synthetic.primitives import Part, Thing

EMBODIMENTS = ("Human", "Legged Robot", "Wheeled Robot", "Bicycle")  # canonical order (DATA.md)
WALKERS = ("Human", "Legged Robot", "Wheeled Robot")
LIGHTING = ("Day", "Dusk", "Night")
WEATHER = ("Sunny", "Cloudy", "Rainy", "Snowy")


@dataclass
class Task:
    """A navigation instruction and where each embodiment should end up.

    ``goals`` maps an embodiment to a world point ``(X, Y, Z)``; embodiments without a goal
    cannot do the task. ``details`` fills the instruction template in ``text``.
    """

    kind: str
    task_type: str  # "Goal-directed" or "Directional"
    categories: list[str]
    goals: dict[str, tuple[float, float, float]]
    details: dict[str, str] = field(default_factory=dict)


@dataclass
class Layout:
    """Everything a scene generator decides; drawing order is ground, walls, then things far to near."""

    camera: Camera
    setting: str  # "Urban" or "Rural"
    nature: str  # "Natural" or "Structured"
    lighting: str
    weather: str
    ground: list[Part]
    walls: list[Part]
    things: list[Thing]
    task: Task
    scene: str  # short noun phrase for the context sentence, e.g. "a two-lane street"
    features: list[str] = field(default_factory=list)  # phrases for the context sentence


def choose_conditions(rng: np.random.Generator, setting: str) -> tuple[str, str]:
    """Lighting and weather, mostly daylight; no 'Sunny' after dark."""
    lighting = LIGHTING[int(rng.choice(3, p=[0.64, 0.18, 0.18]))]
    weights = [0.42, 0.32, 0.16, 0.10] if setting == "Urban" else [0.40, 0.30, 0.14, 0.16]
    weather = WEATHER[int(rng.choice(4, p=weights))]
    if lighting == "Night" and weather == "Sunny":
        weather = "Cloudy"
    return lighting, weather


def make_camera(rng: np.random.Generator, width: int, height: int) -> Camera:
    """A camera at human or robot eye height with a moderately wide lens."""
    eye = float(rng.uniform(1.25, 1.75))
    focal = float(rng.uniform(0.58, 0.78))
    horizon = float(rng.uniform(0.40, 0.50))
    return Camera.from_ratios(width, height, focal, horizon, eye)
