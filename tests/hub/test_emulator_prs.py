"""The local Hub answers the pull-request commit, discussions and the dataset leaderboard as the client expects.

Each test drives the installed huggingface_hub (2.4.0) against the emulator, so what the client sends and
parses (``CommitInfo.pr_url`` -> ``refs/pr/N``, ``Discussion``, ``DatasetLeaderboardEntry``) is what is checked.
"""

from __future__ import annotations

import pytest
import yaml
from huggingface_hub import CommitOperationAdd, HfApi
from huggingface_hub.errors import HfHubHTTPError

from tests.hub.conftest import MALLORY_TOKEN
from tests.hub.server import LocalHub

MODEL, BENCH = "acme/model", "org/bench"


def result(value: float, task: str = "main", dataset: str = BENCH) -> bytes:
    return yaml.safe_dump([{"dataset": {"id": dataset, "task_id": task}, "value": value}]).encode()


@pytest.fixture
def repos(hub: LocalHub) -> LocalHub:
    hub.state.seed_files(MODEL, {"README.md": b"# model\n"}, repo_type="model")
    hub.state.seed_files(BENCH, {"eval.yaml": b"name: Bench\ntasks:\n- id: main\n  config: default\n  split: test\n"})
    return hub


def test_a_stranger_opens_a_pull_request_on_a_public_model_repo_and_main_stays(repos: LocalHub):
    hub = repos
    api = HfApi(token=MALLORY_TOKEN)  # no member of acme
    before = hub.history(MODEL, "model")
    info = api.create_commit(MODEL, [CommitOperationAdd(".eval_results/a.yaml", result(1.0))], commit_message="Add a",
                             repo_type="model", create_pr=True)  # fmt: skip
    assert info.pr_url == f"{hub.url}/{MODEL}/discussions/1" and (info.pr_revision, info.pr_num) == ("refs/pr/1", 1)
    assert hub.history(MODEL, "model") == before
    assert ".eval_results/a.yaml" in api.list_repo_files(MODEL, revision="refs/pr/1")
    assert ".eval_results/a.yaml" not in api.list_repo_files(MODEL)
    second = api.create_commit(MODEL, [CommitOperationAdd("b.txt", b"b")], commit_message="Add b", create_pr=True)
    assert second.pr_num == 2 and [c.query for c in hub.calls("commit")] == ["create_pr=1", "create_pr=1"]

    with pytest.raises(HfHubHTTPError) as refused:  # a push to main needs write rights there
        api.create_commit(MODEL, [CommitOperationAdd("c.txt", b"c")], commit_message="push")
    assert refused.value.response.status_code == 403 and hub.history(MODEL, "model") == before

    found = list(api.get_repo_discussions(MODEL, author="mallory", discussion_type="pull_request"))
    assert [(d.num, d.title, d.is_pull_request, d.git_reference) for d in found] == [
        (2, "Add b", True, "refs/pr/2"),
        (1, "Add a", True, "refs/pr/1"),
    ]
    assert found[1].url == info.pr_url and list(api.get_repo_discussions(MODEL, author="boss")) == []


def test_the_dataset_leaderboard_collects_public_model_results_for_its_tasks(repos: LocalHub):
    hub = repos
    hub.state.seed_files("zeta/one", {".eval_results/bench.yaml": result(71.5)}, repo_type="model")
    hub.state.seed_files("zeta/other-task", {".eval_results/bench.yaml": result(99.0, task="nope")}, "model")
    hub.state.seed_files("zeta/other-bench", {".eval_results/x.yaml": result(98.0, dataset="org/else")}, "model")
    hub.state.create("zeta/secret", private=True, repo_type="model")
    hub.state.seed_files("zeta/secret", {".eval_results/bench.yaml": result(97.0)}, "model")
    HfApi(token=MALLORY_TOKEN).create_commit(
        MODEL, [CommitOperationAdd(".eval_results/bench.yaml", result(80.0))], commit_message="Add", create_pr=True
    )

    board = HfApi().get_dataset_leaderboard(BENCH)
    assert [(e.rank, e.model_id, e.value, e.pull_request) for e in board] == [
        (1, MODEL, 80.0, 1),
        (2, "zeta/one", 71.5, None),
    ]
    assert board[1].filename == ".eval_results/bench.yaml" and board[1].author.name == "zeta"
    assert [c.path for c in hub.calls("leaderboard")] == [f"/api/datasets/{BENCH}/leaderboard"]

    hub.state.seed_files("org/plain", {"README.md": b"# data\n"})
    with pytest.raises(HfHubHTTPError) as no_benchmark:
        HfApi().get_dataset_leaderboard("org/plain")
    assert no_benchmark.value.response.status_code == 404


def test_a_users_overview_names_their_organisations_and_a_model_info_its_author(repos: LocalHub):
    hub = repos
    hub.add_user("carol", "hf_carol_token_0123456789", orgs=("acme", "zeta"))
    api = HfApi(token=MALLORY_TOKEN)  # public facts: any signed-in caller may ask
    carol = api.get_user_overview("Carol")  # names compare case aside, as on the Hub
    assert carol.username == "carol" and [o.name for o in carol.orgs] == ["acme", "zeta"]
    assert HfApi(token=MALLORY_TOKEN).get_user_overview("mallory").orgs == []
    assert api.model_info(MODEL).author == "acme"
    assert [c.path for c in hub.calls("user_overview")] == ["/api/users/Carol/overview", "/api/users/mallory/overview"]

    with pytest.raises(HfHubHTTPError) as unknown:
        api.get_user_overview("nobody")
    assert unknown.value.response.status_code == 404
