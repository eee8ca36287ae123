"""The answer-key cache does not depend on how the parquet files are cut: one row group, many,
groups of one row, several files, or the same files fetched from the Hub all give the same bytes."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import scoring.answer_key_build as answer_key_build
from scoring import AnswerKeyError, load_answer_key
from scoring.answer_key import write_checksums
from scoring.answer_key_build import build_cache
from scoring.answer_key_source import resolve_split
from tests.dataset_factory import write_dataset

CACHE_FILES = ("index.json", "masks.bin", "rasters.bin", "images.bin", "checksums.json")
COMMIT = "0123456789abcdef0123456789abcdef01234567"
# name: (rows per file, rows per row group); None is all of them
LAYOUTS = {"one group": (None, None), "groups of 2": (None, 2), "groups of 1": (None, 1), "3 files": (2, 1)}


def relayout(source: Path, split: str, out: Path, rows_per_file: int | None, rows_per_group: int | None) -> Path:
    """``source``'s split rewritten under ``out`` in the Hub layout, cut as asked; same schema and rows."""
    table = pq.read_table(sorted((source / "data").glob(f"{split}-*.parquet")))
    step = rows_per_file or table.num_rows
    parts = [table.slice(start, step) for start in range(0, table.num_rows, step)]
    (out / "data").mkdir(parents=True)
    for number, part in enumerate(parts):
        name = f"{split}-{number:05d}-of-{len(parts):05d}.parquet"
        pq.write_table(part, out / "data" / name, row_group_size=rows_per_group or max(1, part.num_rows))
    return out


def group_sizes(dataset: Path, split: str) -> list[list[int]]:
    """Rows of each row group of each file: ``[[6]]`` is one file of one group of 6 rows."""
    files = [pq.ParquetFile(path) for path in sorted((dataset / "data").glob(f"{split}-*.parquet"))]
    return [[f.metadata.row_group(g).num_rows for g in range(f.metadata.num_row_groups)] for f in files]


def built(dataset: Path, split: str, folder: Path) -> dict[str, bytes]:
    """Every file of the cache ``build_cache`` writes (before the dataset's name is added), checksummed."""
    folder.mkdir()
    build_cache(resolve_split(dataset, split), None, folder, None)
    write_checksums(folder)
    return {name: (folder / name).read_bytes() for name in CACHE_FILES}


