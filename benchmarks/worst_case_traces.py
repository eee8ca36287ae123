"""The most expensive valid submission: every row a 2000-point zigzag across the image, scored as the worker does.

    .venv/bin/python benchmarks/worst_case_traces.py                          # 500 scenes at 96x72 and at 1440x1080
    .venv/bin/python benchmarks/worst_case_traces.py --sizes 1440x1080 --rows 100   # a sample, extrapolated

2000 points is the most docs/METRIC.md allows; each segment crossing the whole image draws the most
pixels (2000 x 1440 at full size), and every ground-truth trace is resampled to 2000 points, so DTW
fills a 2000 x 2000 table per truth. For each image size: the whole test split (``--rows`` limits
the rows scored, the rest extrapolated) through ``score_submission`` (the worker's call) in
seconds and per row, beside the notebook-like noisy example, and the process's peak RSS.
Datasets are generated once into ``--data`` (shared with ``bench_scoring.py``).
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from leaderboard.config import Settings  # noqa: E402
from scoring import AnswerKey, load_answer_key, read_submission, score_submission  # noqa: E402
from scoring.examples import write_example  # noqa: E402
from scoring.submission import Submission  # noqa: E402
from tests.hardening.input.input_giants import worst_case_traces  # noqa: E402


def main() -> None:
    args = _arguments()
    settings = Settings()
    print(
        f"worker limits: no time limit on a job; its lease ({settings.lease_s:.0f} s) is renewed every "
        f"{settings.lease_s / 3:.0f} s while it scores, and one worker scores one job at a time (FIFO)"
    )
    with tempfile.TemporaryDirectory(prefix="navitrace-worst-") as work:
        for size in args.sizes:
            _measure(args, size, Path(work))


def _measure(args: argparse.Namespace, size: str, work: Path) -> None:
    """The noisy example and the zigzags on the test split of ``args.samples`` scenes at ``size``."""
    key = load_answer_key(_dataset(args.data, args.samples, size), "test", work / "cache")
    worst, noisy = work / f"worst-{size}.tsv", work / f"noisy-{size}.tsv"
    what = worst_case_traces(worst, key)
    write_example(key, "noisy", noisy)
    print(f"\n{size}: {len(key)} scenes, {what} ({worst.stat().st_size / 2**20:.0f} MB)")
    for name, path in (("noisy example", noisy), ("2000-point zigzags", worst)):
        _time_file(name, read_submission(path, key), key, args.rows)


def _time_file(name: str, submission: Submission, key: AnswerKey, limit: int) -> None:
    rows = len(submission.rows)
    scored = Submission(submission.rows[: limit or rows], submission.columns)
    start = time.perf_counter()
    evaluation = score_submission(scored, key)
    per_row = (time.perf_counter() - start) / len(scored.rows)
    sampled = f" (first {len(scored.rows)} rows, extrapolated)" if len(scored.rows) < rows else ""
    print(
        f"  {name:20} {per_row * 1000:8.1f} ms/row  whole file {per_row * rows:8.1f} s{sampled}  "
        f"valid {evaluation.summary.n_valid}/{len(scored.rows)}  peak RSS so far {_peak_mb():6.0f} MB"
    )


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _dataset(data: Path, samples: int, size: str) -> Path:
    folder = data / f"synthetic-{samples}-{size}"
    if not (folder / "README.md").exists():
        print(f"generating {samples} scenes per split at {size} into {folder} (once)...", flush=True)
        command = [sys.executable, "-m", "scoring", "demo-data", str(folder), "--samples", str(samples), "--size", size]
        subprocess.run(command, check=True, cwd=ROOT)
    return folder


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--samples", type=int, default=500, help="scenes per split (500: ~1,250 test rows)")
    parser.add_argument("--sizes", nargs="+", default=["96x72", "1440x1080"])
    parser.add_argument("--rows", type=int, default=0, help="score only the first N rows and extrapolate (0: all)")
    parser.add_argument("--data", type=Path, default=Path.home() / ".cache" / "navitrace-bench")
    return parser.parse_args()


if __name__ == "__main__":
    main()
