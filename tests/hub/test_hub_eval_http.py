"""Results that travel to the Hub, over HTTP with the real client.

The approval of an opted-in public test entry whose model link is a Hub model repo makes the scheduler's
job open one pull request there adding ``.eval_results/navitrace.yaml`` (never a push to ``main``); the
Hub's leaderboard of the benchmark becomes rows of kind ``hub`` from a copy the other job keeps.
"""

from __future__ import annotations

import dataclasses
import json
import time
from pathlib import Path

import pytest
import yaml
from huggingface_hub import parse_eval_result_entries

from leaderboard.publishing.hub_eval import EVAL_RESULTS_PATH, SOURCE_NAME, HubRecord, hub_path
from leaderboard.publishing.hub_eval_board import CACHE_PATH
from leaderboard.publishing.hub_eval_prs import RETRY_FIRST_S
from space.entry.view import entry_html, find
from tests.hub.clock import FakeClock
from tests.hub.hub_eval_setup import CLOSED, MODEL, SPACE_URL, benchmark_on, service_with_hub_eval, submit
from tests.hub.hub_faults import Http, Lost
from tests.hub.server import LocalHub
from tests.hub.service_on_hub import ANSWER_KEY, PUBLIC, REQUESTS, seed_datasets


@pytest.fixture
def deployed(hub: LocalHub, demo_dataset: Path, demo_public: Path) -> LocalHub:
    seed_datasets(hub, demo_dataset, demo_public)
    benchmark_on(hub)
    return hub


def model_commits(hub: LocalHub) -> list:
    """Every commit request sent to a model repository."""
    return [c for c in hub.calls("commit") if c.path.startswith("/api/models/")]


def test_an_approved_opted_in_entry_gets_one_pull_request_and_never_a_push(deployed: LocalHub, tmp_path, files):
    hub = deployed
    service, pull_requests, _ = service_with_hub_eval(tmp_path)
    submission_id = submit(service, files["test-noisy"], f"https://huggingface.co/{MODEL}", share=True)
    main_before = hub.history(MODEL, "model")
    assert model_commits(hub) == []  # approving does not call the Hub: the scheduler's job does

    assert pull_requests.round() == 1
    (commit,) = model_commits(hub)
    assert commit.repo == MODEL and commit.user == "boss" and commit.status == 200
    assert commit.detail["create_pr"] and "create_pr=1" in commit.query  # a pull request, not a push
    assert [c.query for c in hub.calls("preupload", repo=MODEL)] == ["create_pr=1"]
    # 4 a PR: who owns the repo (alice's organisation acme: is she a member? one more call, on no repo), then 3
    assert [c.kind for c in hub.calls() if c.repo == MODEL] == ["repo_info", "discussions", "preupload", "commit"]
    assert [c.path for c in hub.calls("user_overview")] == ["/api/users/alice/overview"]
    assert commit.detail["operations"] == [("file", EVAL_RESULTS_PATH)]
    (entry,) = parse_eval_result_entries(yaml.safe_load(commit.detail["files"][EVAL_RESULTS_PATH]))
    summary = service.status(submission_id).summary
    job = service.registry.job(submission_id)
    assert (entry.dataset_id, entry.task_id, entry.value) == (PUBLIC, "score", round(summary.score, 2))
    assert entry.source_url == f"{SPACE_URL}/?entry={submission_id}" and entry.source_name == SOURCE_NAME
    assert entry.date == job.finished_at[:19] + "Z"
    assert entry.dataset_revision is None  # the answer key is another (private) dataset: its revision says nothing
    assert entry.notes == f"NaviTrace scorer {summary.scorer_version}"

    # On the Hub: main did not move; refs/pr/1 holds the file; the pull request names the entry.
    assert hub.history(MODEL, "model") == main_before
    assert EVAL_RESULTS_PATH not in hub.state.files(MODEL, "main", "model")
    assert hub.state.files(MODEL, "refs/pr/1", "model")[EVAL_RESULTS_PATH] == commit.detail["files"][EVAL_RESULTS_PATH]
    (pull,) = hub.state.repo(MODEL, "model").pull_requests
    assert submission_id in pull.title and pull.author == "boss"

    # Recorded once, shown in the public table, the published results and on the entry page.
    pr_url = f"{hub.url}/{MODEL}/discussions/1"
    record = HubRecord.from_bytes(hub.files(REQUESTS)[hub_path(submission_id)])
    assert (record.pr_url, record.repo_id, record.refused) == (pr_url, MODEL, None) and record.opened_at
    assert set(json.loads(hub.files(REQUESTS)[hub_path(submission_id)])) == {"pr_url", "repo_id", "opened_at"}
    for table in (service.public_table(), service.published_table()):
        assert next(r for r in table if r["submission_id"] == submission_id)["hub_pr_url"] == pr_url
    page = entry_html(find(service.published_table(), submission_id), [])
    assert f'href="{pr_url}"' in page and 'id="entry-hub-pr"' in page

    # Idempotent: nothing more on later rounds, even from a new process that forgot everything.
    assert pull_requests.round() == 0
    _, fresh, _ = service_with_hub_eval(tmp_path)
    assert fresh.round() == 0
    assert len(model_commits(hub)) == 1 and len(hub.state.repo(MODEL, "model").pull_requests) == 1


