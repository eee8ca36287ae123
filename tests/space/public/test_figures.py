"""The same figures everywhere: the board, an entry, compare, the CSV and the JSON API say
what the published table says, for a store written by old code (``tests/space/legacy_store``) and a fresh one.

Each place is read as a reader reads it (the HTML's cells, the CSV's lines, the JSON's values) and checked
against the table (``published_table() or public_table()``, what ``services.board`` serves): the rows shown,
every score and interval, and every rank and rank range, worked out here from the table's ``score`` and
``significantly_better`` by the rule its card states (``leaderboard/publishing/table.py``): over the split's unflagged
submission and reported rows, rank = 1 + the rows scoring higher; range = from 1 + the rows significantly
better to their number minus the rows significantly worse.
"""

from __future__ import annotations

import csv
import io
import math
import re
import shutil
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient

from leaderboard import Leaderboard
from scoring.penalty_table import EMBODIMENTS
from space.board import csv_rows
from space.board import view as board
from space.board.csv_route import routes as csv_routes
from space.entry import compare
from space.entry import view as entry
from space.entry.page import intervals_of
from space.site import api
from space.site.routes import routes as page_routes
from space.site.shell import Viewer
from space.web.services import Services
from space.web.settings import SpaceSettings
from tests.space.legacy_store.make_store import settings_for
from tests.space.public.conftest import Site, cells

LEGACY = Path(__file__).resolve().parents[1] / "legacy_store" / "store"
SPLITS = ("test", "validation")
CLOSE = 0.0051  # pages show two decimals


@dataclass
class Store:
    name: str
    services: Services
    client: TestClient  # the public pages, the CSV and the JSON API

    @property
    def table(self) -> list[dict[str, object]]:
        return self.services.board.snapshot().rows


def _client(services: Services) -> TestClient:
    routes = [*page_routes(services, lambda request: Viewer()), *csv_routes(services), *api.routes(services)]
    return TestClient(Starlette(routes=routes), follow_redirects=False)


@pytest.fixture(scope="module", params=["legacy", "fresh"])
def store(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, demo_dataset: Path, demo_public: Path
) -> Iterator[Store]:
    if request.param == "fresh":
        seeded: Site = request.getfixturevalue("seeded")
        yield Store("fresh", seeded.services, _client(seeded.services))
        return
    folder = tmp_path_factory.mktemp("legacy-figures")
    shutil.copytree(LEGACY, folder / "home")
    settings = settings_for(folder / "home", demo_dataset, demo_public, folder / "cache")
    services = Services.create(settings, SpaceSettings(), leaderboard=Leaderboard(settings), examples=folder / "ex")
    services.warmup.run()
    yield Store("legacy", services, _client(services))


# -- what the table says ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Expected:
    row: Mapping[str, object]
    rank: int | None
    bounds: tuple[int, int] | None

    @property
    def shown_on_board(self) -> bool:  # the default board with all entries: flagged and Hub rows left out
        return self.row.get("kind") != "hub" and not isinstance(self.row.get("flag"), Mapping)


def expected(table: list[dict[str, object]], split: str) -> dict[str, Expected]:
    mine = [r for r in table if r.get("split") == split]
    ranked = [r for r in mine if r.get("kind") not in ("baseline", "hub") and not isinstance(r.get("flag"), Mapping)]
    by_id = {str(r["submission_id"]): r for r in ranked}
    out = {}
    for row in mine:
        me, mine_score = str(row["submission_id"]), _score(row)
        if row.get("kind") in ("baseline", "hub"):
            out[me] = Expected(row, None, None)
            continue
        rank = 1 + sum(_score(o) > mine_score for o in ranked)
        better = row.get("significantly_better")
        bounds = None
        if row.get("kind") == "submission" and isinstance(better, list):
            above = sum(1 for o in set(better) if o in by_id and o != me and _score(by_id[o]) > mine_score)
            below = sum(1 for o in ranked if me in (o.get("significantly_better") or []) and mine_score > _score(o))
            size = len(ranked) + (me not in by_id)
            bounds = (1 + above, size - below)
            assert bounds[0] <= rank <= bounds[1], (me, rank, bounds)
        out[me] = Expected(row, rank, bounds)
    return out


def _score(row: Mapping[str, object]) -> float:
    value = row.get("score")
    return float(value) if isinstance(value, int | float) else -math.inf


def test_both_stores_have_what_the_checks_need(store: Store):
    table = store.table
    assert {r["split"] for r in table} == ({"test"} if store.name == "fresh" else set(SPLITS))
    assert {"submission", "reported", "baseline"} <= {r["kind"] for r in table}
    if store.name == "fresh":  # the legacy table predates intervals and flags
        assert any(isinstance(r.get("flag"), Mapping) for r in table)
        assert sum(isinstance(r.get("score_ci"), list) for r in table) >= 3


