"""Duplicate detection: what it catches and what it wrongly marks, per kind of copy; then its cost.

    .venv/bin/python benchmarks/bench_copies.py                  # rates, then N = 10, 50, 200 on both splits
    .venv/bin/python benchmarks/bench_copies.py --entries 20     # a quick look
    .venv/bin/python benchmarks/bench_copies.py --trials 100 --no-cost   # the rates only, more draws

**Rates** (on the embedded default's test split, 32 rows at 1440 x 1080): for each kind of copy
(``copy_kinds.COPIES``: exact, jittered, shifted, resampled, one point added, a few rows changed, all at
once) made ``--trials`` times from an honest file (ground truth + 12 px noise), the share marked as a
likely copy of it; for each pair of independent honest files (``copy_kinds.HONEST``: other models on the
same scenes, the example kinds and noise levels), the share marked (false positives). Both under the
rule in force (curves within ``NEAR_PX`` on ``THRESHOLD`` of the rows) and under the rule before it
(points within 1 px on 95% of the rows), with the median near share.

**Cost**:

Two splits: the embedded default's test split (12 synthetic scenes, generated once into --data),
its earlier entries ``noisy`` examples of the ground truth (so every entry has the same number of
points on every row as every other: the early exit cannot use point counts and must compare
points); and a 1,000-row synthetic split (250 scenes x 4 embodiments, rows only: the check reads
no image), its entries notebook-format files with random traces of 8 to 24 points, again with
equal point counts everywhere. The new file is the oldest entry jittered by 1 px (a copy, found
last: candidates go newest first) or an independent file (no copy).

For each N it prints: ``cold`` (empty cache: every earlier upload read and parsed, then compared),
``warm`` (the same check again, everything cached), ``no copy`` (warm, a file that copies nothing),
each with its wall time and the peak of memory allocated during the check (tracemalloc, numpy's
arrays included; measured in a second run, since tracing slows parsing), and the cache's size.
Targets (2-core machine): a warm check over 200 entries of 1,000 rows under 1 s; a cold one within
the check's budget (``copies.BUDGET_S``, 30 s); peak memory under 64 MB beyond the cache.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.copy_kinds import COPIES, HONEST, honest, noisy  # noqa: E402
from leaderboard.records.entries import FINISHED, Job, Request, Review, Split, iso, upload_path  # noqa: E402
from leaderboard.records.metadata import Metadata  # noqa: E402
from leaderboard.statistics.copies import BUDGET_S, THRESHOLD, CopyFinder  # noqa: E402
from leaderboard.statistics.copies_curves import NEAR_PX  # noqa: E402
from leaderboard.statistics.copies_traces import compare, parse_traces, row_positions  # noqa: E402
from leaderboard.storage import LocalStorage  # noqa: E402
from leaderboard.storage.answer_keys import ensure_demo_datasets  # noqa: E402
from leaderboard.storage.registry import Entry, Registry  # noqa: E402
from scoring import load_answer_key  # noqa: E402
from scoring.answer_key import Sample  # noqa: E402
from scoring.examples import example_rows  # noqa: E402
from scoring.penalty_table import EMBODIMENTS  # noqa: E402

Row = tuple[str, str, list]  # sample_id, embodiment, the trace
NOTEBOOK_HEADER = "sample_id\tembodiment\tcategory\tprediction\traw_response\treasoning\n"


class RowsKey:
    """A split of rows only (no masks, no images): all the duplicate check reads of an answer key."""

    dataset, split, revision = "synthetic-rows", "test", "bench"

    def __init__(self, samples: list[Sample]) -> None:
        self.samples = samples
        self._by_id = {s.sample_id: s for s in samples}

    def __contains__(self, sample_id: object) -> bool:
        return sample_id in self._by_id

    def sample(self, sample_id: str) -> Sample:
        return self._by_id[sample_id]

    def expected_rows(self) -> Iterator[tuple[Sample, str]]:
        return ((s, e) for s in self.samples for e in s.embodiments)


def main() -> None:
    args = _arguments()
    work = Path(tempfile.mkdtemp(prefix="navitrace-bench-copies-"))
    private, _ = ensure_demo_datasets(args.data / "embedded", args.data / "locks")
    embedded = load_answer_key(private, "test", args.data / "key-cache")
    _rates(embedded, args.trials)
    if args.no_cost:
        return
    synthetic = RowsKey(
        [Sample(f"tes_{i:04d}", tuple(EMBODIMENTS), ("synthetic",), {}, 1440, 1080) for i in range(250)]
    )
    for name, key, make in (
        ("embedded default, test split", embedded, lambda seed: _noisy(embedded, seed)),
        ("synthetic 1,000-row split", synthetic, lambda seed: _random(synthetic, seed)),
    ):
        rows = sum(1 for _ in key.expected_rows())
        print(f"\n{name}: {rows} rows")
        print(f"{'entries':>8}  {'check':<8}  {'time':>9}  {'peak alloc':>10}  {'cache':>8}  found")
        for n in args.entries:
            _measure(key, make, n, work / f"{rows}-{n}")
    print(f"\ncold targets: within the check's budget ({BUDGET_S:.0f} s); warm: under 1 s at 200 entries of 1,000 rows")


BEFORE = 0.95  # the rule before curves: points within 1 px on 95% of the rows


def _rates(key, trials: int) -> None:
    """Detection per kind of copy, false positives per pair of honest files: now and under the rule before."""
    positions = row_positions(key)
    truth = [(r["sample_id"], r["embodiment"], json.loads(r["prediction"])) for r in example_rows(key, "perfect")]
    straight = [(r["sample_id"], r["embodiment"], json.loads(r["prediction"])) for r in example_rows(key, "straight")]

    def marks(new: list[Row], old: list[Row]) -> tuple[bool, bool, float]:
        match = compare(parse_traces(_tsv(new), key, positions), parse_traces(_tsv(old), key, positions), 0.0)
        assert match is not None
        return match.near_share >= THRESHOLD, match.share >= BEFORE, match.near_share

    now_rule = f"now (curves <= {NEAR_PX:g} px on >= {THRESHOLD:.0%})"
    print(f"\nrates on the embedded default's test split ({len(truth)} rows), {trials} draws each")
    print(f"{'':<44}  {now_rule:>34}  {'before (1 px on >= 95%)':>24}  median near share")
    for label, draw in [(f"copy: {name}", name) for name in COPIES] + [
        (f"honest: {a} vs {b}", (a, b)) for a, b in HONEST
    ]:
        found = []
        for trial in range(trials):
            rng = np.random.default_rng([len(found), trial, 26])
            if isinstance(draw, str):
                original, other = noisy(truth, 12.0, rng), noisy(truth, 12.0, rng)
                found.append(marks(COPIES[draw](original, rng, other), original))
            else:
                found.append(marks(honest(draw[0], truth, straight, rng), honest(draw[1], truth, straight, rng)))
        now, before = (sum(f[i] for f in found) / trials for i in (0, 1))
        share = float(np.median([f[2] for f in found]))
        print(f"{label:<44}  {now:>34.0%}  {before:>24.0%}  {share:>17.0%}")


def _measure(key, make: Callable[[int], list[Row]], n: int, folder: Path) -> None:
    store = LocalStorage(folder)
    entries = [_entry(i, f"user{i}") for i in range(n)]
    files = [make(i) for i in range(n)]
    store.commit({upload_path(e.submission_id): _tsv(rows) for e, rows in zip(entries, files)})
    copy, fresh = _tsv(_jittered(files[0])), _tsv(make(10_000 + n))  # the oldest entry's copy; a copy of nothing
    cases = (("cold", copy), ("warm", copy), ("no copy", fresh))
    timed = _run(Registry(store), key, entries, cases, trace=False)
    traced = _run(Registry(store), key, entries, cases, trace=True)
    for (label, seconds, _, cache, found), (_, _, peak, _, _) in zip(timed, traced):
        shown = f"{found['share']:.0%} of {found['of']}" if found else "—"
        print(f"{n:>8}  {label:<8}  {seconds * 1000:7.1f}ms  {peak / 2**20:8.1f}MB  {cache / 2**20:6.1f}MB  {shown}")


def _run(registry: Registry, key, entries: list[Entry], cases, trace: bool) -> list[tuple]:
    """Each case's check in turn on one finder (its cache empty at first): label, seconds, peak, cache, found."""
    finder = CopyFinder(registry, budget_s=3600)  # the benchmark measures the whole check, whatever its cost
    results = []
    for i, (label, data) in enumerate(cases):
        new = _entry(len(entries) + i, "newcomer")  # its own id: its file is parsed in every case, as in a job
        if trace:
            tracemalloc.start()
        start = time.perf_counter()
        found = finder.find(new, entries, data, key)
        seconds = time.perf_counter() - start
        peak = tracemalloc.get_traced_memory()[1] if trace else 0
        if trace:
            tracemalloc.stop()
        results.append((label, seconds, peak, finder.cache.bytes, found))
    return results