def test_no_pull_request_without_opt_in_a_hub_model_link_approval_or_the_test_split(
    deployed: LocalHub, tmp_path, files
):
    hub = deployed
    service, pull_requests, _ = service_with_hub_eval(tmp_path)
    link = f"https://huggingface.co/{MODEL}"
    ids = [
        submit(service, files["test-noisy1"], link, share=False),  # asked, and said no
        submit(service, files["test-noisy2"], link, share=None),  # never asked: no answer means no
        submit(service, files["test-noisy3"], "https://github.com/acme/navigator", share=True),  # not the Hub
        submit(service, files["test-noisy4"], f"https://huggingface.co/datasets/{MODEL}", share=True),  # a dataset
        submit(service, files["test-noisy5"], f"https://huggingface.co/spaces/{MODEL}", share=True),  # a Space
        submit(service, files["test-noisy6"], link, share=True, approve=False),  # not approved (yet)
        submit(service, files["validation-noisy"], link, share=True, split="validation"),  # not a test entry
    ]
    assert pull_requests.round() == 0
    assert model_commits(hub) == [] and hub.calls("discussions") == []
    assert not [p for p in hub.files(REQUESTS) if p.startswith("hub/")]
    assert all(r["hub_pr_url"] is None for r in service.public_table() if r["submission_id"] in ids)

    service.approve(ids[5], by="boss")  # approved now: its pull request follows
    assert pull_requests.round() == 1 and [c.repo for c in model_commits(hub)] == [MODEL]


def test_a_refusal_is_recorded_once_and_an_unavailable_hub_is_retried_later(deployed: LocalHub, tmp_path, files):
    hub = deployed
    clock = FakeClock(time.time())
    service, pull_requests, _ = service_with_hub_eval(tmp_path, clock=clock.now)
    missing = submit(service, files["test-noisy1"], "https://huggingface.co/acme/no-such-model", share=True)
    closed = submit(service, files["test-noisy2"], f"https://huggingface.co/{CLOSED}", share=True)
    flaky = submit(service, files["test-noisy3"], f"https://huggingface.co/{MODEL}", share=True)
    hub.faults.add("commit", Http(503), repo=MODEL)

    assert pull_requests.round() == 2  # the two refusals; the 503 is not recorded
    records = {i: HubRecord.from_bytes(hub.files(REQUESTS)[hub_path(i)]) for i in (missing, closed)}
    assert "does not exist on the Hub, or is private" in records[missing].refused
    assert "403" in records[closed].refused and "Discussions are disabled" in records[closed].refused
    assert all(r.pr_url is None and r.refused_at for r in records.values())
    assert hub_path(flaky) not in hub.files(REQUESTS)

    calls = len(hub.calls())
    assert pull_requests.round() == 0 and len(hub.calls()) == calls  # refused: never again; flaky: waits
    clock.sleep(RETRY_FIRST_S + 1)
    assert pull_requests.round() == 1
    assert HubRecord.from_bytes(hub.files(REQUESTS)[hub_path(flaky)]).pr_url == f"{hub.url}/{MODEL}/discussions/1"
    assert [c.status for c in model_commits(hub) if c.repo == CLOSED] == [403]
    assert [c.status for c in model_commits(hub) if c.repo == MODEL] == [503, 200]
    assert all("create_pr=1" in c.query for c in model_commits(hub))  # no direct push, ever (as sent)


def test_a_pull_request_whose_answer_was_lost_is_found_again_not_opened_twice(deployed: LocalHub, tmp_path, files):
    hub = deployed
    clock = FakeClock(time.time())
    service, pull_requests, _ = service_with_hub_eval(tmp_path, clock=clock.now)
    submission_id = submit(service, files["test-noisy"], f"https://huggingface.co/{MODEL}", share=True)
    hub.faults.add("commit", Lost(502), repo=MODEL)  # the Hub opens it, the answer is lost
    assert pull_requests.round() == 0 and len(hub.state.repo(MODEL, "model").pull_requests) == 1
    clock.sleep(RETRY_FIRST_S + 1)
    assert pull_requests.round() == 1
    assert [(c.status, c.user) for c in hub.calls("discussions", repo=MODEL)] == [(200, "boss")] * 2  # found there
    assert len(model_commits(hub)) == 1 and len(hub.state.repo(MODEL, "model").pull_requests) == 1
    assert all("create_pr=1" in c.query for c in model_commits(hub)) and len(hub.history(MODEL, "model")) == 2
    record = HubRecord.from_bytes(hub.files(REQUESTS)[hub_path(submission_id)])
    assert record.pr_url == f"{hub.url}/{MODEL}/discussions/1"


