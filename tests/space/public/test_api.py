"""The JSON API: the board and an entry as the CSV has them, with a strong ETag, 304s, and nothing private."""

from __future__ import annotations

import csv
import io
import json
import re
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient

from scoring import load_answer_key
from scoring.evaluate import ROW_COLUMNS
from scoring.examples import write_example
from space.board import csv_rows
from space.board.cache import Snapshot
from space.board.csv_route import routes as csv_routes
from space.board.drawn import Drawn
from space.entry import view
from space.site import api
from tests.service_fixtures import MAINTAINER, submit
from tests.space.public.conftest import Site


@pytest.fixture(scope="module")
def client(seeded: Site) -> TestClient:
    return TestClient(Starlette(routes=[*api.routes(seeded.services), *csv_routes(seeded.services)]))


def test_the_board_is_the_csv_with_types(client: TestClient, seeded: Site):
    for split in ("test", "validation"):
        answer = client.get("/api/board", params={"split": split})
        assert answer.status_code == 200 and answer.headers["content-type"] == "application/json"
        board = answer.json()
        assert set(board) == {"split", "version", "last_updated", "release", "columns", "rows"}
        assert board["split"] == split
        header, *lines = csv.reader(io.StringIO(client.get("/board.csv", params={"split": split}).text))
        assert board["columns"] == header
        # Cell for cell: the JSON value written as the CSV writes it is the CSV's cell.
        assert [[csv_rows._csv_cell(row[c]) for c in header] for row in board["rows"]] == lines
    rows = client.get("/api/board").json()["rows"]
    noisy = next(r for r in rows if r["model"] == "Noisy")
    assert isinstance(noisy["score"], float) and isinstance(noisy["rank"], int) and noisy["rank"] == 2
    assert noisy["score_ci_low"] < noisy["score"] < noisy["score_ci_high"]
    assert noisy["rank_best"] <= noisy["rank"] <= noisy["rank_worst"]
    assert noisy["open_weights"] is False and noisy["flag_kind"] is None
    flaggy = next(r for r in rows if r["model"] == "Flaggy")
    assert flaggy["flag_kind"] == "contamination"  # every public row, flags as columns
    baseline = next(r for r in rows if r["kind"] == "baseline")
    assert baseline["rank"] is None and baseline["score_ci_low"] is None and baseline["score"] == 0.0


def test_ranks_are_those_of_the_entry_pages(client: TestClient, seeded: Site):
    table = seeded.services.board.snapshot().rows
    for row in client.get("/api/board").json()["rows"]:
        found = view.find(table, row["submission_id"])
        assert found is not None and found["rank"] == row["rank"]
        assert (found["rank_bounds"] or [None, None]) == [row["rank_best"], row["rank_worst"]]


def test_an_entry_is_its_board_row_with_its_group_intervals(client: TestClient, seeded: Site):
    wanted = seeded.ids["Noisy"]
    answer = client.get(f"/api/entry/{wanted}")
    assert answer.status_code == 200
    found = answer.json()
    board_row = next(r for r in client.get("/api/board").json()["rows"] if r["submission_id"] == wanted)
    assert found["row"] == board_row and found["split"] == "test" and list(found["row"]) == found["columns"]
    groups = {(g["kind"], g["name"]): g for g in found["groups"]}
    overall = groups[("score", "")]
    assert (overall["ci_low"], overall["ci_high"]) == pytest.approx(
        (board_row["score_ci_low"], board_row["score_ci_high"])
    )
    human = groups[("per_embodiment", "Human")]
    assert human["ci_low"] == pytest.approx(board_row["per_embodiment_ci.Human.low"])
    assert any(kind == "per_category" and g["ci_low"] is not None for (kind, _), g in groups.items())
    reported = next(r for r in client.get("/api/board").json()["rows"] if r["kind"] == "reported")
    plain = client.get(f"/api/entry/{reported['submission_id']}").json()
    assert plain["row"] == reported and all(g["ci_low"] is None for g in plain["groups"])


def test_unknown_private_and_malformed_ids(client: TestClient, seeded: Site):
    for wanted in ("no-such-id", seeded.ids["Secret"]):
        answer = client.get(f"/api/entry/{wanted}")
        assert answer.status_code == 404 and answer.json() == {"error": f"no public entry has the id '{wanted}'"}
    for wanted in ("a" * (view.MAX_ID + 1), "semi;colon", "%20spaced", "quote'd", "-leading", "%E2%80%94dash"):
        answer = client.get(f"/api/entry/{wanted}")
        assert answer.status_code == 400 and "expected at most 120 letters" in answer.json()["error"], wanted
    answer = client.get("/api/board", params={"split": "training"})
    assert answer.status_code == 400
    assert answer.json() == {"error": "split 'training': expected one of test, validation"}


def test_nothing_private_is_in_the_json(client: TestClient, seeded: Site):
    bodies = [client.get("/api/board", params={"split": s}).text for s in ("test", "validation")]
    bodies += [client.get(f"/api/entry/{i}").text for name, i in seeded.ids.items() if name != "Secret"]
    keys = {k for text in bodies for k in _keys(json.loads(text))}
    for text in bodies:
        assert "@" not in text and "example.org" not in text and "Secret" not in text
        assert seeded.ids["Secret"] not in text
        assert "alice" not in text and "bob" not in text  # submitters are not public
    # No per-row score column, no private metadata, no table column the CSV leaves out.
    assert not keys & (set(ROW_COLUMNS) - {"score"})
    assert not {"contact_email", "user", "significantly_better", "model_group", "per_category_ci"} & keys


