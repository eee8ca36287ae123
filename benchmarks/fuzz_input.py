"""The bad-input campaign: a seeded mutation loop over the TSV reader, intake validation and the prediction parser.

    .venv/bin/python benchmarks/fuzz_input.py                       # 100,000 files + 100,000 cells, seed 0
    .venv/bin/python benchmarks/fuzz_input.py --files 2000 --cells 2000 --seed 3   # a quick look
    .venv/bin/python benchmarks/fuzz_input.py --files 0 --cells 0 --giants       # giant files only

Inputs, on the tests' synthetic validation split (6 samples at 96x72, 16 expected rows):

- files: the notebook-written example damaged 1-4 times (bytes inserted or cut, lines duplicated or
  swapped, tabs and quotes replaced, re-encoded, truncated), notebook files generated afresh with
  random free text and prediction cells (they must read back exactly), and random bytes. Each goes
  through ``read_submission``; a read file through intake's check (``check_file``), and one in
  ``--score-every`` through the scorer with ground truth;
- cells: prediction cells, JSON of point lists and other values, mutated, or random text, each
  checked against docs/METRIC.md's rule written plainly (``input_strategies.defects``).

Prints inputs tried, accepted, refused by message class, escapes (any exception but the documented
ones, or a refusal that is not one short line: must be 0), oracle mismatches (must be 0) and
inputs/s. ``--giants`` adds the giant files of the tests (10 million rows, a gzip bomb, 10 MB and
60 MB cells) with the time and Python peak memory of intake validation on each.
"""

from __future__ import annotations

import argparse
import collections
import random
import re
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.fuzz_mutations import FileMaker, cell_maker  # noqa: E402
from leaderboard.records.errors import Rejected  # noqa: E402
from leaderboard.records.validation import check_file  # noqa: E402
from scoring import AnswerKey, SubmissionError, load_answer_key, parse_prediction, read_submission  # noqa: E402
from scoring.evaluate import score_submission  # noqa: E402
from synthetic import write_demo_dataset  # noqa: E402
from tests.hardening.input import input_giants  # noqa: E402
from tests.hardening.input.input_strategies import defects  # noqa: E402

MAX_MESSAGE_CHARS = 400


class Tally:
    """Counts of one campaign, and the first few escapes kept for the report."""

    def __init__(self, failures: Path) -> None:
        self.tried = 0
        self.accepted = 0
        self.refused: collections.Counter[str] = collections.Counter()
        self.escapes: list[str] = []
        self.failures = failures

    def escape(self, what: str, data: bytes | str) -> None:
        self.escapes.append(what)
        if len(self.escapes) <= 20:
            self.failures.mkdir(parents=True, exist_ok=True)
            raw = data if isinstance(data, bytes) else data.encode("utf-8", "surrogatepass")
            (self.failures / f"escape-{len(self.escapes):02d}.bin").write_bytes(raw)


def message_class(problem: str) -> str:
    """A refusal's wording with its particulars (numbers, quoted values) blanked: one class per template."""
    text = re.sub(r"; found .*", "; found …", problem)  # header names can hold anything, quotes included
    text = re.sub(r'"[^"]*"(?: \(\d+ characters\))?', '"…"', text)
    text = re.sub(r"\(annotated: [^)]*\)", "(annotated: …)", text)
    text = re.sub(r"0x[0-9a-f]{2}", "0x…", text)
    text = re.sub(r"(?<![\w-])\d[\d,.]*(?!x)", "N", text)
    return text[:90]


def check_refusal(error: SubmissionError, data: bytes, tally: Tally) -> None:
    message = str(error)
    one_line = message and not any(c in message for c in "\n\r\t\x00") and len(message) <= MAX_MESSAGE_CHARS
    located = error.line is None or message.startswith(f"line {error.line}")
    if not (one_line and located):
        tally.escape(f"unclear refusal: {message[:200]!r}", data)
    tally.refused[message_class(error.problem)] += 1


def fuzz_file(data: bytes, key: AnswerKey, tally: Tally, score: bool, expected_rows=None) -> None:
    tally.tried += 1
    try:
        submission = read_submission(data, key)
    except SubmissionError as error:
        if expected_rows is not None:
            tally.escape(f"a notebook file was refused: {error}", data)
        check_refusal(error, data, tally)
        return
    except Exception as error:  # noqa: BLE001  (the campaign counts them)
        tally.escape(f"read_submission raised {type(error).__name__}: {error}", data)
        return
    tally.accepted += 1
    if expected_rows is not None:
        got = [(r.line, r.sample_id, r.embodiment, r.prediction) for r in submission.rows]
        if got != expected_rows:
            tally.escape("a notebook file read back differently", data)
    try:
        check_file(data, key)
    except Rejected:
        pass  # no valid row: a refusal with its report
    except Exception as error:  # noqa: BLE001
        tally.escape(f"check_file raised {type(error).__name__}: {error}", data)
    if score:
        try:
            score_submission(submission, key)
        except Exception as error:  # noqa: BLE001
            tally.escape(f"score_submission raised {type(error).__name__}: {error}", data)