def test_results_reported_on_the_hub_become_hub_rows_from_the_kept_copy(deployed: LocalHub, tmp_path, files):
    hub = deployed
    service, pull_requests, board = service_with_hub_eval(tmp_path)
    ours = submit(service, files["test-noisy"], f"https://huggingface.co/{MODEL}", share=True)
    assert pull_requests.round() == 1  # our own result, in an open pull request: the Hub lists it too
    theirs = [{"dataset": {"id": PUBLIC, "task_id": "score"}, "value": 42.5,
               "source": {"url": "https://zeta.example/paper", "name": "Zeta paper"}}]  # fmt: skip
    other_task = [{"dataset": {"id": PUBLIC, "task_id": "not-a-task"}, "value": 99.0}]
    hub.state.seed_files("zeta/drive", {EVAL_RESULTS_PATH: yaml.safe_dump(theirs).encode()}, repo_type="model")
    hub.state.seed_files("zeta/other", {".eval_results/x.yaml": yaml.safe_dump(other_task).encode()}, "model")
    assert board.refresh() is True
    (row,) = [r for r in service.public_table() if r["kind"] == "hub"]
    assert row["model"] == "zeta/drive" and row["score"] == 42.5 and row["split"] == "test"
    assert row["model_link"] == "https://huggingface.co/zeta/drive" and row["source"] == "https://zeta.example/paper"
    assert row["submitted_at"] and "not scored here" in row["description"] and row["hub_pr_url"] is None
    assert [r["model"] for r in service.published_table() if r["kind"] == "hub"] == ["zeta/drive"]
    assert ours in {r["submission_id"] for r in service.public_table() if r["kind"] == "submission"}

    # Page requests read the kept copy: no Hub call. An unchanged answer commits nothing.
    asked = len(hub.calls("leaderboard"))
    for _ in range(3):
        service.public_table()
    assert len(hub.calls("leaderboard")) == asked
    commits = len(hub.history(REQUESTS))
    assert board.refresh() is False and len(hub.history(REQUESTS)) == commits

    # A failed read keeps the last good copy.
    hub.faults.add("leaderboard", Http(503))
    assert board.refresh() is False
    assert [r["model"] for r in service.public_table() if r["kind"] == "hub"] == ["zeta/drive"]
    assert json.loads(hub.files(REQUESTS)[CACHE_PATH])["dataset_id"] == PUBLIC


def test_the_answer_key_revision_is_given_when_the_answer_key_is_the_benchmark(deployed: LocalHub, tmp_path, files):
    hub = deployed
    hub.state.seed_files(ANSWER_KEY, {"eval.yaml": b"tasks:\n- id: score\n"})
    service, pull_requests, _ = service_with_hub_eval(tmp_path)
    pull_requests.settings = dataclasses.replace(service.settings, hub_benchmark_dataset=ANSWER_KEY)
    submission_id = submit(service, files["test-noisy"], f"https://huggingface.co/{MODEL}", share=True)
    assert pull_requests.round() == 1
    (commit,) = model_commits(hub)
    (entry,) = parse_eval_result_entries(yaml.safe_load(commit.detail["files"][EVAL_RESULTS_PATH]))
    assert entry.dataset_id == ANSWER_KEY
    assert entry.dataset_revision == service.status(submission_id).summary.dataset_revision
    assert len(entry.dataset_revision) == 40


def test_a_flagged_or_unreleased_entry_waits_for_its_pull_request(deployed: LocalHub, tmp_path, files):
    hub = deployed
    service, pull_requests, _ = service_with_hub_eval(tmp_path)
    link = f"https://huggingface.co/{MODEL}"
    flagged = submit(service, files["test-noisy1"], link, share=True)
    unreleased = submit(service, files["test-noisy2"], link, share=True)
    flag = {"kind": "contamination", "reason": "trained on the test images", "link": None, "flagged_at": "2026-11-25"}
    release = {"policy": "ladder", "released": False, "compared_to": flagged, "best": 40.0, "best_ci": [38.0, 42.0],
               "difference_ci": [-1.0, 0.5]}  # fmt: skip
    service.requests.commit(
        {
            f"flags/{flagged}.json": json.dumps(flag).encode(),
            f"private/{unreleased}/release.json": json.dumps(release).encode(),
        },
        message="flag and release decision (written by trust-board's and ladder's code)",
    )
    assert pull_requests.round() == 0 and model_commits(hub) == []
    assert not [p for p in hub.files(REQUESTS) if p.startswith("hub/")]

    service.requests.commit({}, message="unflag", deletes=[f"flags/{flagged}.json"])
    assert pull_requests.round() == 1 and [c.repo for c in model_commits(hub)] == [MODEL]
    assert hub_path(flagged) in hub.files(REQUESTS) and hub_path(unreleased) not in hub.files(REQUESTS)
