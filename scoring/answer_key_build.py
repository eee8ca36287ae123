"""Building the answer-key cache from a split's parquet files, a few rows at a time.

Each file is read with ``pyarrow.parquet.ParquetFile.iter_batches``: ``BATCH_ROWS`` rows per batch
and column chunks read through a small buffer, whatever the file's row groups. (A ``datasets``
stream decodes a whole row group at once, and a writer may put a whole split into one group: 500
masks at 1440x1080 are 6 GB of int64.) Nothing here holds more than three batches of decoded
masks (about 12 MB a mask as int64), so a 6 GB split builds in bounded memory whatever its layout:
under 700 MB of peak RSS for 500 scenes in ``benchmarks/bench_answer_key_build.py``.
"""

from __future__ import annotations

import io
import json
import queue
import threading
from collections.abc import Callable, Generator
from contextlib import ExitStack, closing
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from scoring.answer_key_source import SplitFiles
from scoring.errors import AnswerKeyError
from scoring.row import GroundTruth

BATCH_ROWS = 4
READ_BUFFER_BYTES = 1 << 20  # column chunks are read through this buffer, not whole (pre-buffering is off)
REQUIRED_COLUMNS = ("sample_id", "embodiments", "segmentation_mask", "ground_truth", "category", "metadata", "image")
OPTIONAL_COLUMNS = ("task",)


_END = object()  # after the last batch


class _WideLabels(Exception):
    """A mask holds labels outside 0..255: the build restarts with int32 masks."""


def build_cache(files: SplitFiles, token: str | None, folder: Path, progress: Callable | None) -> None:
    """Write ``masks.bin``, ``rasters.bin``, ``images.bin`` and ``index.json`` of ``files`` into ``folder``."""
    paths = files.local_paths(token)  # downloaded once, even if the build restarts
    try:
        _build(files, paths, folder, progress, np.dtype(np.uint8))
    except _WideLabels:
        _build(files, paths, folder, progress, np.dtype(np.int32))


def _build(files: SplitFiles, paths: list[Path], folder: Path, progress: Callable | None, dtype: np.dtype) -> None:
    entries: list[dict] = []
    any_truth = False
    with (
        open(folder / "masks.bin", "wb") as masks,
        open(folder / "rasters.bin", "wb") as rasters,
        open(folder / "images.bin", "wb") as images,
        closing(_batches(files, paths)) as batches,  # closes the files at once when the build restarts
    ):
        for batch, total in batches:
            for row in range(batch.num_rows):
                entry = _cache_row(batch, row, dtype, masks, rasters, images)
                any_truth = any_truth or entry["ground_truth"] is not None
                entries.append(entry)
                if progress:
                    progress(len(entries), total)
        sizes = {handle.name.rsplit("/", 1)[-1]: handle.tell() for handle in (masks, rasters, images)}
    index = {"mask_dtype": dtype.name, "has_ground_truth": any_truth, "file_sizes": sizes, "samples": entries}
    (folder / "index.json").write_text(json.dumps(index), "utf-8")


def _batches(files: SplitFiles, paths: list[Path]) -> Generator[tuple[pa.RecordBatch, int]]:
    """``(batch, total rows of the split)`` for every batch of every file, in dataset order."""
    where = f"split {files.split!r} of dataset {files.source!r}"
    with ExitStack() as stack:
        try:
            readers = [
                stack.enter_context(pq.ParquetFile(path, buffer_size=READ_BUFFER_BYTES, pre_buffer=False))
                for path in paths
            ]
        except (OSError, pa.ArrowException) as error:  # not parquet, truncated, unreadable
            raise AnswerKeyError(f"cannot load {where}: {_one_line(error)}") from error
        names = set(readers[0].schema_arrow.names).intersection(*(r.schema_arrow.names for r in readers))
        missing = [c for c in REQUIRED_COLUMNS if c not in names]
        if missing:
            raise AnswerKeyError(
                f"dataset {files.source!r} split {files.split!r} lacks column(s) {', '.join(missing)}: "
                "not the NaviTrace schema"
            )
        columns = [*REQUIRED_COLUMNS, *(c for c in OPTIONAL_COLUMNS if c in names)]
        total = sum(reader.metadata.num_rows for reader in readers)
        for batch in _read_ahead(_decoded(paths, readers, columns, where)):  # joined before the files close
            yield batch, total


def _decoded(
    paths: list[Path], readers: list[pq.ParquetFile], columns: list[str], where: str
) -> Generator[pa.RecordBatch]:
    for path, reader in zip(paths, readers):
        try:
            yield from reader.iter_batches(batch_size=BATCH_ROWS, columns=columns)
        except (OSError, pa.ArrowException) as error:  # a damaged page, a row group that does not decode
            raise AnswerKeyError(f"cannot load {where}: {path.name}: {_one_line(error)}") from error


def _one_line(error: BaseException) -> str:
    """pyarrow's message on one line (its parquet errors end lines within)."""
    return " ".join(str(error).split())


def _read_ahead(batches: Generator[pa.RecordBatch]) -> Generator[pa.RecordBatch]:
    """``batches``, the next one decoded in a thread while the caller works on this one.

    pyarrow decodes without the GIL, and decoding is about half of a build (the nested int64
    masks), the other half rasterising traces and writing: overlapped, a build takes about the
    longer of the two. At most three batches are alive: the caller's, one queued, one in hand.
    """
    queued: queue.Queue = queue.Queue(maxsize=1)
    stop = threading.Event()

    def put(item: object) -> bool:
        while not stop.is_set():
            try:
                queued.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def read() -> None:
        with closing(batches):
            try:
                for batch in batches:
                    if not put(batch):
                        return
            except BaseException as error:  # handed to the caller, raised there
                put(error)
                return
            put(_END)

    reader = threading.Thread(target=read, name="answer-key-read-ahead", daemon=True)
    reader.start()
    try:
        while (item := queued.get()) is not _END:
            if isinstance(item, BaseException):
                raise item
            yield item
    finally:
        stop.set()  # the caller stopped early (a restart, an error): the reader stops at its next put
        reader.join()


def _cache_row(batch: pa.RecordBatch, row: int, dtype: np.dtype, masks, rasters, images) -> dict:
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
