"""Submitters in control: choose my public entry, withdraw it, cancel a waiting one, download my file.

Each action is checked for the owner in the service (a call naming another user's submission is
refused, maintainers included: they moderate through ``moderation``) and lands in the audit log.
"""

from __future__ import annotations

import pytest

from leaderboard.records.entries import CANCELLED, FAILED, RUNNING, Job, job_path
from leaderboard.records.errors import InvalidAction, NotAuthorised, QuotaExceeded
from leaderboard.service import Leaderboard
from tests.service_fixtures import MAINTAINER, submit


def _published(service: Leaderboard, files, clock, seeds=(1, 2), user: str = "alice") -> list[str]:
    """``user``'s test submissions, each asking to be published, scored and approved."""
    ids = []
    for seed in seeds:
        ids.append(submit(service, files[f"test-noisy{seed}"], user=user, model=f"M{seed}", publish=True).submission_id)
        clock.advance(60)
    service.worker.drain()
    for submission_id in ids:
        service.approve(submission_id, MAINTAINER)
    return ids


def _board(service: Leaderboard) -> set[str]:
    return {str(r["submission_id"]) for r in service.public_table() if r["kind"] == "submission"}


def _actions(service: Leaderboard, target: str) -> list[tuple[str, str]]:
    return [(str(e["who"]), str(e["action"])) for e in service.audit_log(MAINTAINER, target)]


def test_choosing_my_public_entry_takes_my_others_off_the_board(service: Leaderboard, files, clock):
    first, second = _published(service, files, clock)
    bobs = _published(service, files, clock, seeds=(3,), user="bob")[0]
    assert _board(service) == {first, second, bobs}
    left = service.choose_public(second, "alice")
    assert left == [first]
    assert _board(service) == {second, bobs}  # bob's entry is not alice's to move
    assert {str(r["submission_id"]) for r in service.published_table()} >= {second, bobs}
    assert first not in {str(r["submission_id"]) for r in service.published_table()}
    assert ("alice", "withdraw") in _actions(service, first)
    assert service.status(first, "alice").withdrawn


def test_choosing_a_private_entry_sends_it_to_the_maintainers_for_approval(service: Leaderboard, files, clock):
    (public,) = _published(service, files, clock, seeds=(1,))
    private = submit(service, files["test-noisy2"], model="Private").submission_id
    service.worker.drain()
    service.choose_public(private, "alice")
    assert _board(service) == set()  # the old one left; the new one waits for a maintainer
    assert [v.submission_id for v in service.pending(MAINTAINER)] == [private]
    assert ("alice", "choose-public") in _actions(service, private)
    service.approve(private, MAINTAINER)
    assert _board(service) == {private}
    assert public not in _board(service)


def test_only_a_finished_test_entry_can_be_chosen(service: Leaderboard, files):
    waiting = submit(service, files["test-noisy1"]).submission_id
    with pytest.raises(InvalidAction, match=f"submission {waiting} is PENDING: only a scored"):
        service.choose_public(waiting, "alice")
    validation = submit(service, files["validation-noisy"], split="validation").submission_id
    service.worker.drain()
    with pytest.raises(InvalidAction, match="validation submission: only test entries"):
        service.choose_public(validation, "alice")


def test_an_entry_rejected_or_hidden_by_a_maintainer_cannot_be_chosen(service: Leaderboard, files, clock):
    rejected, hidden = _published(service, files, clock)
    service.reject(rejected, MAINTAINER, "the model card is missing")
    service.hide(hidden, MAINTAINER)
    with pytest.raises(InvalidAction, match="was rejected \\(the model card is missing\\) by a maintainer"):
        service.choose_public(rejected, "alice")
    with pytest.raises(InvalidAction, match="was hidden by a maintainer"):
        service.choose_public(hidden, "alice")
    assert [a for _, a in _actions(service, rejected)][-1] == "reject"  # nothing changed


