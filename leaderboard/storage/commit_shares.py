"""Each user's share of the Hub's hourly commit quota: one account cannot spend everybody's.

Every acknowledged submission, validation included, is a commit to the requests repository, whose quota
(128 an hour on the Hub) all users share. So on a store with a quota:

- one user may make at most ``per_user`` submissions in the quota's rolling window (``USER_SHARE`` of it:
  8 of 128), counted from the store's own records, so a restart forgets nothing;
- the last ``newcomers`` commits of the window (``NEWCOMER_SHARE``: 8 of 128) are kept for users who have
  not submitted in it: someone who has not yet had a turn can always be acknowledged before a repeat
  submitter takes the end of the window.

A local folder has no quota and no shares. The worker's own commits stay planned by ``commit_budget``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from leaderboard.records import QuotaExceeded, iso
from leaderboard.storage.base import clock_time
from leaderboard.storage.commit_log import QuotaState

USER_SHARE = 1 / 16  # of the window's commits, per user: 8 of the Hub's 128 an hour
NEWCOMER_SHARE = 1 / 16  # of the window's commits kept for users without a submission in it


def per_user(quota: QuotaState) -> int:
    return max(1, math.floor(quota.commits * USER_SHARE))


def newcomers(quota: QuotaState) -> int:
    return max(1, math.ceil(quota.commits * NEWCOMER_SHARE))


def check_share(quota: QuotaState | None, user: str, created: Iterable[float], now: float) -> None:
    """Raise ``QuotaExceeded`` when ``user``, whose submissions were made at ``created``, may not take one more
    commit of ``quota`` now; nothing on a store without a quota."""
    if quota is None:
        return
    recent = sorted(t for t in created if now - t < quota.window_s)
    share = per_user(quota)
    if len(recent) >= share:
        free_at = recent[-share] + quota.window_s
        raise QuotaExceeded(
            f"{user} has made {len(recent)} submissions in the last {quota.window_s / 60:.0f} minutes: each is a "
            f"commit to the Hub, whose {quota.commits} commits an hour all users share, so each user may make "
            f"{share} in that time; the next one fits after {clock_time(free_at)}",
            iso(free_at),
        )
    room = newcomers(quota)
    if recent and quota.left <= room:
        free_at = quota.free_at(room + 1, now)
        raise QuotaExceeded(
            f"the Hub's hourly commit limit is nearly reached, and its last {room} commits are kept for people who "
            f"have not submitted in the last {quota.window_s / 60:.0f} minutes; {user} has made {len(recent)}. "
            f"Try again after {clock_time(free_at)}",
            iso(free_at),
        )
