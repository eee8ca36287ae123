"""Scoring speed and memory on a full-size synthetic test split, against the literal scorer.

    .venv/bin/python benchmarks/bench_scoring.py            # 500 scenes at 1440x1080 (~1,250 rows)
    .venv/bin/python benchmarks/bench_scoring.py --samples 40 --size 720x540   # a quick look

Prints: literal vs engine time per row (and their ratio, with the largest score difference on the
rows both scored), the whole ``python -m scoring score`` process cold (answer-key cache built) and
warm (median of three), and the peak RSS of each. Targets (2-core machine): ratio >= 1000x, warm
<= 5 s, cold <= 60 s, peak RSS <= 1.5 GB. The dataset is generated once and kept in --data.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.literal_scorer import literal_score_row  # noqa: E402
from scoring import load_answer_key, parse_prediction, score_row  # noqa: E402
from scoring.examples import write_example  # noqa: E402
from scoring.submission import read_submission  # noqa: E402

MEASURE = (
    "import resource, subprocess, sys, time\n"
    "start = time.perf_counter(); code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode\n"
    "print(code, time.perf_counter() - start, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
)


def main() -> None:
    args = _arguments()
    dataset = _dataset(args)
    work = Path(tempfile.mkdtemp(prefix="navitrace-bench-"))
    key = load_answer_key(dataset, "test", work / "warm-up-cache")
    submission = work / "noisy.tsv"
    rows = write_example(key, "noisy", submission)
    print(f"dataset {dataset}: {len(key)} scenes, {rows} rows at {key.samples[0].width}x{key.samples[0].height}")

    literal_s, engine_s, worst = _per_row(key, submission, args.literal_rows)
    print(f"literal scorer   {literal_s * 1000:10.1f} ms/row  (on {args.literal_rows} rows)")
    print(f"engine           {engine_s * 1000:10.3f} ms/row  (on all {rows} rows)")
    print(f"ratio            {literal_s / engine_s:10.0f}x      (target >= 1000x, aim 3000x)")
    print(f"max |score difference| on the literal's rows: {worst:.2e}  (must be <= 1e-6)")

    cache = work / "cold-cache"
    cold = _cli_run(submission, dataset, cache)
    warm = [_cli_run(submission, dataset, cache) for _ in range(3)]
    print(f"CLI cold         {cold[0]:10.2f} s   peak RSS {cold[1] / 1024:7.0f} MB  (targets <= 60 s, <= 1536 MB)")
    print(
        f"CLI warm median  {statistics.median(w[0] for w in warm):10.2f} s   peak RSS "
        f"{max(w[1] for w in warm) / 1024:7.0f} MB  (target <= 5 s)"
    )


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--samples", type=int, default=500)
    parser.add_argument("--size", default="1440x1080")
    parser.add_argument("--literal-rows", type=int, default=3)
    parser.add_argument("--data", type=Path, default=Path.home() / ".cache" / "navitrace-bench")
    return parser.parse_args()


def _dataset(args: argparse.Namespace) -> Path:
    folder = args.data / f"synthetic-{args.samples}-{args.size}"
    if not (folder / "README.md").exists():
        print(f"generating {args.samples} scenes per split at {args.size} into {folder} (once)...", flush=True)
        subprocess.run(
            [
                sys.executable,
                "-m",
                "scoring",
                "demo-data",
                str(folder),
                "--samples",
                str(args.samples),
                "--size",
                args.size,
            ],
            check=True,
            cwd=ROOT,
        )
    return folder


def _per_row(key, submission: Path, literal_rows: int) -> tuple[float, float, float]:
    """Seconds per row of the literal scorer (first rows) and of the engine (every row)."""
    rows = read_submission(submission, key).rows
    parsed = [(row, parse_prediction(row.prediction).trace) for row in rows]
    start = time.perf_counter()
    engine = {}
    for row, trace in parsed:
        truths = key.truths(row.sample_id, row.embodiment)
        engine[row.line] = score_row(trace, truths, key.mask(row.sample_id), row.embodiment).score
    engine_s = (time.perf_counter() - start) / len(parsed)
    worst, start = 0.0, time.perf_counter()
    for row, _ in parsed[:literal_rows]:
        traces = (key.sample(row.sample_id).ground_truth or {})[row.embodiment]
        result = literal_score_row(row.prediction, traces, key.mask(row.sample_id), row.embodiment)
        worst = max(worst, abs(result["score"] - engine[row.line]))
    literal_s = (time.perf_counter() - start) / literal_rows
    return literal_s, engine_s, worst


def _cli_run(submission: Path, dataset: Path, cache: Path) -> tuple[float, int]:
    """Wall seconds and peak RSS (KB) of one whole ``python -m scoring score`` process."""
    command = [sys.executable, "-m", "scoring", "score", str(submission), "--dataset", str(dataset), "--split", "test"]
    out = subprocess.run(
        [sys.executable, "-c", MEASURE, *command],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"NAVITRACE_CACHE": str(cache), "PATH": "/usr/bin:/bin"},
        check=True,
    ).stdout.split()
    if out[0] != "0":
        raise SystemExit(f"scoring failed with exit status {out[0]}")
    return float(out[1]), int(out[2])


if __name__ == "__main__":
    main()
