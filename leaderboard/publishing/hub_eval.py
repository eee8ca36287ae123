"""Results that travel to the Hub: which entries get a pull request, and what it says.

An approved, public test entry whose ``model_link`` is a Hub model repository, and whose submitter
opted in (``Declarations.share_on_hub``), gets one pull request on that repository adding
``.eval_results/navitrace.yaml`` (the Hub's eval-results format: the benchmark dataset, its task, the
score, the date, and the entry page as the source). ``hub_eval_prs.py`` opens them off the request
path; ``hub/{id}.json`` in the requests store records each outcome, so an entry is handled once:

- ``{"pr_url", "repo_id", "opened_at"}`` once a pull request was opened (the public table's ``hub_pr_url``);
- ``{"pr_url": null, "repo_id", "refused", "refused_at"}`` when the Hub refused for good (no such
  repository, no right to open a pull request there) or the submitter does not control the repository:
  never tried again by itself; a maintainer who deletes the file has it tried again;
- ``opened_by`` is added when the submitter opened it with their own token (``Ownership.open_pull_request``).

A result reaches a model repo only by the hand of someone who controls it. The Space's own
account opens a pull request only where the Hub says the submitter owns the repo or belongs to the
organisation that owns it (``controls``); anywhere else the submitter may open it under their own account.
The text is the Space's own words and figures: no submitter text, no mention, no link but the entry page.

Pure: no Hub client here (``hub_eval_client.py`` holds the calls).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Protocol
from urllib.parse import urlsplit

from leaderboard.records import FINISHED, Split, dump
from leaderboard.storage import Entry, Storage
from scoring.summary import Summary

HUB_FOLDER = "hub"
EVAL_RESULTS_PATH = ".eval_results/navitrace.yaml"
SOURCE_NAME = "NaviTrace leaderboard"
HUB_HOSTS = ("huggingface.co", "www.huggingface.co", "hf.co")
# First path segments of huggingface.co that are not a user or an organisation: such a link is no model repo.
NOT_MODELS = frozenset(
    "datasets spaces docs blog papers collections organizations settings models join login pricing tasks learn "
    "api chat posts enterprise buckets new".split()
)
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,95}$")
_SHA = re.compile(r"^[0-9a-f]{40}$")


class Publishes(Protocol):
    """``publishing.table.Publisher``: the Hub jobs republish the table after a change (``hub_pr_url``, Hub rows)."""

    def sync(self) -> bool: ...


class Refused(Exception):
    """The Hub refused for good: recorded on the entry, never retried by itself."""


class HubUnavailable(Exception):
    """The Hub did not answer, or asked us to wait: tried again on a later round."""


def model_repo(link: object) -> str | None:
    """``org/name`` when ``link`` is a Hub model repository's page, else ``None``.

    >>> model_repo("https://huggingface.co/org/model"), model_repo("https://hf.co/org/model/tree/main")
    ('org/model', 'org/model')
    >>> model_repo("https://huggingface.co/datasets/org/data"), model_repo("https://github.com/org/model")
    (None, None)
    """
    if not isinstance(link, str):
        return None
    parts = urlsplit(link.strip())
    if parts.scheme != "https" or (parts.hostname or "").lower() not in HUB_HOSTS:
        return None
    segments = [s for s in parts.path.split("/") if s]
    if len(segments) < 2 or segments[0].lower() in NOT_MODELS:
        return None
    org, name = segments[0], segments[1]
    if not (_NAME.match(org) and _NAME.match(name)) or ".." in org + name or name.endswith((".git", ".")):
        return None
    return f"{org}/{name}"


def hub_path(submission_id: str) -> str:
    return f"{HUB_FOLDER}/{submission_id}.json"


def entry_page(space_url: str, submission_id: str) -> str:
    return f"{space_url.rstrip('/')}/?entry={submission_id}"


@dataclass(frozen=True)
class HubRecord:
    """``hub/{id}.json``: what became of an entry's pull request (one writer: the scheduler's Hub job)."""

    repo_id: str
    pr_url: str | None = None
    opened_at: str | None = None
    refused: str | None = None  # why the Hub will not take it (never retried by itself)
    refused_at: str | None = None
    opened_by: str | None = None  # the submitter, when opened with their own token; absent: the Space's account

    def to_bytes(self) -> bytes:
        return dump({k: v for k, v in asdict(self).items() if v is not None or k == "pr_url"})

    @classmethod
    def from_bytes(cls, data: bytes) -> HubRecord:
        raw = json.loads(data)
        keys = ("repo_id", "pr_url", "opened_at", "refused", "refused_at", "opened_by")
        return cls(**{k: raw.get(k) for k in keys})


def recorded(store: Storage) -> dict[str, HubRecord]:
    """Every ``hub/{id}.json``, by submission id (a damaged file reads as handled: it is not retried blindly)."""
    found = {}
    for path in store.list(HUB_FOLDER):
        name = path[len(HUB_FOLDER) + 1 :]
        if "/" in name or not name.endswith(".json"):
            continue
        data = store.read(path)
        if data is None:
            continue
        try:
            found[name[: -len(".json")]] = HubRecord.from_bytes(data)
        except (ValueError, TypeError):
            found[name[: -len(".json")]] = HubRecord(repo_id="?", refused="unreadable record")
    return found


def pr_urls(store: Storage) -> dict[str, str]:
    """Submission id -> the URL of the pull request opened for it (the public table's ``hub_pr_url``)."""
    return {i: r.pr_url for i, r in recorded(store).items() if r.pr_url}


def wants_pull_request(entry: Entry) -> str | None:
    """The model repo to open a pull request on, when ``entry`` is due one (results aside), else ``None``."""
    declarations = entry.request.declarations
    if not (declarations is not None and declarations.share_on_hub):
        return None  # no answer means no
    return shareable(entry)


def shareable(entry: Entry) -> str | None:
    """The model repo ``entry``'s result may go to (by the Space or by its submitter), else ``None``."""
    if entry.request.split != Split.TEST or not entry.public or entry.status != FINISHED:
        return None
    return model_repo(entry.metadata.model_link)


def controls(user: str, author: str, orgs: Iterable[str]) -> str | None:
    """Why the Space will not open a pull request on a repo of ``author`` for ``user``, or ``None`` when it may.

    ``author`` is the repo's owner and ``orgs`` the organisations ``user`` belongs to, both as the Hub says.
    Names compare as the Hub's do (case aside), as ``Entry.same_user`` does.

    >>> controls("alice", "alice", []) is None, controls("alice", "acme", ["acme"]) is None
    (True, True)
    >>> controls("alice", "famous", ["acme"])
    'alice is neither famous nor a member of famous on the Hub'
    """
    if author.casefold() == user.strip().casefold() or author.casefold() in {o.casefold() for o in orgs}:
        return None
    return f"{user} is neither {author} nor a member of {author} on the Hub"


def approval_note(entry: Entry, sharing_on: bool) -> str:
    """What approving ``entry`` does on the Hub, in one sentence for the maintainers' desk."""
    none = "Approving opens no pull request on the Hub"
    if not sharing_on:
        return f"{none}: sharing results on the Hub is off here (HUB_BENCHMARK_DATASET is not set)."
    declarations = entry.request.declarations
    if not (declarations is not None and declarations.share_on_hub):
        return f"{none}: the submitter did not ask for one."
    if entry.request.split != Split.TEST or not entry.publish:
        return f"{none}: this is not a test entry asking to be on the board."
    repo = model_repo(entry.metadata.model_link)
    if repo is None:
        return f"{none}: its model link is not a Hub model repo."
    owner = repo.split("/")[0]
    return (
        f"Approving has the Space open a pull request on the Hub model repo {repo} (the score, in the Space's "
        f"own words) if the Hub says {entry.user} is {owner} or a member of the organisation {owner}; otherwise "
        "none, and the submitter may open it under their own account from My submissions."
    )


def held_back(store: Storage, submission_id: str) -> str | None:
    """Why an entry otherwise due a pull request waits, or ``None``: a maintainer's flag (``flags/{id}.json``),
    or a figure the ladder policy did not release (``private/{id}/release.json``, ``released`` false)."""
    if store.read(f"flags/{submission_id}.json") is not None:
        return "flagged by a maintainer"
    release = store.read(f"private/{submission_id}/release.json")
    try:
        if release is not None and json.loads(release).get("released") is False:
            return "its figure was not released (score release policy)"
    except (ValueError, AttributeError):
        return "its release decision is unreadable"
    return None


def no_mentions(text: str) -> str:
    """``text`` with every ``@`` written ``(at)``: nothing we publish on a model repo can mention anyone.

    >>> no_mentions("ping @famous")
    'ping (at)famous'
    """
    return text.replace("@", "(at)")


def due(entries: Iterable[Entry], done: Iterable[str]) -> list[tuple[Entry, str]]:
    """``(entry, repo_id)`` of every entry due a pull request and not yet recorded, oldest first."""
    handled = set(done)
    pairs = [(e, wants_pull_request(e)) for e in entries if e.submission_id not in handled]
    return [(e, repo) for e, repo in pairs if repo is not None]


@dataclass(frozen=True)
class EvalResult:
    """What the pull request publishes: the fields of ``huggingface_hub.EvalResultEntry`` we fill.

    Holds nothing the submitter wrote (their model name and description stay on our entry page)."""

    repo_id: str
    submission_id: str
    dataset_id: str
    task_id: str
    value: float
    date: str  # ISO 8601, UTC: when the entry was scored
    source_url: str  # the entry page
    dataset_revision: str | None = None
    notes: str | None = None
    by_submitter: bool = False  # opened with the submitter's own token, not the Space's

    @property
    def title(self) -> str:
        """The pull request's title: names the entry, so a pull request whose answer was lost is found again."""
        return no_mentions(f"Add the NaviTrace result of entry {self.submission_id}")

    @property
    def description(self) -> str:
        """The Space's own words and figures; the one link is the entry page (ours), and no ``@`` at all."""
        why = (
            "The entry's submitter opened it from the leaderboard's page, under their own account."
            if self.by_submitter
            else "The leaderboard's Space opened it because the entry's submitter, who the Hub says owns this "
            "repository or belongs to the organisation that does, asked for it."
        )
        return no_mentions(
            f"The [{SOURCE_NAME}]({self.source_url}) scored entry {self.submission_id} on the test split of "
            f"the `{self.dataset_id}` benchmark: {self.value:.2f} (100 is perfect, 0 the straight-forward "
            "baseline; higher is better).\n\n"
            f"This pull request adds `{EVAL_RESULTS_PATH}` in the Hub's eval-results format, so the score "
            f"appears on this model's page and on the benchmark's leaderboard once merged. {why} "
            "Close it if you do not want it."
        )


def eval_result(
    entry: Entry,
    repo_id: str,
    summary: Summary,
    dataset_id: str,
    task_id: str,
    space_url: str,
    answer_key: str | None,
    by_submitter: bool = False,
) -> EvalResult:
    """The result of ``entry`` as the pull request publishes it.

    ``dataset_revision`` is the answer key's revision the entry was scored against, given only when the
    answer key is the benchmark dataset itself (a private answer key's revision says nothing on the Hub).
    """
    assert summary.score is not None, "an entry without an overall score gets no pull request"
    revision = summary.dataset_revision
    if not (answer_key == dataset_id and revision and _SHA.match(revision)):
        revision = None
    finished = entry.job.finished_at or entry.request.created_at
    return EvalResult(
        repo_id=repo_id,
        submission_id=entry.submission_id,
        dataset_id=dataset_id,
        task_id=task_id,
        value=round(float(summary.score), 2),
        date=finished[:19] + "Z",
        source_url=entry_page(space_url, entry.submission_id),
        dataset_revision=revision,
        notes=f"NaviTrace scorer {summary.scorer_version}" if summary.scorer_version else None,
        by_submitter=by_submitter,
    )
