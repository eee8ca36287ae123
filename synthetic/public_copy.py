"""The public copy of a synthetic dataset, derived from the private one instead of generated again.

Rendering is the expensive part of a synthetic dataset and the two copies differ only in the test
split's ``ground_truth`` (null in the public one), so the app's first start renders once and
derives the other copy: the validation shards are copied byte for byte and the test shards are
rewritten with that column null, with the same schema and Hugging Face features metadata.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from synthetic.writer import write_card


def write_public_copy(private: str | Path, out_dir: str | Path, samples: int, size: tuple[int, int], seed: int) -> Path:
    """Write the public copy of the synthetic dataset in ``private`` to ``out_dir``; returns ``out_dir``.

    ``samples``, ``size`` and ``seed`` are those ``private`` was generated with (for the card).
    """
    source, out = Path(private) / "data", Path(out_dir)
    data = out / "data"
    data.mkdir(parents=True, exist_ok=True)
    for shard in sorted(source.glob("*.parquet")):
        if shard.name.startswith("test-"):
            table = pq.read_table(shard)
            column = table.schema.get_field_index("ground_truth")
            field = table.schema.field(column)
            table = table.set_column(column, field, pa.nulls(table.num_rows, field.type))
            pq.write_table(table, data / shard.name, compression="zstd")
        else:
            shutil.copyfile(shard, data / shard.name)
    write_card(out, samples, size, seed, public=True)
    return out
