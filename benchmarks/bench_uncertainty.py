"""Confidence intervals and rank ranges for a full board, as the table rebuild computes them.

    .venv/bin/python benchmarks/bench_uncertainty.py                    # 200 entries x 1,249 rows
    .venv/bin/python benchmarks/bench_uncertainty.py --entries 50 --repeat 5

The rows are shaped like the real test split (DATA.md: 500 scenes, 1,249 rows, i.e. 1 to 4
embodiments a scene, ~2.5 on average), with some invalid and missing rows. Each entry's rows are
stored as the worker writes them (``results.rows_tsv`` text). Prints, per stage, the wall time of
the median run and the process's peak RSS:

- parse: the rows TSV of every entry to per-scene totals (a cold rebuild; the publisher keeps the
  totals afterwards, so a rebuild after one new result parses one file);
- intervals: the paired resamples, ``score_ci``, ``per_embodiment_ci`` and ``rank_range`` of every
  entry (``uncertainty_table.with_uncertainty``), first with fresh totals (cold: target <= 2 s in
  all), then again with the totals kept (what a rebuild after a new result pays).
"""

from __future__ import annotations

import argparse
import csv
import io
import resource
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from leaderboard.statistics.uncertainty import scene_totals  # noqa: E402
from leaderboard.statistics.uncertainty_table import with_uncertainty  # noqa: E402
from scoring.evaluate import ROW_COLUMNS  # noqa: E402
from scoring.penalty_table import EMBODIMENTS  # noqa: E402

SCENES, ROWS = 500, 1249


def scene_embodiments(rng: np.random.Generator) -> list[tuple[str, str]]:
    """(sample id, embodiment) pairs: ``SCENES`` scenes holding ``ROWS`` rows, 1 to 4 per scene."""
    per_scene = np.ones(SCENES, dtype=int)
    extra = rng.choice(np.repeat(np.arange(SCENES), 3), size=ROWS - SCENES, replace=False)
    np.add.at(per_scene, extra, 1)
    return [(f"test_{s:04d}", e) for s in range(SCENES) for e in EMBODIMENTS[: per_scene[s]]]


def rows_tsv(pairs: list[tuple[str, str]], rng: np.random.Generator, skill: float) -> str:
    out = io.StringIO()
    writer = csv.writer(out, delimiter="\t", lineterminator="\n")
    writer.writerow(ROW_COLUMNS)
    difficulty = {sample: rng.normal(0, 15) for sample, _ in pairs}
    for sample, embodiment in pairs:
        status = rng.choice(["valid", "invalid", "missing"], p=[0.9, 0.05, 0.05])
        score = repr(float(skill + difficulty[sample] + rng.normal(0, 20))) if status == "valid" else ""
        writer.writerow([sample, embodiment, score, status] + [""] * (len(ROW_COLUMNS) - 4))
    return out.getvalue()


def board(entries: int) -> tuple[dict[str, str], list[dict[str, object]]]:
    rng = np.random.default_rng(0)
    pairs = scene_embodiments(rng)
    files = {f"sub-{i:03d}": rows_tsv(pairs, rng, skill=rng.uniform(-10, 60)) for i in range(entries)}
    rows: list[dict[str, object]] = [
        {
            "submission_id": i,
            "kind": "submission",
            "split": "test",
            "score": 1.0,
            "per_embodiment": dict.fromkeys(EMBODIMENTS, 1.0),
        }
        for i in files
    ]
    rows.append({"submission_id": "reported-1", "kind": "reported", "split": "test", "score": 30.0})
    return files, rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--entries", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    files, rows = board(args.entries)
    parse_s, ci_s, warm_s, cpu_s = [], [], [], []
    for _ in range(args.repeat):
        cpu = time.process_time()
        started = time.perf_counter()
        totals = {i: scene_totals(csv.DictReader(io.StringIO(text), delimiter="\t")) for i, text in files.items()}
        parsed = time.perf_counter()
        table = with_uncertainty(rows, totals)
        done = time.perf_counter()
        cpu_s.append(time.process_time() - cpu)
        with_uncertainty(rows, totals)  # a rebuild after one new result: the others' totals are kept
        parse_s.append(parsed - started)
        ci_s.append(done - parsed)
        warm_s.append(time.perf_counter() - done)
    widths = [r["score_ci"][1] - r["score_ci"][0] for r in table if r["score_ci"]]  # type: ignore[index]
    spans = [r["rank_range"][1] - r["rank_range"][0] for r in table if r["rank_range"]]  # type: ignore[index]
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{args.entries} entries x {sum(1 for _ in files[next(iter(files))].splitlines()) - 1} rows, {SCENES} scenes")
    print(f"parse rows to scene totals: {statistics.median(parse_s):.3f} s (median of {args.repeat})")
    print(f"intervals and rank ranges:  {statistics.median(ci_s):.3f} s (median of {args.repeat})")
    print(f"total, cold:                {statistics.median(parse_s) + statistics.median(ci_s):.3f} s (target <= 2 s)")
    print(f"  of which CPU time:        {statistics.median(cpu_s):.3f} s (wall exceeds it on a busy machine)")
    print(f"rebuild, totals kept:       {statistics.median(warm_s):.3f} s (median of {args.repeat})")
    print(f"peak RSS:                   {peak_mb:.0f} MB")
    print(f"median CI width {statistics.median(widths):.2f} points; median rank-range span {statistics.median(spans)}")


if __name__ == "__main__":
    main()