def _keys(value: object) -> Iterator[str]:
    if isinstance(value, dict):
        for key, inner in value.items():
            yield key
            yield from _keys(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from _keys(inner)


def test_a_strong_etag_that_holds_until_the_results_change_and_304s(client: TestClient, seeded: Site):
    paths = ["/api/board", "/api/board?split=validation", f"/api/entry/{seeded.ids['Perfect']}", "/board.csv"]
    for path in paths:
        first, again = client.get(path), client.get(path)
        etag = first.headers["etag"]
        assert (
            re.fullmatch(r'"[0-9a-f]{32}"', etag) and again.headers["etag"] == etag and first.content == again.content
        )
        assert first.headers["cache-control"] == "public, no-cache" and "Accept-Encoding" in first.headers["vary"]
        for sent in (etag, f"W/{etag}", f'"other", {etag}', "*"):
            cached = client.get(path, headers={"If-None-Match": sent})
            assert cached.status_code == 304 and cached.content == b"", (path, sent)
            assert cached.headers["etag"] == etag and cached.headers["cache-control"] == "public, no-cache"
        assert client.get(path, headers={"If-None-Match": '"other"'}).status_code == 200
        head = client.head(path)
        assert head.status_code == 200 and head.content == b"" and head.headers["etag"] == etag
        assert int(head.headers["content-length"]) == len(first.content)


def test_each_body_is_drawn_once_per_results_version(seeded: Site):
    app = api.Api(seeded.services)
    snapshot = seeded.services.board.snapshot()
    threads = [threading.Thread(target=app.board_body, args=("test",)) for _ in range(8)]
    threads += [threading.Thread(target=app.entry_body, args=(seeded.ids["Noisy"],)) for _ in range(8)]
    for thread in [*threads]:
        thread.start()
    for thread in threads:
        thread.join()
    for _ in range(5):
        app.board_body("test"), app.entry_body(seeded.ids["Noisy"]), app.entry_body("no-such-id")
    assert app.kept.drawings == 2 and app.indexes.drawings == 1  # the test board, the one entry; the id index
    assert seeded.services.board.snapshot().version == snapshot.version


def test_the_cache_keeps_two_versions_and_stays_within_its_bounds():
    kept: Drawn[api.Body] = Drawn(size=3, budget=100, weigh=api._weight)
    body = api.Body.of_bytes(b"x" * 40)
    for key in "abcd":
        kept.get(1, key, lambda: body)
    assert kept.drawings == 4 and len(kept._kept) == 2  # 3 x 40 bytes is over the budget
    kept.get(2, "a", lambda: body)  # drawn ahead of the change: readers still on version 1 keep theirs
    assert list(kept._kept) == [(1, "d"), (2, "a")]
    kept.get(3, "a", lambda: body)
    assert list(kept._kept) == [(2, "a"), (3, "a")]  # version 1 is never asked for again
    kept.get(1, "b", lambda: body)  # a request that read the rows two changes ago: answered, not kept
    assert list(kept._kept) == [(2, "a"), (3, "a")] and kept.drawings == 7


def test_last_updated_is_an_iso_time_or_date(seeded: Site):
    snapshot = seeded.services.board.snapshot()
    later = 4_102_444_800.0  # 2100-01-01T00:00:00Z, after every submission: the time this process saw a change
    assert api.board_json(Snapshot(1, snapshot.rows, later), "test")["last_updated"] == "2100-01-01T00:00:00Z"
    newest = max(str(r.get("submitted_at") or "") for r in snapshot.rows)
    assert api.board_json(Snapshot(1, snapshot.rows, None), "test")["last_updated"] == newest  # first read: a date
    assert api.board_json(Snapshot(1, [], None), "test")["last_updated"] is None


def test_the_etag_changes_when_a_result_is_published(client: TestClient, seeded: Site, demo_dataset: Path, key_cache):
    """Last in this module: it adds an entry to the module's store."""
    before = {p: client.get(p).headers["etag"] for p in ("/api/board", "/board.csv")}
    entry_before = client.get(f"/api/entry/{seeded.ids['Perfect']}").headers["etag"]
    service = seeded.services.leaderboard
    path = Path(seeded.services.scratch) / "later.tsv"
    write_example(load_answer_key(demo_dataset, "test", key_cache), "noisy", path, seed=5)
    later = submit(service, path, user="frank", model="Later", publish=True).submission_id
    service.worker.drain()
    service.approve(later, by=MAINTAINER)
    seeded.services.board.refresh()  # what the app does when the worker reports or a maintainer acts
    after = client.get("/api/board", headers={"If-None-Match": before["/api/board"]})
    assert after.status_code == 200 and after.headers["etag"] != before["/api/board"]
    assert any(r["submission_id"] == later for r in after.json()["rows"])
    assert client.get("/board.csv").headers["etag"] != before["/board.csv"]
    assert client.get(f"/api/entry/{seeded.ids['Perfect']}").headers["etag"] != entry_before  # a new version
    assert client.get(f"/api/entry/{later}").status_code == 200