@pytest.fixture(scope="module")
def wide_labels(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Labels beyond 255 from the fourth row on: the build restarts with int32 masks mid-file."""
    samples = []
    for number in range(5):
        mask = np.full((12, 16), 300 if number >= 3 else 7)
        mask[:, :3] = number
        truth = {"Human": [[[2.0, 11.0], [8.0, 1.0]]]}
        samples.append({"sample_id": f"w{number}", "mask": mask, "ground_truth": truth})
    return write_dataset(tmp_path_factory.mktemp("wide") / "d", "test", samples)


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@pytest.mark.parametrize("split", ["validation", "test"])
def test_every_layout_builds_the_same_cache(layout, split, demo_dataset, tmp_path):
    reference = built(demo_dataset, split, tmp_path / "reference")  # the synthetic writer's own groups of 4
    rows_per_file, rows_per_group = LAYOUTS[layout]
    cut = relayout(demo_dataset, split, tmp_path / "cut", rows_per_file, rows_per_group)
    sizes = group_sizes(cut, split)
    assert max(max(file) for file in sizes) == (rows_per_group or sum(map(sum, sizes)))
    assert built(cut, split, tmp_path / "cache") == reference


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_wide_labels_restart_alike_in_every_layout(layout, wide_labels, tmp_path):
    reference = built(wide_labels, "test", tmp_path / "reference")
    assert b'"mask_dtype": "int32"' in reference["index.json"]
    assert built(relayout(wide_labels, "test", tmp_path / "cut", *LAYOUTS[layout]), "test", tmp_path / "c") == reference


def test_batches_stay_small_in_a_single_row_group(demo_dataset, tmp_path, monkeypatch):
    cut = relayout(demo_dataset, "test", tmp_path / "cut", None, None)
    assert len(group_sizes(cut, "test")[0]) == 1
    sizes: list[int] = []
    real = answer_key_build._cache_row

    def spy(batch: pa.RecordBatch, *args):
        sizes.append(batch.num_rows)
        return real(batch, *args)

    monkeypatch.setattr(answer_key_build, "BATCH_ROWS", 2)
    monkeypatch.setattr(answer_key_build, "_cache_row", spy)
    built(cut, "test", tmp_path / "cache")
    assert sizes and max(sizes) == 2


class FakeDownloads:
    """``datasets.DownloadManager`` for an offline Hub: ``hf://`` URLs of one repo map to local files."""

    def __init__(self, files: dict[str, Path], calls: list) -> None:
        self.files, self.calls = files, calls

    def __call__(self, dataset_name=None, download_config=None, **kwargs):
        self.calls.append((dataset_name, download_config.token))
        return self

    def download(self, urls: list[str]) -> list[str]:
        return [str(self.files[url]) for url in urls]


def test_a_hub_dataset_is_downloaded_then_read_alike(demo_dataset, tmp_path, monkeypatch):
    import datasets

    cut = relayout(demo_dataset, "test", tmp_path / "cut", 4, None)  # two files, one row group each
    urls = {f"hf://datasets/org/navitrace@{COMMIT}/data/{p.name}": p for p in sorted((cut / "data").iterdir())}

    opened: list = []

    def load_dataset_builder(repo: str, token: str | None = None) -> SimpleNamespace:
        opened.append((repo, token))
        return SimpleNamespace(config=SimpleNamespace(data_files={"test": list(urls)}))

    monkeypatch.setattr(datasets, "load_dataset_builder", load_dataset_builder)
    calls: list = []
    monkeypatch.setattr(datasets, "DownloadManager", FakeDownloads(urls, calls))
    key = load_answer_key("org/navitrace", "test", tmp_path / "hub-cache", token="hf_secret")
    local = load_answer_key(demo_dataset, "test", tmp_path / "local-cache")

    assert (key.dataset, key.revision) == ("org/navitrace", COMMIT)
    assert opened == [("org/navitrace", "hf_secret")] and calls == [("org/navitrace", "hf_secret")]  # the token
    for name in ("masks.bin", "rasters.bin", "images.bin"):
        assert (key.folder / name).read_bytes() == (local.folder / name).read_bytes(), name
    assert [s.sample_id for s in key.samples] == [s.sample_id for s in local.samples]
    assert load_answer_key("org/navitrace", "test", tmp_path / "hub-cache", token="hf_secret").folder == key.folder
    assert len(calls) == 1  # the warm load resolves the commit again, but downloads nothing


@pytest.mark.parametrize("damage", ["a garbled page", "not parquet"])
def test_an_unreadable_file_is_a_clear_error_and_leaves_no_cache(damage, demo_dataset, tmp_path):
    cut = relayout(demo_dataset, "test", tmp_path / "cut", 2, 1)
    last = sorted((cut / "data").iterdir())[-1]  # the first files decode before the error
    data = bytearray(last.read_bytes())
    if damage == "a garbled page":  # the footer intact: the file opens, then a page header does not decode
        start = pq.ParquetFile(last).metadata.row_group(1).column(0).data_page_offset
        data[start : start + 64] = bytes(byte ^ 0xFF for byte in data[start : start + 64])
        expected = rf"cannot load split 'test' of dataset '{cut.resolve()}': {last.name}: .*page header"
    else:
        data[:] = b"sample_id\tembodiment\n"
        expected = rf"cannot load split 'test' of dataset '{cut.resolve()}': .*"
    last.write_bytes(bytes(data))
    with pytest.raises(AnswerKeyError, match=expected):
        load_answer_key(cut, "test", tmp_path / "cache")
    assert list((tmp_path / "cache" / "answer-keys").iterdir()) == []
