"""``write_demo_dataset``: both splits of the synthetic dataset, as parquet shards and a dataset card."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from synthetic.generate import SampleMaker
from synthetic.writer import ShardWriter, shard_names, write_card

SPLIT_NAMES = ("validation", "test")


def write_demo_dataset(
    out_dir: str | Path,
    samples: int = 24,
    size: tuple[int, int] = (640, 480),
    seed: int = 0,
    public: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> Path:
    """Write ``samples`` samples per split to ``out_dir/data/{split}-*.parquet`` and a card.

    ``size`` is (width, height) in pixels. ``public=True`` writes the copy the public sees:
    the test split's ``ground_truth`` is null. ``progress(done, total)`` is called after
    each sample. Parquet files of these splits already in ``out_dir/data`` are replaced.
    Returns ``out_dir`` as a ``Path``.
    """
    if samples < 1:
        raise ValueError(f"samples: expected a whole number of at least 1, but got {samples!r}")
    width, height = size
    if width < 32 or height < 32:
        raise ValueError(f"size: expected (width, height) of at least 32 x 32 pixels, but got {size!r}")
    out = Path(out_dir)
    data = out / "data"
    data.mkdir(parents=True, exist_ok=True)
    for split in SPLIT_NAMES:
        for stale in data.glob(f"{split}-*.parquet"):
            stale.unlink()
    total, done = samples * len(SPLIT_NAMES), 0
    with SampleMaker(seed, (width, height), total) as maker:
        for split in SPLIT_NAMES:
            names = shard_names(split, samples)
            per_shard = -(-samples // len(names))
            for number, name in enumerate(names):
                indices = range(number * per_shard, min((number + 1) * per_shard, samples))
                with ShardWriter(data / name, hide_truth=public and split == "test") as writer:
                    for sample in maker.samples(split, indices):
                        writer.add(sample)
                        done += 1
                        if progress is not None:
                            progress(done, total)
    write_card(out, samples, (width, height), seed, public)
    return out