def fuzz_cell(cell: str, tally: Tally) -> None:
    tally.tried += 1
    try:
        parsed = parse_prediction(cell)
    except Exception as error:  # noqa: BLE001
        tally.escape(f"parse_prediction raised {type(error).__name__}: {error}", cell)
        return
    found = defects(cell)
    if parsed.trace is not None:
        tally.accepted += 1
        if found:
            tally.escape(f"valid but has {found}", cell)
        return
    tally.refused[parsed.reason or "?"] += 1
    detail = parsed.detail or ""
    if parsed.reason not in found or not detail or "\n" in detail or len(detail) > 200:
        tally.escape(f"verdict {parsed.reason!r} ({detail[:100]!r}) but defects {found}", cell)


def campaign(args: argparse.Namespace, key: AnswerKey) -> None:
    rng = random.Random(args.seed)
    files, cells = Tally(args.failures / "files"), Tally(args.failures / "cells")
    maker, make_cell = FileMaker(key, rng), cell_maker(rng)
    bar = _bar(args.files + args.cells)
    start = time.perf_counter()
    for index in range(args.files):
        _, data, expected_rows = maker.next()
        fuzz_file(data, key, files, score=index % args.score_every == 0, expected_rows=expected_rows)
        bar(1)
    file_s = time.perf_counter() - start
    for _ in range(args.cells):
        fuzz_cell(make_cell(), cells)
        bar(1)
    total_s = time.perf_counter() - start
    bar(0, close=True)
    _report("files", files, file_s, maker.kinds)
    _report("prediction cells", cells, total_s - file_s)
    escapes, tried = len(files.escapes) + len(cells.escapes), files.tried + cells.tried
    print(f"\nall inputs: {tried:,} in {total_s:.0f} s ({tried / total_s:,.0f}/s)")
    print(f"escapes: {escapes} (must be 0){f'; inputs saved in {args.failures}' if escapes else ''}")


def giants(key: AnswerKey) -> None:
    """Time and Python peak memory of intake validation (``check_file``, as the service) on each giant."""
    from leaderboard.service import _read

    print("\ngiant files (intake: stat, read, check_file):")
    writers: list[tuple[str, Callable[[Path], str]]] = [
        ("10 million rows", input_giants.ten_million_rows),
        ("one byte over the limit", input_giants.over_the_limit),
        ("gzip bomb", input_giants.gzip_bomb),
        ("10 MB raw_response cell", lambda p: input_giants.huge_raw_response(p, key)),
        ("60 MB prediction cell", input_giants.huge_prediction),
    ]
    with tempfile.TemporaryDirectory() as work:
        path = Path(work) / "giant.tsv"
        for name, write in writers:
            what = write(path)
            tracemalloc.start()
            began = time.perf_counter()
            try:
                check_file(_read(path), key)
                outcome = "accepted"
            except Rejected as error:
                outcome = f"refused: {str(error)[:90]}"
            seconds, peak = time.perf_counter() - began, tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            print(f"  {name:26} {what:40} {seconds * 1000:8.0f} ms  peak {peak / 2**20:7.1f} MB  {outcome}")
            path.unlink()


def _report(title: str, tally: Tally, seconds: float, kinds: collections.Counter | None = None) -> None:
    print(f"\n{title}: {tally.tried:,} tried in {seconds:.0f} s ({tally.tried / max(seconds, 1e-9):,.0f}/s)")
    if kinds:
        print("  made as: " + ", ".join(f"{kind} {count:,}" for kind, count in kinds.most_common()))
    print(
        f"  accepted: {tally.accepted:,}    refused: {sum(tally.refused.values()):,}    escapes: {len(tally.escapes)}"
    )
    for problem, count in tally.refused.most_common():
        print(f"  {count:>8,}  {problem}")
    for what in tally.escapes[:10]:
        print(f"  ESCAPE: {what[:300]}")


def _bar(total: int) -> Callable[..., None]:
    """A tqdm bar on a terminal; silent otherwise (logs stay readable)."""
    if not sys.stderr.isatty() or total == 0:
        return lambda n, close=False: None
    from tqdm import tqdm

    bar = tqdm(total=total, unit="input", file=sys.stderr, smoothing=0.05)

    def update(n: int, close: bool = False) -> None:
        bar.update(n)
        if close:
            bar.close()

    return update


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", type=int, default=100_000, help="files to try (default 100,000)")
    parser.add_argument("--cells", type=int, default=100_000, help="prediction cells to try (default 100,000)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--score-every", type=int, default=50, help="score every Nth file with ground truth")
    parser.add_argument("--giants", action="store_true", help="also time the giant files")
    parser.add_argument("--failures", type=Path, default=ROOT / "artifacts" / "fuzz_input", help="escapes saved here")
    return parser.parse_args()


def main() -> None:
    args = _arguments()
    with tempfile.TemporaryDirectory(prefix="navitrace-fuzz-") as work:
        dataset = write_demo_dataset(Path(work) / "navitrace", samples=6, size=(96, 72))
        key = load_answer_key(dataset, "validation", Path(work) / "cache")
        rows = sum(1 for _ in key.expected_rows())
        print(f"seed {args.seed}; validation split of a synthetic dataset: {len(key)} samples, {rows} rows, 96x72")
        campaign(args, key)
        if args.giants:
            giants(key)


if __name__ == "__main__":
    main()
