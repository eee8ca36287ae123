"""The differencing probe of a public test row, before and after the whole-release disclosure rule.

The overall figure times the expected rows, minus each shown embodiment figure times its expected rows,
is the sum of the withheld embodiments' rows: with one such row, that row's score. Run on a synthetic
test split (the embedded default's generator) with a noisy full submission:

    .venv/bin/python -m benchmarks.disclosure_probe [--samples 12] [--size 1440x1080]
"""

from __future__ import annotations

import argparse
import tempfile
from collections import Counter
from pathlib import Path

from leaderboard.statistics.disclosure import disclosed_summary, withhold_small_groups
from scoring import load_answer_key, score_submission
from scoring.evaluate import Evaluation
from scoring.examples import write_example
from scoring.summary import Summary
from synthetic import write_demo_dataset


def probe(evaluation: Evaluation, summary: Summary) -> str:
    """What ``score x n - sum(shown embodiment figure x its n)`` gives against the withheld rows' true sum."""
    expected = Counter(r.embodiment for r in evaluation.rows)
    hidden = [e for e, v in summary.per_embodiment.items() if v is None]
    if summary.score is None or not hidden:
        return "nothing to difference (the overall or every embodiment figure is shown whole or withheld)"
    shown = sum(v * expected[e] for e, v in summary.per_embodiment.items() if v is not None)
    if len(hidden) == len(summary.per_embodiment):
        return "no embodiment figure shown"
    guess = summary.score * len(evaluation.rows) - shown
    truth = sum(r.score.score or 0.0 for r in evaluation.rows if r.embodiment in hidden and r.score.status == "valid")
    rows = sum(expected[e] for e in hidden)
    return f"sum of {rows} withheld row(s) of {', '.join(hidden)}: probe {guess:.6f}, true {truth:.6f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=12)
    parser.add_argument("--size", default="1440x1080")
    parser.add_argument("--k", type=int, default=5)
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.split("x"))
    with tempfile.TemporaryDirectory() as folder:
        dataset = write_demo_dataset(Path(folder) / "navitrace", samples=args.samples, size=(width, height), seed=26)
        key = load_answer_key(dataset, "test", Path(folder) / "cache")
        write_example(key, "noisy", Path(folder) / "noisy.tsv")
        evaluation = score_submission(Path(folder) / "noisy.tsv", key)
    print(f"{len(evaluation.rows)} test rows, k = {args.k}")
    print("before (each figure alone):", probe(evaluation, withhold_small_groups(evaluation, args.k)))
    after = disclosed_summary(evaluation, "test", args.k)
    print("after (the whole release):  ", probe(evaluation, after))
    print("withheld now:", ", ".join(after.withheld) or "nothing")


if __name__ == "__main__":
    main()
