"""The synthetic NaviTrace dataset: schema, Hub layout, determinism, public copy, sane traces."""

from __future__ import annotations

import io
import re
from pathlib import Path

import datasets
import numpy as np
import pyarrow.parquet as pq
import pytest
import yaml
from PIL import Image

from synthetic import labels as L
from synthetic import write_demo_dataset
from synthetic.sample import make_sample
from synthetic.text import CATEGORIES

WIDTH, HEIGHT = 160, 120
SAMPLES = 8
EMBODIMENTS = ("Human", "Legged Robot", "Wheeled Robot", "Bicycle")
# DATA.md, written out by hand so that the generator's own definition is what is checked.
TRACES = datasets.List(datasets.List(datasets.List(datasets.Value("float64"))))
EXPECTED = datasets.Features(
    {
        "sample_id": datasets.Value("string"),
        "task": datasets.Value("string"),
        "embodiments": datasets.List(datasets.Value("string")),
        "image": datasets.Image(),
        "segmentation_mask": datasets.List(datasets.List(datasets.Value("int64"))),
        "ground_truth": {"Bicycle": TRACES, "Human": TRACES, "Legged Robot": TRACES, "Wheeled Robot": TRACES},
        "category": datasets.List(datasets.Value("string")),
        "context": datasets.Value("string"),
        "metadata": {
            key: datasets.Value("string")
            for key in (
                "city",
                "country",
                "lighting_conditions",
                "natural_structured",
                "task_type",
                "urban_rural",
                "weather_conditions",
            )
        },
    }
)


