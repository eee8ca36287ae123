"""``scoring`` stays a pure library: no UI, no Hub client, no environment reads outside its CLI."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

SCORING = Path(__file__).resolve().parents[2] / "scoring"


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text("utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_scoring_source_imports_no_gradio_or_hub_client():
    offenders = {p.name: _imports(p) & {"gradio", "huggingface_hub"} for p in SCORING.rglob("*.py")}
    assert not {k: v for k, v in offenders.items() if v}


def test_only_the_cli_reads_the_environment():
    readers = [p.relative_to(SCORING).as_posix() for p in SCORING.rglob("*.py") if "environ" in p.read_text("utf-8")]
    assert readers == ["cli.py"]


def test_warm_scoring_loads_neither_gradio_nor_hub_client(validation_key, demo_dataset, key_cache, tmp_path):
    from scoring.examples import write_example

    tsv = tmp_path / "p.tsv"
    write_example(validation_key, "perfect", tsv)
    code = (
        "import sys, scoring\n"
        f"key = scoring.load_answer_key({str(demo_dataset)!r}, 'validation', {str(key_cache)!r})\n"
        f"scoring.score_submission({str(tsv)!r}, key)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('gradio', 'huggingface_hub', 'datasets')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
