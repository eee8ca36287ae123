"""The answer key: a split's ground truth in a compact on-disk cache.

Reads any dataset in the NaviTrace schema (a Hub repo id, private ones with a token, or a local
folder in the Hub layout ``data/{split}-*.parquet``; see ``answer_key_source``) a few rows at a
time whatever its row groups (``answer_key_build``), and keeps what scoring needs under ``cache_dir``:

    {cache_dir}/answer-keys/{key}/index.json      samples, traces, categories, metadata, sizes
                                  /masks.bin       every label mask, uint8 when all labels fit
                                  /rasters.bin     anti-aliased ground-truth rasters (int32 row, col)
                                  /images.bin      the image files as shipped (for the explorer)
                                  /checksums.json  SHA-256 of index.json, masks.bin and rasters.bin

``key`` hashes the dataset, the split and its revision (the Hub commit, or the content of the
local parquet files), so a changed dataset gets a new cache. Masks are memory-mapped: scoring
reads only the pages under the predicted lines.

A cache is built in a staging folder renamed into place, so it is whole or absent. Loading it
checks the checksums (and the sizes of every file): a damaged cache (a bad disk, a hand edit) is
rebuilt rather than scoring against garbled masks. The images only feed the explorer, so they
are checked by size alone (hashing them would double the load time). Hashing runs at about
1.5 GB/s on one core.
"""

from __future__ import annotations

import hashlib
import json
import logging
import shutil
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from scoring.answer_key_build import build_cache
from scoring.answer_key_source import SplitFiles, file_digest, resolve_split
from scoring.answer_key_source import dataset_revision as dataset_revision  # re-exported: its old home
from scoring.answer_key_source import local_split_files as local_split_files
from scoring.errors import AnswerKeyError
from scoring.row import GroundTruth

log = logging.getLogger(__name__)

CACHE_FORMAT = 3  # bump when the cache layout changes: old caches are then rebuilt
CHECKSUMS = "checksums.json"
CHECKED = ("index.json", "masks.bin", "rasters.bin")  # what scoring reads
Progress = Callable[[int, int | None], None]


@dataclass(frozen=True)
class Sample:
    """What the scorer knows of one scenario, besides its mask and traces."""

    sample_id: str
    embodiments: tuple[str, ...]
    category: tuple[str, ...]
    metadata: dict[str, str]
    width: int
    height: int
    task: str = ""
    ground_truth: dict[str, list[list[list[float]]]] | None = field(default=None, repr=False)


class AnswerKey:
    """A split's samples, masks and ground-truth traces, backed by the cache folder."""

    def __init__(self, folder: Path, verify: bool = True) -> None:
        """``verify=False`` skips the checksums: only for a cache this process has just built and hashed."""
        self.folder = Path(folder)
        if verify:
            verify_checksums(self.folder)
        index = json.loads((self.folder / "index.json").read_text("utf-8"))
        if index.get("format") != CACHE_FORMAT:
            raise AnswerKeyError(
                f"answer-key cache {self.folder} has format {index.get('format')}, expected {CACHE_FORMAT}"
            )
        self.dataset: str = index["dataset"]
        self.split: str = index["split"]
        self.revision: str = index["revision"]
        self.has_ground_truth: bool = index["has_ground_truth"]
        for name, size in index["file_sizes"].items():  # a truncated or missing file means a damaged cache
            if (self.folder / name).stat().st_size != size:
                raise AnswerKeyError(
                    f"{self.folder / name} has {(self.folder / name).stat().st_size} bytes, expected {size}"
                )
        self._entries: list[dict] = index["samples"]
        self._mask_dtype = np.dtype(index["mask_dtype"])
        self.samples: list[Sample] = [
            Sample(
                e["sample_id"],
                tuple(e["embodiments"]),
                tuple(e["category"]),
                dict(e["metadata"]),
                e["width"],
                e["height"],
                e.get("task", ""),
                e.get("ground_truth"),
            )
            for e in self._entries
        ]
        self._position = {s.sample_id: i for i, s in enumerate(self.samples)}

    def __len__(self) -> int:
        return len(self.samples)

    def __contains__(self, sample_id: object) -> bool:
        return sample_id in self._position

    def sample(self, sample_id: str) -> Sample:
        return self.samples[self._position[sample_id]]

    def expected_rows(self) -> Iterator[tuple[Sample, str]]:
        """Every (sample, embodiment) pair a complete submission answers, in dataset order."""
        for sample in self.samples:
            for embodiment in sample.embodiments:
                yield sample, embodiment

    @cached_property
    def _masks(self) -> np.memmap | None:
        path = self.folder / "masks.bin"
        return np.memmap(path, dtype=self._mask_dtype, mode="r") if path.stat().st_size else None

    @cached_property
    def _rasters(self) -> NDArray[np.int32]:
        path = self.folder / "rasters.bin"
        if not path.stat().st_size:
            return np.zeros((0, 2), np.int32)
        return np.memmap(path, dtype=np.int32, mode="r").reshape(-1, 2)

    def mask(self, sample_id: str) -> NDArray[np.integer]:
        """The ``H x W`` label mask, memory-mapped (read-only)."""
        entry = self._entries[self._position[sample_id]]
        start, (height, width) = entry["mask_offset"], entry["mask_shape"]
        assert self._masks is not None
        return self._masks[start : start + height * width].reshape(height, width)

    def truths(self, sample_id: str, embodiment: str) -> list[GroundTruth]:
        """The ground-truth traces of one row with their precomputed rasters, in dataset order."""
        entry = self._entries[self._position[sample_id]]
        traces = (entry.get("ground_truth") or {}).get(embodiment) or []
        spans = entry["raster_spans"].get(embodiment, [])
        return [
            GroundTruth(np.asarray(points, dtype=np.float64).reshape(-1, 2), np.asarray(self._rasters[a:b], np.int64))
            for points, (a, b) in zip(traces, spans)
        ]

    def image_bytes(self, sample_id: str) -> bytes:
        entry = self._entries[self._position[sample_id]]
        start, length = entry["image_span"]
        with open(self.folder / "images.bin", "rb") as handle:
            handle.seek(start)
            return handle.read(length)


