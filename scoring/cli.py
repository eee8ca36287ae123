"""``python -m scoring``: score, calibrate, demo-data, example-submission.

The only place in ``scoring`` that reads the environment (``NAVITRACE_CACHE``, ``HF_TOKEN``).
A rejected file exits 2 with one line on stderr; a dataset problem exits 1.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from scoring.answer_key import AnswerKey, AnswerKeyError, load_answer_key
from scoring.report import format_summary
from scoring.row import NAVITRACE_BASELINE_RAW

EXIT_REJECTED = 2
EXIT_DATASET = 1


def main(argv: Sequence[str] | None = None, environ: dict[str, str] | None = None) -> int:
    environ = dict(os.environ if environ is None else environ)
    args = _parser().parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    try:
        return int(args.run(args, environ) or 0)
    except AnswerKeyError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_DATASET
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m scoring", description="The NaviTrace score, computed locally.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    score = commands.add_parser("score", help="score a predictions TSV against a dataset split")
    score.add_argument("predictions", metavar="PRED.tsv")
    _dataset_arguments(score)
    score.add_argument("--rows-out", metavar="R.tsv", help="write one line per expected row with its components")
    score.add_argument("--summary-out", metavar="S.json", help="write the summary as JSON")
    score.add_argument(
        "--baseline-raw",
        metavar="B",
        type=float,
        default=NAVITRACE_BASELINE_RAW,
        help=f"straight-forward mean raw score anchoring 0 (default {NAVITRACE_BASELINE_RAW})",
    )
    score.set_defaults(run=_score)

    calibrate = commands.add_parser("calibrate", help="print the straight-forward mean raw score B of a split")
    _dataset_arguments(calibrate)
    calibrate.set_defaults(run=_calibrate)

    demo = commands.add_parser("demo-data", help="write a synthetic dataset in the NaviTrace schema and Hub layout")
    demo.add_argument("out_dir", metavar="OUT_DIR")
    demo.add_argument("--samples", type=_positive_int, default=24, help="samples per split (default 24)")
    demo.add_argument("--size", type=_size, default=(640, 480), metavar="WxH", help="image size (default 640x480)")
    demo.add_argument("--seed", type=int, default=0)
    demo.add_argument("--public", action="store_true", help="write the public copy (test ground truth null)")
    demo.set_defaults(run=_demo_data)

    example = commands.add_parser("example-submission", help="write an example predictions TSV")
    _dataset_arguments(example)
    example.add_argument("--kind", choices=("straight", "noisy", "perfect"), required=True)
    example.add_argument("--seed", type=int, default=0)
    example.add_argument("out", metavar="OUT.tsv")
    example.set_defaults(run=_example)
    return parser


def _dataset_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--dataset", required=True, metavar="D", help="Hub dataset id or local folder (Hub layout)")
    parser.add_argument("--split", required=True, metavar="S", help="validation or test")


def _answer_key(args: argparse.Namespace, environ: dict[str, str]) -> AnswerKey:
    cache = Path(environ.get("NAVITRACE_CACHE") or Path.home() / ".cache" / "navitrace")
    with _progress("building answer-key cache", unit="sample") as progress:
        return load_answer_key(
            args.dataset, args.split, cache, token=environ.get("HF_TOKEN") or None, progress=progress
        )


def _score(args: argparse.Namespace, environ: dict[str, str]) -> int:
    from scoring.evaluate import score_submission
    from scoring.submission import SubmissionError, read_submission

    key = _answer_key(args, environ)
    try:
        submission = read_submission(args.predictions, key)
    except SubmissionError as error:
        print(f"rejected: {error}", file=sys.stderr)
        return EXIT_REJECTED
    with _progress("scoring", unit="row") as progress:
        evaluation = score_submission(submission, key, baseline_raw=args.baseline_raw, progress=progress)
    for warning in evaluation.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    if args.rows_out:
        evaluation.write_rows(args.rows_out)
    if args.summary_out:
        evaluation.write_summary(args.summary_out)
    print(format_summary(evaluation))
    return 0


def _calibrate(args: argparse.Namespace, environ: dict[str, str]) -> int:
    from scoring.calibrate import straight_forward_mean_raw

    key = _answer_key(args, environ)
    with _progress("calibrating", unit="row") as progress:
        value, rows = straight_forward_mean_raw(key, progress)
    print(f"{rows} rows of {key.split}: straight-forward mean raw score B =", file=sys.stderr)
    print(f"{value:.6f}")
    return 0


def _demo_data(args: argparse.Namespace, environ: dict[str, str]) -> int:
    from scoring.synthetic import write_demo_dataset

    with _progress("writing samples", unit="sample") as progress:
        out = write_demo_dataset(
            args.out_dir, samples=args.samples, size=args.size, seed=args.seed, public=args.public, progress=progress
        )
    print(out)
    return 0


def _example(args: argparse.Namespace, environ: dict[str, str]) -> int:
    from scoring.examples import write_example

    key = _answer_key(args, environ)
    count = write_example(key, args.kind, args.out, seed=args.seed)
    print(f"wrote {count} rows to {args.out}", file=sys.stderr)
    return 0


class _progress:
    """A tqdm bar on stderr when it is a terminal; a no-op callback otherwise."""

    def __init__(self, description: str, unit: str) -> None:
        self.description, self.unit = description, unit
        self.bar: Any = None

    def __enter__(self) -> Callable[[int, int | None], None]:
        return self.update

    def update(self, done: int, total: int | None) -> None:
        if not sys.stderr.isatty():
            return
        if self.bar is None:
            from tqdm import tqdm

            self.bar = tqdm(total=total, desc=self.description, unit=self.unit, file=sys.stderr, leave=False)
        self.bar.update(done - self.bar.n)

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.close()


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: expected a whole number of at least 1")
    return value


def _size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: expected WIDTHxHEIGHT, e.g. 1440x1080") from None
    if width < 32 or height < 32:
        raise argparse.ArgumentTypeError(f"{text!r}: expected at least 32x32 pixels")
    return width, height
