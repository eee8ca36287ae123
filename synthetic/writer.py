"""The NaviTrace schema, parquet shards in the Hub's layout, and the dataset card.

Shards are written with pyarrow directly, a few samples per row group, so memory stays
bounded by one row group whatever the split size. The schema carries the Hugging Face
features in its metadata (key ``huggingface``, as ``datasets`` writes it), so
``datasets.load_dataset`` decodes ``image`` as a PIL image, streaming or not.
"""

from __future__ import annotations

import math
from pathlib import Path
from types import TracebackType

import datasets
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import yaml

from synthetic.layout import EMBODIMENTS
from synthetic.sample import Sample

SHARD_SAMPLES = 64  # at most this many samples per parquet file
ROW_GROUP_SAMPLES = 4  # ~50 MB of decoded masks per row group at 1440x1080
METADATA_KEYS = (
    "city",
    "country",
    "lighting_conditions",
    "natural_structured",
    "task_type",
    "urban_rural",
    "weather_conditions",
)


def navitrace_features() -> datasets.Features:
    """The ``datasets`` features of NaviTrace (DATA.md), columns in the dataset's order."""
    trace_lists = datasets.List(datasets.List(datasets.List(datasets.Value("float64"))))
    return datasets.Features(
        {
            "sample_id": datasets.Value("string"),
            "task": datasets.Value("string"),
            "embodiments": datasets.List(datasets.Value("string")),
            "image": datasets.Image(),
            "segmentation_mask": datasets.List(datasets.List(datasets.Value("int64"))),
            "ground_truth": {name: trace_lists for name in sorted(EMBODIMENTS)},
            "category": datasets.List(datasets.Value("string")),
            "context": datasets.Value("string"),
            "metadata": {key: datasets.Value("string") for key in METADATA_KEYS},
        }
    )


def shard_names(split: str, samples: int) -> list[str]:
    """``{split}-00000-of-00003.parquet`` names for ``samples`` rows, as the Hub names them.

    >>> shard_names("test", 130)
    ['test-00000-of-00003.parquet', 'test-00001-of-00003.parquet', 'test-00002-of-00003.parquet']
    """
    count = max(1, math.ceil(samples / SHARD_SAMPLES))
    return [f"{split}-{i:05d}-of-{count:05d}.parquet" for i in range(count)]


def mask_column(masks: list[np.ndarray]) -> pa.Array:
    """``list<list<int64>>`` rows of ``H x W`` masks, built from flat buffers (no Python ints)."""
    flat = np.empty(sum(m.size for m in masks), dtype=np.int64)
    start = 0
    for m in masks:
        flat[start : start + m.size] = m.ravel()
        start += m.size
    values = pa.array(flat)
    widths = np.concatenate([np.full(m.shape[0], m.shape[1], dtype=np.int64) for m in masks])
    inner_offsets = np.concatenate(([0], np.cumsum(widths))).astype(np.int32)
    rows = pa.ListArray.from_arrays(pa.array(inner_offsets), values)
    outer_offsets = np.concatenate(([0], np.cumsum([m.shape[0] for m in masks]))).astype(np.int32)
    return pa.ListArray.from_arrays(pa.array(outer_offsets), rows)


def record_batch(samples: list[Sample], schema: pa.Schema, hide_truth: bool) -> pa.RecordBatch:
    """One row group; ``hide_truth`` writes ``ground_truth`` as null (the public test split)."""

    def column(name: str, values: list) -> pa.Array:
        return pa.array(values, type=schema.field(name).type)

    arrays = [
        column("sample_id", [s.sample_id for s in samples]),
        column("task", [s.task for s in samples]),
        column("embodiments", [s.embodiments for s in samples]),
        column("image", [{"bytes": s.image, "path": None} for s in samples]),
        mask_column([s.mask for s in samples]),
        column("ground_truth", [None if hide_truth else s.ground_truth for s in samples]),
        column("category", [s.category for s in samples]),
        column("context", [s.context for s in samples]),
        column("metadata", [s.metadata for s in samples]),
    ]
    return pa.RecordBatch.from_arrays(arrays, schema=schema)


class ShardWriter:
    """Writes samples to one parquet file, a row group every ``ROW_GROUP_SAMPLES`` samples."""

    def __init__(self, path: Path, hide_truth: bool) -> None:
        self.schema = navitrace_features().arrow_schema
        self.hide_truth = hide_truth
        self.pending: list[Sample] = []
        # Min/max statistics of 1.5 million mask values per row are never used: skip them.
        stats = [c for c in _leaf_columns(self.schema) if not c.startswith("segmentation_mask")]
        self.writer = pq.ParquetWriter(path, self.schema, compression="zstd", write_statistics=stats)

    def add(self, sample: Sample) -> None:
        self.pending.append(sample)
        if len(self.pending) >= ROW_GROUP_SAMPLES:
            self.flush()

    def flush(self) -> None:
        if self.pending:
            self.writer.write_batch(record_batch(self.pending, self.schema, self.hide_truth))
            self.pending = []

    def __enter__(self) -> ShardWriter:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if error is None:
            self.flush()
        self.writer.close()


def _leaf_columns(schema: pa.Schema) -> list[str]:
    """Parquet column paths of ``schema`` (lists as ``name.list.element``)."""

    def walk(name: str, kind: pa.DataType) -> list[str]:
        if pa.types.is_list(kind):
            return walk(f"{name}.list.element", kind.value_type)
        if pa.types.is_struct(kind):
            return [c for i in range(kind.num_fields) for c in walk(f"{name}.{kind.field(i).name}", kind.field(i).type)]
        return [name]

    return [c for field in schema for c in walk(field.name, field.type)]


def write_card(out_dir: Path, samples: int, size: tuple[int, int], seed: int, public: bool) -> None:
    """``README.md`` with the Hub's YAML front matter (configs, features, licence) and a description."""
    header = {
        "license": "cc-by-4.0",
        "pretty_name": "NaviTrace (synthetic demo)",
        "language": ["en"],
        "task_categories": ["visual-question-answering", "robotics"],
        "tags": ["image", "text", "navigation", "synthetic"],
        "size_categories": ["n<1K" if samples * 2 < 1000 else "1K<n<10K"],
        "dataset_info": {"features": navitrace_features()._to_yaml_list()},
        "configs": [
            {
                "config_name": "default",
                "data_files": [{"split": split, "path": f"data/{split}-*.parquet"} for split in ("validation", "test")],
            }
        ],
    }
    truth = "hidden (null) in the test split, as in the public NaviTrace copy" if public else "included in both splits"
    body = f"""# NaviTrace (synthetic demo)

A **synthetic** stand-in for [NaviTrace](https://huggingface.co/datasets/leggedrobotics/navitrace), generated by
`synthetic.write_demo_dataset` (seed {seed}, {samples} samples per split, {size[0]}x{size[1]} pixels).
The images are procedurally rendered street, square, park and countryside scenes, not photographs; the
segmentation masks are exact (they are what the images were drawn from); the traces were planned on those
masks with the benchmark's own penalty table and drawn with annotator-like noise. Ground truth is {truth}.

It has the exact schema and file layout of the real dataset, so tools can be developed and tested without
access to it. Scores measured on it say nothing about a model's navigation ability.

Licence: CC-BY-4.0, like NaviTrace.
"""
    text = "---\n" + yaml.safe_dump(header, sort_keys=False, allow_unicode=True) + "---\n\n" + body
    (out_dir / "README.md").write_text(text, encoding="utf-8")
