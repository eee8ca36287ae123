"""``space`` is a folder a feature, and keeps Gradio in its rooms: in every folder the logic knows no gradio, not even
through another module; the Gradio wiring is named here, module by module, and what reaches into Gradio's own
modules is one module (docs/SPACE.md, "Where things are").

The import graph is read from the source (``tests/layout/imports.py``): a forbidden import fails with the
path of imports by which a page module reaches gradio, and the file that imports it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

from tests.layout.imports import ROOT, imports, module_files, top_packages

GRADIO = {"gradio", "gradio_client"}
FEATURES = ("board", "desk", "entry", "explorer", "releases", "site", "submit", "web", "workspace")
# The Gradio wiring: what lays out the signed-in pages and binds their events (and the server that mounts them).
WIRING = (
    "space.web.auth", "space.web.server",
    "space.web.script_api",  # its refusals read as the pages' (space.workspace.errors.describe)
    "space.web.offload",  # the Explorer's picture is saved where Gradio serves files from
    "space.workspace.a11y", "space.workspace.errors", "space.workspace.gradio_internals", "space.workspace.handlers",
    "space.workspace.theme",
    "space.submit.tab", "space.submit.declarations", "space.submit.handlers", "space.submit.messages",
    "space.submit.my_submissions", "space.submit.my_actions", "space.submit.my_handlers",
    "space.submit.uploads",  # what Gradio received, in its upload folder
    "space.explorer.tab", "space.explorer.handlers",
    "space.desk.tab", "space.desk.flags", "space.desk.confirm", "space.desk.releases", "space.desk.handlers",
    "space.desk.state", "space.desk.health_section", "space.desk.score_release_section", "space.desk.reported_section",
)  # fmt: skip
SHARED_WITH_GRADIO = {"space.web.services"}
# What imports Gradio's own modules (anything under ``gradio.``, not its public ``gr`` namespace): one module,
# ``space/workspace/gradio_internals.py``, which says why for each; no other product module touches them.
GRADIO_MODULES = {
    "space.workspace.gradio_internals": {"gradio.queueing", "gradio.state_holder", "gradio.utils", "gradio.oauth",
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


def test_each_feature_keeps_its_logic_free_of_gradio_beside_its_wiring():
    # Every module but the named Gradio wiring reaches no gradio, not even through another module; the walk does not
    # go through the services (the one door the plain pages share with the Gradio side, which holds its helpers).
    modules = module_files()
    space = _in("space", modules)
    assert set(WIRING) <= set(space), sorted(set(WIRING) - set(space))
    logic = [m for m in space if m not in WIRING and m not in SHARED_WITH_GRADIO]
    assert {"space.board.view", "space.board.csv_rows", "space.entry.view", "space.site.routes"} <= set(logic)
    edges = {source: targets - SHARED_WITH_GRADIO for source, targets in _graph().items()}
    reached = _reached(logic, edges)
    through = [
        " -> ".join(path) + f" ({modules[module].relative_to(ROOT)} imports gradio)"
        for module, path in sorted(reached.items())
        if module in modules and top_packages(module, modules) & GRADIO
    ]
    assert not through, "the logic reaches gradio:\n" + "\n".join(through)


def test_the_space_is_folders_by_feature_each_small():
    # Nothing loose at the top but the package's docstring, each feature a folder of at most ~25 modules.
    folders = sorted(p for p in (ROOT / "space").iterdir() if p.is_dir() and p.name != "__pycache__")
    loose = sorted(p.name for p in (ROOT / "space").glob("*.py") if p.name != "__init__.py")
    assert not loose, f"modules loose in space/: {loose}; put each in its feature's folder"
    assert [f.name for f in folders] == sorted(FEATURES)
    assert all((f / "__init__.py").is_file() for f in folders)
    crowded = {f.name: n for f in folders if (n := len(list(f.glob("*.py")))) > 25}
    assert not crowded, crowded


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
    a.write_text("from space.board import b\n")
    b.write_text("def f():\n    import gradio as gr\n")
    planted = {"space.board.a": a, "space.board.b": b}
    edges: dict[str, set[str]] = {}
    for edge in imports(planted):
        edges.setdefault(edge.source, set()).add(edge.target)
    reached = _reached(["space.board.a"], edges)
    assert [m for m in reached if top_packages(m, planted) & GRADIO] == ["space.board.b"]
    assert reached["space.board.b"] == ["space.board.a", "space.board.b"]
