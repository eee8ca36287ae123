"""Giant hostile files, written on the fly (too big to keep): each writer streams to ``path`` in bounded memory.

Used by ``test_input_giants.py`` and ``benchmarks/fuzz_input.py``; every writer returns what
the file is, for messages. Sample ids are those of the tests' synthetic validation split.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import numpy as np

from scoring import MAX_FILE_BYTES
from scoring.answer_key import AnswerKey

HEADER = b"sample_id\tembodiment\tprediction\traw_response\n"
BLOCK = 1 << 20


def ten_million_rows(path: Path, rows: int = 10_000_000) -> str:
    """10 million short rows (about 180 MB): the size limit must refuse it unread."""
    row = b"val_0000\tHuman\t[]\t\n"
    per_block = BLOCK // len(row)
    with path.open("wb") as out:
        out.write(HEADER)
        for start in range(0, rows, per_block):
            out.write(row * min(per_block, rows - start))
    return f"{rows:,} rows, {path.stat().st_size / 2**20:.0f} MB"


def huge_raw_response(path: Path, key: AnswerKey, megabytes: int = 10) -> str:
    """A valid file whose first raw_response cell holds ``megabytes`` MB of model prose (quoted, with tabs)."""
    text = "The path goes left\tthen right.\n" * (megabytes * 2**20 // 31)
    rows = [(s.sample_id, e, "[[48, 71], [48, 0]]") for s, e in key.expected_rows()]
    with path.open("w", encoding="utf-8", newline="") as out:
        out.write(HEADER.decode())
        for index, (sample_id, embodiment, prediction) in enumerate(rows):
            cell = '"' + text + '"' if index == 0 else "ok"
            out.write(f"{sample_id}\t{embodiment}\t{prediction}\t{cell}\n")
    return f"a {len(text) / 2**20:.0f} MB raw_response cell"


def huge_prediction(path: Path, megabytes: int = 60) -> str:
    """One prediction cell of ``megabytes`` MB of points, just under the size limit: not decoded."""
    points = (megabytes * 2**20) // 6
    with path.open("wb") as out:
        out.write(b"sample_id\tembodiment\tprediction\nval_0000\tHuman\t[")
        chunk = b"[0,0],"
        per_block = BLOCK // len(chunk)
        for start in range(0, points - 1, per_block):
            out.write(chunk * min(per_block, points - 1 - start))
        out.write(b"[0,0]]\n")
    assert path.stat().st_size <= MAX_FILE_BYTES
    return f"a {path.stat().st_size / 2**20:.0f} MB prediction cell of {points:,} points"


def over_the_limit(path: Path) -> str:
    """A valid header and rows padded to one byte over ``MAX_FILE_BYTES``."""
    with path.open("wb") as out:
        out.write(HEADER)
        out.write(b"val_0000\tHuman\t[[48, 71], [48, 0]]\t")
        remaining = MAX_FILE_BYTES + 1 - out.tell() - 1
        while remaining > 0:
            out.write(b"x" * min(BLOCK, remaining))
            remaining -= BLOCK
        out.write(b"\n")
    return f"{path.stat().st_size:,} bytes"


def gzip_bomb(path: Path, gigabytes: int = 1) -> str:
    """About 1 MB of gzip inflating to ``gigabytes`` GiB of TSV rows: it must never be inflated.

    One compressed member of 1 MiB of rows, repeated: a gzip file may hold many members, and
    ``gzip.decompress`` would return them all concatenated.
    """
    rows = b"val_0000\tHuman\t[[48, 71], [48, 0]]\t\n" * (BLOCK // 36)
    member = gzip.compress(rows, compresslevel=9, mtime=0)
    with path.open("wb") as out:
        out.write(gzip.compress(HEADER, mtime=0))
        for _ in range(gigabytes * 2**30 // len(rows)):
            out.write(member)
    return f"{path.stat().st_size / 2**20:.1f} MB inflating to {gigabytes} GiB"


def worst_case_traces(path: Path, key: AnswerKey, points: int = 2000) -> str:
    """Every expected row answered with a valid ``points``-point zigzag across the whole image.

    The most work a valid row can ask for: DTW on points x points after resampling, and the
    longest possible drawn line (each segment crosses the image), so the most penalty pixels.
    """
    with path.open("w", encoding="utf-8", newline="") as out:
        out.write("sample_id\tembodiment\tprediction\n")
        for sample, embodiment in key.expected_rows():
            out.write(f"{sample.sample_id}\t{embodiment}\t{json.dumps(zigzag(sample.width, sample.height, points))}\n")
    return f"{sum(1 for _ in key.expected_rows())} rows of {points}-point zigzags"


def zigzag(width: int, height: int, points: int = 2000) -> list[list[float]]:
    x = np.where(np.arange(points) % 2 == 0, 0.0, width - 1.0)
    y = np.round(np.linspace(height - 1.0, 0.0, points), 2)
    return np.column_stack((x, y)).tolist()
