"""Releases: every figure says its release; opening one freezes the old board and rescores.

The figures change here the way a recalibration changes them: the same files scored with another baseline B.
"""

from __future__ import annotations

import dataclasses
import json

import pytest

from leaderboard import cli
from leaderboard.publishing.editions import INDEX_PATH, RELEASES_PATH, release_of
from leaderboard.publishing.table import TABLE_PATH
from leaderboard.records.errors import InvalidAction, NotAuthorised
from leaderboard.review.edition_open import frozen_path
from leaderboard.service import Leaderboard
from tests.service_fixtures import MAINTAINER, submit


@pytest.fixture
def board(service: Leaderboard, files) -> dict[str, str]:
    """Two approved test entries and a reported figure, all of release v1."""
    ids = {}
    for model, kind in (("Perfect", "test-perfect"), ("Noisy", "test-noisy")):
        ids[model] = submit(service, files[kind], model=model, publish=True).submission_id
    service.worker.drain()
    for submission_id in ids.values():
        service.approve(submission_id, by=MAINTAINER)
    service.add_reported(MAINTAINER, model="Paper", score=30.0, source="https://arxiv.org/abs/2510.26909")
    return ids


def test_a_store_without_releases_is_in_v1_and_every_row_says_so(service: Leaderboard, board):
    history = service.release_history()
    assert [e.name for e in history] == ["v1"] and history[0].opened_at is None
    assert history[0].baseline_raw == service.settings.baseline_raw and history[0].policy == "exact"
    rows = service.public_table()
    assert {r["release"] for r in rows} == {"v1"} and len(rows) == 4  # 2 entries, 1 reported, the baseline
    assert release_of(rows[0], history) == history[0]
    assert service.frozen_table("v1") is None  # the current release has no frozen board


@pytest.mark.parametrize("who", ["boss2", "", None])
def test_only_a_maintainer_may_open_a_release_and_a_refusal_writes_nothing(service: Leaderboard, board, who):
    requests, results = service.requests.list(), service.results.list()
    with pytest.raises(NotAuthorised, match="not a maintainer"):
        service.open_release("new answer key", by=who)
    with pytest.raises(InvalidAction, match="needs a note"):
        service.open_release("   ", by=MAINTAINER)
    with pytest.raises(InvalidAction, match="at most 2000"):
        service.open_release("x" * 2001, by=MAINTAINER)
    assert service.requests.list() == requests and service.results.list() == results
    assert service.results.tags() == []


def test_opening_a_release_freezes_the_old_board_then_rescores_under_the_new(service, board, settings, clock):
    service.publish()
    v1_table = service.results.read(TABLE_PATH)
    changed = Leaderboard(dataclasses.replace(settings, baseline_raw=2000.0), clock=clock)  # a new calibration
    clock.advance(3600)
    opened = changed.open_release("  New baseline B:\n the straight-forward mean was recomputed.  ", by=MAINTAINER)

    assert (opened.edition.name, opened.closed.name, opened.queued) == ("v2", "v1", 2)
    v1, v2 = changed.release_history()
    assert v2.note == "New baseline B: the straight-forward mean was recomputed." and v2.by == MAINTAINER
    assert (v2.baseline_raw, v2.generation, v2.scorer_version) == (2000.0, 1, "1.0.0")
    assert v2.dataset_revision is not None and v2.dataset_revision.startswith("sha256:")
    assert v1.frozen_at == v2.opened_at and v1.scorer_version == "1.0.0"  # an implicit v1's, as its entries say
    assert v1.baseline_raw == settings.baseline_raw != 2000.0  # its entries' B, not the opener's
    # Frozen before anything changed: a copy, and the tag, hold the v1 board byte for byte.
    assert changed.results.read(frozen_path("v1")) == v1_table
    assert changed.results.read_tagged("v1", TABLE_PATH) == v1_table
    assert changed.results.tags() == ["v1"]
    # One commit: the list, the rescore request, and both audit entries.
    actions = [e["action"] for e in changed.audit_log(MAINTAINER)]
    assert actions[-2:] == ["rescore", "release-open"]
    opening = changed.audit_log(MAINTAINER)[-1]
    assert opening["target"] == "v2" and opening["after"]["name"] == "v2" and opening["before"]["name"] == "v1"
    public = json.loads(changed.results.read(INDEX_PATH))["releases"]
    assert [r["name"] for r in public] == ["v1", "v2"] and all("by" not in r for r in public)

    before_rescore = {str(r["submission_id"]): r for r in changed.published_table()}
    assert {r["release"] for r in before_rescore.values() if r["kind"] == "submission"} == {"v1"}  # not yet
    assert {r["release"] for r in before_rescore.values() if r["kind"] != "submission"} == {"v2"}
    assert changed.worker.drain() == 2
    after = {str(r["submission_id"]): r for r in changed.published_table()}
    assert {after[i]["release"] for i in board.values()} == {"v2"}
    noisy, perfect = board["Noisy"], board["Perfect"]
    assert after[noisy]["score"] < before_rescore[noisy]["score"]  # a smaller B: a lower score below 100
    assert after[perfect]["score"] == before_rescore[perfect]["score"] == 100.0
    # The old board stays as it was, at its path, its tag and through the service.
    assert changed.results.read(frozen_path("v1")) == v1_table
    assert changed.results.read_tagged("v1", TABLE_PATH) == v1_table
    frozen = changed.frozen_table("v1")
    assert frozen == [json.loads(line) for line in v1_table.decode().splitlines()]
    assert {r["release"] for r in frozen} == {"v1"}


