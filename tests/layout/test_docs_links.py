"""The documentation holds together: every relative link in README.md and docs/*.md reaches a file of the
repository (and its heading, when it names one), and the metric is cited from inside the repository.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^\s*(```|~~~)")
SKIPPED = ("venv", "node_modules", "artifacts", "local", "__pycache__")  # not ours, or made by runs


def documents() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def links(text: str) -> list[tuple[int, str]]:
    """``(line, target)`` of each Markdown link or image outside code (fenced blocks and `spans`)."""
    found, fenced = [], False
    for number, line in enumerate(text.splitlines(), start=1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            found += [(number, m.group(1)) for m in LINK.finditer(re.sub(r"`[^`]*`", "", line))]
    return found


def anchors(text: str) -> set[str]:
    """GitHub's anchors of the Markdown headings in ``text``: lower case, punctuation dropped, spaces as '-'."""
    headings = [line.lstrip("#").strip() for line in text.splitlines() if re.match(r"#{1,6} ", line)]
    return {re.sub(r"[^\w\- ]", "", h.replace("`", "").lower()).replace(" ", "-") for h in headings}


def broken(document: Path, root: Path = ROOT) -> list[str]:
    """What is wrong with each relative link of ``document``: a missing file, a missing heading, or a path
    outside the repository ``root``."""
    problems = []
    for number, target in links(document.read_text("utf-8")):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto:
            continue
        path_part, _, anchor = target.partition("#")
        path = (document.parent / path_part).resolve() if path_part else document
        where = f"{document.relative_to(root)}:{number}"
        if not path.is_relative_to(root):
            problems.append(f"{where}: {target} points outside the repository")
        elif not path.exists():
            problems.append(f"{where}: {target}: no such file")
        elif anchor and path.suffix == ".md" and anchor not in anchors(path.read_text("utf-8")):
            problems.append(f"{where}: {target}: {path.name} has no heading #{anchor}")
    return problems


def test_every_relative_link_of_the_readme_and_the_docs_resolves():
    assert len(documents()) >= 8  # README, METRIC, SETTINGS, MAINTAINERS, PERFORMANCE, SERVICE, SPACE, HUB, ...
    problems = [problem for document in documents() for problem in broken(document)]
    assert not problems, "\n".join(problems)


def test_the_check_catches_a_missing_file_a_missing_heading_and_a_way_out(tmp_path: Path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "A.md").write_text("# A\n\n## The fair queue\n")
    readme = tmp_path / "README.md"
    readme.write_text(
        "[ok](docs/A.md#the-fair-queue) ![ok](docs/A.md) [web](https://example.org) `[code](nowhere.md)`\n"
        "[gone](docs/B.md)\n[heading](docs/A.md#the-queue)\n[out](../shared/METRIC.md)\n"
        "```\n[in a fence](fenced.md)\n```\n"
    )
    assert broken(readme, tmp_path) == [
        "README.md:2: docs/B.md: no such file",
        "README.md:3: docs/A.md#the-queue: A.md has no heading #the-queue",
        "README.md:4: ../shared/METRIC.md points outside the repository",
    ]


def test_the_metric_is_cited_from_inside_the_repository():
    # The metric card is docs/METRIC.md: code and docs cite it by that path (docs/ itself by its name).
    offenders = []
    for path in sorted(ROOT.rglob("*")):
        relative = path.relative_to(ROOT)
        if path.suffix not in (".py", ".md", ".txt", ".toml") or any(
            part.startswith(".") or part in SKIPPED for part in relative.parts
        ):
            continue
        if path == Path(__file__).resolve():
            continue
        for number, line in enumerate(path.read_text("utf-8", errors="replace").splitlines(), start=1):
            outside = "shared/navitrace" in line or "../shared" in line
            bare = re.search(r"(?<![\w/])METRIC\.md", line) and relative.parts[0] != "docs"
            if outside or bare:
                offenders.append(f"{relative}:{number}: {line.strip()[:100]}")
    assert not offenders, "cite docs/METRIC.md, in the repository:\n" + "\n".join(offenders)
