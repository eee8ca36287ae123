"""The queue and the worker: FIFO, results equal to the scorer's, leases, bounded retries, readable failures."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
import threading
import time

from leaderboard.jobs.queue import Decision, Holder, decide
from leaderboard.records.entries import FAILED, RUNNING, Job, job_path
from leaderboard.service import Leaderboard
from leaderboard.storage import audit
from leaderboard.storage.results import read_rows
from scoring import score_submission
from tests.service_fixtures import kept_summary, submit


def _finished_entries(service: Leaderboard) -> list[str]:
    return [e.target for e in audit.read_audit(service.requests) if e.action == "finished"]


def test_jobs_run_first_in_first_out(service: Leaderboard, files, clock):
    ids = []
    for name in ("test-noisy", "validation-noisy", "test-perfect"):
        ids.append(submit(service, files[name], split=name.split("-")[0]).submission_id)
        clock.advance(1)
    assert [service.worker.run_once() for _ in range(4)] == [*ids, None]


def test_a_finished_job_holds_exactly_what_the_scorer_computes(service: Leaderboard, files, test_key, settings):
    receipt = submit(service, files["test-noisy"])
    assert service.status(receipt.submission_id).status == "PENDING"
    assert service.worker.drain() == 1
    view = service.status(receipt.submission_id)
    expected = kept_summary(score_submission(files["test-noisy"], test_key, baseline_raw=settings.baseline_raw))
    assert view.status == "FINISHED" and view.attempts == 1 and view.message is None
    assert view.summary == expected  # JSON keeps floats exactly
    assert view.summary.scorer_version and view.summary.dataset_revision == test_key.revision
    rows = read_rows(service.requests, receipt.submission_id)
    assert len(rows) == expected.n_expected and {"dtw", "fde", "penalty", "raw"} <= set(rows[0])


def test_a_finished_job_is_never_run_again(service: Leaderboard, files):
    receipt = submit(service, files["test-noisy"])
    service.worker.drain()
    assert service.worker.drain() == 0
    assert _finished_entries(service) == [receipt.submission_id]


def _running(service: Leaderboard, submission_id: str, holder: Holder, now: float, attempts: int = 1) -> None:
    job = Job(submission_id, status=RUNNING, attempts=attempts, lease=holder.lease(now, 600))
    service.requests.commit({job_path(submission_id): job.to_bytes()})


def _dead_holder() -> Holder:
    """A holder whose process has exited (a worker SIGKILLed mid-job)."""
    child = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    return dataclasses.replace(Holder.here(), pid=int(child.stdout), process_start=None)


def test_a_job_whose_worker_died_is_taken_up_again_at_once(service: Leaderboard, files, clock):
    receipt = submit(service, files["test-noisy"])
    _running(service, receipt.submission_id, _dead_holder(), clock())
    assert service.status(receipt.submission_id).status == "RUNNING"
    assert service.worker.run_once() == receipt.submission_id
    view = service.status(receipt.submission_id)
    assert view.status == "FINISHED" and view.attempts == 2


def test_a_live_lease_is_respected_until_it_expires(service: Leaderboard, files, clock, settings):
    receipt = submit(service, files["test-noisy"])
    with Holder.here() as holder:  # a worker of this very process, still busy
        _running(service, receipt.submission_id, holder, clock())
        entry = service.registry.entry(receipt.submission_id)
        assert decide(entry, clock(), settings.max_attempts) is Decision.SKIP
        assert service.worker.run_once() is None
        clock.advance(601)  # its heartbeat stopped: the lease ran out
        assert service.worker.run_once() == receipt.submission_id


def test_a_worker_on_another_machine_is_trusted_until_its_lease_expires(service: Leaderboard, files, clock):
    receipt = submit(service, files["test-noisy"])
    elsewhere = dataclasses.replace(Holder.here(), host="other-machine", pid=1)
    _running(service, receipt.submission_id, elsewhere, clock())
    assert service.worker.run_once() is None
    clock.advance(601)
    assert service.worker.run_once() == receipt.submission_id


def test_a_job_that_keeps_killing_its_worker_fails_as_a_server_problem(service: Leaderboard, files, clock, settings):
    poison = submit(service, files["test-noisy"]).submission_id
    clock.advance(1)
    healthy = submit(service, files["test-perfect"]).submission_id
    _running(service, poison, _dead_holder(), clock(), attempts=settings.max_attempts)
    assert service.worker.drain() == 1
    view = service.status(poison)
    assert view.status == "FAILED" and f"stopped {settings.max_attempts} times" in (view.message or "")
    assert service.registry.job(poison).failure == "server"
    assert service.status(healthy).status == "FINISHED"


def test_an_unexpected_error_fails_the_job_readably_and_the_worker_carries_on(service, files, clock, monkeypatch):
    first = submit(service, files["test-noisy"]).submission_id
    clock.advance(1)
    second = submit(service, files["test-perfect"]).submission_id
    real = score_submission

    def crash_once(source, key, **kwargs):
        if source == files["test-noisy"].read_bytes():
            raise ZeroDivisionError("float division by zero")
        return real(source, key, **kwargs)

    monkeypatch.setattr("leaderboard.jobs.worker.score_submission", crash_once)
    assert service.worker.drain() == 2
    failed = service.status(first)
    assert failed.status == "FAILED" and "problem on the server" in (failed.message or "")
    assert "ZeroDivision" not in failed.message and "Traceback" not in failed.message
    assert service.status(second).status == "FINISHED"


def test_an_outcome_is_not_recorded_once_the_lease_was_lost(service: Leaderboard, files, clock, monkeypatch):
    receipt = submit(service, files["test-noisy"])
    thief = dataclasses.replace(Holder.here(), token="someone-else")
    real = score_submission

    def slow_and_robbed(source, key, **kwargs):
        _running(service, receipt.submission_id, thief, clock(), attempts=2)  # another worker took over
        return real(source, key, **kwargs)

    monkeypatch.setattr("leaderboard.jobs.worker.score_submission", slow_and_robbed)
    service.worker.run_once()
    assert service.registry.job(receipt.submission_id).lease.token == "someone-else"
    assert _finished_entries(service) == []


def test_the_heartbeat_renews_the_lease_while_scoring(settings, files, monkeypatch):
    service = Leaderboard(dataclasses.replace(settings, lease_s=0.3))
    receipt = submit(service, files["test-noisy"])
    seen = []
    real = score_submission

    def slow(source, key, **kwargs):
        for _ in range(6):
            time.sleep(0.1)
            seen.append(service.registry.job(receipt.submission_id).lease.expires_at)
        return real(source, key, **kwargs)

    monkeypatch.setattr("leaderboard.jobs.worker.score_submission", slow)
    service.worker.run_once()
    assert len(set(seen)) >= 2  # renewed at least once in 0.6 s with a 0.3 s lease
    assert service.status(receipt.submission_id).status == "FINISHED"


def test_one_worker_at_a_time_on_a_machine(service: Leaderboard, files, monkeypatch):
    submit(service, files["test-noisy"])
    inside, release = threading.Event(), threading.Event()
    real = score_submission

    def blocking(source, key, **kwargs):
        inside.set()
        release.wait(10)
        return real(source, key, **kwargs)

    monkeypatch.setattr("leaderboard.jobs.worker.score_submission", blocking)
    busy = threading.Thread(target=service.worker.run_once)
    busy.start()
    assert inside.wait(10)
    assert Leaderboard(service.settings).worker.run_once() is None  # finds the worker lock taken
    release.set()
    busy.join()
    assert len(_finished_entries(service)) == 1


def test_the_scheduler_entry_point_drains_the_queue(service: Leaderboard, files):
    from leaderboard.runtime.scheduler import start_worker

    receipt = submit(service, files["test-noisy"])
    scheduler = start_worker(service.worker, interval_s=60)
    try:
        deadline = time.time() + 20
        while service.status(receipt.submission_id).status != "FINISHED" and time.time() < deadline:
            time.sleep(0.05)
    finally:
        scheduler.shutdown(wait=True)
    assert service.status(receipt.submission_id).status == "FINISHED"


def test_a_damaged_record_does_not_stop_the_queue(service: Leaderboard, files, caplog):
    service.requests.commit({"requests/0000000000000000.json": b"{not json"})
    receipt = submit(service, files["test-noisy"])
    assert service.worker.drain() == 1
    assert service.status(receipt.submission_id).status == "FINISHED"
    assert "0000000000000000 has an unreadable record" in caplog.text


def test_a_file_over_the_time_budget_fails_as_the_submitters_with_a_message(settings, files, clock):
    service = Leaderboard(dataclasses.replace(settings, job_budget_s=1e-9), clock=clock)
    submission_id = submit(service, files["test-noisy"]).submission_id
    service.worker.drain()
    view = service.status(submission_id)
    assert view.status == FAILED and view.summary is None
    assert "over the time budget" in view.message and "rows scored" in view.message
    assert service.registry.job(submission_id).failure == "submission"  # it counts against the quota