def test_a_release_cannot_open_while_the_last_one_is_being_rescored(service: Leaderboard, board):
    service.open_release("first change", by=MAINTAINER)
    tags = service.results.tags()
    with pytest.raises(InvalidAction, match=r"still being rescored \(2 entries wait"):
        service.open_release("second change", by=MAINTAINER)
    assert service.results.tags() == tags and [e.name for e in service.release_history()] == ["v1", "v2"]
    service.worker.drain()
    assert service.open_release("second change", by=MAINTAINER).edition.name == "v3"
    assert service.results.tags() == ["v1", "v2"]
    assert {r["release"] for r in service.frozen_table("v2") or []} == {"v2"}


def test_opening_again_after_a_crash_before_the_list_was_written_freezes_again(service: Leaderboard, board):
    stored_before = service.requests.read(RELEASES_PATH)
    original = service.requests.commit

    def crash(*args, **kwargs):
        raise SystemExit("killed")

    service.requests.commit = crash  # type: ignore[method-assign]  # the process dies after the freeze
    with pytest.raises(SystemExit):
        service.open_release("a change", by=MAINTAINER)
    service.requests.commit = original  # type: ignore[method-assign]
    assert service.results.tags() == ["v1"] and service.requests.read(RELEASES_PATH) == stored_before
    assert [e.name for e in service.release_history()] == ["v1"]
    service.hide(board["Noisy"], by=MAINTAINER)  # the board changes before the second try
    service.open_release("a change", by=MAINTAINER)
    frozen_ids = {r["submission_id"] for r in service.frozen_table("v1") or []}
    assert board["Noisy"] not in frozen_ids and board["Perfect"] in frozen_ids  # frozen again, tag moved
    tagged = service.results.read_tagged("v1", TABLE_PATH) or b""
    assert json.loads(tagged.splitlines()[0])["release"] == "v1"


def test_the_cli_lists_and_opens_releases(environ, board, capsys):
    assert cli.main(["release", "list"], environ) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [r["name"] for r in listed] == ["v1"]
    assert cli.main(["release", "open", "--note", "new key", "--by", "mallory"], environ) == 2
    assert "not allowed" in capsys.readouterr().err
    assert cli.main(["release", "open", "--note", "new key", "--by", MAINTAINER], environ) == 0
    said = capsys.readouterr().out
    assert "release v2 opened" in said and "2 submission(s) queued" in said and "tag v1" in said
    assert cli.main(["release", "list"], environ) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [(r["name"], r["note"], r["by"]) for r in listed][-1] == ("v2", "new key", MAINTAINER)
