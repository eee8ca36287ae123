"""The fair queue: jobs interleave users, a newcomer passes big files, budgets bound a file and a day.

Before, three accounts with three worst-case files each made a victim's small file wait behind all nine
(first in, first out). Here the order is checked at the level it is decided (``fairness.order`` on entries,
then the real worker picking jobs from a store), not with a timer.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
from pathlib import Path

import pytest

from leaderboard.jobs.fairness import cost_of, duration_words, order
from leaderboard.records.entries import PENDING, RUNNING, Job, Request, Review, Split, iso, request_path
from leaderboard.records.errors import NotAuthorised, QuotaExceeded, Rejected
from leaderboard.records.metadata import Metadata
from leaderboard.records.validation import check_file_and_cost
from leaderboard.service import Leaderboard
from leaderboard.storage.registry import Entry
from tests.hardening.input.input_giants import worst_case_traces
from tests.service_fixtures import MAINTAINER, submit

DAY = 24 * 3600
ATTACKERS = ("mallory", "trudy", "eve")


def _entry(user: str, n: int, cost: int, status=PENDING, started: float | None = None) -> Entry:
    request = Request(
        f"{user}{n}",
        user,
        Split.VALIDATION,
        iso(1000.0 + n),
        "0" * 64,
        "f.tsv",
        10,
        False,
        Metadata(model="M"),
        {},
        cost,
    )
    job = Job(request.submission_id, status=status, started_at=iso(started) if started is not None else None)
    return Entry(request, job, Review(request.submission_id), 0)


# -- the order, on entries ------------------------------------------------------------------------


def test_equal_jobs_from_three_users_are_taken_in_turns():
    entries = [_entry(user, n, 60_000) for n in range(3) for user in ("a", "b", "c")]
    entries.sort(key=lambda e: e.request.created_at)  # a0 b0 c0 a1 ... as the registry lists them
    assert [e.submission_id for e in order(entries, 5000.0)] == ["a0", "b0", "c0", "a1", "b1", "c1", "a2", "b2", "c2"]


def test_one_users_burst_does_not_hold_back_a_later_user():
    entries = [_entry("a", n, 60_000) for n in range(3)] + [_entry("b", 9, 60_000)]  # b came last
    assert [e.submission_id for e in order(entries, 5000.0)] == ["a0", "b9", "a1", "a2"]


def test_a_victims_small_file_is_taken_first_behind_nine_big_files_from_three_users():
    now = 5000.0
    running = _entry(ATTACKERS[0], 0, 60_000, status=RUNNING, started=now - 1)
    big = [_entry(user, n, 60_000) for n in range(1, 4) for user in ATTACKERS if (user, n) != (ATTACKERS[0], 3)]
    victim = _entry("victim", 99, 80)
    taken = order([running, *big, victim], now)
    assert len(taken) == 9 and taken[0].submission_id == "victim99"  # the first pick, not the tenth


def test_a_user_served_much_today_waits_for_those_served_little():
    now = 5000.0
    heavy_done = [_entry("heavy", n, 90_000, status="FINISHED", started=now - 3600) for n in range(3)]
    heavy_next, light_next = _entry("heavy", 10, 100), _entry("light", 11, 50_000)
    assert [e.submission_id for e in order([*heavy_done, heavy_next, light_next], now)] == ["light11", "heavy10"]
    # A day later the heavy user's service has left the window: the smaller job goes first again.
    assert [e.submission_id for e in order([*heavy_done, heavy_next, light_next], now + DAY)][0] == "heavy10"


def test_a_record_from_before_costs_were_kept_loads_and_is_estimated_from_its_size():
    request = _entry("old", 1, 0).request
    raw = json.loads(request.to_bytes())
    del raw["cost"]
    old = Request.from_bytes(json.dumps(raw).encode())
    assert old.cost is None
    assert cost_of(dataclasses.replace(old, size=160_000)) == 10_000  # 16 bytes a point


@pytest.mark.parametrize(
    ("seconds", "words"),
    [(3, "3 seconds"), (44, "45 seconds"), (61, "1 minute"), (3600 * 3 + 600, "3 hours 10 minutes")],
)
def test_durations_read_as_words(seconds, words):
    assert duration_words(seconds) == words


# -- the service and its worker -------------------------------------------------------------------


@pytest.fixture
def worst(tmp_path: Path, validation_key) -> Path:
    """Every validation row a 2000-point zigzag across the image: the costliest valid file."""
    path = tmp_path / "worst.tsv"
    worst_case_traces(path, validation_key)
    return path


def _copies(worst: Path, folder: Path, n: int) -> list[Path]:
    """``n`` files of the same cost that differ in bytes (so none is a repeat of another)."""
    paths = []
    for i in range(n):
        path = folder / f"worst{i}.tsv"
        path.write_bytes(worst.read_bytes() + b"\n" * (i + 1))
        paths.append(path)
    return paths


def test_the_cost_is_the_points_of_the_valid_rows(files, validation_key):
    data = files["validation-noisy"].read_bytes()
    report, cost = check_file_and_cost(data, validation_key)
    rows = list(csv.DictReader(io.StringIO(data.decode()), delimiter="\t"))  # cells may span lines (quoted)
    assert report.n_valid == len(rows)
    assert cost == sum(len(json.loads(r["prediction"])) for r in rows) > 2 * len(rows)


def test_the_worker_takes_the_victim_next_behind_nine_worst_case_files(service, clock, worst, tmp_path, files):
    ids = _attack(service, worst, tmp_path, clock)
    assert service.worker.run_once() == ids[0]  # the first attacker's first file is running when the victim comes
    victim = submit(service, files["test-noisy1"], user="victim").submission_id
    assert service.queue_position(victim, "victim").position == 1
    assert service.worker.run_once() == victim


def test_first_in_first_out_would_have_taken_the_victim_tenth(settings, clock, worst, tmp_path, files):
    service = Leaderboard(dataclasses.replace(settings, fair_queue=False), clock=clock)
    _attack(service, worst, tmp_path, clock)
    victim = submit(service, files["test-noisy1"], user="victim").submission_id
    assert service.queue_position(victim, "victim").position == 10
    assert [service.worker.run_once() for _ in range(10)][-1] == victim


def _attack(service: Leaderboard, worst: Path, folder: Path, clock) -> list[str]:
    """Three accounts submit three worst-case validation files each, one account after the other."""
    ids = []
    for path, user in zip(_copies(worst, folder, 9), [u for u in ATTACKERS for _ in range(3)], strict=True):
        ids.append(submit(service, path, user=user, split="validation").submission_id)
        clock.advance(1)
    return ids


def test_a_file_over_the_per_file_cost_is_refused_with_the_limit(settings, clock, worst, validation_key):
    cost = check_file_and_cost(worst.read_bytes(), validation_key)[1]
    service = Leaderboard(dataclasses.replace(settings, max_job_points=cost - 1), clock=clock)
    with pytest.raises(Rejected, match=f"{cost:,} points together, and one submission may hold at most {cost - 1:,}"):
        submit(service, worst, split="validation")
    assert service.requests.list("requests") == []


def test_the_daily_budget_covers_validation_says_what_is_left_and_when_it_frees(settings, clock, worst, tmp_path):
    cost = check_file_and_cost(worst.read_bytes(), Leaderboard(settings).keys.public("validation"))[1]
    service = Leaderboard(dataclasses.replace(settings, max_job_points=cost, daily_points=2 * cost + 10), clock=clock)
    first, second, third = _copies(worst, tmp_path, 3)
    submit(service, first, split="validation")
    clock.advance(3600)
    submit(service, second, split="validation")
    service.worker.drain()
    with pytest.raises(QuotaExceeded) as caught:
        submit(service, third, split="validation")
    message = str(caught.value)
    assert "daily compute limit reached" in message and "validation and test together" in message
    assert f"asks for {cost:,} points" in message and f"has 10 of the {2 * cost + 10:,} points a day left" in message
    assert "frees up in 23 hours" in message and caught.value.retry_at is not None
    submit(service, third, user="bob", split="validation")  # per user
    clock.advance(DAY - 3600 + 1)  # a second past the first file leaving the window
    submit(service, third, split="validation")


def test_the_queue_position_is_the_owners_and_the_maintainers_only(service, files):
    first = submit(service, files["test-noisy1"]).submission_id
    second = submit(service, files["test-noisy2"]).submission_id
    mine = service.queue_position(second, "alice")
    assert (mine.position, mine.ahead) == (2, 1) and mine.eta_s > service.queue_position(first, "alice").eta_s
    assert service.queue_position(second, MAINTAINER).position == 2
    with pytest.raises(NotAuthorised, match="belongs to another user"):
        service.queue_position(second, "mallory")
    words = {v.submission_id: v.queue.words() for v in service.my_submissions("alice") if v.queue}
    assert words[first].startswith("next in the queue; scored in about ") and "number 2" in words[second]
    service.worker.drain()
    assert service.queue_position(second, "alice").position is None
    assert all(v.queue is None for v in service.my_submissions("alice"))


def test_an_old_request_without_a_cost_is_queued_and_scored(service, files):
    submission_id = submit(service, files["test-noisy1"]).submission_id
    raw = json.loads(service.requests.read(request_path(submission_id)) or b"{}")
    del raw["cost"]
    service.requests.commit({request_path(submission_id): json.dumps(raw).encode()}, message="an old record")
    fresh = Leaderboard(service.settings, clock=service.clock)  # no cached request
    assert fresh.queue_position(submission_id, "alice").position == 1
    assert fresh.worker.run_once() == submission_id
    assert fresh.status(submission_id, "alice").status == "FINISHED"


def test_a_daily_budget_below_one_files_limit_fails_at_start_up(environ):
    from leaderboard.config import Settings, SettingsError

    environ.update(LEADERBOARD_MAX_JOB_POINTS="1000", LEADERBOARD_DAILY_POINTS="999")
    with pytest.raises(SettingsError, match="LEADERBOARD_DAILY_POINTS=999 is below LEADERBOARD_MAX_JOB_POINTS=1000"):
        Settings.from_env(environ)
    environ["LEADERBOARD_DAILY_POINTS"] = "1000"
    assert (Settings.from_env(environ).max_job_points, Settings.from_env(environ).daily_points) == (1000, 1000)


def _victim_arrives_while_scoring(service: Leaderboard, files, monkeypatch) -> list[str]:
    """The victim submits once the worker has started scoring the first file; the worker looks after every row."""
    import leaderboard.jobs.worker as worker_module

    arrived: list[str] = []
    real = worker_module.score_submission

    def scoring(data, key, **kwargs):
        if not arrived:
            arrived.append(submit(service, files["test-noisy1"], user="victim").submission_id)
        return real(data, key, **kwargs)

    monkeypatch.setattr(worker_module, "score_submission", scoring)
    monkeypatch.setattr(worker_module, "YIELD_EVERY_S", 0.0)
    return arrived


def test_a_victim_arriving_while_a_big_file_is_scored_is_let_through_in_its_middle(service, worst, files, monkeypatch):
    big = submit(service, worst, user="mallory", split="validation").submission_id
    arrived = _victim_arrives_while_scoring(service, files, monkeypatch)
    scored: list[str] = []
    service.worker.on_scored = scored.append
    assert service.worker.run_once() == big  # one round: the big file, with the victim scored in its middle
    victim = service.registry.entry(arrived[0]).job
    mallory = service.registry.entry(big).job
    assert scored == [arrived[0]] and victim.status == mallory.status == "FINISHED"
    assert (victim.attempts, mallory.attempts) == (1, 1)


def test_first_in_first_out_lets_nothing_through(settings, clock, worst, files, monkeypatch):
    service = Leaderboard(dataclasses.replace(settings, fair_queue=False), clock=clock)
    big = submit(service, worst, user="mallory", split="validation").submission_id
    arrived = _victim_arrives_while_scoring(service, files, monkeypatch)
    assert service.worker.run_once() == big
    assert service.registry.entry(arrived[0]).job.status == PENDING


def test_a_big_file_let_through_another_scores_as_it_would_alone(settings, clock, worst, files, monkeypatch):
    alone = Leaderboard(dataclasses.replace(settings, home=settings.home / "alone"), clock=clock)
    first = submit(alone, worst, user="mallory", split="validation").submission_id
    alone.worker.drain()
    service = Leaderboard(settings, clock=clock)
    big = submit(service, worst, user="mallory", split="validation").submission_id
    arrived = _victim_arrives_while_scoring(service, files, monkeypatch)
    assert service.worker.run_once() == big
    assert service.registry.entry(arrived[0]).job.status == "FINISHED"  # it was let through
    assert service.status(big, "mallory").summary == alone.status(first, "mallory").summary
