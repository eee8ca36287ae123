"""One synthetic NaviTrace sample: scene, image, mask, traces and text, from its seed alone.

Sample ``i`` of a split draws from ``np.random.default_rng([seed, split_code, i, stream])``,
one stream per concern (layout, image, embodiments, each embodiment's traces, text), so it
is the same whatever the number of samples and whichever embodiments it ends up with.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from synthetic.layout import EMBODIMENTS, Layout, Task, choose_conditions, make_camera
from synthetic.nature import farm_layout, park_layout, trail_layout
from synthetic.planner import Planner
from synthetic.plaza import plaza_layout
from synthetic.render import render_photo
from synthetic.scene import rasterise
from synthetic.street_scene import street_layout
from synthetic.text import context, instruction, metadata, place

SPLITS = {"validation": (0, "val"), "test": (1, "test")}
SCENES = (
    ("street", street_layout, 0.55),
    ("plaza", plaza_layout, 0.13),
    ("trail", trail_layout, 0.11),
    ("farm", farm_layout, 0.08),
    ("park", park_layout, 0.13),
)
RURAL = {"trail", "farm"}
JPEG_QUALITY = 85
TRACE_COUNTS = (1, 2, 3)
TRACE_WEIGHTS = (0.5, 0.32, 0.18)
GroundTruth = dict[str, list[list[list[float]]] | None]


@dataclass
class Sample:
    """One dataset row before Arrow: ``mask`` is ``(H, W)`` uint8, ``image`` JPEG bytes."""

    sample_id: str
    task: str
    embodiments: list[str]
    image: bytes
    mask: NDArray[np.uint8]
    ground_truth: GroundTruth
    category: list[str]
    context: str
    metadata: dict[str, str]


def sample_id(split: str, index: int) -> str:
    return f"{SPLITS[split][1]}_{index:04d}"


def make_sample(split: str, index: int, seed: int, size: tuple[int, int]) -> Sample:
    """Sample ``index`` of ``split`` at ``size`` = (width, height)."""
    code = SPLITS[split][0]

    def stream(k: int) -> np.random.Generator:
        return np.random.default_rng([seed, code, index, k])

    layout = _layout(stream(0), size)
    scene = rasterise(layout)
    picture = render_photo(layout, stream(1))
    buffer = io.BytesIO()
    picture.save(buffer, format="JPEG", quality=JPEG_QUALITY)
    embodiments = choose_embodiments(stream(2), layout.task)
    planner = Planner(scene)
    truth: GroundTruth = {name: None for name in sorted(EMBODIMENTS)}
    for k, embodiment in enumerate(EMBODIMENTS):
        if embodiment not in embodiments:
            continue
        rng = stream(10 + k)
        goal = layout.camera.project(np.array([layout.task.goals[embodiment]]))[0]
        count = int(rng.choice(TRACE_COUNTS, p=TRACE_WEIGHTS))
        traces = planner.traces(embodiment, (float(goal[0]), float(goal[1])), count, rng)
        truth[embodiment] = [trace.tolist() for trace in traces]
    words = stream(3)
    city, country = place(words, layout.setting)
    return Sample(
        sample_id(split, index),
        instruction(words, layout),
        embodiments,
        buffer.getvalue(),
        scene.labels,
        truth,
        list(layout.task.categories),
        context(words, layout, city),
        metadata(layout, city, country),
    )


def _layout(rng: np.random.Generator, size: tuple[int, int]) -> Layout:
    width, height = size
    camera = make_camera(rng, width, height)
    pick = int(rng.choice(len(SCENES), p=[weight for _, _, weight in SCENES]))
    name, build, _ = SCENES[pick]
    lighting, weather = choose_conditions(rng, "Rural" if name in RURAL else "Urban")
    return build(rng, camera, lighting, weather)


def choose_embodiments(rng: np.random.Generator, task: Task) -> list[str]:
    """A non-empty subset of the embodiments that can do ``task``, in canonical order.

    Most samples get 2-4 (about 2.5 on average, as in NaviTrace: ~1,250 rows per 500 samples).
    """
    allowed = [e for e in EMBODIMENTS if e in task.goals]
    weights = {4: (0.08, 0.32, 0.40, 0.20), 3: (0.10, 0.38, 0.52)}.get(len(allowed))
    count = int(rng.choice(np.arange(1, len(allowed) + 1), p=weights)) if weights else len(allowed)
    chosen = set(rng.choice(allowed, size=count, replace=False).tolist())
    return [e for e in EMBODIMENTS if e in chosen]