@pytest.fixture(scope="module")
def private(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_demo_dataset(tmp_path_factory.mktemp("private"), SAMPLES, (WIDTH, HEIGHT), seed=0)


@pytest.fixture(scope="module")
def public(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_demo_dataset(tmp_path_factory.mktemp("public"), SAMPLES, (WIDTH, HEIGHT), seed=0, public=True)


def rows(folder: Path, split: str) -> list[dict]:
    return [
        row for path in sorted((folder / "data").glob(f"{split}-*.parquet")) for row in pq.read_table(path).to_pylist()
    ]


def test_layout_and_card_follow_the_hub(private: Path) -> None:
    names = sorted(p.name for p in (private / "data").iterdir())
    assert names == ["test-00000-of-00001.parquet", "validation-00000-of-00001.parquet"]
    front = (private / "README.md").read_text("utf-8").split("---\n")[1]
    card = yaml.safe_load(front)
    assert card["license"] == "cc-by-4.0"
    assert card["configs"] == [
        {
            "config_name": "default",
            "data_files": [
                {"split": "validation", "path": "data/validation-*.parquet"},
                {"split": "test", "path": "data/test-*.parquet"},
            ],
        }
    ]
    assert "synthetic" in (private / "README.md").read_text("utf-8").lower()


def test_shards_hold_at_most_64_samples(tmp_path: Path) -> None:
    from synthetic.writer import shard_names

    assert shard_names("test", 500)[0] == "test-00000-of-00008.parquet"
    assert shard_names("test", 500)[-1] == "test-00007-of-00008.parquet"
    assert len(shard_names("validation", 64)) == 1 and len(shard_names("validation", 65)) == 2


def test_schema_is_the_navitrace_schema(private: Path) -> None:
    for path in (private / "data").glob("*.parquet"):
        schema = pq.read_schema(path)
        assert schema.names == list(EXPECTED)
        assert datasets.Features.from_arrow_schema(schema) == EXPECTED
        assert schema.equals(EXPECTED.arrow_schema, check_metadata=False)


def test_load_dataset_reads_it_streaming_or_not(private: Path, tmp_path: Path) -> None:
    loaded = datasets.load_dataset(str(private), split="test", cache_dir=str(tmp_path / "cache"))
    assert loaded.features == EXPECTED and len(loaded) == SAMPLES
    streamed = datasets.load_dataset(str(private), split="validation", streaming=True)
    first = next(iter(streamed))
    assert streamed.features == EXPECTED
    assert isinstance(first["image"], Image.Image) and first["image"].size == (WIDTH, HEIGHT)
    assert first["sample_id"] == "val_0000"


def test_sample_ids_and_progress(tmp_path: Path) -> None:
    calls: list[tuple[int, int]] = []
    folder = write_demo_dataset(
        tmp_path / "ids", 3, (WIDTH, HEIGHT), seed=5, progress=lambda d, t: calls.append((d, t))
    )
    assert calls == [(k, 6) for k in range(1, 7)]
    assert [r["sample_id"] for r in rows(folder, "validation")] == ["val_0000", "val_0001", "val_0002"]
    assert [r["sample_id"] for r in rows(folder, "test")] == ["test_0000", "test_0001", "test_0002"]


def test_same_seed_same_bytes_and_sample_independent_of_count(private: Path, tmp_path: Path) -> None:
    again = write_demo_dataset(tmp_path / "again", SAMPLES, (WIDTH, HEIGHT), seed=0)
    for path in (private / "data").glob("*.parquet"):
        assert (again / "data" / path.name).read_bytes() == path.read_bytes()
    fewer = write_demo_dataset(tmp_path / "fewer", 3, (WIDTH, HEIGHT), seed=0)
    assert rows(fewer, "test") == rows(private, "test")[:3]
    other = write_demo_dataset(tmp_path / "other", 3, (WIDTH, HEIGHT), seed=1)
    assert rows(other, "test") != rows(private, "test")[:3]


def test_worker_processes_change_nothing(private: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from synthetic import generate

    monkeypatch.setattr(generate, "PARALLEL_PIXELS", 0)  # use the process pool even for a tiny job
    pooled = write_demo_dataset(tmp_path / "pooled", SAMPLES, (WIDTH, HEIGHT), seed=0)
    for path in (private / "data").glob("*.parquet"):
        assert (pooled / "data" / path.name).read_bytes() == path.read_bytes()


def test_public_copy_hides_only_the_test_ground_truth(private: Path, public: Path) -> None:
    assert all(r["ground_truth"] is None for r in rows(public, "test"))
    assert all(r["ground_truth"] is not None for r in rows(public, "validation"))
    assert rows(public, "validation") == rows(private, "validation")
    hidden = [{k: v for k, v in r.items() if k != "ground_truth"} for r in rows(public, "test")]
    assert hidden == [{k: v for k, v in r.items() if k != "ground_truth"} for r in rows(private, "test")]


def test_rows_are_well_formed(private: Path) -> None:
    for split in ("validation", "test"):
        for row in rows(private, split):
            image = Image.open(io.BytesIO(row["image"]["bytes"]))
            mask = np.asarray(row["segmentation_mask"])
            assert image.format == "JPEG" and mask.shape == (image.height, image.width) == (HEIGHT, WIDTH)
            assert mask.min() >= 0 and mask.max() <= 64
            assert row["embodiments"] and row["embodiments"] == [e for e in EMBODIMENTS if e in row["embodiments"]]
            assert row["category"] and set(row["category"]) <= set(CATEGORIES)
            assert row["task"] and row["context"].endswith(".")
            assert row["metadata"]["urban_rural"] in ("Urban", "Rural")
            assert row["metadata"]["lighting_conditions"] in ("Day", "Dusk", "Night")
            for embodiment in EMBODIMENTS:
                traces = row["ground_truth"][embodiment]
                if embodiment not in row["embodiments"]:
                    assert traces is None
                    continue
                assert 1 <= len(traces) <= 3
                for trace in traces:
                    points = np.asarray(trace)
                    assert 6 <= len(points) <= 40
                    assert (points >= 0).all() and (points[:, 0] <= WIDTH - 1).all()
                    assert (points[:, 1] <= HEIGHT - 1).all()


def test_embodiment_counts_look_like_navitrace() -> None:
    from synthetic.layout import Task
    from synthetic.sample import choose_embodiments

    task = Task("follow", "Directional", ["Semantic Terrain"], {e: (0.0, 0.0, 1.0) for e in EMBODIMENTS})
    counts = [len(choose_embodiments(np.random.default_rng(k), task)) for k in range(400)]
    assert 2.3 < np.mean(counts) < 2.9  # NaviTrace: about 1,250 rows for 500 samples


ROAD = {L.ROAD, L.BIKE_LANE, L.PARKING, L.LANE_MARKING, L.MANHOLE}
RIDEABLE = ROAD | {L.CROSSWALK_PLAIN, L.CROSSWALK_MARKING, L.CURB_CUT, L.SAND, L.PEDESTRIAN_AREA}


def _on_labels(trace: list[list[float]], mask: np.ndarray, wanted: set[int]) -> tuple[int, int]:
    """(points on ``wanted`` labels, points) over the trace densified to ~1 point per 2 px."""
    points = np.asarray(trace)
    dense = [
        a + (b - a) * t
        for a, b in zip(points[:-1], points[1:])
        for t in np.linspace(0, 1, max(2, int(np.hypot(*(b - a)) / 2)), endpoint=False)
    ]
    cols, rows_ = np.asarray(dense).round().astype(int).T
    hits = np.isin(mask[rows_, cols], list(wanted))
    return int(hits.sum()), hits.size


@pytest.fixture(scope="module")
def street_samples() -> list:
    return [make_sample("validation", i, 3, (WIDTH, HEIGHT)) for i in range(30)]


def test_bicycles_ride_and_people_walk(street_samples: list) -> None:
    ride = walk = (0, 0)  # (points on the wanted labels, points)
    for sample in street_samples:
        truth = sample.ground_truth
        for trace in truth["Bicycle"] or []:
            # The first half often crosses the sidewalk the photo was taken from, and near the
            # camera a few metres span half the image: judge where the bicycle goes.
            hits, total = _on_labels(trace[len(trace) // 2 :], sample.mask, RIDEABLE)
            ride = (ride[0] + hits, ride[1] + total)
        for trace in (truth["Human"] or []) if sample.metadata["urban_rural"] == "Urban" else []:
            hits, total = _on_labels(trace, sample.mask, ROAD)
            walk = (walk[0] + hits, walk[1] + total)
    assert ride[1] > 100 and walk[1] > 300
    assert ride[0] / ride[1] > 0.7, "bicycles should mostly ride on roads, bike lanes and paths"
    assert walk[0] / walk[1] < 0.15, "in towns people should keep off the road except at crossings"


def test_ids_are_zero_padded() -> None:
    sample = make_sample("test", 7, 0, (64, 48))
    assert re.fullmatch(r"test_\d{4}", sample.sample_id) and sample.sample_id == "test_0007"


def test_the_derived_public_copy_equals_a_generated_one(tmp_path, demo_dataset, demo_public):
    import pyarrow.parquet as pq

    from synthetic.public_copy import write_public_copy
    from tests.conftest import DEMO_SAMPLES, DEMO_SIZE

    derived = write_public_copy(demo_dataset, tmp_path / "public", DEMO_SAMPLES, DEMO_SIZE, seed=0)
    names = sorted(p.name for p in (demo_public / "data").glob("*.parquet"))
    assert names == sorted(p.name for p in (derived / "data").glob("*.parquet"))
    for name in names:
        generated, made = pq.read_table(demo_public / "data" / name), pq.read_table(derived / "data" / name)
        assert made.schema.equals(generated.schema, check_metadata=True), name
        assert made.equals(generated), name
    assert (derived / "README.md").read_text() == (demo_public / "README.md").read_text()
    (test_shard,) = [name for name in names if name.startswith("test-")]
    truth = pq.read_table(derived / "data" / test_shard).column("ground_truth")
    assert truth.null_count == len(truth) > 0
