"""``space`` keeps Gradio in its rooms: the page logic (``space/pages``) knows no gradio, not even through another
module, and what reaches into Gradio's own modules is named here, file by file (docs/SPACE.md, "Files"). The
public pages' rule (``space/public``: no gradio but through the services) is in ``test_boundaries.py``.

The import graph is read from the source (``tests/layout/imports.py``): a forbidden import fails with the
path of imports by which a page module reaches gradio, and the file that imports it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

from tests.layout.imports import ROOT, imports, module_files, top_packages

GRADIO = {"gradio", "gradio_client"}
# What imports Gradio's own modules (anything under ``gradio.``, not its public ``gr`` namespace): one module,
# ``space/gradio_internals.py``, which says why for each; no other product module touches them.
GRADIO_MODULES = {
    "space.gradio_internals": {"gradio.queueing", "gradio.state_holder", "gradio.utils", "gradio.oauth",
                               "gradio.processing_utils"},  # the one module for them, each with why
}  # fmt: skip


def _reached(start: Iterable[str], edges: dict[str, set[str]]) -> dict[str, list[str]]:
    """Every module reached from ``start`` (``start`` included), with the path that reached it."""
    paths = {module: [module] for module in start}
    todo = list(paths)
    while todo:
        module = todo.pop()
        for target in sorted(edges.get(module, ())):
            if target not in paths:
                paths[target] = [*paths[module], target]
                todo.append(target)
    return paths


def _graph() -> dict[str, set[str]]:
    edges: dict[str, set[str]] = {}
    for edge in imports():
        edges.setdefault(edge.source, set()).add(edge.target)
    return edges


def _in(package: str, modules: Iterable[str]) -> list[str]:
    return sorted(m for m in modules if m == package or m.startswith(package + "."))


def test_the_page_logic_imports_no_gradio_not_even_through_another_module():
    modules = module_files()
    pages = _in("space.pages", modules)
    assert {"space.pages.board", "space.pages.board_csv", "space.pages.entry"} <= set(pages)
    reached = _reached(pages, _graph())
    through = [
        " -> ".join(path) + f" ({modules[module].relative_to(ROOT)} imports gradio)"
        for module, path in sorted(reached.items())
        if module in modules and top_packages(module, modules) & GRADIO
    ]
    assert not through, "the page logic reaches gradio:\n" + "\n".join(through)


def test_gradios_own_modules_are_imported_only_where_named():
    found = {module: names for module, path in module_files().items() if (names := _gradio_modules(path))}
    assert found == GRADIO_MODULES


def _gradio_modules(path: Path) -> set[str]:
    """The modules under ``gradio.`` (or ``gradio_client.``) a file imports, at any depth."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return {name for name in names if name.split(".")[0] in GRADIO and "." in name}


def test_the_checks_catch_a_planted_gradio_import(tmp_path):
    # The rules read files: a page module that reached gradio through a sibling (a deferred import) is caught.
    a, b = tmp_path / "a.py", tmp_path / "b.py"
    a.write_text("from space.pages import b\n")
    b.write_text("def f():\n    import gradio as gr\n")
    planted = {"space.pages.a": a, "space.pages.b": b}
    edges: dict[str, set[str]] = {}
    for edge in imports(planted):
        edges.setdefault(edge.source, set()).add(edge.target)
    reached = _reached(["space.pages.a"], edges)
    assert [m for m in reached if top_packages(m, planted) & GRADIO] == ["space.pages.b"]
    assert reached["space.pages.b"] == ["space.pages.a", "space.pages.b"]
