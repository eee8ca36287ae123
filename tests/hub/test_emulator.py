"""The local Hub answers the real clients as the Hub does: checked through the clients and the recorded requests.

Each test drives ``huggingface_hub`` or ``datasets``, unmodified, over loopback, then reads what
went over the wire (``hub.calls``) and what the Hub holds (``hub.files``, ``hub.history``).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import datasets
import httpx2
import pytest
from huggingface_hub import CommitOperationAdd, CommitOperationDelete, HfApi, RepoFile
from huggingface_hub.errors import HfHubHTTPError, RemoteEntryNotFoundError, RepositoryNotFoundError

from tests.hub.clients import point_clients_at
from tests.hub.conftest import BOSS_TOKEN, MALLORY_TOKEN
from tests.hub.hub_faults import Http, Lost, Race, Reset, Slow
from tests.hub.hub_state import git_blob_sha1
from tests.hub.server import LocalHub

REPO = "org/requests"


def boss() -> HfApi:
    return HfApi(token=BOSS_TOKEN)


def stranger() -> HfApi:
    return HfApi(token=False)  # sends no token at all


def add(path: str, data: bytes) -> CommitOperationAdd:
    return CommitOperationAdd(path_in_repo=path, path_or_fileobj=data)


# -- repositories and who may see them ------------------------------------------------------------


def test_the_client_asks_for_a_private_repo_with_visibility_and_gets_one(hub: LocalHub):
    boss().create_repo(REPO, repo_type="dataset", private=True)
    boss().create_repo(REPO, repo_type="dataset", private=True, exist_ok=True)  # a 409, taken as "exists"
    payloads = [c.detail["payload"] for c in hub.calls("create_repo")]
    assert payloads[0] == {"name": "requests", "organization": "org", "visibility": "private", "type": "dataset"}
    assert [c.status for c in hub.calls("create_repo")] == [200, 409]
    assert hub.state.repo(REPO).private and hub.messages(REPO) == ["initial commit"]
    boss().create_repo("org/results", repo_type="dataset", private=False)
    assert hub.calls("create_repo")[-1].detail["payload"]["visibility"] == "public"


def test_a_private_repo_is_refused_as_the_hub_refuses_it(hub: LocalHub):
    boss().create_repo(REPO, repo_type="dataset", private=True)
    with pytest.raises(RepositoryNotFoundError) as anonymous:  # no token: 401, as for a missing repo
        stranger().repo_info(REPO, repo_type="dataset")
    assert anonymous.value.response.status_code == 401
    with pytest.raises(RepositoryNotFoundError) as outsider:  # a valid token without access: 404
        HfApi(token=MALLORY_TOKEN).repo_info(REPO, repo_type="dataset")
    assert outsider.value.response.status_code == 404
    with pytest.raises(HfHubHTTPError) as invalid:  # an unknown token: 401 on any route, even a public repo's
        HfApi(token="hf_not_a_token").repo_info(REPO, repo_type="dataset")
    assert invalid.value.response.status_code == 401 and not isinstance(invalid.value, RepositoryNotFoundError)
    with pytest.raises(RepositoryNotFoundError):
        stranger().hf_hub_download(REPO, ".gitattributes", repo_type="dataset")
    boss().create_repo("org/results", repo_type="dataset", private=False)
    with pytest.raises(HfHubHTTPError) as write:  # a signed-in outsider may not commit to a public repo
        HfApi(token=MALLORY_TOKEN).create_commit(
            "org/results", [add("x", b"1")], commit_message="m", repo_type="dataset"
        )
    assert write.value.response.status_code == 403
    assert [(c.user, c.status) for c in hub.calls("repo_info")] == [(None, 401), ("mallory", 404), (None, 401)]


def test_whoami_names_the_tokens_user_and_refuses_a_bad_token(hub: LocalHub):
    me = boss().whoami()
    assert me["name"] == "boss" and [o["name"] for o in me["orgs"]] == ["org"]
    with pytest.raises(HfHubHTTPError, match="Invalid user token"):
        HfApi(token="hf_wrong").whoami()


# -- commits ---------------------------------------------------------------------------------------


def test_a_commit_on_a_stale_parent_is_a_412_and_lands_on_the_new_head(hub: LocalHub):
    api = boss()
    api.create_repo(REPO, repo_type="dataset", private=True)
    stale = api.repo_info(REPO, repo_type="dataset").sha
    hub.state.external_commit(REPO, {"other.txt": b"o"})
    with pytest.raises(HfHubHTTPError) as refused:
        api.create_commit(
            REPO, [add("mine.txt", b"m")], commit_message="mine", repo_type="dataset", parent_commit=stale
        )
    assert refused.value.response.status_code == 412 and "branch was updated" in str(refused.value)
    head = api.repo_info(REPO, repo_type="dataset").sha
    info = api.create_commit(REPO, [add("mine.txt", b"m")], commit_message="mine", repo_type="dataset",
                             parent_commit=head)  # fmt: skip
    commits = hub.calls("commit")
    assert [c.detail["parent"] for c in commits] == [stale, head] and [c.status for c in commits] == [412, 200]
    assert hub.history(REPO)[-1].parent == head and info.oid == hub.history(REPO)[-1].sha


def test_deleting_a_missing_file_is_a_404_and_nothing_changes(hub: LocalHub):
    api = boss()
    api.create_repo(REPO, repo_type="dataset", private=True)
    with pytest.raises(RemoteEntryNotFoundError):
        api.create_commit(REPO, [CommitOperationDelete("missing.txt")], commit_message="m", repo_type="dataset")
    assert hub.messages(REPO) == ["initial commit"]


def test_small_text_is_committed_inline_and_a_file_over_10_mb_goes_through_lfs(hub: LocalHub, tmp_path: Path):
    api = boss()
    api.create_repo(REPO, repo_type="dataset", private=True)
    big = bytes(range(256)) * (41 * 1024 + 1)  # 10.25 MiB
    api.create_commit(REPO, [add("requests/a.json", b"{}\n"), add("uploads/big.tsv", big)], commit_message="both",
                      repo_type="dataset")  # fmt: skip
    assert hub.calls("preupload")[0].detail["modes"] == {"requests/a.json": "regular", "uploads/big.tsv": "lfs"}
    assert [c.kind for c in hub.calls() if c.kind.startswith("lfs")] == ["lfs_batch", "lfs_upload", "lfs_verify"]
    assert not hub.calls("lfs_upload")[0].token_sent  # a signed URL: the client does not send its token there
    assert hub.calls("commit")[0].detail["operations"] == [("file", "requests/a.json"), ("lfsFile", "uploads/big.tsv")]
    small, large = api.get_paths_info(REPO, ["requests/a.json", "uploads/big.tsv"], repo_type="dataset")
    assert small.blob_id == git_blob_sha1(b"{}\n") and small.lfs is None
    assert large.lfs is not None and large.lfs.sha256 == hashlib.sha256(big).hexdigest()
    local = api.hf_hub_download(REPO, "uploads/big.tsv", repo_type="dataset", cache_dir=tmp_path)
    assert Path(local).read_bytes() == big
    head, cdn = hub.calls("resolve")[-1], hub.calls("cdn")[-1]
    assert head.status == 302 and cdn.status == 200 and not cdn.token_sent  # a redirect to the "CDN", tokenless


def test_downloads_are_pinned_to_a_revision_with_the_hubs_headers(hub: LocalHub, tmp_path: Path):
    api = boss()
    api.create_repo(REPO, repo_type="dataset", private=True)
    first = api.create_commit(REPO, [add("a.txt", b"one")], commit_message="1", repo_type="dataset").oid
    api.create_commit(REPO, [add("a.txt", b"two")], commit_message="2", repo_type="dataset")
    old = api.hf_hub_download(REPO, "a.txt", repo_type="dataset", revision=first, cache_dir=tmp_path)
    assert Path(old).read_bytes() == b"one" and Path(old).parent.name == first
    response = httpx2.head(
        f"{hub.url}/datasets/{REPO}/resolve/main/a.txt", headers={"authorization": f"Bearer {BOSS_TOKEN}"}
    )
    assert response.headers["X-Repo-Commit"] == hub.history(REPO)[-1].sha
    assert response.headers["ETag"] == f'"{git_blob_sha1(b"two")}"' and response.headers["Content-Length"] == "3"
    with pytest.raises(RemoteEntryNotFoundError):
        api.hf_hub_download(REPO, "missing.txt", repo_type="dataset", cache_dir=tmp_path)


def test_tree_listings_are_paginated_like_the_hubs(hub: LocalHub):
    api = boss()
    api.create_repo(REPO, repo_type="dataset", private=True)
    api.create_commit(REPO, [add(f"jobs/{n:02d}.json", b"%d" % n) for n in range(10)] + [add("top.txt", b"t")],
                      commit_message="many", repo_type="dataset")  # fmt: skip
    hub.app.page_size = 3
    everything = list(api.list_repo_tree(REPO, recursive=True, repo_type="dataset"))
    assert [e.path for e in everything if isinstance(e, RepoFile)] == [
        ".gitattributes", *[f"jobs/{n:02d}.json" for n in range(10)], "top.txt"
    ]  # fmt: skip
    pages = hub.calls("tree")
    assert len(pages) == 5 and ["cursor=" in c.query for c in pages] == [False] + [True] * 4
    assert [e.path for e in api.list_repo_tree(REPO, repo_type="dataset")] == ["jobs", ".gitattributes", "top.txt"]
    with pytest.raises(RemoteEntryNotFoundError):
        list(api.list_repo_tree(REPO, path_in_repo="nothing", repo_type="dataset"))


def test_an_unknown_route_is_a_recorded_404(hub: LocalHub):
    response = httpx2.get(f"{hub.url}/api/spaces/org/space")  # Spaces are not served
    assert response.status_code == 404 and [c.kind for c in hub.calls()] == ["unknown"]


# -- datasets.load_dataset ---------------------------------------------------------------------------


def test_load_dataset_reads_a_public_parquet_dataset_as_a_stranger_and_a_private_one_with_a_token(
    hub: LocalHub, demo_dataset: Path, demo_public: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    hub.state.seed_folder("org/navitrace", demo_dataset, private=True)
    hub.state.seed_folder("org/navitrace-public", demo_public, private=False)
    public = datasets.load_dataset("org/navitrace-public", split="validation", cache_dir=str(tmp_path / "a"))
    private = datasets.load_dataset("org/navitrace", split="test", token=BOSS_TOKEN, cache_dir=str(tmp_path / "b"))
    assert len(public) == len(private) > 0 and private[0]["ground_truth"] is not None
    assert {c.user for c in hub.calls(repo="org/navitrace-public")} == {None}
    assert hub.calls("cdn") and not any(c.token_sent for c in hub.calls("cdn"))  # parquet is LFS: fetched as from a CDN
    point_clients_at(hub, monkeypatch, tmp_path / "stranger")  # another machine: empty caches, no token
    with pytest.raises(datasets.exceptions.DatasetNotFoundError):
        datasets.load_dataset("org/navitrace", split="test")
    assert hub.calls(repo="org/navitrace")[-1].status == 401


# -- fault hooks -----------------------------------------------------------------------------------


def test_faults_are_served_per_kind_and_recorded(hub: LocalHub, client_sleeps: list[float]):
    api = boss()
    api.create_repo(REPO, repo_type="dataset", private=True)
    hub.faults.add("repo_info", Http(503), Http(429, retry_after=7))
    with pytest.raises(HfHubHTTPError) as failed:
        api.repo_info(REPO, repo_type="dataset")
    assert failed.value.response.status_code == 503
    with pytest.raises(HfHubHTTPError) as throttled:
        api.repo_info(REPO, repo_type="dataset")
    assert throttled.value.response.headers["Retry-After"] == "7"
    hub.faults.add("tree", Http(429, retry_after=7))  # the client's own backoff honours Retry-After (+1 s)
    assert [e.path for e in api.list_repo_tree(REPO, repo_type="dataset")] == [".gitattributes"]
    assert client_sleeps == [8.0]
    hub.faults.add("paths_info", Reset())
    with pytest.raises(httpx2.TransportError):
        api.get_paths_info(REPO, [".gitattributes"], repo_type="dataset")
    assert [c.fault for c in hub.calls() if c.fault] == ["Http(status=503, retry_after=None)",
        "Http(status=429, retry_after=7)", "Http(status=429, retry_after=7)", "Reset()"]  # fmt: skip


def test_a_lost_answer_a_slow_answer_and_a_race_still_change_the_hub(hub: LocalHub):
    from leaderboard.storage.hub_calls import bound_client_timeouts

    api = boss()
    api.create_repo(REPO, repo_type="dataset", private=True)
    hub.faults.add("commit", Lost(502), Lost(None), Slow(1.5), Race())
    with pytest.raises(HfHubHTTPError):  # applied, then a 502
        api.create_commit(REPO, [add("a", b"1")], commit_message="lost 502", repo_type="dataset")
    with pytest.raises(httpx2.TransportError):  # applied, then the connection reset
        api.create_commit(REPO, [add("b", b"2")], commit_message="lost reset", repo_type="dataset")
    bound_client_timeouts(0.5)
    try:
        with pytest.raises(httpx2.ReadTimeout):  # applied, answered after the client gave up
            api.create_commit(REPO, [add("c", b"3")], commit_message="slow", repo_type="dataset")
    finally:
        bound_client_timeouts(60.0)
    head = api.repo_info(REPO, repo_type="dataset").sha
    with pytest.raises(HfHubHTTPError) as raced:
        api.create_commit(REPO, [add("d", b"4")], commit_message="raced", repo_type="dataset", parent_commit=head)
    assert raced.value.response.status_code == 412
    assert hub.messages(REPO) == ["initial commit", "lost 502", "lost reset", "slow", "other writer"]


def test_the_commit_quota_answers_429_like_the_hub_until_the_window_passes(hub: LocalHub):
    api = boss()
    api.create_repo(REPO, repo_type="dataset", private=True)
    hub.set_quota(commits=2, window_s=1.0)  # "128 per hour", scaled: 2 per second
    for n in range(2):
        api.create_commit(REPO, [add(f"{n}", b"x")], commit_message=f"c{n}", repo_type="dataset")
    with pytest.raises(HfHubHTTPError) as throttled:
        api.create_commit(REPO, [add("2", b"x")], commit_message="c2", repo_type="dataset")
    assert throttled.value.response.status_code == 429 and throttled.value.response.headers["Retry-After"] == "1"
    assert "You have exceeded the rate limit for repository commits (2 per hour)" in str(throttled.value)
    hub.state.clock = lambda: 10**9  # the window has passed
    api.create_commit(REPO, [add("2", b"x")], commit_message="c2", repo_type="dataset")
    assert hub.messages(REPO)[-1] == "c2"
