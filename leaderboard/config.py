"""Settings of the service, read once at start-up from the environment.

The variable names are a contract (docs/SERVICE.md documents each one). ``Settings.from_env``
takes the mapping as a parameter, so tests pass a dict. A bad value fails loudly and names the
variable and the value: ``TEST_SUBMISSIONS_PER_DAY='three': expected a whole number``.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from leaderboard.records import ReleasePolicy, parse_policy
from scoring import NAVITRACE_BASELINE_RAW

T = TypeVar("T")

DEFAULT_HOME = "local"
DEMO_SAMPLES = 12  # the embedded default: small enough that the first start takes seconds
DEMO_SIZE = (1440, 1080)  # the real images' size: pixel distances, and so scores, depend on it
# B of the embedded default: `python -m scoring calibrate --split test` on it (seed 26, 12 samples at
# 1440x1080), so that its straight example scores 0 as the baseline row says (3234.75 is the real
# split's B; the demo's straight traces scored -2.03 with it). tests/leaderboard/test_config.py re-derives it.
DEMO_BASELINE_RAW = 3300.35898049  # the mean 3300.358980488644, rounded up: the straight example shows 0.00, not -0.00
_REPO_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*/[A-Za-z0-9][A-Za-z0-9._-]*$")


class SettingsError(ValueError):
    """An environment variable holds a value the service cannot use."""


@dataclass(frozen=True)
class Settings:
    """Everything configurable. Empty repo names mean "keep it under ``home``" (the embedded default)."""

    # Local state, relative to the working directory: the stores in local mode, answer-key caches, locks and
    # the synthetic default datasets.
    home: Path = Path(DEFAULT_HOME)
    # The Hub dataset id or local folder (Hub layout, data/{split}-*.parquet) holding the test ground truth. Only
    # the worker reads it; a private repo is read with HF_TOKEN. None: a synthetic dataset generated on first
    # start under {home}/demo/navitrace.
    answer_key_dataset: str | None = None
    # What users may see, e.g. leggedrobotics/navitrace (test ground truth null): intake checks files against it.
    # Required with ANSWER_KEY_DATASET, so the answer key is never shown by mistake. None: the public copy of the
    # synthetic dataset, {home}/demo/navitrace-public.
    public_dataset: str | None = None
    # The private Hub dataset org/name of requests, uploaded files, per-row scores, reviews and the audit log
    # (created private on first use). None: {home}/requests.
    requests_repo: str | None = None
    # The public Hub dataset org/name of the leaderboard table, loadable with datasets.load_dataset; it must differ
    # from the requests repo. None: {home}/results.
    results_repo: str | None = None
    # A token that writes to both repos (required when either is set) and reads a private answer key; never printed.
    hf_token: str | None = field(default=None, repr=False)
    # Comma-separated Hugging Face user names allowed to moderate (approve, reject, hide, edit, flag, rescore, read
    # the audit log); kept case-folded, so matched without case, and checked on the server for every action.
    maintainers: frozenset[str] = frozenset()
    # Test-split submissions per user in any rolling 24 hours, whatever the model name. Validation is not limited,
    # a submission that failed because of the server does not count, and 0 closes test submissions.
    test_submissions_per_day: int = 3
    # A test figure (overall, valid-only, per group) over fewer valid rows is withheld: it would tell
    # single rows' scores. 5: on the real split every embodiment holds hundreds of rows and nothing a
    # real model earns is lost; on the demo (12 samples a split) it withholds Bicycle's single row.
    min_rows_per_figure: int = 5
    # B of the score, (B - raw) / B x 100: the straight-forward trace's mean raw score on the benchmark version's
    # test split (python -m scoring calibrate recomputes it; docs/METRIC.md). Without ANSWER_KEY_DATASET the
    # synthetic default's own calibration is used. Changing it calls for a rescore.
    baseline_raw: float = NAVITRACE_BASELINE_RAW
    # Seconds between worker rounds (the scheduler's interval in the app; the pause of python -m leaderboard work).
    score_interval_s: float = 60.0
    # Worker and intake tuning; rarely changed, so defaults suit the Space.

    lease_s: float = 600.0  # a RUNNING job whose heartbeat is older than this is taken up again
    max_attempts: int = 3  # times a job is started before it is failed as a server problem
    dedupe_window_s: float = 600.0  # the same file from the same user within this is one submission
    queued_per_user: int = 3  # a user's submissions waiting or being scored at once (either split)
    job_budget_s: float = 1800.0  # scoring one file longer than this fails it (the worst valid file: ~15 min)
    # Scoring cost in points (the points of a file's valid rows; ~0.35 ms each at worst, at 1440x1080).
    # One file: 100,000 = 80 points a row on the real test split (~1,250 rows), so the worst file
    # holds the worker ~35 s, not ~810 s. A day, per user and both splits: 500,000 = five such files
    # (~3 minutes of worst-case scoring), or ~40 ordinary full files of ~10 points a row.
    max_job_points: int = 100_000
    daily_points: int = 500_000  # the points one user may ask for in 24 hours, both splits; at least max_job_points
    # Whether a test figure within noise of the submitter's best is released (leaderboard/publishing/score_release.py);
    # maintainers override it (control/release.json). Why exact by default: docs/MAINTAINERS.md.
    release_policy: ReleasePolicy = ReleasePolicy.EXACT
    fair_queue: bool = True  # False: first in, first out (the order before; the benchmark's "before")
    answer_key_cache: Path | None = None  # None: {home}/cache; tests share one across homes
    demo_samples: int = DEMO_SAMPLES  # the synthetic default: samples per split
    demo_size: tuple[int, int] = DEMO_SIZE  # the synthetic default: image size (width, height)
    # Results that travel to the Hub (leaderboard/hub_eval*.py, docs/HUB.md).

    # The benchmark dataset on the Hub whose eval.yaml names the task (docs/HUB.md). Set, approved public test
    # entries whose submitters opted in get a pull request on their model repo, and the board can show results
    # model repos publish; it needs HF_TOKEN and HUB_SPACE_URL. None: no pull requests, no Hub rows.
    hub_benchmark_dataset: str | None = None
    hub_task_id: str = "score"  # the task of that eval.yaml the results belong to
    hub_space_url: str | None = None  # where entry pages live (https://{SPACE_HOST} on a Space): a result's source
    hub_pr_interval_s: float = 300.0  # how often approved entries are looked at for a pull request
    hub_refresh_s: float = 3600.0  # how often the Hub's leaderboard of the benchmark is read again

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        env = _Env(os.environ if environ is None else environ)
        settings = cls(
            home=Path(env.text("LEADERBOARD_HOME") or DEFAULT_HOME),
            answer_key_dataset=env.text("ANSWER_KEY_DATASET"),
            public_dataset=env.text("PUBLIC_DATASET"),
            requests_repo=env.get("REQUESTS_REPO", _repo_id, None),
            results_repo=env.get("RESULTS_REPO", _repo_id, None),
            hf_token=env.text("HF_TOKEN"),
            maintainers=env.get("MAINTAINERS", _names, frozenset()),
            test_submissions_per_day=env.get("TEST_SUBMISSIONS_PER_DAY", _whole, 3),
            min_rows_per_figure=env.get("MIN_ROWS_PER_FIGURE", _at_least_one, 5),
            baseline_raw=env.get(
                "BASELINE_RAW",
                _positive,
                NAVITRACE_BASELINE_RAW if env.text("ANSWER_KEY_DATASET") else DEMO_BASELINE_RAW,
            ),
            score_interval_s=env.get("SCORE_INTERVAL_S", _positive, 60.0),
            lease_s=env.get("LEADERBOARD_LEASE_S", _positive, 600.0),
            max_attempts=env.get("LEADERBOARD_MAX_ATTEMPTS", _at_least_one, 3),
            dedupe_window_s=env.get("LEADERBOARD_DEDUPE_WINDOW_S", _non_negative, 600.0),
            queued_per_user=env.get("LEADERBOARD_QUEUED_PER_USER", _at_least_one, 3),
            job_budget_s=env.get("LEADERBOARD_JOB_BUDGET_S", _positive, 1800.0),
            max_job_points=env.get("LEADERBOARD_MAX_JOB_POINTS", _at_least_one, 100_000),
            daily_points=env.get("LEADERBOARD_DAILY_POINTS", _at_least_one, 500_000),
            hub_benchmark_dataset=env.get("HUB_BENCHMARK_DATASET", _repo_id, None),
            hub_task_id=env.get("HUB_TASK_ID", _task_id, "score"),
            hub_space_url=env.get("HUB_SPACE_URL", _space_url, _space_host_url(env.text("SPACE_HOST"))),
            hub_pr_interval_s=env.get("HUB_PR_INTERVAL_S", _positive, 300.0),
            hub_refresh_s=env.get("HUB_REFRESH_S", _positive, 3600.0),
            release_policy=env.get("LEADERBOARD_RELEASE_POLICY", parse_policy, ReleasePolicy.EXACT),
        )
        settings.check()
        return settings

    def check(self) -> None:
        """Combinations that cannot work: fail at start-up, not at the first submission."""
        if self.answer_key_dataset and not self.public_dataset:
            raise SettingsError(
                f"ANSWER_KEY_DATASET={self.answer_key_dataset!r} but PUBLIC_DATASET is empty: expected the public "
                "copy users may see (e.g. 'leggedrobotics/navitrace'); the answer key itself must never be shown"
            )
        if self.public_dataset and not self.answer_key_dataset:
            raise SettingsError(
                f"PUBLIC_DATASET={self.public_dataset!r} but ANSWER_KEY_DATASET is empty: expected the dataset "
                "holding the test ground truth too (or neither, for the synthetic default)"
            )
        if self.requests_repo and self.requests_repo == self.results_repo:
            raise SettingsError(
                f"REQUESTS_REPO and RESULTS_REPO are both {self.requests_repo!r}: the requests repo is private "
                "(uploaded files, e-mails, per-row test scores) and must not be the public results repo"
            )
        if self.daily_points < self.max_job_points:
            raise SettingsError(
                f"LEADERBOARD_DAILY_POINTS={self.daily_points} is below LEADERBOARD_MAX_JOB_POINTS="
                f"{self.max_job_points}: expected a daily budget that holds at least one file of the largest size"
            )
        if self.hub_benchmark_dataset and not (self.hub_space_url and self.hf_token):
            raise SettingsError(
                f"HUB_BENCHMARK_DATASET={self.hub_benchmark_dataset!r} needs HF_TOKEN (to open pull requests) and "
                "HUB_SPACE_URL (or SPACE_HOST, set on a Space): the results link back to their entry pages"
            )
        if (self.requests_repo or self.results_repo) and not self.hf_token:
            raise SettingsError("REQUESTS_REPO/RESULTS_REPO are set but HF_TOKEN is empty: writing to the Hub needs it")

    @property
    def requests_folder(self) -> Path:
        """The private store in local mode; its download cache in Hub mode."""
        return self.home / "requests"

    @property
    def results_folder(self) -> Path:
        """The public store in local mode (loadable with ``datasets.load_dataset``)."""
        return self.home / "results"

    @property
    def cache_folder(self) -> Path:
        """Answer-key caches (``scoring``'s memory-mapped format)."""
        return self.answer_key_cache or self.home / "cache"

    @property
    def demo_folder(self) -> Path:
        """Where the synthetic default datasets are generated on first start."""
        return self.home / "demo"

    @property
    def locks_folder(self) -> Path:
        return self.home / "locks"

    def is_maintainer(self, user: str | None) -> bool:
        return user is not None and user.strip().casefold() in self.maintainers


class _Env:
    def __init__(self, environ: Mapping[str, str]) -> None:
        self.environ = environ

    def text(self, name: str) -> str | None:
        value = self.environ.get(name, "").strip()
        return value or None

    def get(self, name: str, parse: Callable[[str], T], default: T) -> T:
        raw = self.environ.get(name, "")
        if not raw.strip():
            return default
        try:
            return parse(raw.strip())
        except ValueError as error:
            raise SettingsError(f"{name}={raw!r}: {error}") from None


def _whole(text: str) -> int:
    if not re.fullmatch(r"\d+", text):
        raise ValueError("expected a whole number (0 or more)")
    return int(text)


def _at_least_one(text: str) -> int:
    if not re.fullmatch(r"\d+", text) or int(text) < 1:
        raise ValueError("expected a whole number of at least 1")
    return int(text)


def _number(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ValueError("expected a number") from None
    if not math.isfinite(value):
        raise ValueError("expected a finite number")
    return value


def _positive(text: str) -> float:
    value = _number(text)
    if value <= 0:
        raise ValueError("expected a number above 0")
    return value


def _non_negative(text: str) -> float:
    value = _number(text)
    if value < 0:
        raise ValueError("expected a number of at least 0")
    return value


def _repo_id(text: str) -> str:
    if not _REPO_ID.match(text):
        raise ValueError("expected a Hub dataset id like 'org/name'")
    return text


def _task_id(text: str) -> str:
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}", text):
        raise ValueError("expected a task id of the benchmark's eval.yaml, like 'score' (letters, digits, . _ -)")
    return text


def _space_url(text: str) -> str:
    if not re.fullmatch(r"https?://[A-Za-z0-9.-]+(:\d+)?(/[A-Za-z0-9._~/-]*)?", text):
        raise ValueError("expected the Space's address, like 'https://org-navitrace.hf.space'")
    return text.rstrip("/")


def _space_host_url(hosts: str | None) -> str | None:
    """``https://{SPACE_HOST}`` (its first host): the address the Hub gives a Space, where its pages are served."""
    first = (hosts or "").split(",")[0].strip()
    return f"https://{first}" if first else None


def _names(text: str) -> frozenset[str]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    bad = [n for n in names if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", n)]
    if bad:
        raise ValueError(f"expected comma-separated Hugging Face user names, and {bad[0]!r} is not one")
    return frozenset(n.casefold() for n in names)
