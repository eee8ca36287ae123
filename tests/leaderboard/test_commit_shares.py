"""Each user's share of the Hub's hourly commits: figures a reader can check by hand."""

from __future__ import annotations

import pytest

from leaderboard.records.errors import QuotaExceeded
from leaderboard.storage.commit_log import QuotaState
from leaderboard.storage.commit_shares import check_share, newcomers, per_user

HOUR = 3600.0


def quota(used: int, commits: int = 128) -> QuotaState:
    return QuotaState("org/requests", used, commits, HOUR, None, tuple(float(t) for t in range(used)))


def test_the_hubs_128_an_hour_give_each_user_8_and_keep_8_for_newcomers():
    assert per_user(quota(0)) == 8 and newcomers(quota(0)) == 8
    assert per_user(quota(0, commits=4)) == 1  # a tiny quota still lets everybody submit once


def test_a_ninth_submission_in_the_hour_is_refused_and_says_when_the_next_fits():
    made = [100.0 * i for i in range(8)]  # at 0, 100, ..., 700 s
    check_share(quota(8), "mallory", made[:7], now=1000.0)  # the 8th is fine
    with pytest.raises(QuotaExceeded, match=r"mallory has made 8 submissions in the last 60 minutes") as refused:
        check_share(quota(8), "mallory", made, now=1000.0)
    assert refused.value.retry_at is not None and refused.value.retry_at.startswith("1970-01-01T01:00:00")
    check_share(quota(8), "mallory", made, now=HOUR + 1.0)  # the first has left the window


def test_the_end_of_the_window_is_kept_for_people_who_have_not_submitted():
    nearly_full = quota(120)  # 8 left: the newcomers' room
    with pytest.raises(QuotaExceeded, match=r"last 8 commits are kept for people who have not submitted"):
        check_share(nearly_full, "alice", [10.0], now=20.0)
    check_share(nearly_full, "newbie", [], now=20.0)  # someone who has had no turn yet is acknowledged


def test_a_local_folder_has_no_shares():
    check_share(None, "anyone", [0.0] * 1000, now=1.0)
