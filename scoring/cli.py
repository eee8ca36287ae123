"""``python -m scoring``: score, calibrate, demo-data, example-submission.

The only place in ``scoring`` that reads the environment (``NAVITRACE_CACHE``, ``HF_TOKEN``).
A rejected file exits 2 with one line on stderr; a dataset problem exits 1.
"""

from __future__ import annotations

import argparse
import logging
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from scoring.answer_key import AnswerKey, AnswerKeyError, load_answer_key
from scoring.progress import ProgressBar
from scoring.report import format_summary
from scoring.row import NAVITRACE_BASELINE_RAW

DEMO_DATA_HELP = "write a synthetic dataset in the NaviTrace schema and Hub layout"
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

    demo = commands.add_parser("demo-data", help=DEMO_DATA_HELP)
    add_demo_data_arguments(demo)
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
    with ProgressBar("building answer-key cache", unit="sample") as progress:
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
    with ProgressBar("scoring", unit="row") as progress:
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
    with ProgressBar("calibrating", unit="row") as progress:
        value, rows = straight_forward_mean_raw(key, progress)
    print(f"{rows} rows of {key.split}: straight-forward mean raw score B =", file=sys.stderr)
    print(f"{value:.6f}")
    return 0


def add_demo_data_arguments(demo: argparse.ArgumentParser) -> None:
    """The arguments of ``demo-data``, shared with ``python -m synthetic demo-data`` (which runs it)."""
    demo.add_argument("out_dir", metavar="OUT_DIR")
    demo.add_argument("--samples", type=positive_int, default=24, help="samples per split (default 24)")
    demo.add_argument("--size", type=image_size, default=(640, 480), metavar="WxH", help="image size (default 640x480)")
    demo.add_argument("--seed", type=int, default=0)
    demo.add_argument("--public", action="store_true", help="write the public copy (test ground truth null)")


def _demo_data(args: argparse.Namespace, environ: dict[str, str]) -> int:
    # The generator is the separate ``synthetic`` package, which depends on ``scoring``: run it as
    # its own command rather than import it, so that ``scoring`` never depends on it.
    width, height = args.size
    argv = [args.out_dir, "--samples", str(args.samples), "--size", f"{width}x{height}", "--seed", str(args.seed)]
    command = [sys.executable, "-m", "synthetic", "demo-data", *argv, *(["--public"] if args.public else [])]
    root = str(Path(__file__).resolve().parents[1])  # ``synthetic`` sits beside ``scoring``
    path = os.pathsep.join(p for p in (root, environ.get("PYTHONPATH")) if p)
    return subprocess.run(command, env={**environ, "PYTHONPATH": path}, check=False).returncode


def _example(args: argparse.Namespace, environ: dict[str, str]) -> int:
    from scoring.examples import write_example

    key = _answer_key(args, environ)
    count = write_example(key, args.kind, args.out, seed=args.seed)
    print(f"wrote {count} rows to {args.out}", file=sys.stderr)
    return 0


def positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: expected a whole number of at least 1")
    return value


def image_size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: expected WIDTHxHEIGHT, e.g. 1440x1080") from None
    if width < 32 or height < 32:
        raise argparse.ArgumentTypeError(f"{text!r}: expected at least 32x32 pixels")
    return width, height
