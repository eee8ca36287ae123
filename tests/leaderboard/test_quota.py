"""The test-split quota: per user, rolling 24 hours, not dodged by renaming, server failures exempt."""

from __future__ import annotations

import pytest

from leaderboard.records.errors import QuotaExceeded
from leaderboard.service import Leaderboard
from scoring import AnswerKeyError
from tests.service_fixtures import submit

DAY = 24 * 3600


def _use_up(service: Leaderboard, files, clock, user: str = "alice", drain: bool = True) -> list[str]:
    ids = []
    for seed in (1, 2, 3):
        ids.append(submit(service, files[f"test-noisy{seed}"], user=user, model=f"Model v{seed}").submission_id)
        clock.advance(60)
    if drain:  # scored: only the daily quota holds them back, not the queue limit
        service.worker.drain()
    return ids


def test_the_fourth_test_submission_of_the_day_is_refused_with_the_limit(service: Leaderboard, files, clock):
    _use_up(service, files, clock)
    assert service.quota_left("alice") == 0
    with pytest.raises(QuotaExceeded, match="limit") as caught:
        submit(service, files["test-noisy4"])
    assert "3" in str(caught.value) and caught.value.retry_at is not None
    assert len(service.requests.list("requests")) == 3


def test_renaming_the_model_does_not_reset_the_quota(service: Leaderboard, files, clock):
    _use_up(service, files, clock)
    with pytest.raises(QuotaExceeded):
        submit(service, files["test-noisy4"], model="A completely different model")
    with pytest.raises(QuotaExceeded):
        submit(service, files["test-noisy5"], user="ALICE", model="Shouting")


def test_other_users_and_validation_submissions_are_not_limited(service: Leaderboard, files, clock):
    _use_up(service, files, clock)
    limit = service.settings.test_submissions_per_day  # 3
    assert service.quota_left("alice") == 0
    # Not limited: each is stored as a new entry, waiting to be scored, and says what is left of its quota.
    bobs = submit(service, files["test-noisy4"], user="bob")
    assert (bobs.split, bobs.duplicate, bobs.quota_left) == ("test", False, limit - 1)  # bob's own day: 2 left
    assert service.quota_left("bob") == limit - 1
    kinds = ("noisy", "perfect", "straight")
    checks = [submit(service, files[f"validation-{kind}"], split="validation") for kind in kinds]
    assert [(r.split, r.duplicate, r.quota_left) for r in checks] == [("validation", False, None)] * 3
    assert service.quota_left("alice") == 0  # validation submissions are not counted against the test quota
    for receipt, user in ((bobs, "bob"), *((r, "alice") for r in checks)):
        view = service.status(receipt.submission_id)
        assert (view.user, view.split, view.status) == (user, receipt.split, "PENDING"), receipt


def test_a_user_may_have_only_a_few_submissions_waiting_at_once(service: Leaderboard, files, clock):
    for kind in ("noisy", "perfect", "straight"):
        submit(service, files[f"validation-{kind}"], split="validation")
    with pytest.raises(QuotaExceeded, match="queue limit reached: alice has 3 submission.* the limit is 3"):
        submit(service, files["test-noisy1"])
    submit(service, files["test-noisy1"], user="bob")  # per user
    service.worker.drain()
    submit(service, files["test-noisy1"])  # scored: room again


def test_the_window_rolls(service: Leaderboard, files, clock):
    _use_up(service, files, clock)  # at t0, t0+60, t0+120; now t0+180
    clock.advance(DAY - 180 - 1)
    with pytest.raises(QuotaExceeded):
        submit(service, files["test-noisy4"])
    clock.advance(2)  # the first one has left the window
    submit(service, files["test-noisy4"])
    with pytest.raises(QuotaExceeded):
        submit(service, files["test-noisy5"])


def test_a_quota_of_zero_refuses_every_test_submission(settings, files, clock):
    import dataclasses

    service = Leaderboard(dataclasses.replace(settings, test_submissions_per_day=0), clock=clock)
    with pytest.raises(QuotaExceeded, match="limit is 0"):
        submit(service, files["test-noisy"])


def test_server_failures_do_not_count(service: Leaderboard, files, clock, monkeypatch):
    ids = _use_up(service, files, clock, drain=False)

    def broken(split):  # not a full disk: that leaves jobs queued (tests/hardening/faults/test_faults_full_disk.py)
        raise AnswerKeyError("the answer-key dataset cannot be opened")

    monkeypatch.setattr(service.keys, "private", broken)
    assert service.worker.drain() == 3
    assert {service.status(i).status for i in ids} == {"FAILED"}
    assert "server" in (service.status(ids[0]).message or "")
    assert service.quota_left("alice") == 3
    submit(service, files["test-noisy4"])


def test_a_submission_that_failed_for_its_own_file_counts(service: Leaderboard, files, clock, monkeypatch):
    from scoring import SubmissionError

    ids = _use_up(service, files, clock, drain=False)

    def refuse(*args, **kwargs):
        raise SubmissionError("prediction column unreadable", line=7)

    monkeypatch.setattr("leaderboard.jobs.worker.score_submission", refuse)
    service.worker.drain()
    view = service.status(ids[0])
    assert view.status == "FAILED" and "line 7" in (view.message or "")
    with pytest.raises(QuotaExceeded):
        submit(service, files["test-noisy4"])
