"""Tiny hand-made datasets in the NaviTrace schema, for cases the synthetic generator never makes."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
from PIL import Image

EMBODIMENTS = ("Bicycle", "Human", "Legged Robot", "Wheeled Robot")
METADATA = (
    "city",
    "country",
    "lighting_conditions",
    "natural_structured",
    "task_type",
    "urban_rural",
    "weather_conditions",
)


def navitrace_features():
    from datasets import Features, List, Value
    from datasets import Image as ImageFeature

    trace = List(List(List(Value("float64"))))
    return Features(
        {
            "sample_id": Value("string"),
            "task": Value("string"),
            "embodiments": List(Value("string")),
            "image": ImageFeature(),
            "segmentation_mask": List(List(Value("int64"))),
            "ground_truth": {e: trace for e in EMBODIMENTS},
            "category": List(Value("string")),
            "context": Value("string"),
            "metadata": {k: Value("string") for k in METADATA},
        }
    )


def write_dataset(folder: Path, split: str, samples: list[dict]) -> Path:
    """Write ``samples`` (dicts with sample_id, mask, ground_truth, optional others) as a split."""
    import datasets

    columns: dict[str, list] = {name: [] for name in navitrace_features()}
    for sample in samples:
        mask = np.asarray(sample["mask"])
        image = io.BytesIO()
        Image.fromarray(np.zeros((*mask.shape, 3), np.uint8)).save(image, "PNG")
        truth = {e: None for e in EMBODIMENTS} | sample["ground_truth"]
        columns["sample_id"].append(sample["sample_id"])
        columns["task"].append(sample.get("task", "Go forward"))
        columns["embodiments"].append(sample.get("embodiments", [e for e in EMBODIMENTS if truth[e] is not None]))
        columns["image"].append({"bytes": image.getvalue(), "path": None})
        columns["segmentation_mask"].append(mask.tolist())
        columns["ground_truth"].append(truth)
        columns["category"].append(sample.get("category", ["Semantic Terrain"]))
        columns["context"].append(sample.get("context", ""))
        columns["metadata"].append({k: sample.get("metadata", {}).get(k, "x") for k in METADATA})
    (folder / "data").mkdir(parents=True, exist_ok=True)
    path = folder / "data" / f"{split}-00000-of-00001.parquet"
    datasets.Dataset.from_dict(columns, features=navitrace_features()).to_parquet(str(path))
    return folder