# -- the board ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("split", SPLITS)
def test_the_board_shows_the_tables_rows_ranks_scores_and_intervals(store: Store, split: str):
    wanted = expected(store.table, split)
    view = board.BoardView(split, groups=frozenset(board.GROUPS), best_only=False)
    page = store.client.get(f"/?split={split}&all=1&cols=emb,cat,details")
    assert page.status_code == 200
    for html in (board.render(store.table, view), page.text):
        head, *body = cells(html)
        head = [h.rstrip("▲▼ ") for h in head]
        body = [line for line in body if len(line) == len(head)]  # not the "No entry … yet" line of an empty board
        lines = {line[head.index("Id")]: dict(zip(head, line, strict=True)) for line in body}
        assert set(lines) == {i for i, e in wanted.items() if e.shown_on_board}
        for ident, line in lines.items():
            e = wanted[ident]
            assert line["Rank"] == ("—" if e.rank is None else str(e.rank)), ident
            _same(line["Score"], [e.row.get("score"), *_pair(e.row.get("score_ci"))])
            if "Rank range" in line:
                assert line["Rank range"] == _range(e.bounds), ident
            else:
                assert all(x.bounds is None for x in wanted.values())
            for short, name in zip(("Human", "Legged", "Wheeled", "Bicycle"), EMBODIMENTS, strict=True):
                _same(line[short], [_dict(e.row.get("per_embodiment")).get(name)])
        ranks = [int(line["Rank"]) for line in lines.values() if line["Rank"] != "—"]
        assert ranks == sorted(ranks)  # best first


# -- the CSV and the JSON ----------------------------------------------------------------------------------


@pytest.mark.parametrize("split", SPLITS)
def test_the_csv_and_the_json_carry_the_tables_figures(store: Store, split: str):
    wanted = expected(store.table, split)
    text = store.client.get("/board.csv", params={"split": split}).text
    assert text == csv_rows.csv_bytes(store.table, split).decode()
    from_csv = [{k: _typed(v) for k, v in line.items()} for line in csv.DictReader(io.StringIO(text))]
    from_json = store.client.get("/api/board", params={"split": split}).json()["rows"]
    for lines in (from_csv, from_json):
        assert [line["submission_id"] for line in lines] == [
            r["submission_id"] for r in board.ranked(store.table, split)
        ]
        assert {line["submission_id"] for line in lines} == set(wanted)  # every row, flagged and Hub ones too
        for line in lines:
            e = wanted[str(line["submission_id"])]
            assert line["rank"] == e.rank and line["score"] == e.row.get("score")
            assert (line["rank_best"], line["rank_worst"]) == (e.bounds or (None, None))
            assert [line["score_ci_low"], line["score_ci_high"]] == _pair(e.row.get("score_ci"))
            for name in EMBODIMENTS:
                assert line[f"per_embodiment.{name}"] == _dict(e.row.get("per_embodiment")).get(name)
                interval = _pair(_dict(e.row.get("per_embodiment_ci")).get(name))
                assert [line[f"per_embodiment_ci.{name}.low"], line[f"per_embodiment_ci.{name}.high"]] == interval
            for name, value in _dict(e.row.get("per_category")).items():
                assert line[f"per_category.{name}"] == value
            assert line["flag_kind"] == _dict(e.row.get("flag")).get("kind")


def _typed(cell: str) -> object:
    """A CSV cell back as the JSON has it: empty as None, numbers as numbers, yes/no as booleans."""
    if cell == "":
        return None
    if cell in ("yes", "no"):
        return cell == "yes"
    for kind in (int, float):
        try:
            return kind(cell)
        except ValueError:
            pass
    return cell


# -- an entry, compare ------------------------------------------------------------------------------------


