"""No two scoring modules import each other, directly or round a loop, even from inside a function."""

from __future__ import annotations

import ast
from pathlib import Path

SCORING = Path(__file__).resolve().parents[2] / "scoring"
# issue 9: evaluate reads __version__ through the package, whose __init__ imports evaluate
KNOWN_CYCLES = {("scoring", "scoring.evaluate")}


def module_name(path: Path) -> str:
    parts = path.relative_to(SCORING.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path, modules: set[str]) -> set[str]:
    """The scoring modules ``path`` imports anywhere in it (``from scoring.x import y``: y if a module, else x)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = (f"{node.module}.{alias.name}" for alias in node.names)
            found |= {name if name in modules else node.module for name in names}
    return found & modules


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every loop a depth-first walk meets, each as the modules round it."""
    found: list[list[str]] = []
    state: dict[str, str] = {}
    stack: list[str] = []

    def visit(module: str) -> None:
        state[module] = "open"
        stack.append(module)
        for other in sorted(graph[module]):
            if state.get(other) == "open":
                found.append(stack[stack.index(other) :])
            elif other not in state:
                visit(other)
        stack.pop()
        state[module] = "done"

    for module in sorted(graph):
        if module not in state:
            visit(module)
    return found


def test_scoring_modules_import_one_another_without_cycles():
    paths = {module_name(p): p for p in SCORING.rglob("*.py")}
    graph = {name: imported(path, set(paths)) - {name} for name, path in paths.items()}
    assert graph["scoring.answer_key_build"] >= {"scoring.errors", "scoring.answer_key_source"}
    assert [c for c in cycles(graph) if tuple(sorted(c)) not in KNOWN_CYCLES] == []


def test_the_cycle_finder_finds_a_loop():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
