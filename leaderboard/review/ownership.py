"""What a submitter may do with their own submissions after intake, each checked here for the owner.

- ``choose_public``: one of my finished test entries becomes my public one; every other of my
  entries that was asking to be on the board leaves it. An entry a maintainer has not approved yet
  waits for approval (the others have left already: the choice is the submitter's). An entry whose
  figure the ladder release policy withheld (``release``) is refused: it can never be public;
- ``withdraw``: my entry leaves the board. The submission, its scores and the audit log keep it;
  maintainers see it as "withdrawn by the submitter". Choosing it again later brings it back
  without a new review (a maintainer approved this very file and metadata);
- ``cancel``: a submission still waiting (PENDING, never started) is never scored. It is written to
  its job file as a compare-and-swap on the state read (as the workers' claims are, ``claims.py``), so
  a worker that took the job a moment earlier wins and the cancel is refused. A cancelled test
  submission gives its quota back: nothing was scored, so nothing about the hidden answers was
  learnt, and it leaves the queue at once (the per-user queue limit counts only PENDING and RUNNING).
- ``open_pull_request``: my approved public test entry's result goes to its model's Hub repo as a pull
  request opened with my own Hugging Face token (OAuth, scope ``write-discussions``), under my name: the
  way to share a result on a repo the Space will not speak on (``leaderboard/publishing/hub_eval.py``).

The caller's identity comes from the web session (``space/web/auth.py``), never from a form; every
method refuses another user's submission with ``NotAuthorised`` (maintainers act through
``moderation``, not here). Each change lands with its audit entry in one commit.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace

from leaderboard.config import Settings
from leaderboard.jobs import check_user, read_job
from leaderboard.publishing import (
    HubRecord,
    HubUnavailable,
    Publisher,
    Refused,
    eval_result,
    held_back,
    hub_path,
    read_release,
    recorded,
    submitter_note,
)
from leaderboard.publishing import shareable as hub_repo_of
from leaderboard.records import (
    CANCELLED,
    FAILED,
    FINISHED,
    PENDING,
    REJECTED,
    InvalidAction,
    NotAuthorised,
    OwnerChoice,
    Split,
    iso,
    job_path,
    owner_path,
)
from leaderboard.storage import Conflict, Entry, Registry, audit_entry, process_lock, read_summary

log = logging.getLogger(__name__)


class Ownership:
    def __init__(
        self, settings: Settings, registry: Registry, publisher: Publisher, clock: Callable[[], float]
    ) -> None:
        self.settings = settings
        self.registry = registry
        self.store = registry.store
        self.publisher = publisher
        self.clock = clock

    def owned(self, submission_id: str, user: str) -> Entry:
        """``user``'s submission ``submission_id``; ``NotAuthorised`` for anyone else's (maintainers included)."""
        user = check_user(user)
        entry = self.registry.entry(submission_id.strip())
        if not entry.same_user(user):
            raise NotAuthorised(f"submission {entry.submission_id} belongs to another user: only its submitter may")
        return entry

    def choose_public(self, submission_id: str, user: str) -> list[str]:
        """Make ``submission_id`` the user's public entry; the ids of the entries that left the board."""
        with process_lock(self.settings.locks_folder, "owner"):
            chosen = self.owned(submission_id, user)
            if chosen.request.split != Split.TEST:
                raise InvalidAction(
                    f"submission {chosen.submission_id} is a validation submission: only test entries go on the board"
                )
            if chosen.status != FINISHED:
                raise InvalidAction(
                    f"submission {chosen.submission_id} is {chosen.status}: only a scored (FINISHED) entry can be "
                    "your public one"
                )
            release = read_release(self.store, chosen.submission_id)
            if release is not None and not release.released:
                raise InvalidAction(
                    f"submission {chosen.submission_id} is {submitter_note(release)}: under the ladder release policy "
                    "its figure is not released, so it cannot be your public entry (choose your best released one)"
                )
            if chosen.review.decision == REJECTED or chosen.review.hidden:
                why = "hidden" if chosen.review.hidden else f"rejected ({chosen.review.reason or 'no reason given'})"
                raise InvalidAction(
                    f"submission {chosen.submission_id} was {why} by a maintainer: it cannot be your public entry"
                )
            mine = [e for e in self.registry.entries() if e.same_user(user) and e.submission_id != chosen.submission_id]
            leaving = [e for e in mine if e.publish]
            changes = [(e, False) for e in leaving] + ([] if chosen.publish else [(chosen, True)])
            if changes:
                self._commit(user, "choose-public", changes, f"{user} chose {chosen.submission_id} as public")
        self.publisher.sync()
        return [e.submission_id for e in leaving]

    def withdraw(self, submission_id: str, user: str) -> None:
        """Take the user's entry off the board (and out of the maintainers' queue of decisions)."""
        with process_lock(self.settings.locks_folder, "owner"):
            entry = self.owned(submission_id, user)
            if not entry.publish:
                raise InvalidAction(
                    f"submission {entry.submission_id} is not asking to be on the leaderboard: nothing to withdraw"
                )
            self._commit(user, "withdraw", [(entry, False)], f"{user} withdrew {entry.submission_id}")
        self.publisher.sync()

    def cancel(self, submission_id: str, user: str) -> None:
        """Cancel a submission that is still waiting; it is never scored and its quota comes back."""
        entry = self.owned(submission_id, user)
        job, raw = read_job(self.store, entry.submission_id)
        fresh = replace(entry, job=job)
        if fresh.status != PENDING or job.status != PENDING or fresh.stale:
            state = "already cancelled" if fresh.cancelled else f"{fresh.status}"
            raise InvalidAction(
                f"submission {entry.submission_id} is {state}: only a submission still waiting to be scored "
                "(PENDING) can be cancelled"
            )
        now = self.clock()
        message = f"cancelled by its submitter at {iso(now)[:16].replace('T', ' ')} UTC, before it was scored"
        after = replace(job, status=FAILED, failure=CANCELLED, message=message, updated_at=iso(now))
        before_fields = {"status": job.status, "failure": job.failure}
        path, data = audit_entry(
            user, "cancel", entry.submission_id, now, before_fields, {"status": FAILED, "failure": CANCELLED}
        )
        try:
            self.store.commit(
                {job_path(entry.submission_id): after.to_bytes(), path: data},
                message=f"cancel {entry.submission_id}",
                expect={job_path(entry.submission_id): raw},
            )
        except Conflict:  # a worker took it (or settled it) between our read and our write: it wins
            raise InvalidAction(
                f"submission {entry.submission_id} has just started scoring: it can no longer be cancelled"
            ) from None
        log.info("%s cancelled %s", user, entry.submission_id)

    def open_pull_request(self, submission_id: str, user: str, token: str) -> str:
        """Open the eval-results pull request of the user's entry with their own ``token``; its URL.

        The text is the Space's (``EvalResult.description``); the Hub sees the user as its author. An entry
        whose pull request is open already answers with that one."""
        s = self.settings
        if not (s.hub_benchmark_dataset and s.hub_space_url):
            raise InvalidAction("sharing results on the Hub is off here (HUB_BENCHMARK_DATASET is not set)")
        entry = self.owned(submission_id, user)
        repo_id = hub_repo_of(entry)
        if repo_id is None:
            raise InvalidAction(
                f"submission {entry.submission_id} is not an approved public test entry whose model link is a Hub "
                "model repo (https://huggingface.co/<owner>/<model>): nothing to share on the Hub"
            )
        earlier = recorded(self.store).get(entry.submission_id)
        if earlier is not None and earlier.pr_url:
            return earlier.pr_url
        why = held_back(self.store, entry.submission_id)
        summary = read_summary(self.store, entry.submission_id)
        if why or summary is None or summary.score is None:
            raise InvalidAction(f"submission {entry.submission_id} cannot be shared now: {why or 'it has no score'}")
        result = eval_result(entry, repo_id, summary, s.hub_benchmark_dataset, s.hub_task_id, s.hub_space_url,
                             s.answer_key_dataset, by_submitter=True)  # fmt: skip
        from leaderboard.publishing.hub_eval_client import (
            HubEvalClient,  # the Hub client: imported only when it is used
        )

        try:
            url = HubEvalClient(token).open_pull_request(result)
        except (Refused, HubUnavailable) as problem:
            raise InvalidAction(f"no pull request opened on {repo_id}: {problem}") from problem
        now = self.clock()
        record = HubRecord(repo_id, pr_url=url, opened_at=iso(now), opened_by=entry.user)
        before = None if earlier is None else {"refused": earlier.refused}
        path, data = audit_entry(user, "hub-pull-request", entry.submission_id, now, before, {"pr_url": url})
        self.store.commit({hub_path(entry.submission_id): record.to_bytes(), path: data},
                          message=f"{user} opened the pull request of {entry.submission_id} on {repo_id}")  # fmt: skip
        log.info("%s opened %s for %s with their own token", user, url, entry.submission_id)
        self.publisher.sync()
        return url

    def _commit(self, user: str, action: str, changes: list[tuple[Entry, bool]], message: str) -> None:
        """The owner files of ``changes`` (entry, publish) and an audit entry for each, in one commit."""
        now = self.clock()
        puts: dict[str, bytes] = {}
        for entry, publish in changes:
            before = {"publish": entry.publish}
            choice = OwnerChoice(entry.submission_id, publish=publish, updated_at=iso(now))
            puts[owner_path(entry.submission_id)] = choice.to_bytes()
            verb = action if publish else "withdraw"
            path, data = audit_entry(user, verb, entry.submission_id, now, before, {"publish": publish})
            puts[path] = data
        self.store.commit(puts, message=message)
        log.info(message)
