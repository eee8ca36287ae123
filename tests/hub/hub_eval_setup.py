"""The service with results that travel to the Hub, on a ``LocalHub``: a benchmark dataset, model repos, helpers.

- ``org/navitrace-public`` (the public dataset) is the benchmark: it carries an ``eval.yaml`` with task ``score``;
- ``acme/navigator``: a public model repo of an organisation the Space's account (``boss``) is no member
  of, as for most submitters: it may open a pull request there, never push;
- ``acme/no-community``: the same, with its Community tab (discussions, pull requests) turned off;
- ``alice/navigator``: a model repo of the submitter ``alice`` herself;
- ``famous/vlm``: someone else's model repo (the Space opens no pull request there).

``alice`` (token ``ALICE_TOKEN``), the submitter of every entry here, is a member of ``acme``.
"""

from __future__ import annotations

import dataclasses
import inspect
from pathlib import Path

from leaderboard.publishing.hub_eval_board import HubBoard
from leaderboard.publishing.hub_eval_client import HubEvalClient
from leaderboard.publishing.hub_eval_prs import PullRequests
from leaderboard.records.declarations import Declarations
from leaderboard.records.entries import Request, request_path
from leaderboard.service import Leaderboard
from tests.hub.conftest import BOSS, BOSS_TOKEN
from tests.hub.server import LocalHub
from tests.hub.service_on_hub import PUBLIC, hub_settings

SPACE_URL = "https://org-navitrace.hf.space"
MODEL, CLOSED = "acme/navigator", "acme/no-community"
OWN, FOREIGN = "alice/navigator", "famous/vlm"
ALICE, ALICE_TOKEN = "alice", "hf_alice_token_0123456789"
EVAL_YAML = b"""name: NaviTrace
description: Predict the path a robot should take in an image, for four embodiments.
tasks:
- id: score
  config: default
  split: test
"""
README = b"---\nlicense: apache-2.0\n---\n# A model\n"


def benchmark_on(hub: LocalHub) -> None:
    hub.state.seed_files(PUBLIC, {"eval.yaml": EVAL_YAML})
    hub.state.seed_files(MODEL, {"README.md": README}, repo_type="model")
    hub.state.seed_files(CLOSED, {"README.md": README}, repo_type="model")
    hub.state.seed_files(OWN, {"README.md": README}, repo_type="model")
    hub.state.seed_files(FOREIGN, {"README.md": README}, repo_type="model")
    hub.add_user(ALICE, ALICE_TOKEN, orgs=("acme",))
    hub.state.repo(CLOSED, "model").discussions_disabled = True  # type: ignore[union-attr]


def service_with_hub_eval(tmp_path: Path, clock=None) -> tuple[Leaderboard, PullRequests, HubBoard]:
    extra = {"HUB_BENCHMARK_DATASET": PUBLIC, "HUB_SPACE_URL": SPACE_URL, "TEST_SUBMISSIONS_PER_DAY": "100"}
    settings = dataclasses.replace(hub_settings(tmp_path / "space", tmp_path / "keys", **extra))
    service = Leaderboard(settings)
    client = HubEvalClient(BOSS_TOKEN)
    kwargs = {"clock": clock} if clock else {}
    pull_requests = PullRequests(settings, service.registry, service.publisher, client, **kwargs)
    board = HubBoard(settings, service.registry.store, service.publisher, client, **kwargs)
    return service, pull_requests, board


def submit(
    service: Leaderboard,
    path: Path,
    link: str | None,
    share: bool | None,
    split: str = "test",
    approve: bool = True,
    **texts: str,
) -> str:
    """A scored public submission of ``path`` (approved unless ``approve=False``), with ``share_on_hub`` declared
    as ``share`` (``None``: no declarations at all); ``texts``: metadata the submitter writes (``model``, …)."""
    metadata = {"model": f"Model {path.stem}", "model_link": link, "contact_email": "alice@example.org", **texts}
    receipt = service.submit(
        path, split=split, user=ALICE, metadata=metadata, publish=True, **declared(service, bool(share))
    )
    submission_id = receipt.submission_id
    declare(service, submission_id, None if share is None else Declarations(share_on_hub=share))
    service.worker.drain()
    if approve:
        service.approve(submission_id, by=BOSS)
    return submission_id


def declared(service: Leaderboard, share: bool) -> dict[str, object]:
    """``declarations=`` for ``submit`` once it takes them (and requires them for a public test entry), else nothing."""
    if "declarations" not in inspect.signature(service.submit).parameters:
        return {}
    return {"declarations": Declarations(share_on_hub=share)}


def declare(service: Leaderboard, submission_id: str, declarations: Declarations | None) -> None:
    """Store ``declarations`` with the request as the submit form does (``None``: a request from before they were
    asked), whether or not ``submit`` takes them yet."""
    request = dataclasses.replace(service.registry.request(submission_id), declarations=declarations)
    service.requests.commit({request_path(submission_id): request.to_bytes()}, message=f"declare {submission_id}")
    service.registry._requests.pop(submission_id, None)  # requests are cached as never changing: read it again
    assert service.registry.request(submission_id) == Request.from_bytes(request.to_bytes())