@pytest.mark.parametrize("split", SPLITS)
def test_every_entry_page_and_its_json_say_what_the_table_says(store: Store, split: str):
    intervals = intervals_of(store.services)
    for ident, e in expected(store.table, split).items():
        row = entry.find(store.table, ident)
        assert row is not None
        groups = intervals.groups(row)
        page = store.client.get(f"/entry/{ident}")
        assert page.status_code == 200
        for html in (entry.entry_html(row, groups), page.text):
            headline = re.search(r'id="entry-score">(.*?)</p>', html, re.S)
            assert headline, ident
            said = re.sub(r"<[^>]+>", "", headline.group(1))
            beside = r"(?: · upper-bound rank (\d+))?"  # the upper-bound rank: beside the rank, where there is a range
            pattern = rf"Score (\S+) (\[[^]]*\]|—) · rank (\S+) \(range (\S+)\){beside} on the (\w+) split"
            found = re.fullmatch(pattern, said)
            assert found, said
            score, interval, rank, bounds, upper, where = found.groups()
            _same(score, [e.row.get("score")])
            _same(interval, _pair(e.row.get("score_ci")))
            assert (rank, bounds, where) == ("—" if e.rank is None else str(e.rank), _range(e.bounds), split)
            assert upper == (None if e.bounds is None else str(e.bounds[0])), ident  # the upper-bound rank
            shown = dict(
                re.findall(r'nt-ci-label">([^<]*)</span>.*?nt-ci-value">([^<]*)<', _part(html, "entry-embodiment"))
            )
            for name in EMBODIMENTS if shown else ():
                value = _dict(e.row.get("per_embodiment")).get(name)
                _same(shown[name], [value, *_pair(_dict(e.row.get("per_embodiment_ci")).get(name))])
            categories = re.findall(
                r'nt-ci-label">([^<]*)</span>.*?nt-ci-value">([^<]*)<', _part(html, "entry-category")
            )
            for name, text in categories:
                _same(text.split(" [")[0], [_dict(e.row.get("per_category")).get(name)])
        found_json = store.client.get(f"/api/entry/{ident}").json()
        assert found_json["row"]["rank"] == e.rank and found_json["row"]["score"] == e.row.get("score")
        by_group = {(g["kind"], g["name"]): g for g in found_json["groups"]}
        for g in groups:  # the JSON's groups are the entry page's
            shown_json = by_group[(g.kind, g.name)]
            assert shown_json["value"] == g.value
            assert [shown_json["ci_low"], shown_json["ci_high"]] == (list(g.interval) if g.interval else [None, None])


def test_compare_says_what_the_table_says_of_both_entries(store: Store):
    intervals = intervals_of(store.services)
    wanted = {**expected(store.table, "test"), **expected(store.table, "validation")}
    ids = [i for i, e in wanted.items() if e.row.get("kind") != "baseline"]
    pairs = list(zip(ids, ids[1:], strict=False))
    assert pairs
    for a, b in pairs:
        row_a, row_b = entry.find(store.table, a), entry.find(store.table, b)
        page = store.client.get(f"/compare?compare={a},{b}")
        assert page.status_code == 200
        for html in (compare.compare_html(row_a, row_b, intervals.compare(row_a, row_b)), page.text):
            head = re.search(r'id="compare-headline">(.*?)</p>', html, re.S)
            assert head
            said = re.sub(r"<[^>]+>", "", head.group(1).replace("<br>", "\n"))
            for side, ident in (("A", a), ("B", b)):
                e = wanted[ident]
                rank = "" if e.rank is None else f"#{e.rank} "
                found = re.search(rf"{side} = {re.escape(rank)}(.+?) \((\w+), (\S+)\)", said)
                assert found, said
                assert (found.group(1), found.group(2)) == (e.row.get("model"), e.row.get("split"))
                _same(found.group(3), [e.row.get("score")])
            (head_row, *lines) = cells(html, "compare-table")
            assert head_row == ["group", "A", "B", "A − B"]
            shown = {line[0]: line for line in lines}
            for name, key in (("overall", None), *((n, n) for n in EMBODIMENTS)):
                if name not in shown:
                    continue
                for column, e in ((1, wanted[a]), (2, wanted[b])):
                    value = e.row.get("score") if key is None else _dict(e.row.get("per_embodiment")).get(key)
                    _same(shown[name][column], [value])


# -- reading what is shown ---------------------------------------------------------------------------------


def _same(text: str, numbers: list[object]) -> None:
    """``text`` shows ``numbers`` to two decimals ("—" or nothing for None)."""
    present = [float(n) for n in numbers if n is not None]  # type: ignore[arg-type]
    shown = [float(x) for x in re.findall(r"[-+]?\d+(?:\.\d+)?", text)]
    assert len(shown) == len(present), (text, numbers)
    assert all(abs(s - p) <= CLOSE for s, p in zip(shown, present, strict=True)), (text, numbers)
    if not present:
        assert text.strip() in ("", "—", "withheld"), text


def _pair(value: object) -> list[object]:
    return list(value) if isinstance(value, list | tuple) and len(value) == 2 else [None, None]


def _range(bounds: tuple[int, int] | None) -> str:
    if bounds is None:
        return "—"
    return str(bounds[0]) if bounds[0] == bounds[1] else f"{bounds[0]}–{bounds[1]}"


def _part(html: str, ident: str) -> str:
    """The bars block with ``id``: from it to the next heading (or the end)."""
    start = html.find(f'id="{ident}"')
    if start < 0:
        return ""
    end = html.find("<h", start)
    return html[start : end if end > 0 else len(html)]


def _dict(value: object) -> dict:
    return value if isinstance(value, dict) else {}
