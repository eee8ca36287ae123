"""Moderation: maintainers only, every action audited with before/after, rescore after a change."""

from __future__ import annotations

import dataclasses

import pytest

from leaderboard.records.errors import InvalidAction, NotAuthorised, NotFound
from leaderboard.service import Leaderboard
from scoring import score_submission
from tests.service_fixtures import MAINTAINER, kept_summary, submit


@pytest.fixture
def scored(service: Leaderboard, files) -> str:
    """A finished test submission that asked to be published."""
    receipt = submit(service, files["test-noisy"], model="Navigator-7B", publish=True)
    service.worker.drain()
    return receipt.submission_id


def _public_ids(service: Leaderboard) -> list[str]:
    return [str(r["submission_id"]) for r in service.public_table() if r["kind"] == "submission"]


ACTIONS = {
    "approve": lambda s, i, by: s.approve(i, by=by),
    "reject": lambda s, i, by: s.reject(i, by=by, reason="duplicate of an earlier entry"),
    "hide": lambda s, i, by: s.hide(i, by=by),
    "unhide": lambda s, i, by: s.unhide(i, by=by),
    "edit": lambda s, i, by: s.edit(i, by=by, changes={"model": "Renamed"}),
    "rescore": lambda s, i, by: s.rescore(by=by),
    "add-reported": lambda s, i, by: s.add_reported(by, model="M", score=1.0, source="https://example.org/p"),
    "pending": lambda s, i, by: s.pending(by),
    "audit": lambda s, i, by: s.audit_log(by),
}


@pytest.mark.parametrize("action", sorted(ACTIONS))
@pytest.mark.parametrize("who", ["boss2", ""])  # a near-miss of "boss", and nobody
def test_only_maintainers_may_moderate(service: Leaderboard, scored: str, action: str, who: str):
    files_before = service.requests.list()
    with pytest.raises(NotAuthorised, match="not a maintainer"):
        ACTIONS[action](service, scored, who)
    assert service.requests.list() == files_before


def test_maintainer_names_are_matched_without_case(service: Leaderboard, scored: str):
    service.approve(scored, by="CAROL")
    assert _public_ids(service) == [scored]


def test_approve_hide_unhide_reject_decide_what_is_public(service: Leaderboard, scored: str):
    assert _public_ids(service) == []  # scored, but not approved yet
    service.approve(scored, by=MAINTAINER)
    assert _public_ids(service) == [scored]
    service.hide(scored, by=MAINTAINER)
    assert _public_ids(service) == []
    service.unhide(scored, by=MAINTAINER)
    assert _public_ids(service) == [scored]
    service.reject(scored, by=MAINTAINER, reason="the model card is missing")
    assert _public_ids(service) == []
    view = service.status(scored, user="alice")
    assert (view.decision, view.reason, view.public) == ("rejected", "the model card is missing", False)


def test_a_submission_approved_before_it_is_scored_appears_once_scored(service: Leaderboard, files):
    receipt = submit(service, files["test-noisy"], publish=True)
    service.approve(receipt.submission_id, by=MAINTAINER)
    assert _public_ids(service) == []
    service.worker.drain()
    assert _public_ids(service) == [receipt.submission_id]


def test_each_approved_submission_is_its_own_row(service: Leaderboard, files, clock):
    ids = []
    for seed in (1, 2):
        ids.append(submit(service, files[f"test-noisy{seed}"], model="Same model", publish=True).submission_id)
        clock.advance(1)
    service.worker.drain()
    for submission_id in ids:
        service.approve(submission_id, by=MAINTAINER)
    assert sorted(_public_ids(service)) == sorted(ids)


def test_a_private_score_cannot_be_approved(service: Leaderboard, files):
    receipt = submit(service, files["test-noisy"], publish=False)
    with pytest.raises(InvalidAction, match="private score only"):
        service.approve(receipt.submission_id, by=MAINTAINER)


def test_a_rejection_needs_a_reason_and_an_unknown_id_is_named(service: Leaderboard, scored: str):
    with pytest.raises(InvalidAction, match="reason"):
        service.reject(scored, by=MAINTAINER, reason="  ")
    with pytest.raises(NotFound, match="no submission 'nope'"):
        service.approve("nope", by=MAINTAINER)
    with pytest.raises(NotFound):
        service.approve("../../etc/passwd", by=MAINTAINER)


def test_edits_change_the_public_row_and_keep_the_original_request(service: Leaderboard, scored: str):
    service.approve(scored, by=MAINTAINER)
    service.edit(scored, by=MAINTAINER, changes={"model": "Navigator-7B-Instruct", "parameters_b": "7B"})
    row = next(r for r in service.public_table() if r["submission_id"] == scored)
    assert (row["model"], row["parameters_b"]) == ("Navigator-7B-Instruct", 7.0)
    assert service.registry.request(scored).metadata.model == "Navigator-7B"
    with pytest.raises(InvalidAction, match="model_link"):
        service.edit(scored, by=MAINTAINER, changes={"model_link": "ftp://x"})


