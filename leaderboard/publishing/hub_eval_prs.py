"""The scheduler's job that opens the eval-results pull requests (``leaderboard/publishing/hub_eval.py`` says which).

``PullRequests.round()`` runs off the request path, every ``HUB_PR_INTERVAL_S``: it finds the approved,
public, opted-in test entries without a ``hub/{id}.json``, opens at most ``MAX_PER_ROUND`` pull requests,
and records every outcome in one commit of the requests store, then republishes the table (its
``hub_pr_url`` column). Idempotent: a recorded entry is never looked at again, and a pull request whose
record was lost (a crash, a refused commit) is found on the Hub by its title instead of being opened twice.

- Refused for good (no such repository, no right to open a pull request, no overall score, or a repo
  the submitter does not control as the Hub says: neither theirs nor their organisation's): recorded
  with the reason, and logged, never retried by itself. The submitter may still open it under their own
  account (``Ownership.open_pull_request``): the Space never speaks on a repo nobody here controls.
- Held back, and looked at again each round: a flagged entry (``flags/{id}.json``) and one whose figure
  the ladder policy did not release (``private/{id}/release.json``).
- The Hub unavailable (429, 5xx, no connection): nothing recorded, a log line, and the entry waits
  before its next try, twice as long after each failure (``RETRY_FIRST_S`` up to ``RETRY_MAX_S``), so a
  repository that keeps failing does not cost a request every round.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Protocol

from leaderboard.config import Settings
from leaderboard.publishing.hub_eval import (
    EvalResult,
    HubRecord,
    HubUnavailable,
    Publishes,
    Refused,
    due,
    eval_result,
    held_back,
    hub_path,
    recorded,
)
from leaderboard.records import iso
from leaderboard.storage import Registry, read_summary

log = logging.getLogger(__name__)

MAX_PER_ROUND = 10  # pull requests opened per round: bounds the round's Hub calls and its length
RETRY_FIRST_S = 300.0
RETRY_MAX_S = 6 * 3600.0


class OpensPullRequests(Protocol):
    def not_controlled_by(self, repo_id: str, user: str) -> str | None: ...

    def open_pull_request(self, result: EvalResult) -> str: ...


class PullRequests:
    def __init__(
        self,
        settings: Settings,
        registry: Registry,
        publisher: Publishes,
        client: OpensPullRequests,
        clock: Callable[[], float] = time.time,
    ) -> None:
        assert settings.hub_benchmark_dataset and settings.hub_space_url, "HUB_BENCHMARK_DATASET is not set"
        self.settings, self.registry, self.publisher, self.client, self.clock = (
            settings,
            registry,
            publisher,
            client,
            clock,
        )
        self._retry: dict[str, tuple[int, float]] = {}  # submission id -> (failures so far, not before)

    def round(self) -> int:
        """Open the pull requests due now; returns how many outcomes were recorded."""
        store = self.registry.store
        outcomes: dict[str, HubRecord] = {}
        for entry, repo_id in due(self.registry.entries(), recorded(store)):
            submission_id = entry.submission_id
            if len(outcomes) >= MAX_PER_ROUND:
                break
            if self._retry.get(submission_id, (0, 0.0))[1] > self.clock() or held_back(store, submission_id):
                continue  # waiting after a failure; flagged or unreleased: not recorded, looked at again later
            summary = read_summary(store, submission_id)
            now = iso(self.clock())
            if summary is None or summary.score is None:
                outcomes[submission_id] = HubRecord(repo_id, refused="no overall score to publish", refused_at=now)
                continue
            s = self.settings
            result = eval_result(entry, repo_id, summary, str(s.hub_benchmark_dataset), s.hub_task_id,
                                 str(s.hub_space_url), s.answer_key_dataset)  # fmt: skip
            try:
                foreign = self.client.not_controlled_by(repo_id, entry.user)
                if foreign is not None:
                    raise Refused(f"{foreign}: the Space opens pull requests only on the submitter's own repos")
                url = self.client.open_pull_request(result)
            except Refused as refusal:
                log.warning("entry %s: no pull request on %s: %s", submission_id, repo_id, refusal)
                outcomes[submission_id] = HubRecord(repo_id, refused=str(refusal), refused_at=now)
            except HubUnavailable as problem:
                self._later(submission_id, repo_id, problem)
            else:
                log.info("entry %s: opened %s", submission_id, url)
                outcomes[submission_id] = HubRecord(repo_id, pr_url=url, opened_at=now)
                self._retry.pop(submission_id, None)
        if outcomes:  # a submitter who opened theirs meanwhile (Ownership.open_pull_request) keeps their record
            opened = {i for i, r in recorded(store).items() if r.pr_url}
            outcomes = {i: r for i, r in outcomes.items() if i not in opened}
        if outcomes:
            puts = {hub_path(i): r.to_bytes() for i, r in outcomes.items()}
            self.registry.store.commit(puts, message=f"hub: {len(outcomes)} eval-results pull request(s)")
            self.publisher.sync()
        return len(outcomes)

    def _later(self, submission_id: str, repo_id: str, problem: Exception) -> None:
        failures = self._retry.get(submission_id, (0, 0.0))[0] + 1
        wait = min(RETRY_MAX_S, RETRY_FIRST_S * 2 ** (failures - 1))
        self._retry[submission_id] = (failures, self.clock() + wait)
        log.warning("entry %s: pull request on %s not opened (%s); tried again in %.0f s", submission_id, repo_id,
                    problem, wait)  # fmt: skip
