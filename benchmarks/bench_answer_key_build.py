"""Cold answer-key cache builds from three parquet layouts of one split: wall time and peak RSS.

    .venv/bin/python benchmarks/bench_answer_key_build.py             # 500 scenes at 1440x1080
    .venv/bin/python benchmarks/bench_answer_key_build.py --quick     # 60 scenes, a quick look
    git archive 3ad5877 | tar -x -C /tmp/navitrace-3ad5877            # (mkdir it first) the code before,
    .venv/bin/python benchmarks/bench_answer_key_build.py --code /tmp/navitrace-3ad5877   # measured alike

The test split of the synthetic dataset (made once into --data, shared with bench_scoring.py) is
rewritten as one parquet file in three layouts: one row group of all rows, groups of a fifth of
them (100 of 500) and groups of one row, with pyarrow's default writer settings. The rewrites are
kept beside the dataset; the one-group rewrite holds the whole split (about 7 GB) while it writes.
For each layout a child process (this Python, importing ``scoring`` from --code) loads the answer
key into an empty cache folder, and the figures are that child's own: wall time, and peak RSS from
``os.wait4`` in a small launcher (see ``LAUNCHER``). Every layout must build the same masks.bin and
rasters.bin (compared by checksum). Target: peak RSS <= 1.5 GB in every layout.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
from tqdm import tqdm

ROOT = Path(__file__).resolve().parents[1]
SPLIT = "test"
TARGET_MB = 1536
# The build runs in a grandchild started by a bare launcher: a child forked straight from this
# process (vfork and posix_spawn share its memory until exec) inherits this process's peak RSS,
# which is a whole row group while the layouts are written. wait4 gives the grandchild's alone.
LAUNCHER = (
    "import os, sys, time\n"
    "start = time.perf_counter(); pid = os.spawnv(os.P_NOWAIT, sys.argv[2], sys.argv[2:])\n"
    "_, status, usage = os.wait4(pid, 0)\n"
    "seconds = time.perf_counter() - start\n"
    "open(sys.argv[1], 'w').write(f'{os.waitstatus_to_exitcode(status)} {seconds} {usage.ru_maxrss}')\n"
)
CHILD = (
    "import sys\n"
    "from scoring import load_answer_key\n"
    "key = load_answer_key(sys.argv[1], sys.argv[2], sys.argv[3])\n"
    "print(len(key), key.folder)\n"
)


def main() -> None:
    args = _arguments()
    samples, size = (60, args.size) if args.quick else (args.samples, args.size)
    dataset = _dataset(args.data, samples, size)
    layouts = {f"groups of {n}": n for n in (samples, max(1, samples // 5), 1)}
    folders = {name: _layout(dataset, args.data / "layouts" / dataset.name, rows) for name, rows in layouts.items()}
    code = args.code.resolve()
    print(f"{samples} scenes at {size}, split {SPLIT!r}; scoring imported from {code}")
    work = Path(tempfile.mkdtemp(prefix="navitrace-bench-build-"))
    results = []
    try:
        for name in tqdm(folders, desc="cold builds", unit="layout"):
            results.append((name, *_cold_build(code, folders[name], work / name.replace(" ", "-"))))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{'layout':<20} {'row groups':>10} {'wall':>8} {'peak RSS':>10}")
    for (name, seconds, peak_kb, _), rows in zip(results, layouts.values()):
        groups = -(-samples // rows)
        print(f"{name:<20} {groups:>10} {seconds:>7.1f}s {peak_kb / 1024:>7.0f} MB")
    same = len({sums for *_, sums in results}) == 1
    print(f"masks.bin and rasters.bin identical in every layout: {'yes' if same else 'NO'}")
    worst = max(peak for _, _, peak, _ in results) / 1024
    print(f"largest peak RSS {worst:.0f} MB (target <= {TARGET_MB} MB): {'ok' if worst <= TARGET_MB else 'OVER'}")


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--samples", type=int, default=500, help="scenes in the split (default 500)")
    parser.add_argument("--size", default="1440x1080", help="WIDTHxHEIGHT (default 1440x1080)")
    parser.add_argument("--quick", action="store_true", help="60 scenes instead of --samples")
    parser.add_argument("--data", type=Path, default=Path.home() / ".cache" / "navitrace-bench")
    parser.add_argument("--code", type=Path, default=ROOT, help="the checkout whose scoring builds (default: this)")
    return parser.parse_args()


def _dataset(data: Path, samples: int, size: str) -> Path:
    """The synthetic dataset bench_scoring.py uses too, generated on first use."""
    folder = data / f"synthetic-{samples}-{size}"
    if not (folder / "README.md").exists():
        write_demo_dataset = _generator()
        width, height = (int(part) for part in size.split("x"))
        with tqdm(desc=f"generating {folder.name} (once)", unit="scene") as bar:
            write_demo_dataset(folder, samples=samples, size=(width, height), progress=_updater(bar))
    return folder


def _generator() -> Callable:
    sys.path.insert(0, str(ROOT))
    try:
        from synthetic import write_demo_dataset  # the generator's home (older checkouts: scoring.synthetic)
    except ImportError:
        from scoring.synthetic import write_demo_dataset
    return write_demo_dataset


def _updater(bar: tqdm) -> Callable[[int, int], None]:
    def update(done: int, total: int) -> None:
        bar.total = total
        bar.update(done - bar.n)

    return update


def _layout(dataset: Path, root: Path, rows_per_group: int) -> Path:
    """``dataset``'s split as one parquet file of ``rows_per_group``-row groups (made once, kept)."""
    folder = root / f"rows-per-group-{rows_per_group}"
    target = folder / "data" / f"{SPLIT}-00000-of-00001.parquet"
    if target.exists():
        return folder
    sources = [pq.ParquetFile(p) for p in sorted((dataset / "data").glob(f"{SPLIT}-*.parquet"))]
    total = sum(source.metadata.num_rows for source in sources)
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(".partial")
    pending: list[pa.RecordBatch] = []
    with (
        pq.ParquetWriter(partial, sources[0].schema_arrow) as writer,  # pyarrow's defaults, as datasets writes
        tqdm(total=total, desc=f"writing {folder.name}", unit="scene") as bar,
    ):
        for source in sources:
            for batch in source.iter_batches(batch_size=1):
                pending.append(batch)
                if len(pending) == rows_per_group:
                    writer.write_table(pa.Table.from_batches(pending), row_group_size=rows_per_group)
                    bar.update(len(pending))
                    pending = []
        if pending:
            writer.write_table(pa.Table.from_batches(pending), row_group_size=rows_per_group)
            bar.update(len(pending))
    partial.rename(target)
    return folder


