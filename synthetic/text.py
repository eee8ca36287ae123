"""The words of a sample: instruction, task categories, context sentence and metadata."""

from __future__ import annotations

import numpy as np

from synthetic.layout import Layout

CATEGORIES = (
    "Semantic Terrain",
    "Geometric Terrain",
    "Stationary Obstacle",
    "Dynamic Obstacle",
    "Social Norms",
    "Stairs",
)
# Right-hand traffic only: the generator always puts the cycle lane and bus lane on the right.
CITIES = (
    ("Zurich", "Switzerland"),
    ("Basel", "Switzerland"),
    ("Karlsruhe", "Germany"),
    ("Munich", "Germany"),
    ("Berlin", "Germany"),
    ("Vienna", "Austria"),
    ("Paris", "France"),
    ("Lyon", "France"),
    ("Milan", "Italy"),
    ("Amsterdam", "Netherlands"),
    ("Copenhagen", "Denmark"),
    ("Barcelona", "Spain"),
    ("Lisbon", "Portugal"),
    ("Prague", "Czech Republic"),
    ("Boston", "United States"),
    ("San Francisco", "United States"),
    ("Toronto", "Canada"),
    ("Seoul", "South Korea"),
)
REGIONS = (
    ("Black Forest", "Germany"),
    ("Engadin", "Switzerland"),
    ("Tyrol", "Austria"),
    ("Provence", "France"),
    ("Tuscany", "Italy"),
    ("Vermont", "United States"),
    ("Jura", "Switzerland"),
    ("Bavaria", "Germany"),
)
INSTRUCTIONS: dict[str, tuple[str, ...]] = {
    "follow": (
        "Go down the {where}",
        "Follow the {where}",
        "Continue straight along the {where}",
        "Keep going along the {where}",
    ),
    "cross": (
        "Cross the street at the crosswalk",
        "Use the crosswalk to get to the other side of the street",
        "Get to the sidewalk on the {side} side of the street",
    ),
    "entrance": (
        "Walk to the entrance of the building on the {side}",
        "Go to the door of the building on the {side}",
        "Enter the building on the {side}",
    ),
    "turn": ("Turn {side} at the intersection", "Take the next street on the {side}", "Go {side} at the next corner"),
    "stairs": (
        "Go up to the upper level of the square",
        "Get onto the terrace above",
        "Reach the upper part of the plaza",
    ),
    "trail": ("Follow the {where}", "Walk along the {where} towards the trees", "Stay on the {where}"),
    "farm": ("Go to the farmhouse on the {side}", "Walk to the house on the {side}"),
    "bench": ("Walk to the bench on the {side}", "Go and sit on the bench on the {side} of the path"),
}
PERIOD = {"Day": ("in the morning", "at midday", "in the afternoon"), "Dusk": ("at dusk",), "Night": ("at night",)}
WEATHER = {"Sunny": "sunny", "Cloudy": "overcast", "Rainy": "rainy", "Snowy": "snowy"}


def instruction(rng: np.random.Generator, layout: Layout) -> str:
    templates = INSTRUCTIONS[layout.task.kind]
    return templates[int(rng.integers(len(templates)))].format(**layout.task.details)


def place(rng: np.random.Generator, setting: str) -> tuple[str, str]:
    """City and country (a rural region for rural scenes)."""
    names = CITIES if setting == "Urban" else REGIONS
    return names[int(rng.integers(len(names)))]


def context(rng: np.random.Generator, layout: Layout, city: str) -> str:
    """One sentence of free text describing the scene, like the dataset's ``context``."""
    period = PERIOD[layout.lighting][int(rng.integers(len(PERIOD[layout.lighting])))]
    weather = WEATHER[layout.weather]
    where = "near" if layout.setting == "Rural" else "in"
    sentence = f"A {weather} view of {layout.scene} {where} {city} {period}"
    features = list(layout.features)
    if features:
        rng.shuffle(features)
        listed = features[:3]
        sentence += ", with " + (", ".join(listed[:-1]) + " and " + listed[-1] if len(listed) > 1 else listed[0])
    return sentence + "."


def metadata(layout: Layout, city: str, country: str) -> dict[str, str]:
    """The ``metadata`` struct, keys in the dataset's order."""
    return {
        "city": city,
        "country": country,
        "lighting_conditions": layout.lighting,
        "natural_structured": layout.nature,
        "task_type": layout.task.task_type,
        "urban_rural": layout.setting,
        "weather_conditions": layout.weather,
    }
