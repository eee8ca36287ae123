"""Write the hostile-file corpus (``corpus/``) from ``input_corpus.CASES``.

    .venv/bin/python -m tests.hardening.input.make_input_corpus            # write the files
    .venv/bin/python -m tests.hardening.input.make_input_corpus --table    # print the manifest as Markdown

Deterministic: the base file is the straight-forward example of the tests' synthetic dataset
(6 samples at 96x72, seed 0, as ``tests/conftest.py`` makes it), and no case draws unseeded
randomness. Files no case names are deleted, so the folder is exactly the manifest.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import pandas as pd

from scoring import load_answer_key
from scoring.examples import example_rows
from synthetic import write_demo_dataset
from tests.conftest import DEMO_SAMPLES, DEMO_SIZE
from tests.hardening.input.input_corpus import CASES, NOTEBOOK_COLUMNS

CORPUS = Path(__file__).with_name("corpus")


def base_frame(work: Path) -> pd.DataFrame:
    dataset = write_demo_dataset(work / "navitrace", samples=DEMO_SAMPLES, size=DEMO_SIZE)
    key = load_answer_key(dataset, "validation", work / "cache")
    return pd.DataFrame(example_rows(key, "straight"), columns=NOTEBOOK_COLUMNS)


def table() -> str:
    """The manifest as a Markdown table (docs/RELIABILITY.md)."""
    lines = ["| file | what it is | expected |", "|---|---|---|"]
    for case in CASES:
        if case.rejected:
            expected = f"rejected: `{case.rejected}`"
        elif case.invalid:
            expected = "accepted; invalid rows: " + ", ".join(f"{n} {reason}" for reason, n in case.invalid.items())
        else:
            expected = "accepted, every row valid" + (f" (warning: {case.warning})" if case.warning else "")
        what, expected = (text.replace("|", "\\|") for text in (case.what, expected))
        lines.append(f"| `{case.name}` | {what} | {expected} |")
    return "\n".join(lines)


def main() -> None:
    if "--table" in sys.argv:
        print(table())
        return
    CORPUS.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        base = base_frame(Path(work))
    names = {case.name for case in CASES}
    assert len(names) == len(CASES), "two cases share a file name"
    for case in CASES:
        (CORPUS / case.name).write_bytes(case.make(base.copy()))
    for stale in CORPUS.glob("*.tsv"):
        if stale.name not in names:
            stale.unlink()
    print(f"wrote {len(CASES)} files to {CORPUS}")


if __name__ == "__main__":
    main()
