"""Results that travel to the Hub (issue 15): which entries get a pull request, and what it says.

An approved, public test entry whose ``model_link`` is a Hub model repository, and whose submitter
opted in (``Declarations.share_on_hub``), gets one pull request on that repository adding
``.eval_results/navitrace.yaml`` (the Hub's eval-results format: the benchmark dataset, its task, the
score, the date, and the entry page as the source). ``hub_eval_prs.py`` opens them off the request
path; ``hub/{id}.json`` in the requests store records each outcome, so an entry is handled once:

- ``{"pr_url", "repo_id", "opened_at"}`` once a pull request was opened (the public table's ``hub_pr_url``);
- ``{"pr_url": null, "repo_id", "refused", "refused_at"}`` when the Hub refused for good (no such
  repository, no right to open a pull request there): never tried again by itself; a maintainer who
  deletes the file has it tried again.

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
from leaderboard.registry import Entry
from leaderboard.storage import Storage
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
    """``leaderboard.table.Publisher``: the Hub jobs republish the table after a change (``hub_pr_url``, Hub rows)."""

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

    def to_bytes(self) -> bytes:
        return dump({k: v for k, v in asdict(self).items() if v is not None or k == "pr_url"})

    @classmethod
    def from_bytes(cls, data: bytes) -> HubRecord:
        raw = json.loads(data)
        return cls(**{k: raw.get(k) for k in ("repo_id", "pr_url", "opened_at", "refused", "refused_at")})


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
    if entry.request.split != Split.TEST or not entry.public or entry.status != FINISHED:
        return None
    return model_repo(entry.metadata.model_link)


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


def markdown_text(text: str) -> str:
    """``text`` shown literally in Markdown (a model name must not become a link in a pull request we open)."""
    return re.sub(r"([\\`*_{}\[\]()<>#+!|~-])", r"\\\1", text)


def due(entries: Iterable[Entry], done: Iterable[str]) -> list[tuple[Entry, str]]:
    """``(entry, repo_id)`` of every entry due a pull request and not yet recorded, oldest first."""
    handled = set(done)
    pairs = [(e, wants_pull_request(e)) for e in entries if e.submission_id not in handled]
    return [(e, repo) for e, repo in pairs if repo is not None]


@dataclass(frozen=True)
class EvalResult:
    """What the pull request publishes: the fields of ``huggingface_hub.EvalResultEntry`` we fill."""

    repo_id: str
    submission_id: str
    model: str
    dataset_id: str
    task_id: str
    value: float
    date: str  # ISO 8601, UTC: when the entry was scored
    source_url: str  # the entry page
    dataset_revision: str | None = None
    notes: str | None = None

    @property
    def title(self) -> str:
        """The pull request's title: names the entry, so a pull request whose answer was lost is found again."""
        return f"Add the NaviTrace result of entry {self.submission_id}"

    @property
    def description(self) -> str:
        return (
            f"The [{SOURCE_NAME}]({self.source_url}) scored **{markdown_text(self.model)}** on the test split of "
            f"[{self.dataset_id}](https://huggingface.co/datasets/{self.dataset_id}): {self.value:.2f} "
            "(100 is perfect, 0 the straight-forward baseline; higher is better).\n\n"
            f"This pull request adds `{EVAL_RESULTS_PATH}` in the Hub's eval-results format, so the score "
            "appears on this model's page and on the benchmark's leaderboard once merged. It was opened because "
            "the submitter asked for it when submitting; close it if you do not want it."
        )


def eval_result(
    entry: Entry, repo_id: str, summary: Summary, dataset_id: str, task_id: str, space_url: str, answer_key: str | None
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
        model=entry.metadata.model,
        dataset_id=dataset_id,
        task_id=task_id,
        value=round(float(summary.score), 2),
        date=finished[:19] + "Z",
        source_url=entry_page(space_url, entry.submission_id),
        dataset_revision=revision,
        notes=f"NaviTrace scorer {summary.scorer_version}" if summary.scorer_version else None,
    )
