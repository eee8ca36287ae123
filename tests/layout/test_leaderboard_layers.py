"""The service's layers: each package imports only lower ones, and others only through a package's ``__init__``.

``leaderboard`` is a few packages named by what they hold, low to high (``LAYERS``); ``service.py`` is the
facade over them. A module imports a sibling of its own package directly, and anything of another package
from that package's ``__init__`` (which exports what the package offers), never a module past it. ``space``
and ``app.py`` see the same doors. A failure names the file and line.
"""

from __future__ import annotations

from tests.layout.imports import ROOT, Import, imports, module_files

LAYERS = ["records", "config", "storage", "statistics", "publishing", "jobs", "review", "service", "runtime", "cli"]
FACADE = {"leaderboard", "leaderboard.__main__"}  # the package itself: the facade's names, and ``python -m``
# Imported where it is used, and only in Hub mode: the Hub client must not load with its package.
HUB_ONLY = {"leaderboard.publishing.hub_eval_client", "leaderboard.storage.hub", "leaderboard.storage.hub_calls"}
MAX_MODULES = 25


def layer(module: str) -> str:
    return module.split(".")[1]


def package(module: str) -> str:
    """``leaderboard.storage.registry`` -> ``leaderboard.storage``; a top-level module is its own."""
    return ".".join(module.split(".")[:2])


def _where(edge: Import) -> str:
    return f"{module_files()[edge.source].relative_to(ROOT)}:{edge.line}"


def _edges() -> list[Import]:
    return [e for e in imports() if e.target.startswith("leaderboard") and e.source != e.target]


def test_a_package_imports_only_lower_layers():
    offenders = []
    for edge in _edges():
        if not edge.source.startswith("leaderboard.") or edge.source in FACADE or edge.target in FACADE:
            continue
        low, high = layer(edge.target), layer(edge.source)
        if low != high and LAYERS.index(low) > LAYERS.index(high):
            offenders.append(f"{_where(edge)}: {high} imports {edge.target} (layer {low} is above it)")
    assert not offenders, "\n".join(offenders)


def test_other_packages_and_the_space_import_a_package_through_its_init():
    offenders = []
    for edge in _edges():
        if edge.source.startswith(("tests", "benchmarks")) or edge.target in HUB_ONLY or edge.target in FACADE:
            continue
        if edge.source.startswith("leaderboard.") and package(edge.source) == package(edge.target):
            continue  # a sibling
        if edge.target != package(edge.target):
            offenders.append(f"{_where(edge)}: imports {edge.target}; expected {package(edge.target)}")
    assert not offenders, "\n".join(offenders)


def test_no_folder_of_the_product_holds_more_than_25_modules():
    folders: dict[str, int] = {}
    for path in module_files().values():
        if path.name != "__init__.py":
            key = str(path.parent.relative_to(ROOT))
            folders[key] = folders.get(key, 0) + 1
    assert {f: n for f, n in folders.items() if n > MAX_MODULES} == {}
