"""A site made of the public routes over a seeded store, read with starlette's TestClient (no browser).

Seeded once per module: three published test entries of different quality (one flagged), one private
entry, a figure reported from a publication. ``MIN_ROWS_PER_FIGURE=1``: the 6-scene demo dataset would
otherwise withhold every per-embodiment figure, and with it the charts and the intervals.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.testclient import TestClient

from leaderboard import Leaderboard, Settings
from space.board.cache import BoardCache
from space.board.csv_route import routes as csv_routes
from space.site.routes import routes
from space.site.shell import Viewer
from space.web.services import Services
from space.web.settings import SpaceSettings
from tests.service_fixtures import MAINTAINER, submit


@dataclass
class Site:
    client: TestClient
    services: Services
    ids: dict[str, str]  # model name -> submission id
    viewer: list[Viewer]  # who the next request comes from (tests swap it)


def site_of(services: Services, viewer: list[Viewer]) -> TestClient:
    def viewer_of(request: Request) -> Viewer:
        return viewer[0]

    app = Starlette(routes=[*routes(services, viewer_of), *csv_routes(services)])
    return TestClient(app, follow_redirects=False)


@pytest.fixture(scope="module")
def seeded(
    tmp_path_factory: pytest.TempPathFactory, demo_dataset: Path, demo_public: Path, key_cache: Path
) -> Iterator[Site]:
    from scoring import load_answer_key
    from scoring.examples import write_example

    folder = tmp_path_factory.mktemp("public-pages")
    env = {"LEADERBOARD_HOME": str(folder / "home"), "ANSWER_KEY_DATASET": str(demo_dataset),
           "PUBLIC_DATASET": str(demo_public), "MAINTAINERS": MAINTAINER, "MIN_ROWS_PER_FIGURE": "1"}  # fmt: skip
    settings = dataclasses.replace(Settings.from_env(env), answer_key_cache=key_cache)
    service = Leaderboard(settings)
    key = load_answer_key(demo_dataset, "test", key_cache)
    ids = {}
    for name, kind, user, publish, extra in (
        ("Perfect", "perfect", "alice", True, {"organization": "ETH", "open_weights": True, "parameters_b": 72}),
        ("Noisy", "noisy", "bob", True, {"organization": "Acme", "open_weights": False}),
        ("Straight", "straight", "carol", True, {}),
        ("Flaggy", "noisy", "erin", True, {}),
        ("Secret", "noisy", "dave", False, {}),
    ):
        path = folder / f"{name}.tsv"
        write_example(key, kind, path, seed=3)
        ids[name] = submit(service, path, user=user, model=name, publish=publish, metadata=extra).submission_id
    service.worker.drain()
    for name in ("Perfect", "Noisy", "Straight", "Flaggy"):
        service.approve(ids[name], by=MAINTAINER)
    service.flag(ids["Flaggy"], by=MAINTAINER, kind="contamination", reason="trained on the test images")
    service.add_reported(
        by=MAINTAINER, model="Paper-Model", score=12.5, source="https://arxiv.org/abs/2510.26909", split="test"
    )
    services = Services.create(settings, SpaceSettings(), leaderboard=service, examples=folder / "examples")
    services.warmup.run()  # the public keys and the example files, here rather than in a thread
    viewer = [Viewer()]
    yield Site(site_of(services, viewer), services, ids, viewer)


@pytest.fixture
def site(seeded: Site) -> Iterator[Site]:
    seeded.viewer[0] = Viewer()
    yield seeded
    seeded.viewer[0] = Viewer()


@pytest.fixture
def rows_site(seeded: Site, tmp_path: Path) -> Callable[[list[dict[str, object]]], TestClient]:
    """A site over hand-made public rows (kinds the store makes rarely: Hub rows, validation figures)."""

    def made(rows: list[dict[str, object]]) -> TestClient:
        board = BoardCache(lambda: [dict(r) for r in rows], tmp_path)  # a fresh copy per read, as a store gives
        services = dataclasses.replace(seeded.services, board=board)
        return site_of(services, [Viewer()])

    return made


class _Cells(HTMLParser):
    """The text of each row's cells of the table with ``id``, and the links in it."""

    def __init__(self, ident: str) -> None:
        super().__init__()
        self.ident, self.depth, self.rows, self.links = ident, 0, [], []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "table" and (self.depth or found.get("id") == self.ident):
            self.depth += 1
        if not self.depth:
            return
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self._cell = []
        elif tag == "a":
            self.links.append(str(found.get("href")))

    def handle_endtag(self, tag: str) -> None:
        if not self.depth:
            return
        if tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append(" ".join("".join(self._cell).split()))
            self._cell = None
        elif tag == "table":
            self.depth -= 1

    def handle_data(self, data: str) -> None:
        if self.depth and self._cell is not None:
            self._cell.append(data)


def cells(html: str, ident: str = "leaderboard-table") -> list[list[str]]:
    """The rows of a table as the reader sees them (the header row first)."""
    parser = _Cells(ident)
    parser.feed(html)
    return parser.rows


def links(html: str, ident: str = "leaderboard-table") -> list[str]:
    parser = _Cells(ident)
    parser.feed(html)
    return parser.links


def column(html: str, name: str) -> list[str]:
    """One column's cells by its header (the header's text up to its sort arrow)."""
    head, *body = cells(html)
    index = [h.rstrip("▲▼ ") for h in head].index(name)
    return [row[index] for row in body if len(row) > index]
