"""Background work steps aside while the app answers requests (runtime/pages_first.py), and never starves."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from leaderboard.jobs.worker import OverBudget, _Budget
from leaderboard.runtime.pages_first import MAX_CREDIT_S, RATIO, Gauge, StepAside


class FakeTime:
    def __init__(self) -> None:
        self.now = 0.0
        self.slept = 0.0

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds
        self.slept += seconds


@pytest.fixture
def gauge(tmp_path: Path) -> Gauge:
    return Gauge(tmp_path / "pages_busy")


@pytest.fixture
def fake() -> FakeTime:
    return FakeTime()


def step_aside(gauge: Gauge, fake: FakeTime) -> StepAside:
    return StepAside(gauge.path, clock=fake.clock, sleep=fake.sleep)


def test_nothing_is_waited_while_no_request_is_answered(gauge, fake):
    aside = step_aside(gauge, fake)
    fake.now += 1.0  # a second of work
    assert aside() == 0.0 and fake.slept == 0.0


def test_a_busy_app_is_waited_for_until_it_is_done(gauge, fake):
    aside = step_aside(gauge, fake)
    gauge.enter()
    fake.now += 1.0
    real_sleep = fake.sleep

    def sleep(seconds: float) -> None:
        real_sleep(seconds)
        if gauge.count and fake.slept > 0.0029:  # the request is answered 3 ms into the wait
            gauge.leave()

    aside._sleep = sleep
    waited = aside()
    assert waited == pytest.approx(0.003) and gauge.count == 0


def test_however_busy_the_app_the_background_keeps_its_share(gauge, fake):
    aside = step_aside(gauge, fake)
    gauge.enter()  # never answered: a flood, or a request held open
    worked = waited = 0.0
    for _ in range(1000):  # rows of 1 ms
        fake.now += 0.001
        worked += 0.001
        waited += aside()
    total = fake.now
    assert worked / total >= 1 / (1 + RATIO) - 0.01  # at least a fifth of the time goes to the work
    assert waited == pytest.approx(total - worked)


def test_one_wait_never_exceeds_the_credit_cap(gauge, fake):
    aside = step_aside(gauge, fake)
    gauge.enter()
    fake.now += 60.0  # a minute of work earns no more than the cap
    assert aside() <= MAX_CREDIT_S + 0.001


def test_the_count_is_seen_by_another_process(gauge):
    reader = textwrap.dedent(
        """
        import sys
        from pathlib import Path
        from leaderboard.runtime.pages_first import StepAside
        aside = StepAside(Path(sys.argv[1]))
        for line in sys.stdin:
            print(aside.busy(), flush=True)
        """
    )
    child = subprocess.Popen(
        [sys.executable, "-c", reader, str(gauge.path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).parents[2],
    )
    assert child.stdin is not None and child.stdout is not None
    seen = []
    for change in (None, gauge.enter, gauge.enter, gauge.leave, gauge.leave):
        if change:
            change()
        child.stdin.write("?\n")
        child.stdin.flush()
        seen.append(child.stdout.readline().strip())
    child.stdin.close()
    child.wait(10)
    assert seen == ["False", "True", "True", "True", "False"]


def test_away_leaves_the_count_while_waiting_and_comes_back(gauge):
    gauge.enter()
    with gauge.away():
        assert gauge.count == 0
    assert gauge.count == 1


def test_without_a_gauge_or_its_file_nothing_steps_aside(tmp_path):
    assert StepAside.named(None) is None and StepAside.named("") is None
    assert StepAside.named(str(tmp_path / "missing")) is None


def test_time_left_to_the_pages_does_not_count_against_a_files_budget():
    budget = _Budget(seconds=0.5, step_aside=lambda: 3600.0)  # an hour waited in all: still within budget
    budget.check(1, 10)
    with pytest.raises(OverBudget):
        _Budget(seconds=0.0).check(1, 10)