def test_every_action_is_audited_with_who_what_when_before_and_after(service: Leaderboard, scored: str, clock):
    clock.advance(5)
    service.approve(scored, by=MAINTAINER)
    service.approve(scored, by=MAINTAINER)  # changes nothing: not an action
    service.hide(scored, by="Carol")
    service.edit(scored, by=MAINTAINER, changes={"organization": "ETH"})
    service.reject(scored, by=MAINTAINER, reason="wrong split")
    entries = service.audit_log(MAINTAINER, target=scored)
    assert [(e["who"], e["action"]) for e in entries] == [
        ("alice", "submit"),
        ("worker", "finished"),
        (MAINTAINER, "approve"),
        ("Carol", "hide"),
        (MAINTAINER, "edit"),
        (MAINTAINER, "reject"),
    ]
    approve, hide, edit, reject = entries[2:]
    assert (approve["before"]["decision"], approve["after"]["decision"]) == ("pending", "approved")
    assert (hide["before"]["hidden"], hide["after"]["hidden"]) == (False, True)
    assert (edit["before"]["edits"], edit["after"]["edits"]) == ({}, {"organization": "ETH"})
    assert reject["after"]["reason"] == "wrong split"
    assert all(e["at"] <= f["at"] for e, f in zip(entries, entries[1:]))


def test_rescore_scores_everything_again_with_the_current_settings(service, scored, settings, files, test_key, clock):
    service.approve(scored, by=MAINTAINER)
    old = service.status(scored).summary
    changed = Leaderboard(dataclasses.replace(settings, baseline_raw=2000.0), clock=clock)  # a new calibration
    assert changed.rescore(by=MAINTAINER, note="new baseline") == 1
    assert changed.status(scored).status == "PENDING"
    assert _public_ids(changed) == [scored]  # the old result stays up until the new one lands
    assert changed.worker.drain() == 1
    view = changed.status(scored)
    expected = kept_summary(score_submission(files["test-noisy"], test_key, baseline_raw=2000.0), "test", settings)
    assert view.status == "FINISHED" and view.summary == expected and view.summary != old
    assert changed.registry.job(scored).generation == 1
    row = next(r for r in changed.public_table() if r["submission_id"] == scored)
    assert row["score"] == expected.score and _public_ids(changed) == [scored]
    rescore = [e for e in changed.audit_log(MAINTAINER) if e["action"] == "rescore"]
    assert rescore[0]["note"] == "new baseline" and rescore[0]["after"]["generation"] == 1


def test_reported_rows_are_marked_with_their_source(service: Leaderboard):
    paper = "https://arxiv.org/abs/2510.26909"
    row = service.add_reported(MAINTAINER, model="Gemini 2.5 Pro", score=34.38, source=paper, organization="Google")
    table = service.public_table()
    reported = [r for r in table if r["kind"] == "reported"]
    assert reported == [next(r for r in table if r["submission_id"] == f"reported-{row.row_id}")]
    assert reported[0]["source"] == paper and reported[0]["score"] == 34.38
    with pytest.raises(InvalidAction, match="source"):
        service.add_reported(MAINTAINER, model="X", score=1.0, source="")
    with pytest.raises(InvalidAction, match="score"):
        service.add_reported(MAINTAINER, model="X", score="high", source="https://example.org")
    service.remove_reported(f"reported-{row.row_id}", by=MAINTAINER)
    assert [r for r in service.public_table() if r["kind"] == "reported"] == []
    with pytest.raises(NotFound):
        service.remove_reported(row.row_id, by=MAINTAINER)


def test_pending_lists_what_awaits_a_decision_with_the_contact(service: Leaderboard, scored: str, files):
    submit(service, files["validation-noisy"], split="validation", publish=False)
    waiting = service.pending(MAINTAINER)
    assert [v.submission_id for v in waiting] == [scored]
    assert waiting[0].metadata["contact_email"] == "alice@example.org"
    service.approve(scored, by=MAINTAINER)
    assert service.pending(MAINTAINER) == []


def test_the_sent_file_goes_back_to_its_submitter_and_maintainers_only(service, files):
    receipt = submit(service, files["test-noisy"], user="alice")
    sent = files["test-noisy"].read_bytes()
    assert service.uploaded_file(receipt.submission_id, user="alice") == sent
    assert service.uploaded_file(receipt.submission_id, user=MAINTAINER) == sent
    with pytest.raises(NotAuthorised):
        service.uploaded_file(receipt.submission_id, user="mallory")
