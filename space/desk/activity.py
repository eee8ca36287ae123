"""Submissions per user, for the maintainers: what probing the test set would look like.

Each test submission tells its submitter aggregates over the hidden ground truth (the score, the
valid-only score, coverage and the breakdowns). A file that answers only a few rows turns those
into per-row figures, so someone probing the test set sends many test submissions of low
coverage, keeps hitting the daily limit, and often asks for a private score only. This table puts
those signs side by side, most active user first (see ``docs/RELIABILITY.md``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from leaderboard.records import Split, epoch
from leaderboard.service import SubmissionView
from space.site.html import esc, number, percent, table

HELP = (
    "A test submission returns aggregates over the hidden ground truth; one that answers only a few rows "
    "returns those rows' scores. **Probing** shows as many test submissions per user, day after day at the "
    "daily limit, of low coverage, often private-score only, or as several new users doing the same. "
    "Reject or hide what you judge abusive; the audit log has every submission."
)
DAY_S = 24 * 3600.0
LOW_COVERAGE = 0.5  # a submission answering fewer rows than this is worth a look


@dataclass(frozen=True)
class Activity:
    user: str
    test_day: int  # test submissions in the last 24 hours
    test_week: int
    test_all: int
    private_tests: int  # test submissions that asked for a private score only
    low_coverage: int  # scored test submissions under LOW_COVERAGE
    lowest_coverage: float | None
    models: int  # distinct model names over all submissions
    validation: int
    last_test: str | None


def activity(views: Sequence[SubmissionView], now: float) -> list[Activity]:
    """One ``Activity`` per user, the most test submissions in the last 7 days first."""
    users: dict[str, list[SubmissionView]] = {}
    for view in views:
        users.setdefault(view.user.casefold(), []).append(view)
    found = []
    for mine in users.values():
        tests = [v for v in mine if v.split == Split.TEST]
        ages = [now - epoch(v.created_at) for v in tests]
        coverages = [v.summary.coverage for v in tests if v.summary and v.summary.coverage is not None]
        found.append(
            Activity(
                user=mine[0].user,
                test_day=sum(age < DAY_S for age in ages),
                test_week=sum(age < 7 * DAY_S for age in ages),
                test_all=len(tests),
                private_tests=sum(not v.publish for v in tests),
                low_coverage=sum(c < LOW_COVERAGE for c in coverages),
                lowest_coverage=min(coverages, default=None),
                models=len({str(v.metadata.get("model")).casefold() for v in mine}),
                validation=len(mine) - len(tests),
                last_test=max((v.created_at for v in tests), default=None),
            )
        )
    return sorted(found, key=lambda a: (-a.test_week, -a.test_day, -a.test_all, a.user.casefold()))


def activity_table(views: Sequence[SubmissionView], now: float) -> str:
    headers = [
        "User",
        "Test, 24 h",
        "Test, 7 days",
        "Test, all",
        "Private-score tests",
        f"Tests under {percent(LOW_COVERAGE, 0)} coverage",
        "Lowest test coverage",
        "Model names",
        "Validation",
        "Last test (UTC)",
    ]
    rows = [
        [
            esc(a.user),
            esc(a.test_day),
            esc(a.test_week),
            esc(a.test_all),
            esc(a.private_tests),
            esc(a.low_coverage),
            percent(a.lowest_coverage) if a.lowest_coverage is not None else number(None),
            esc(a.models),
            esc(a.validation),
            esc((a.last_test or "—")[:16].replace("T", " ")),
        ]
        for a in activity(views, now)
    ]
    numeric = [False] + [True] * 8 + [False]
    return table(headers, rows, css="nt-table nt-compact", numeric=numeric, element_id="activity-table")
