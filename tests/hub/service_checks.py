"""What must hold for the service on the Hub after any fault: nothing acknowledged lost, nothing done twice.

Read from the Hub itself (the emulator's history), not through the service under test.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from leaderboard.records.entries import FINISHED, RUNNING
from leaderboard.service import Leaderboard
from leaderboard.storage import StorageError
from scoring import score_submission
from space.workspace.errors import describe
from tests.hub.server import LocalHub
from tests.hub.service_on_hub import REQUESTS
from tests.service_fixtures import DECLARED, kept_summary


@dataclass
class Upload:
    path: Path
    split: str
    user: str
    model: str
    publish: bool
    acknowledged: str | None = None
    tries: int = 0


def try_to_submit(service: Leaderboard, hub: LocalHub, upload: Upload, shown: Counter) -> None:
    """One try by a person: a receipt means the request and the file are on ``main`` already."""
    upload.tries += 1
    metadata = {"model": upload.model, "contact_email": f"{upload.user}@example.org"}
    try:
        receipt = service.submit(
            upload.path,
            split=upload.split,
            user=upload.user,
            metadata=metadata,
            publish=upload.publish,
            declarations=DECLARED,
        )
    except StorageError as error:  # what the page says; the Hub's answer stays in the log
        message = describe(error)
        assert "http" not in message.lower() and ("try again" in message or "check before" in message), message
        shown[message.split(";")[0]] += 1
        return
    on_main = hub.files(REQUESTS)
    assert on_main[f"uploads/{receipt.submission_id}.tsv"] == upload.path.read_bytes()
    assert upload.acknowledged in (None, receipt.submission_id), "one file, two receipts"
    upload.acknowledged = receipt.submission_id


def job_history(hub: LocalHub, submission_id: str) -> list[dict]:
    """Every state the job file went through, one per commit that changed it, oldest first."""
    states, last = [], None
    for commit in hub.history(REQUESTS):
        blob = commit.files.get(f"jobs/{submission_id}.json")
        if blob is not None and blob.data != last:
            states.append(json.loads(blob.data))
            last = blob.data
    return states


def check_scored_once(hub: LocalHub, service: Leaderboard, uploads: list[Upload], keys: dict, baseline: float) -> dict:
    """Every acknowledged submission FINISHED exactly once, with the scorer's numbers, every transition kept.

    Returns figures: submissions stored, claims (a RUNNING state under a new lease token), doubles
    (finished more than once), lost (acknowledged but missing, or never finished).
    """
    files = hub.files(REQUESTS)
    ids = {f[len("requests/") : -len(".json")] for f in files if f.startswith("requests/")}
    finished = Counter(
        json.loads(d)["target"] for p, d in files.items() if p.startswith("audit/") and b'"finished"' in d
    )
    lost = {u.acknowledged for u in uploads if u.acknowledged} - ids
    claims = 0
    for submission_id in sorted(ids):
        states = job_history(hub, submission_id)
        assert states and states[-1]["status"] == FINISHED, f"{submission_id} ended {states[-1:]}"
        for before, after in zip([None, *states], states):
            if after["status"] == RUNNING and not _same_lease(before, after):
                claims += 1
            undone = before and before["status"] == FINISHED and after["status"] == RUNNING
            assert not (undone and after["generation"] == before["generation"]), f"{submission_id}: FINISHED undone"
        if finished[submission_id] == 0:
            lost.add(submission_id)
    for upload in uploads:
        if upload.acknowledged:
            expected = kept_summary(
                score_submission(upload.path, keys[upload.split], baseline_raw=baseline), upload.split
            )
            assert service.status(upload.acknowledged).summary == expected, f"{upload.acknowledged}: not the scorer's"
    doubles = sorted(i for i, n in finished.items() if n > 1)
    assert not doubles and not lost, f"scored twice: {doubles}; lost: {sorted(lost)}"
    return {"submissions": len(ids), "claims": claims, "doubles": len(doubles), "lost": len(lost)}


def _same_lease(before: dict | None, after: dict) -> bool:
    """Whether ``after`` renews ``before``'s lease (a heartbeat), rather than a new claim."""
    return bool(
        before
        and before["status"] == RUNNING
        and before["lease"]
        and after["lease"]
        and before["lease"]["token"] == after["lease"]["token"]
    )