def test_withdrawing_takes_it_off_the_board_and_the_audit_log_keeps_it(service: Leaderboard, files, clock):
    (entry,) = _published(service, files, clock, seeds=(1,))
    service.withdraw(entry, "alice")
    assert _board(service) == set()
    view = next(v for v in service.submissions(MAINTAINER) if v.submission_id == entry)
    assert view.withdrawn and not view.publish and not view.public  # maintainers see why it left
    assert _actions(service, entry)[-1] == ("alice", "withdraw")
    with pytest.raises(InvalidAction, match="nothing to withdraw"):
        service.withdraw(entry, "alice")
    service.choose_public(entry, "alice")  # approved already: back without a new review
    assert _board(service) == {entry}


# Maintainers may read every uploaded file (moderation needs it), but not act as the submitter.
REFUSED = [(a, c) for a in ("choose_public", "withdraw", "cancel") for c in ("mallory", MAINTAINER)]


@pytest.mark.parametrize(("action", "caller"), [*REFUSED, ("uploaded_file", "mallory")])
def test_another_users_submission_is_refused(service: Leaderboard, files, clock, action: str, caller: str):
    (entry,) = _published(service, files, clock, seeds=(1,))
    before = _actions(service, entry)
    with pytest.raises(NotAuthorised, match=f"submission {entry} belongs to another user"):
        getattr(service, action)(entry, caller)
    assert _board(service) == {entry}
    assert _actions(service, entry) == before  # nothing changed, nothing logged


def test_cancelling_a_waiting_submission_gives_its_quota_back(service: Leaderboard, files, clock):
    ids = [submit(service, files[f"test-noisy{s}"], model=f"M{s}").submission_id for s in (1, 2, 3)]
    assert service.quota_left("alice") == 0
    with pytest.raises(QuotaExceeded):
        submit(service, files["test-noisy4"])
    service.cancel(ids[2], "alice")
    assert service.quota_left("alice") == 1
    view = service.status(ids[2], "alice")
    assert view.status == FAILED and view.cancelled and "cancelled by its submitter" in (view.message or "")
    assert service.registry.job(ids[2]).failure == CANCELLED
    submit(service, files["test-noisy4"])  # the freed place, and the queue had room again
    service.worker.drain()
    assert service.status(ids[2], "alice").status == FAILED  # never scored
    assert service.requests.read(f"private/{ids[2]}/summary.json") is None
    assert _actions(service, ids[2])[-1] == ("alice", "cancel")
    service.rescore(MAINTAINER)  # a rescore does not bring a cancelled submission back to life
    service.worker.drain()
    assert service.status(ids[2], "alice").cancelled


def test_a_running_or_finished_submission_cannot_be_cancelled(service: Leaderboard, files):
    done = submit(service, files["test-noisy1"]).submission_id
    service.worker.drain()
    with pytest.raises(InvalidAction, match=f"submission {done} is FINISHED: only a submission still waiting"):
        service.cancel(done, "alice")
    running = submit(service, files["test-noisy2"]).submission_id
    service.requests.commit({job_path(running): Job(running, status=RUNNING, attempts=1).to_bytes()})
    with pytest.raises(InvalidAction, match="is RUNNING"):
        service.cancel(running, "alice")
    assert service.quota_left("alice") == 1


def test_a_worker_that_claims_the_job_first_wins_over_a_cancel(service: Leaderboard, files, monkeypatch):
    waiting = submit(service, files["test-noisy1"]).submission_id
    commit = service.requests.commit

    def claimed_meanwhile(puts, deletes=(), message="", *, expect=None):
        if message.startswith("cancel"):  # the worker's claim lands between the cancel's read and its write
            commit({job_path(waiting): Job(waiting, status=RUNNING, attempts=1).to_bytes()})
        return commit(puts, deletes, message, expect=expect)

    monkeypatch.setattr(service.requests, "commit", claimed_meanwhile)
    with pytest.raises(InvalidAction, match="has just started scoring"):
        service.cancel(waiting, "alice")
    assert service.status(waiting, "alice").status == RUNNING
    assert not service.status(waiting, "alice").cancelled


def test_i_can_download_the_file_i_sent(service: Leaderboard, files):
    entry = submit(service, files["test-noisy1"]).submission_id
    assert service.uploaded_file(entry, "alice") == files["test-noisy1"].read_bytes()
    assert service.uploaded_file(entry, "ALICE") == files["test-noisy1"].read_bytes()  # user names ignore case
