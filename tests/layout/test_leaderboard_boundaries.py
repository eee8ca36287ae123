"""``leaderboard`` stays a service: no UI toolkit, the Hub client in the Hub backend, the environment read in two."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "leaderboard"


def _imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def _modules() -> dict[str, Path]:
    return {p.relative_to(PACKAGE).as_posix(): p for p in PACKAGE.rglob("*.py")}


def test_no_module_imports_gradio():
    assert not [name for name, path in _modules().items() if "gradio" in _imports(path)]


def test_only_the_hub_backend_imports_the_hub_client():
    users = sorted(name for name, path in _modules().items() if "huggingface_hub" in _imports(path))
    # The Hub backend, and the calls of results that travel to the Hub (pull requests on model repos, a benchmark's
    # leaderboard), imported only when HUB_BENCHMARK_DATASET is set.
    assert users == ["publishing/hub_eval_client.py", "storage/hub.py", "storage/hub_calls.py", "storage/hub_commit.py"]


def test_only_settings_and_the_cli_read_the_environment():
    # worker_process.py: the scoring process's entry point (a CLI of its own) and the environment the app hands it
    readers = sorted(name for name, path in _modules().items() if "environ" in path.read_text("utf-8"))
    assert readers == ["cli/parser.py", "config.py", "runtime/worker_process.py"]


def test_the_cli_starts_without_the_hub_client_or_datasets_in_local_mode(tmp_path):
    code = (
        "import sys\n"
        "from leaderboard.cli import main\n"
        f"main(['leaderboard', '--json'], {{'LEADERBOARD_HOME': {str(tmp_path)!r}}})\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('gradio', 'huggingface_hub', 'datasets')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == "[]"