def _entry(i: int, user: str) -> Entry:
    created = iso(1_700_000_000 + i)
    request = Request(f"bench{i:05d}", user, Split.TEST, created, "0" * 64, "f.tsv", 0, False, Metadata(f"Model-{i}"))
    return Entry(
        request, Job(request.submission_id, FINISHED, 1, scorer_version="bench"), Review(request.submission_id), 0
    )


def _noisy(key, seed: int) -> list[Row]:
    return [(r["sample_id"], r["embodiment"], json.loads(r["prediction"])) for r in example_rows(key, "noisy", seed)]


def _random(key: RowsKey, seed: int) -> list[Row]:
    """Random traces of 8-24 points; the point counts are the same in every file (seeded apart from the points)."""
    counts = np.random.default_rng(0).integers(8, 25, size=sum(1 for _ in key.expected_rows()))
    rng = np.random.default_rng(seed)
    rows = []
    for (sample, embodiment), count in zip(key.expected_rows(), counts):
        points = np.column_stack((rng.integers(0, 1440, count), rng.integers(0, 1080, count))).tolist()
        rows.append((sample.sample_id, embodiment, points))
    return rows


def _jittered(rows: list[Row]) -> list[Row]:
    """Every coordinate of every prediction moved by 1 px, up or down."""
    rng = np.random.default_rng(7)
    return [(s, e, [[x + int(rng.choice((-1, 1))), y + int(rng.choice((-1, 1)))] for x, y in p]) for s, e, p in rows]


def _tsv(rows: list[Row]) -> bytes:
    """The notebook's columns, with a raw answer and some reasoning text as real files carry."""
    reasoning = "The path follows the sidewalk, avoids the stairs and crosses at the marked crossing. " * 4
    lines = [f'{s}\t{e}\t[]\t{json.dumps(p)}\t"Here is the path:\n{json.dumps(p)}"\t{reasoning}\n' for s, e, p in rows]
    return (NOTEBOOK_HEADER + "".join(lines)).encode()


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--entries", type=int, nargs="+", default=[10, 50, 200], help="earlier entries checked")
    parser.add_argument("--data", type=Path, default=Path.home() / ".cache" / "navitrace-bench")
    parser.add_argument("--trials", type=int, default=50, help="draws of each kind of copy and honest pair")
    parser.add_argument("--no-cost", action="store_true", help="print the rates only")
    return parser.parse_args()


if __name__ == "__main__":
    main()
