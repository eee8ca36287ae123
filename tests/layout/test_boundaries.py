"""The house rules of the layout (README, "Where things are"): who imports whom, no import cycles, tests in their rooms.

``scoring`` is the metric (numpy in, numbers out); ``synthetic`` builds on it; ``leaderboard`` is the
service and knows no UI; ``space`` is the Space; ``app.py`` composes. A forbidden import or a cycle
fails here with the file and line that made it.
"""

from __future__ import annotations

from pathlib import Path

from tests.layout.imports import ROOT, cycles, imports, module_files, top_packages

# What each package may never import (first party or not).
FORBIDDEN = {
    "scoring": {"leaderboard", "space", "synthetic", "app", "gradio", "huggingface_hub"},
    "synthetic": {"leaderboard", "space", "app", "gradio", "huggingface_hub"},
    "leaderboard": {"space", "app", "gradio"},
    "space": {"app"},
}


def test_no_package_imports_what_its_layer_forbids():
    modules = module_files()
    offenders = []
    for module in modules:
        package = module.split(".")[0]
        for name in sorted(top_packages(module, modules) & FORBIDDEN.get(package, set())):
            offenders.append(f"{modules[module].relative_to(ROOT)} imports {name}")
    assert not offenders, "\n".join(offenders)


def test_every_first_party_import_names_a_module_that_exists():
    # A module deleted (space.page_cache, space.visits, ...) leaves no import of it behind, not even a
    # deferred one that only a rare path would run.
    modules = module_files()
    missing = [f"{e.source} line {e.line}: {e.target}" for e in imports(modules) if e.target not in modules]
    assert not missing, "\n".join(missing)


def test_there_is_no_import_cycle_between_modules():
    found = cycles(list(imports()))
    assert not found, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in found)


def test_no_module_imports_through_its_own_top_package():
    # ``from leaderboard import audit`` inside leaderboard reads as if it took the package's public
    # face (its __init__, which imports the whole service) to reach a sibling: import the sibling.
    offenders = [
        f"{edge.source} line {edge.line}: {edge.target}"
        for edge in imports()
        if "." in edge.source
        and not edge.source.endswith("__main__")
        and _top(edge.source) == _top(edge.target)
        and (edge.target == _top(edge.source) or (edge.via_package and edge.target.count(".") == 1))
    ]
    assert not offenders, "\n".join(offenders)


def _top(module: str) -> str:
    return module.split(".")[0]


def test_every_test_file_sits_in_the_room_of_what_it_tests():
    loose = sorted(
        p.name for p in (ROOT / "tests").glob("*.py") if p.name.startswith("test_") or p.name.endswith("_test.py")
    )
    assert not loose, f"test files loose in tests/: {loose}; put each in tests/<package>/"


def test_the_checks_see_every_package_and_catch_a_planted_cycle(tmp_path: Path):
    # The graph is read from files: a check that read nothing would pass on anything.
    modules = module_files()
    assert {"scoring", "synthetic", "leaderboard", "space", "app", "leaderboard.storage.hub"} <= set(modules)
    assert {"space.site.routes", "space.site.api", "space.board.page", "space.desk.tab"} <= set(modules)
    a, b = tmp_path / "a.py", tmp_path / "b.py"
    a.write_text("from leaderboard import b\n")
    b.write_text("def f():\n    from leaderboard.a import x\n")
    planted = {"leaderboard.a": a, "leaderboard.b": b}
    assert cycles(list(imports(planted))) == [["leaderboard.a", "leaderboard.b"]]
