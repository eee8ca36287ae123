"""Building the answer-key cache from a dataset, one small Arrow batch at a time.

Nothing here holds more than a batch of decoded masks (about 12 MB each at 1440x1080 as
int64), so a 6 GB split builds in bounded memory.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pyarrow as pa

from scoring.row import GroundTruth

BATCH_ROWS = 4
REQUIRED_COLUMNS = ("sample_id", "embodiments", "segmentation_mask", "ground_truth", "category", "metadata", "image")


class _WideLabels(Exception):
    """A mask holds labels outside 0..255: the build restarts with int32 masks."""


def build_cache(source: str, split: str, token: str | None, folder: Path, progress: Callable | None) -> None:
    try:
        _build(source, split, token, folder, progress, np.dtype(np.uint8))
    except _WideLabels:
        _build(source, split, token, folder, progress, np.dtype(np.int32))


def _open_stream(source: str, split: str, token: str | None):
    from scoring.answer_key import AnswerKeyError

    try:
        stream = _streaming(source, split, token)
    except Exception as error:  # not found, no such split, unreadable files: all reported alike
        raise AnswerKeyError(f"cannot load split {split!r} of dataset {source!r}: {error}") from error
    missing = [c for c in REQUIRED_COLUMNS if c not in (stream.features or {})]
    if missing:
        raise AnswerKeyError(
            f"dataset {source!r} split {split!r} lacks column(s) {', '.join(missing)}: not the NaviTrace schema"
        )
    total = None
    if stream.info.splits and split in stream.info.splits:
        total = stream.info.splits[split].num_examples or None
    return stream.with_format("arrow"), total


def _streaming(source: str, split: str, token: str | None):
    """``datasets.load_dataset(source, split=split, streaming=True)``, never from a stale cached copy."""
    import datasets  # deferred: only a cache build needs it

    from scoring.answer_key import hub_dataset_builder

    if Path(source).is_dir():
        return datasets.load_dataset(source, split=split, streaming=True, token=token)
    return hub_dataset_builder(source, token).as_streaming_dataset(split=split)


def _build(
    source: str, split: str, token: str | None, folder: Path, progress: Callable | None, dtype: np.dtype
) -> None:
    stream, total = _open_stream(source, split, token)
    entries: list[dict] = []
    any_truth = False
    with (
        open(folder / "masks.bin", "wb") as masks,
        open(folder / "rasters.bin", "wb") as rasters,
        open(folder / "images.bin", "wb") as images,
    ):
        for batch in stream.iter(batch_size=BATCH_ROWS):
            for row in range(batch.num_rows):
                entry = _cache_row(batch, row, dtype, masks, rasters, images)
                any_truth = any_truth or entry["ground_truth"] is not None
                entries.append(entry)
                if progress:
                    progress(len(entries), total)
        sizes = {handle.name.rsplit("/", 1)[-1]: handle.tell() for handle in (masks, rasters, images)}
    index = {"mask_dtype": dtype.name, "has_ground_truth": any_truth, "file_sizes": sizes, "samples": entries}
    (folder / "index.json").write_text(json.dumps(index), "utf-8")


def _cache_row(batch: pa.Table, row: int, dtype: np.dtype, masks, rasters, images) -> dict:
    sample_id = batch.column("sample_id")[row].as_py()
    mask = _mask_array(batch.column("segmentation_mask")[row], sample_id)
    if dtype == np.uint8 and len(mask) and (mask.min() < 0 or mask.max() > 255):
        raise _WideLabels
    height, width = mask.shape
    mask_offset = masks.tell() // dtype.itemsize
    masks.write(np.ascontiguousarray(mask, dtype=dtype).tobytes())
    truth = batch.column("ground_truth")[row].as_py()
    spans: dict[str, list[list[int]]] = {}
    for embodiment, traces in (truth or {}).items():
        for points in traces or []:
            pixels = GroundTruth.from_points(np.asarray(points, np.float64), height, width).pixels
            start = rasters.tell() // 8
            rasters.write(pixels.astype(np.int32).tobytes())
            spans.setdefault(embodiment, []).append([start, start + len(pixels)])
    image_bytes = _image_bytes(batch.column("image")[row].as_py())
    image_start = images.tell()
    images.write(image_bytes)
    image_width, image_height = _image_size(image_bytes, (width, height))
    return {
        "sample_id": sample_id,
        "task": batch.column("task")[row].as_py() if "task" in batch.column_names else "",
        "embodiments": list(batch.column("embodiments")[row].as_py() or []),
        "category": list(batch.column("category")[row].as_py() or []),
        "metadata": {k: v for k, v in (batch.column("metadata")[row].as_py() or {}).items() if v is not None},
        "width": image_width,
        "height": image_height,
        "mask_offset": mask_offset,
        "mask_shape": [height, width],
        "ground_truth": {k: v for k, v in truth.items() if v is not None} if truth else None,
        "raster_spans": spans,
        "image_span": [image_start, len(image_bytes)],
    }


def _mask_array(cell: pa.Scalar, sample_id: str) -> np.ndarray:
    """An ``H x W`` int64 array from a list<list<int>> cell, without Python ints."""
    from scoring.answer_key import AnswerKeyError

    if not cell.is_valid:
        raise AnswerKeyError(f"sample {sample_id!r} has no segmentation_mask")
    rows = cell.values
    lengths = rows.value_lengths().to_numpy(zero_copy_only=False) if len(rows) else np.zeros(0, np.int64)
    if len(lengths) and (lengths != lengths[0]).any():
        raise AnswerKeyError(f"sample {sample_id!r}: segmentation_mask rows have different lengths")
    flat = rows.flatten().to_numpy(zero_copy_only=False)
    return flat.reshape(len(lengths), int(lengths[0]) if len(lengths) else 0)


def _image_bytes(image: dict | None) -> bytes:
    if not image:
        return b""
    if image.get("bytes"):
        return image["bytes"]
    if image.get("path") and Path(image["path"]).exists():
        return Path(image["path"]).read_bytes()
    return b""


def _image_size(data: bytes, fallback: tuple[int, int]) -> tuple[int, int]:
    """The image's (width, height) from its header; the mask's size when there is no image."""
    if not data:
        return fallback
    from PIL import Image

    with Image.open(io.BytesIO(data)) as image:
        return image.size
