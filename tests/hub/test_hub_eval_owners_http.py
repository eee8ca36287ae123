"""Pull requests only where they belong, over HTTP with the real client.

The Space's account opens a pull request only on a repo the Hub says its submitter owns, or whose
organisation they belong to; elsewhere it records and logs why not, and the submitter may open it with
their own token (OAuth, ``write-discussions``). Either way the text is the Space's: no submitter text,
no mention, no link but the entry page.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest

from leaderboard.publishing.hub_eval import HubRecord, approval_note, hub_path
from leaderboard.records.errors import InvalidAction, NotAuthorised
from tests.hub.conftest import MALLORY, MALLORY_TOKEN
from tests.hub.hub_eval_setup import (
    ALICE,
    ALICE_TOKEN,
    FOREIGN,
    MODEL,
    OWN,
    SPACE_URL,
    benchmark_on,
    service_with_hub_eval,
    submit,
)
from tests.hub.server import LocalHub
from tests.hub.service_on_hub import REQUESTS, seed_datasets

# What the submitter writes: none of it may reach the pull request.
HOSTILE = {"model": "Zorblax @famous @huggingface [win](https://evil.example)", "description": "cc @huggingface"}


@pytest.fixture
def deployed(hub: LocalHub, demo_dataset: Path, demo_public: Path) -> LocalHub:
    seed_datasets(hub, demo_dataset, demo_public)
    benchmark_on(hub)
    return hub


def model_commits(hub: LocalHub, repo: str) -> list:
    return [c for c in hub.calls("commit") if c.repo == repo]


def pull_text(hub: LocalHub, repo: str) -> str:
    (pull,) = hub.state.repo(repo, "model").pull_requests  # type: ignore[union-attr]
    return f"{pull.title}\n{pull.commits[-1].description}"


def assert_only_our_words(text: str, submission_id: str) -> None:
    assert "@" not in text and "famous" not in text and "evil" not in text and "Zorblax" not in text
    assert re.findall(r"https?://[^\s)]+", text) == [f"{SPACE_URL}/?entry={submission_id}"]
    assert submission_id in text


def test_someone_elses_repo_gets_no_pull_request_and_the_reason_is_recorded(deployed: LocalHub, tmp_path, files,
                                                                             caplog):  # fmt: skip
    hub = deployed
    service, pull_requests, _ = service_with_hub_eval(tmp_path)
    foreign = submit(service, files["test-noisy"], f"https://huggingface.co/{FOREIGN}", share=True, **HOSTILE)
    with caplog.at_level(logging.WARNING, logger="leaderboard.publishing.hub_eval_prs"):
        assert pull_requests.round() == 1

    # The Hub was asked who owns the repo and what alice belongs to; nothing was sent to the repo itself.
    assert [c.kind for c in hub.calls() if c.repo == FOREIGN] == ["repo_info"]
    assert [(c.path, c.user) for c in hub.calls("user_overview")] == [(f"/api/users/{ALICE}/overview", "boss")]
    assert model_commits(hub, FOREIGN) == [] and hub.state.repo(FOREIGN, "model").pull_requests == []  # type: ignore[union-attr]
    record = HubRecord.from_bytes(hub.files(REQUESTS)[hub_path(foreign)])
    reason = "alice is neither famous nor a member of famous on the Hub"
    assert record.pr_url is None and record.repo_id == FOREIGN and reason in str(record.refused) and record.refused_at
    assert any(reason in r.getMessage() and foreign in r.getMessage() for r in caplog.records)
    assert next(r for r in service.public_table() if r["submission_id"] == foreign)["hub_pr_url"] is None

    calls = len(hub.calls())
    assert pull_requests.round() == 0 and len(hub.calls()) == calls  # refused once, never asked again


def test_the_owners_repo_and_an_organisation_members_repo_get_a_pull_request_in_our_words(
    deployed: LocalHub, tmp_path, files
):
    hub = deployed
    service, pull_requests, _ = service_with_hub_eval(tmp_path)
    own = submit(service, files["test-noisy1"], f"https://huggingface.co/{OWN}", share=True, **HOSTILE)
    member = submit(service, files["test-noisy2"], f"https://huggingface.co/{MODEL}", share=True, **HOSTILE)
    assert pull_requests.round() == 2
    for submission_id, repo in ((own, OWN), (member, MODEL)):
        (commit,) = model_commits(hub, repo)
        assert commit.status == 200 and commit.user == "boss" and "create_pr=1" in commit.query
        record = HubRecord.from_bytes(hub.files(REQUESTS)[hub_path(submission_id)])
        assert record.pr_url == f"{hub.url}/{repo}/discussions/1" and record.opened_by is None
        assert_only_our_words(pull_text(hub, repo), submission_id)
        assert "owns this repository or belongs to the organisation" in pull_text(hub, repo)
    # alice is the owner of her own repo: the Hub's repo info says so, her organisations are asked only for acme's
    assert [c.path for c in hub.calls("user_overview")] == [f"/api/users/{ALICE}/overview"]


def test_the_submitter_opens_it_with_their_own_token_where_the_space_will_not(deployed: LocalHub, tmp_path, files):
    hub = deployed
    service, pull_requests, _ = service_with_hub_eval(tmp_path)
    foreign = submit(service, files["test-noisy"], f"https://huggingface.co/{FOREIGN}", share=False, **HOSTILE)
    assert pull_requests.round() == 0  # not opted in: the Space does nothing; the button is the submitter's ask

    with pytest.raises(NotAuthorised):
        service.ownership.open_pull_request(foreign, MALLORY, MALLORY_TOKEN)
    with pytest.raises(InvalidAction, match="401"):  # a token the Hub does not know (an expired session)
        service.ownership.open_pull_request(foreign, ALICE, "hf_not_a_token")
    assert model_commits(hub, FOREIGN) == []

    url = service.ownership.open_pull_request(foreign, ALICE, ALICE_TOKEN)
    assert url == f"{hub.url}/{FOREIGN}/discussions/1"
    (commit,) = model_commits(hub, FOREIGN)
    assert (commit.user, commit.token_sent, commit.status) == (ALICE, True, 200)  # sent with alice's token
    assert "create_pr=1" in commit.query
    assert {(c.kind, c.user) for c in hub.calls() if c.repo == FOREIGN} == {
        ("discussions", ALICE), ("preupload", ALICE), ("commit", ALICE)}  # fmt: skip
    (pull,) = hub.state.repo(FOREIGN, "model").pull_requests  # type: ignore[union-attr]
    assert pull.author == ALICE
    assert_only_our_words(pull_text(hub, FOREIGN), foreign)
    assert "opened it from the leaderboard's page, under their own account" in pull_text(hub, FOREIGN)

    record = HubRecord.from_bytes(hub.files(REQUESTS)[hub_path(foreign)])
    assert (record.pr_url, record.opened_by, record.repo_id) == (url, ALICE, FOREIGN)
    assert next(r for r in service.public_table() if r["submission_id"] == foreign)["hub_pr_url"] == url

    commits = len(hub.calls("commit"))
    assert service.ownership.open_pull_request(foreign, ALICE, ALICE_TOKEN) == url  # a second click: the same one
    assert pull_requests.round() == 0 and len(hub.calls("commit")) == commits


def test_the_desk_says_at_approval_whether_and_where_a_pull_request_follows(deployed: LocalHub, tmp_path, files):
    service, _, _ = service_with_hub_eval(tmp_path)
    link = f"https://huggingface.co/{FOREIGN}"
    shared = service.registry.entry(submit(service, files["test-noisy1"], link, share=True, approve=False))
    kept = service.registry.entry(submit(service, files["test-noisy2"], link, share=False, approve=False))
    elsewhere = service.registry.entry(submit(service, files["test-noisy3"], "https://github.com/a/b", share=True))
    note = approval_note(shared, sharing_on=True)
    assert note.startswith("Approving has the Space open a pull request on the Hub model repo famous/vlm")
    assert "if the Hub says alice is famous or a member of the organisation famous" in note
    assert approval_note(kept, True) == "Approving opens no pull request on the Hub: the submitter did not ask for one."
    assert approval_note(elsewhere, True).endswith("its model link is not a Hub model repo.")
    assert "sharing results on the Hub is off here" in approval_note(shared, sharing_on=False)
