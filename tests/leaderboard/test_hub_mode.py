"""The service in Hub mode, on the offline fake Hub: a restart on an empty disk loses nothing."""

from __future__ import annotations

import dataclasses
import json

from leaderboard.service import Leaderboard
from leaderboard.storage.hub import HubStorage
from scoring import score_submission
from tests.service_fixtures import MAINTAINER, kept_summary, submit


def test_a_restart_on_an_empty_disk_finds_and_scores_every_acknowledged_submission(settings, files, tmp_path, test_key):
    from fake_hub import FakeClock, FakeHub

    clock = FakeClock()
    hub = FakeHub(tmp_path / "hub", clock=clock.now)
    hub.chaos(11, methods=("create_commit",), throttle=0.1, unavailable=0.1, lost=0.1, race=0.1)

    def stores() -> dict[str, HubStorage]:
        def store(repo: str, private: bool) -> HubStorage:
            return HubStorage(repo, api=hub.api(), private=private, clock=clock.now, sleep=clock.sleep)

        return {"requests_store": store("org/requests", True), "results_store": store("org/results", False)}

    first = Leaderboard(settings, **stores())
    acknowledged = [
        submit(first, files["test-noisy"], publish=True).submission_id,
        submit(first, files["validation-noisy"], split="validation", publish=True).submission_id,
    ]

    empty_disk = dataclasses.replace(settings, home=tmp_path / "new-machine")
    again = Leaderboard(empty_disk, **stores())
    assert [again.status(i).status for i in acknowledged] == ["PENDING", "PENDING"]
    assert again.worker.drain() == 2
    for submission_id in acknowledged:
        again.approve(submission_id, by=MAINTAINER)

    hub.clear_faults()
    expected = kept_summary(score_submission(files["test-noisy"], test_key, baseline_raw=settings.baseline_raw))
    assert again.status(acknowledged[0]).summary == expected
    published = hub.files("org/results")
    rows = [json.loads(line) for line in published["data/leaderboard.jsonl"].decode().splitlines()]
    assert [r["submission_id"] for r in rows if r["kind"] == "submission"] == acknowledged
    assert rows[0]["score"] == expected.score
    assert b"@example.org" not in b"".join(published.values())
    assert hub.repo("org/requests").private and not hub.repo("org/results").private
    assert hub.faults_served  # the chaos did strike
