"""The maintainers' per-user table: the signs of probing the test set, counted right, names escaped."""

from __future__ import annotations

from leaderboard.records.entries import epoch
from leaderboard.service import SubmissionView
from scoring.summary import Summary
from space.desk.activity import activity, activity_table

NOW = epoch("2026-11-23T12:00:00.000000Z")


def view(
    user: str, split: str, at: str, coverage: float | None, publish: bool = True, model: str = "M"
) -> SubmissionView:
    summary = None if coverage is None else Summary(score=1.0, score_valid_only=None, coverage=coverage)
    return SubmissionView(
        submission_id=f"{user}-{at}",
        user=user,
        split=split,
        status="FINISHED" if summary else "PENDING",
        created_at=f"{at}.000000Z",
        metadata={"model": model},
        publish=publish,
        decision="pending",
        reason=None,
        hidden=False,
        public=False,
        attempts=1,
        message=None,
        summary=summary,
    )


def test_a_prober_comes_first_with_its_low_coverage_private_tests_counted():
    views = [
        view("honest", "test", "2026-11-23T10:00:00", 1.0),
        view("honest", "validation", "2026-11-23T09:00:00", 1.0),
        view("prober", "test", "2026-11-23T11:00:00", 0.01, publish=False, model="a"),
        view("Prober", "test", "2026-11-22T11:30:00", 0.02, publish=False, model="b"),  # same user, other case
        view("prober", "test", "2026-11-20T11:00:00", 0.5, model="A"),
        view("prober", "test", "2026-11-01T11:00:00", None),  # a month ago, still counted in "all"
    ]
    prober, honest = activity(views, NOW)
    assert (prober.user.casefold(), prober.test_day, prober.test_week, prober.test_all) == ("prober", 1, 3, 4)
    assert (prober.private_tests, prober.low_coverage, prober.lowest_coverage, prober.models) == (2, 2, 0.01, 3)
    assert (honest.test_day, honest.validation, honest.lowest_coverage) == (1, 1, 1.0)


def test_user_names_are_escaped():
    html = activity_table([view("x<script>", "test", "2026-11-23T10:00:00", 1.0)], NOW)
    assert "x&lt;script&gt;" in html and "<script>" not in html
