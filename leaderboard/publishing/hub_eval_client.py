"""The Hub calls of results that travel to the Hub: a pull request on a model repo, the benchmark's leaderboard.

With ``leaderboard/storage/hub*.py``, the only modules of ``leaderboard`` that import ``huggingface_hub``
(imported only when ``HUB_BENCHMARK_DATASET`` is set). What goes over the wire (huggingface_hub 2.4):

- ``open_pull_request``: ``create_commit(repo_id, [CommitOperationAdd(".eval_results/navitrace.yaml")],
  repo_type="model", create_pr=True)``: a preupload and a commit to ``main`` with ``?create_pr=1``, which
  the Hub turns into ``refs/pr/N``; never a commit to ``main`` itself. Before it,
  ``get_repo_discussions(repo_id, author=<us>, discussion_type="pull_request")`` finds a pull request we
  opened for the same entry whose answer was lost (its title names the entry), so a retry opens no second one.
- ``not_controlled_by``: ``model_info(repo_id).author`` (``GET /api/models/{id}``), then, unless the
  submitter is that author, ``get_user_overview(user).orgs`` (``GET /api/users/{user}/overview``): the
  Space opens a pull request only on a repo its submitter owns or whose organisation they belong to.
- ``leaderboard``: ``get_dataset_leaderboard(dataset_id)`` (``GET /api/datasets/{id}/leaderboard``).

Built with the submitter's own token (OAuth, scope ``write-discussions``), the same client opens the
pull request under their account (``Ownership.open_pull_request``).

Failures are sorted: ``Refused`` (the Hub will not take it: no such repository, no right to open a pull
request there, a request it rejects) is final; anything else (a 429, a 5xx, no connection) is worth
another try later and raises ``HubUnavailable``.
"""

from __future__ import annotations

import logging
from typing import Any

import yaml
from huggingface_hub import CommitOperationAdd, EvalResultEntry, HfApi, eval_result_entries_to_yaml
from huggingface_hub.errors import HfHubHTTPError, RepositoryNotFoundError

from leaderboard.publishing.hub_eval import (
    EVAL_RESULTS_PATH,
    SOURCE_NAME,
    EvalResult,
    HubUnavailable,
    Refused,
    controls,
)
from leaderboard.storage.hub_calls import bound_client_timeouts

log = logging.getLogger(__name__)

MAX_DISCUSSIONS = 500  # of ours on one repo, looked through for a lost pull request (a page is 50)


def eval_result_yaml(result: EvalResult) -> bytes:
    """``.eval_results/navitrace.yaml``: one ``EvalResultEntry``, serialised by the client's own helper."""
    entry = EvalResultEntry(
        dataset_id=result.dataset_id,
        task_id=result.task_id,
        value=result.value,
        dataset_revision=result.dataset_revision,
        date=result.date,
        source_url=result.source_url,
        source_name=SOURCE_NAME,
        notes=result.notes,
    )
    return yaml.safe_dump(eval_result_entries_to_yaml([entry]), sort_keys=False, allow_unicode=True).encode()


class HubEvalClient:
    def __init__(self, token: str | None, timeout_s: float = 60.0) -> None:
        # Every request gets a time limit (the client's shared one has none): a Hub that never answers must
        # not hold the scheduler's job, which never runs twice at once, forever. Hub storage installs the same.
        bound_client_timeouts(timeout_s)
        self.api = HfApi(token=token)
        self.timeout_s = timeout_s
        self._me: str | None = None

    def open_pull_request(self, result: EvalResult) -> str:
        """The URL of the pull request adding ``result`` to its model repo (an earlier one of ours, if found)."""
        try:
            earlier = self._earlier_pull_request(result)
            if earlier is not None:
                log.info("%s: the pull request of entry %s was opened before: %s", result.repo_id, result.submission_id,
                         earlier)  # fmt: skip
                return earlier
            info = self.api.create_commit(
                result.repo_id,
                [CommitOperationAdd(EVAL_RESULTS_PATH, eval_result_yaml(result))],
                commit_message=result.title,
                commit_description=result.description,
                repo_type="model",
                create_pr=True,
            )
        except Exception as error:
            sorted_error = _sorted(error, result.repo_id)
            if sorted_error is None:
                raise
            raise sorted_error from error
        if not info.pr_url:  # the client skipped the commit: the same file is on main already
            raise Refused(f"{EVAL_RESULTS_PATH} on main already holds this result")
        return info.pr_url

    def not_controlled_by(self, repo_id: str, user: str) -> str | None:
        """Why ``user`` does not control ``repo_id`` as the Hub says (owner, or member of the owning organisation),
        or ``None`` when they do. Only public facts are asked, so a hidden membership reads as none."""
        try:
            author = self.api.model_info(repo_id, timeout=self.timeout_s).author or repo_id.split("/")[0]
            if controls(user, author, ()) is None:
                return None
            orgs = [org.name for org in self.api.get_user_overview(user).orgs]
        except Exception as error:
            sorted_error = _sorted(error, repo_id)
            if sorted_error is None:
                raise
            raise sorted_error from error
        return controls(user, author, orgs)

    def leaderboard(self, dataset_id: str) -> list[dict[str, Any]]:
        """The Hub's leaderboard of ``dataset_id``, as plain dicts (``DatasetLeaderboardEntry``'s fields)."""
        try:
            entries = self.api.get_dataset_leaderboard(dataset_id, timeout=self.timeout_s)
        except Exception as error:
            sorted_error = _sorted(error, dataset_id)
            if sorted_error is None:
                raise
            raise sorted_error from error
        return [
            {
                "rank": e.rank,
                "model_id": e.model_id,
                "value": e.value,
                "filename": e.filename,
                "verified": e.verified,
                "source": e.source,
                "pull_request": e.pull_request,
                "notes": e.notes,
            }
            for e in entries
        ]

    def _earlier_pull_request(self, result: EvalResult) -> str | None:
        if self._me is None:
            self._me = str(self.api.whoami()["name"])
        discussions = self.api.get_repo_discussions(
            result.repo_id, author=self._me, discussion_type="pull_request", repo_type="model"
        )
        for number, discussion in enumerate(discussions):
            if number >= MAX_DISCUSSIONS:
                break
            if discussion.title == result.title:
                return discussion.url
        return None


def _sorted(error: Exception, repo_id: str) -> Refused | HubUnavailable | None:
    """The client's error as ``Refused`` (final) or ``HubUnavailable`` (try again later); ``None``: not the Hub's."""
    if isinstance(error, RepositoryNotFoundError):
        return Refused(f"{repo_id} does not exist on the Hub, or is private")
    if isinstance(error, HfHubHTTPError):
        status = error.response.status_code if error.response is not None else None
        message = (error.server_message or str(error)).strip().splitlines()[0][:200]
        if status is not None and 400 <= status < 500 and status not in (408, 429):
            return Refused(f"the Hub refused ({status}): {message}")
        return HubUnavailable(f"the Hub answered {status}: {message}")
    # "httpx" matches the client's httpx2 too: a connection refused, reset or timed out
    if isinstance(error, OSError | TimeoutError) or type(error).__module__.startswith(("httpx", "httpcore")):
        return HubUnavailable(f"the Hub did not answer: {type(error).__name__}: {error}")
    return None