def load_answer_key(
    dataset: str | Path,
    split: str,
    cache_dir: str | Path,
    token: str | None = None,
    progress: Progress | None = None,
) -> AnswerKey:
    """The answer key of ``split`` of ``dataset`` (a Hub repo id or a local folder), cached.

    A missing or damaged cache is (re)built; ``progress(done, total)`` reports the build.
    """
    return cached_answer_key(resolve_split(dataset, split, token), cache_dir, token, progress)


def cached_answer_key(
    files: SplitFiles, cache_dir: str | Path, token: str | None = None, progress: Progress | None = None
) -> AnswerKey:
    """The answer key of a split already resolved (``resolve_split``): from the cache, or built into it.

    The second half of ``load_answer_key``, apart so that a caller retrying Hub failures can retry
    the download of a Hub dataset's files without resolving the split again.
    """
    named = json.dumps([CACHE_FORMAT, files.source, files.split, files.revision])
    key = hashlib.sha256(named.encode()).hexdigest()[:24]
    root = Path(cache_dir) / "answer-keys"
    folder = root / key
    if folder.exists():
        try:
            return AnswerKey(folder)
        except (OSError, ValueError, KeyError, AnswerKeyError) as error:
            log.warning("answer-key cache %s is damaged (%s); rebuilding it", folder, error)
            shutil.rmtree(folder, ignore_errors=True)
    try:
        _build_into(folder, files, token, progress)
    except OSError as error:  # mostly a full disk: say which cache, not which staging file
        raise OSError(error.errno, f"cannot build the answer-key cache in {root}: {error.strerror or error}") from error
    # Just built and hashed (by this process, or by one that won the rename race a moment ago):
    # hashing it again would read every mask twice on the cold path.
    return AnswerKey(folder, verify=False)


def _build_into(folder: Path, files: SplitFiles, token: str | None, progress: Progress | None) -> None:
    folder.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{folder.name}-", dir=folder.parent))
    try:
        build_cache(files, token, staging, progress)
        index_path = staging / "index.json"
        index = json.loads(index_path.read_text("utf-8"))
        index.update(format=CACHE_FORMAT, dataset=files.source, split=files.split, revision=files.revision)
        index_path.write_text(json.dumps(index), "utf-8")
        write_checksums(staging)
        try:
            staging.rename(folder)  # atomic: readers see a whole cache or none
        except OSError:
            if not folder.exists():
                raise
            log.info("another process built %s first; using its copy", folder)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def write_checksums(folder: Path) -> None:
    sums = {name: file_digest(folder / name) for name in CHECKED}
    (folder / CHECKSUMS).write_text(json.dumps(sums), "utf-8")


def verify_checksums(folder: Path) -> None:
    """``AnswerKeyError`` naming the first file whose content is not what was built."""
    try:
        sums = json.loads((folder / CHECKSUMS).read_text("utf-8"))
    except (OSError, ValueError) as error:
        raise AnswerKeyError(f"answer-key cache {folder} has no readable {CHECKSUMS}: {error}") from error
    for name in CHECKED:
        if file_digest(folder / name) != sums.get(name):
            raise AnswerKeyError(f"{folder / name} does not match its checksum: the file is damaged")