def _cold_build(code: Path, dataset: Path, cache: Path) -> tuple[float, int, str]:
    """Wall seconds, peak RSS (KB) and the scoring files' checksums of one child building the cache."""
    environ = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(code), "HOME": os.environ.get("HOME", "/tmp")}
    environ |= {"HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}  # a local folder: no reason to look online
    build = [sys.executable, "-c", CHILD, str(dataset), SPLIT, str(cache)]
    with tempfile.TemporaryDirectory() as scratch:
        report, out, err = (Path(scratch) / name for name in ("report", "out", "err"))
        with open(out, "wb") as stdout, open(err, "wb") as stderr:  # files, not pipes: no deadlock
            launcher = [sys.executable, "-S", "-c", LAUNCHER, str(report), *build]
            subprocess.run(launcher, cwd=code, env=environ, stdout=stdout, stderr=stderr, check=True)
        code_, seconds, peak_kb = report.read_text().split()
        if code_ != "0":
            raise SystemExit(f"the build from {dataset} failed:\n{err.read_text(errors='replace')}")
        folder = Path(out.read_text().split(maxsplit=1)[1].strip())
    sums = json.loads((folder / "checksums.json").read_text())
    return float(seconds), int(peak_kb), f"{sums['masks.bin']} {sums['rasters.bin']}"


if __name__ == "__main__":
    main()
