"""The answer key: a split's ground truth in a compact on-disk cache.

Loads any dataset in the NaviTrace schema through ``datasets.load_dataset`` (a Hub repo id,
private ones with a token, or a local folder in the Hub layout ``data/{split}-*.parquet``),
streaming so memory stays bounded, and keeps what scoring needs under ``cache_dir``:

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
from typing import Any

import numpy as np
from numpy.typing import NDArray

from scoring.answer_key_build import build_cache
from scoring.row import GroundTruth

log = logging.getLogger(__name__)

CACHE_FORMAT = 3  # bump when the cache layout changes: old caches are then rebuilt
CHECKSUMS = "checksums.json"
CHECKED = ("index.json", "masks.bin", "rasters.bin")  # what scoring reads
Progress = Callable[[int, int | None], None]


class AnswerKeyError(Exception):
    """The dataset cannot be used as an answer key (not found, wrong schema, no ground truth)."""


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
    source, revision = dataset_revision(dataset, split, token)
    key = hashlib.sha256(json.dumps([CACHE_FORMAT, source, split, revision]).encode()).hexdigest()[:24]
    root = Path(cache_dir) / "answer-keys"
    folder = root / key
    if folder.exists():
        try:
            return AnswerKey(folder)
        except (OSError, ValueError, KeyError, AnswerKeyError) as error:
            log.warning("answer-key cache %s is damaged (%s); rebuilding it", folder, error)
            shutil.rmtree(folder, ignore_errors=True)
    try:
        _build_into(folder, source, split, revision, token, progress)
    except OSError as error:  # mostly a full disk: say which cache, not which staging file
        raise OSError(error.errno, f"cannot build the answer-key cache in {root}: {error.strerror or error}") from error
    # Just built and hashed (by this process, or by one that won the rename race a moment ago):
    # hashing it again would read every mask twice on the cold path.
    return AnswerKey(folder, verify=False)


def _build_into(
    folder: Path, source: str, split: str, revision: str, token: str | None, progress: Progress | None
) -> None:
    folder.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{folder.name}-", dir=folder.parent))
    try:
        build_cache(source, split, token, staging, progress)
        index_path = staging / "index.json"
        index = json.loads(index_path.read_text("utf-8"))
        index.update(format=CACHE_FORMAT, dataset=source, split=split, revision=revision)
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
    sums = {name: _file_digest(folder / name) for name in CHECKED}
    (folder / CHECKSUMS).write_text(json.dumps(sums), "utf-8")


def verify_checksums(folder: Path) -> None:
    """``AnswerKeyError`` naming the first file whose content is not what was built."""
    try:
        sums = json.loads((folder / CHECKSUMS).read_text("utf-8"))
    except (OSError, ValueError) as error:
        raise AnswerKeyError(f"answer-key cache {folder} has no readable {CHECKSUMS}: {error}") from error
    for name in CHECKED:
        if _file_digest(folder / name) != sums.get(name):
            raise AnswerKeyError(f"{folder / name} does not match its checksum: the file is damaged")


def dataset_revision(dataset: str | Path, split: str, token: str | None = None) -> tuple[str, str]:
    """``(source, revision)``: the Hub commit of a repo id, or a content hash of a local folder."""
    path = Path(dataset).expanduser()
    if path.exists():
        files = local_split_files(path, split)
        digest = hashlib.sha256()
        for file in files:
            digest.update(file.name.encode())
            digest.update(_file_digest(file).encode())
        return str(path.resolve()), "sha256:" + digest.hexdigest()[:16]
    return str(dataset), _hub_revision(str(dataset), split, token)


def local_split_files(folder: Path, split: str) -> list[Path]:
    files = sorted((folder / "data").glob(f"{split}-*.parquet"))
    if not files:
        raise AnswerKeyError(f"no data/{split}-*.parquet in {folder}: expected a dataset in the Hub layout")
    return files


def _file_digest(file: Path) -> str:
    digest = hashlib.sha256()
    with open(file, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _hub_revision(repo_id: str, split: str, token: str | None) -> str:
    """The commit the Hub resolves ``repo_id`` to, read off the data files ``datasets`` resolved."""
    builder = hub_dataset_builder(repo_id, token)
    files = (builder.config.data_files or {}).get(split) or []
    for name in files:
        if "@" in str(name):
            return str(name).split("@", 1)[1].split("/", 1)[0]
    if not files:
        raise AnswerKeyError(f"dataset {repo_id!r} has no split {split!r}")
    return "files:" + hashlib.sha256("\n".join(map(str, files)).encode()).hexdigest()[:16]


def hub_dataset_builder(repo_id: str, token: str | None) -> Any:
    """``datasets.load_dataset_builder(repo_id)``, or ``AnswerKeyError`` saying why it cannot be opened.

    When the Hub refuses the request (a wrong token) or fails, ``datasets`` may quietly fall back to
    the newest copy in its local cache: a builder with no data files, whose stream serves the old
    rows. That copy is refused here with the Hub's reason (asked again, once), so an answer key is
    never built from stale rows and a wrong token reads "not authorised", not "has no split".
    """
    import datasets  # deferred: a second of import time the warm local path does not need
    from datasets.packaged_modules.cache.cache import Cache
    from huggingface_hub import HfApi

    try:
        builder = datasets.load_dataset_builder(repo_id, token=token)
    except Exception as error:  # datasets raises many types for "cannot reach / no such repo"
        raise AnswerKeyError(f"cannot open dataset {repo_id!r}: {_hub_refusal(error)}") from error
    if not isinstance(builder, Cache):
        return builder
    stale = "only an old local copy is cached, and it is never scored against"
    try:
        HfApi(token=token).dataset_info(repo_id)
    except Exception as error:
        raise AnswerKeyError(f"cannot open dataset {repo_id!r}: {_hub_refusal(error)}; {stale}") from error
    raise AnswerKeyError(f"cannot open dataset {repo_id!r}: the Hub did not serve it just now; {stale}")


def _hub_refusal(error: BaseException) -> str:
    """ "not authorised" when the Hub refused (401, 403, or a repository it will not name); else the error."""
    from datasets.exceptions import DatasetNotFoundError
    from huggingface_hub.errors import HfHubHTTPError, RepositoryNotFoundError

    cause: BaseException | None = error
    for _ in range(8):  # a chain is short; the bound guards against a cycle
        if cause is None:
            break
        status = cause.response.status_code if isinstance(cause, HfHubHTTPError) else None
        if isinstance(cause, RepositoryNotFoundError | DatasetNotFoundError) or status in (401, 403):
            return "not authorised, or no such dataset on the Hub (check that HF_TOKEN can read it)"
        cause = cause.__cause__ or cause.__context__
    return " ".join(str(error).split())
