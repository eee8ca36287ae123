"""Job claims as compare-and-swap commits, over HTTP: each race between two workers' claims, set up exactly and
checked on the wire.

Another worker is simulated by a commit the emulator makes just before ours (``Race``) or by a
second service on its own disk; its lease names another machine, so only its expiry tells.
"""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

import pytest

from leaderboard.jobs.claims import claim, read_job
from leaderboard.jobs.queue import Holder
from leaderboard.records.entries import FINISHED, RUNNING, Job, Lease, iso, job_path
from leaderboard.service import Leaderboard
from leaderboard.storage import Conflict
from tests.hub.hub_faults import Race
from tests.hub.server import LocalHub
from tests.hub.service_on_hub import REQUESTS, hub_settings, seed_datasets


@pytest.fixture
def service(hub: LocalHub, demo_dataset: Path, demo_public: Path, tmp_path: Path, files) -> Leaderboard:
    seed_datasets(hub, demo_dataset, demo_public)
    service = Leaderboard(hub_settings(tmp_path / "space", tmp_path / "keys"))
    service.submit(files["test-noisy"], split="test", user="alice", metadata={"model": "M"})
    return service


def elsewhere(submission_id: str, status: str = RUNNING, attempts: int = 1) -> bytes:
    """The job file as a worker on another machine writes it (a live lease, for ten minutes)."""
    lease = Lease("other-token", "other-machine", 4242, None, iso(time.time() + 600)) if status == RUNNING else None
    return Job(submission_id, status=status, attempts=attempts, lease=lease, updated_at=iso(time.time())).to_bytes()


def claim_commits(hub: LocalHub) -> list[int | None]:
    return [c.status for c in hub.calls("commit") if c.detail.get("message", "").startswith("claim")]


def test_a_job_another_worker_claimed_meanwhile_is_not_taken_again(hub, service):
    entry = service.registry.entries()[0]  # PENDING, as this worker read it
    hub.faults.add("commit", Race({job_path(entry.submission_id): elsewhere(entry.submission_id)}))
    with Holder.here() as holder:
        held = claim(service.requests, entry, holder, time.time(), 600, 3)
    assert held is None  # re-read, re-decided: running elsewhere
    assert claim_commits(hub) == [412]  # one claim sent, refused, never re-sent over the other worker's
    job, _ = read_job(service.requests, entry.submission_id)
    assert job.lease.token == "other-token" and service.worker.drain() == 0


def test_a_claim_that_lost_a_race_on_another_file_is_rebased_and_lands(hub, service):
    entry = service.registry.entries()[0]
    hub.faults.add("commit", Race({"requests/someone-else.json": b"{}"}))
    with Holder.here() as holder:
        held = claim(service.requests, entry, holder, time.time(), 600, 3)
    assert held is not None and claim_commits(hub) == [412, 200]
    assert read_job(service.requests, entry.submission_id)[0].lease.token == held.token


def test_a_heartbeat_after_a_lost_lease_does_not_turn_finished_back_into_running(hub, service):
    entry = service.registry.entries()[0]
    with Holder.here() as holder:
        held = claim(service.requests, entry, holder, time.time(), 600, 3)
        assert held is not None
        # Our lease ran out; another worker took the job over and finished it.
        hub.state.external_commit(REQUESTS, {job_path(entry.submission_id): elsewhere(entry.submission_id, FINISHED)})
        with pytest.raises(Conflict):
            service.worker._renew(held, holder)
        with pytest.raises(Conflict):  # nor does our outcome land over theirs
            held.commit(replace(held.job, status=FINISHED, lease=None), {"private/x/summary.json": b"{}"}, "finished x")
    assert read_job(service.requests, entry.submission_id)[0].status == FINISHED
    sent = [(c.detail["message"].split()[0], c.status) for c in hub.calls("commit")]
    assert sent[-1] == ("heartbeat", 412)  # sent on the parent it knew, refused; the outcome was not even sent
    assert "private/x/summary.json" not in hub.files(REQUESTS)


def test_the_heartbeat_thread_stops_once_the_lease_is_lost(hub, service, caplog):
    from leaderboard.jobs.worker import _Heartbeat

    entry = service.registry.entries()[0]
    with Holder.here() as holder:
        held = claim(service.requests, entry, holder, time.time(), 600, 3)
        hub.state.external_commit(REQUESTS, {job_path(entry.submission_id): elsewhere(entry.submission_id, FINISHED)})
        beats: list[float] = []

        def renew() -> None:
            beats.append(time.monotonic())
            service.worker._renew(held, holder)

        with _Heartbeat(renew, 0.05) as heartbeat:
            # The thread's own end is the signal: the block has not ended, so nothing but the lost lease stopped it.
            heartbeat.thread.join(timeout=60)
            assert not heartbeat.thread.is_alive(), "the heartbeat still beats 60 s after its lease was lost"
            assert not heartbeat.stopped.is_set()
    assert len(beats) == 1 and "lease lost, heartbeats stop" in caplog.text
    assert read_job(service.requests, entry.submission_id)[0].status == FINISHED


def test_a_claim_whose_answer_was_lost_is_recognised_as_ours(hub, service):
    from tests.hub.hub_faults import Lost

    entry = service.registry.entries()[0]
    hub.faults.add("commit", Lost(502))
    with Holder.here() as holder:
        held = claim(service.requests, entry, holder, time.time(), 600, 3)
    assert held is not None and claim_commits(hub) == [502]  # it landed: acknowledged, not sent again
    assert read_job(service.requests, entry.submission_id)[0].lease.token == held.token
