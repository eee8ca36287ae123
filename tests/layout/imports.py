"""The first-party import graph, read from the source with ``ast`` (nothing is imported).

Nodes are dotted module names (``leaderboard.storage.hub``; a package is its ``__init__``). An
edge ``a -> b`` is any import statement in ``a`` that makes Python run ``b``: top level, inside a
function (deferred) or under ``TYPE_CHECKING`` alike, because each is a dependency a reader must
follow. ``from pkg import name`` points at ``pkg.name`` when that is a module, else at ``pkg``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("scoring", "synthetic", "leaderboard", "space")
FIRST_PARTY = (*PACKAGES, "app")


@dataclass(frozen=True)
class Import:
    source: str  # the importing module
    target: str  # the module it runs
    line: int
    via_package: bool  # ``from pkg import submodule`` (the package's __init__ runs first)


def module_files() -> dict[str, Path]:
    found = {"app": ROOT / "app.py"}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imports(modules: dict[str, Path] | None = None) -> Iterator[Import]:
    modules = module_files() if modules is None else modules
    for source, path in modules.items():
        package = source if path.name == "__init__.py" else source.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    yield from _first_party(source, alias.name, node.lineno, False)
            elif isinstance(node, ast.ImportFrom):
                base = _absolute(node, package)
                for alias in node.names:
                    if f"{base}.{alias.name}" in modules:
                        yield from _first_party(source, f"{base}.{alias.name}", node.lineno, True)
                    else:
                        yield from _first_party(source, base, node.lineno, False)


def top_packages(source: str, modules: dict[str, Path] | None = None) -> set[str]:
    """Every top-level name ``source`` imports (first party or not)."""
    path = (module_files() if modules is None else modules)[source]
    names = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def cycles(edges: list[Import]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    graph: dict[str, set[str]] = {}
    for edge in edges:
        if edge.source != edge.target:
            graph.setdefault(edge.source, set()).add(edge.target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def _absolute(node: ast.ImportFrom, package: str) -> str:
    if not node.level:
        return node.module or ""
    parts = package.split(".")
    base = ".".join(parts[: len(parts) - node.level + 1])
    return f"{base}.{node.module}" if node.module else base


def _first_party(source: str, target: str, line: int, via_package: bool) -> Iterator[Import]:
    if target.split(".")[0] in FIRST_PARTY:
        yield Import(source, target, line, via_package)
