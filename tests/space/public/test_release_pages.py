"""Releases on the public pages: the old board stays identical at ``/?release=v1`` (HTML rows, JSON,
CSV) after every entry was rescored under v2; the changelog lists the rank moves; every row, CSV line and JSON
row says its release; the legacy store reads as v1.

A site of its own (the shared ``seeded`` one must not change): three entries and a figure reported from a
paper at 93; v2 recalibrates B (2000 instead of the demo's), which lowers every score below 100 and moves
the two noisy entries (about 95 under v1, 92 under v2) below the reported figure.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.testclient import TestClient

from leaderboard import Leaderboard, Settings
from space.board.csv_route import routes as csv_routes
from space.releases.book import ReleaseBook
from space.site import api, views
from space.site.html import number
from space.site.routes import routes
from space.site.shell import Viewer
from space.submit.my_submissions import _with_rescore_note
from space.web.services import Services
from space.web.settings import SpaceSettings
from tests.service_fixtures import MAINTAINER, submit
from tests.space.legacy_store.make_store import settings_for
from tests.space.public.conftest import cells

LEGACY = Path(__file__).resolve().parents[1] / "legacy_store" / "store"


@dataclass
class Released:
    client: TestClient
    services: Services
    ids: dict[str, str]
    before: dict[str, Any]  # what /?release=v1 and its JSON and CSV showed while v1 was current
    during: str  # the board while v2 was being rescored
    settings: Settings


def site_of(services: Services) -> TestClient:
    """The pages, the JSON API and the CSV (read by someone not signed in)."""

    def viewer_of(request: Request) -> Viewer:
        return Viewer()

    pages = [*routes(services, viewer_of), *api.routes(services), *csv_routes(services)]
    return TestClient(Starlette(routes=pages), follow_redirects=False)


def _views(client: TestClient, path: str = "/?release=v1") -> dict[str, Any]:
    return {
        "html": client.get(path).text,
        "json": client.get("/api/board?split=test&release=v1").json(),
        "csv": client.get("/board.csv?split=test&release=v1").content,
    }


@pytest.fixture(scope="module")
def released(
    tmp_path_factory: pytest.TempPathFactory, demo_dataset: Path, demo_public: Path, key_cache: Path
) -> Iterator[Released]:
    from scoring import load_answer_key
    from scoring.examples import write_example

    folder = tmp_path_factory.mktemp("release-pages")
    env = {"LEADERBOARD_HOME": str(folder / "home"), "ANSWER_KEY_DATASET": str(demo_dataset),
           "PUBLIC_DATASET": str(demo_public), "MAINTAINERS": MAINTAINER, "MIN_ROWS_PER_FIGURE": "1"}  # fmt: skip
    settings = dataclasses.replace(Settings.from_env(env), answer_key_cache=key_cache)
    service = Leaderboard(settings)
    key = load_answer_key(demo_dataset, "test", key_cache)
    ids = {}
    for name, kind, seed in (("Perfect", "perfect", 3), ("Noisy", "noisy", 3), ("Noisier", "noisy", 5)):
        path = folder / f"{name}.tsv"
        write_example(key, kind, path, seed=seed)
        ids[name] = submit(service, path, user=name.lower(), model=name, publish=True).submission_id
    service.worker.drain()
    for submission_id in ids.values():
        service.approve(submission_id, by=MAINTAINER)
    service.add_reported(by=MAINTAINER, model="Paper-Model", score=93.0, source="https://arxiv.org/abs/2510.26909")
    services = Services.create(settings, SpaceSettings(), leaderboard=service, examples=folder / "examples")
    client = site_of(services)
    before = _views(client)

    recalibrated = Leaderboard(dataclasses.replace(settings, baseline_raw=2000.0))
    recalibrated.open_release("B recomputed: the straight-forward mean over the full test split.", by=MAINTAINER)
    services.board.invalidate()
    during = client.get("/").text
    assert recalibrated.worker.drain() == 3
    services.board.invalidate()
    yield Released(client, services, ids, before, during, settings)


def test_the_old_board_stays_identical_at_its_address(released: Released):
    after = _views(released.client)
    assert cells(after["html"]) == cells(released.before["html"])  # every row, every cell, as a reader sees it
    assert after["json"]["rows"] == released.before["json"]["rows"]
    assert after["json"]["columns"] == released.before["json"]["columns"] and after["json"]["release"] == "v1"
    assert after["csv"] == released.before["csv"]  # byte for byte
    assert "You are reading the board of release v1" in after["html"]
    # The current board has moved on: other scores, release v2.
    now = released.client.get("/api/board?split=test").json()
    assert now["release"] == "v2" and {r["release"] for r in now["rows"]} == {"v2"}
    assert now["rows"] != after["json"]["rows"]
    assert released.client.get("/api/board?split=test&release=v2").json()["rows"] == now["rows"]


def test_the_old_board_keeps_its_controls_and_unknown_releases_are_refused(released: Released):
    html = released.client.get("/?release=v1&sort=model&dir=asc").text
    assert 'href="/?sort=model&amp;dir=desc&amp;release=v1"' in html  # a header link keeps the release
    assert '<input type="hidden" name="release" value="v1">' in html  # and the search form
    assert 'href="/board.csv?split=test&amp;release=v1"' in html
    assert released.client.get("/?release=v1&q=Perfect").status_code == 200
    assert released.client.get("/?release=v9").status_code == 404
    assert "No release v9" in released.client.get("/?release=v9").text
    assert released.client.get("/?release=v1x").status_code == 200  # not a release name: ignored, the board
    for query, status in (("release=v9", 404), ("release=nope", 400), ("release=" + "v" + "1" * 50, 400)):
        assert released.client.get(f"/api/board?split=test&{query}").status_code == status
        assert released.client.get(f"/board.csv?split=test&{query}").status_code == status


def test_an_entry_keeps_its_release_figures_at_the_address_its_citation_gives(released: Released):
    noisy = released.ids["Noisy"]
    then = next(r for r in released.before["json"]["rows"] if r["submission_id"] == noisy)
    now = released.client.get(f"/api/entry/{noisy}").json()["row"]
    answer = released.client.get(f"/api/entry/{noisy}?release=v1")
    frozen = answer.json()
    assert frozen["row"] == then and now["release"] == "v2" and now["score"] != then["score"]
    assert frozen["groups"][0] == {"kind": "score", "name": "", "value": then["score"], "ci_low": None, "ci_high": None}
    assert {g["ci_low"] for g in frozen["groups"]} == {None}  # today's per-row scores are not the release's
    again = released.client.get(f"/api/entry/{noisy}?release=v1", headers={"If-None-Match": answer.headers["etag"]})
    assert again.status_code == 304
    assert released.client.get(f"/api/entry/{noisy}?release=v2").json()["row"] == now  # the current one, named
    for query, status in (("release=v9", 404), ("release=nope", 400)):
        assert released.client.get(f"/api/entry/{noisy}?{query}").status_code == status
    assert released.client.get("/api/entry/abc123?release=v1").status_code == 404

    page = released.client.get(f"/entry/{noisy}?release=v1")
    assert page.status_code == 200 and page.text == released.client.get(f"/entry/{noisy}?release=v1").text
    headline = page.text[page.text.index('id="entry-score"') :]
    assert headline.startswith(f'id="entry-score">Score <b>{number(then["score"])}</b>')
    assert "Release v1" in page.text and "closed: the figures as they stood" in page.text
    assert f'href="/entry/{noisy}">Current figures</a>' in page.text
    assert f"/entry/{noisy}?release=v1" in page.text[page.text.index('id="entry-cite"') :]  # the citation names v1
    current = released.client.get(f"/entry/{noisy}").text
    assert f"<b>{number(now['score'])}</b>" in current and "closed: the figures" not in current

    # The frozen board's entry links lead there; a release that never was, or an entry it did not have, is a 404.
    board = released.client.get("/?release=v1").text
    assert f'href="/entry/{noisy}?release=v1"' in board
    assert f'href="/entry/{noisy}"' in released.client.get("/").text
    assert released.client.get(f"/entry/{noisy}?release=v9").status_code == 404
    missing = released.client.get("/entry/abc123?release=v1")
    assert missing.status_code == 404 and "Not in release v1" in missing.text
    ignored = released.client.get(f"/entry/{noisy}?release=v1x").text  # not a release name: the current entry
    assert ignored[ignored.index("<main") :] == current[current.index("<main") :]


def test_every_row_csv_line_and_json_row_says_its_release(released: Released):
    rows = list(csv.reader(io.StringIO(released.client.get("/board.csv?split=test").text)))
    assert rows[0][-1] == "release" and {line[-1] for line in rows[1:]} == {"v2"}
    old = list(csv.reader(io.StringIO(released.before["csv"].decode())))
    assert old[0][-1] == "release" and {line[-1] for line in old[1:]} == {"v1"}
    entry = released.client.get(f"/api/entry/{released.ids['Noisy']}").json()
    assert entry["row"]["release"] == "v2"
    page = released.client.get(f"/entry/{released.ids['Noisy']}").text
    assert 'id="entry-release"' in page and "Release v2 (" in page
    board = released.client.get("/").text
    assert 'id="board-release"' in board and "Release v2" in board and 'href="/changelog"' in board


def test_while_v2_is_rescored_the_board_says_how_far_it_is(released: Released):
    assert "0 of 3 entries are rescored so far; the others still show their v1 figures." in released.during
    assert 'href="/?since=v1"' in released.during
    assert "Every entry is rescored under it." in released.client.get("/").text  # within the first 14 days


def test_the_changes_since_v1_show_old_and_new_figures_with_the_rank_change(released: Released):
    html = released.client.get("/?since=v1").text
    table = cells(html, "release-changes-table")
    assert table[0] == ["Entry", "Rank in v1", "Rank in v2", "Change", "Score in v1", "Score in v2"]
    by_model = {row[0].removesuffix(" (reported)"): row for row in table[1:]}
    assert set(by_model) == {"Perfect", "Noisy", "Noisier", "Paper-Model"}
    assert by_model["Perfect"][1:4] == ["1", "1", "="]
    assert by_model["Paper-Model"][4] == by_model["Paper-Model"][5] == "93.00"  # a reported figure stays
    old_board = json.loads(json.dumps(released.before["json"]["rows"]))
    # v1: Perfect 100, Noisier 95.44, Noisy 95.09, the paper 93; v2 (B=2000): 100, 92.62, 92.06, 93.
    assert [row[0] for row in table[1:]] == ["Perfect", "Paper-Model (reported)", "Noisier", "Noisy"]
    assert [row[1:4] for row in table[1:]] == [["1", "1", "="], ["4", "2", "▲ 2"], ["2", "3", "▼ 1"], ["3", "4", "▼ 1"]]
    noisy_v1 = next(r for r in old_board if r["model"] == "Noisy")
    assert by_model["Noisy"][4] == f"{noisy_v1['score']:.2f}" and float(by_model["Noisy"][5]) < noisy_v1["score"]


def test_the_changelog_lists_each_release_and_the_rank_moves(released: Released):
    page = released.client.get("/changelog")
    assert page.status_code == 200
    html = page.text
    assert html.index('id="release-v2"') < html.index('id="release-v1"')  # newest first
    assert "B recomputed: the straight-forward mean over the full test split." in html
    assert "Baseline B</dt><dd><code>2000</code>" in html
    since = cells(released.client.get("/?since=v1").text, "release-changes-table")
    assert cells(html, "moves-v2") == since  # the same moves as the board's changes view
    assert 'href="/?release=v1"' in html and "frozen" in html
    assert 'id="footer-changelog"' in html


def test_a_submitter_whose_figure_changed_reads_it(released: Released):
    book = ReleaseBook(released.services.leaderboard)
    notes = book.rescored(released.services.board.snapshot())
    noisy = notes[released.ids["Noisy"]]
    assert noisy.startswith("Rescored under v2: ") and "→" in noisy and "(rank " in noisy
    assert released.ids["Perfect"] not in notes  # 100 under both releases, first under both: nothing to say
    # My submissions shows it in the row's message and in the details (the tab's own helpers).
    mine = released.services.leaderboard.my_submissions("noisy")
    shown = [_with_rescore_note(v, notes) for v in mine]
    assert [v.message for v in shown] == [noisy]
    assert noisy in views.my_table(shown) and noisy in views.detail_html(shown[0])


def test_the_legacy_store_reads_as_release_v1(tmp_path: Path, demo_dataset: Path, demo_public: Path):
    shutil.copytree(LEGACY, tmp_path / "home")
    service = Leaderboard(settings_for(tmp_path / "home", demo_dataset, demo_public, tmp_path / "cache"))
    assert [e.name for e in service.release_history()] == ["v1"]
    assert {r["release"] for r in service.public_table()} == {"v1"}
    services = Services.create(service.settings, SpaceSettings(), leaderboard=service, examples=tmp_path / "ex")
    client = site_of(services)
    lines = list(csv.reader(io.StringIO(client.get("/board.csv?split=test").text)))  # its old published table
    assert lines[0][-1] == "release" and {line[-1] for line in lines[1:]} == {"v1"}
    assert "Release v1 · " in client.get("/").text
    assert client.get("/api/board?release=v1").json()["release"] == "v1"
    assert "Release v1" in client.get("/changelog").text
