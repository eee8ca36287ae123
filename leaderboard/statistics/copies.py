"""Duplicate detection: a test submission whose traces match an earlier entry's reaches the maintainers marked.

After scoring a test submission the worker compares its traces with those of every earlier test
submission of *other* users that has a result, whatever its review state (a copy of a pending or
private entry is still a copy), row by row on the rows both answer (``copies_traces``), the traces
compared as curves (``copies_curves``: resampled by arc length, symmetric median closest-point
distance). When at least ``THRESHOLD`` of the new file's rows lie within ``NEAR_PX`` of one of them,
whatever the points (shifted, jittered, resampled, one point added, a few rows changed), the worker
writes ``private/{id}/copy.json`` in the same commit as the result::

    {"of": "<the earlier submission>", "model": "<its model>", "share": 0.98, "exact_share": 0.9, "rows": 1240,
     "near_share": 1.0}

``share`` and ``exact_share`` say how it was copied (points within 1 px, identical); ``near_share``
decided it.

Only maintainers' views carry it (``SubmissionView.likely_copy``); the desk and ``python -m
leaderboard pending`` / ``status`` show it before anyone approves. When several earlier entries
match, the best share wins, and of equal shares the earliest (the original, not another copy).

Cost is bounded: parsed traces are cached (``copies_cache``, 128 MB by default), a candidate is
dropped as soon as it can no longer reach the threshold (usually on the point counts alone, before
any point is compared), and one job checks at most ``MAX_CANDIDATES`` candidates (entries on the
board first, then the newest) within ``BUDGET_S`` seconds, with a log line when either is hit.
Independent honest files (other models on the same scenes) are far apart as curves on most rows:
``benchmarks/bench_copies.py`` prints detection and false-positive rates per kind of copy.
``benchmarks/bench_copies.py`` measures it.
"""

from __future__ import annotations

import json
import logging
import math
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import NotRequired, TypedDict

from leaderboard.records import FAILED, Split, dump, upload_path
from leaderboard.statistics.copies_cache import DEFAULT_CACHE_BYTES, TraceCache
from leaderboard.statistics.copies_curves import NEAR_PX
from leaderboard.statistics.copies_traces import Match, Traces, compare, parse_traces, row_positions
from leaderboard.storage import Entry, Registry, Storage
from scoring import AnswerKey, SubmissionError

log = logging.getLogger(__name__)

# "Most rows": a copy with a few rows changed (6%, say) is still marked, while independent models on the
# same scenes are near on far fewer rows (bench_copies.py measures both).
THRESHOLD = 0.8
POINTS_TELL = 95  # % of rows within 1 px from which the maintainers' line speaks of points, as it always did
MAX_CANDIDATES = 200  # earlier submissions checked per job
BUDGET_S = 30.0  # seconds one job may spend on the check (parsing uncached uploads is what costs)


class LikelyCopy(TypedDict):
    """``private/{id}/copy.json``: the earlier submission the new one copies, and how closely."""

    of: str
    model: str
    share: float  # rows matching within 1 px (exact ones included), 0-1, over the new submission's rows
    exact_share: float  # rows identical, 0-1
    rows: int  # the new submission's rows
    near_share: NotRequired[float]  # rows whose curves lie within NEAR_PX, 0-1 (absent from older marks)


def copy_path(submission_id: str) -> str:
    return f"private/{submission_id}/copy.json"


def read_copy(store: Storage, submission_id: str) -> LikelyCopy | None:
    data = store.read(copy_path(submission_id))
    return json.loads(data) if data else None


def copy_line(found: LikelyCopy) -> str:
    """The one line maintainers read (shares rounded down: 99.6% is not "100%"); the near share leads
    when the points alone do not tell the copy.

    >>> copy_line({"of": "s1", "model": "M", "share": 0.987, "exact_share": 0.5, "rows": 30, "near_share": 1.0})
    'Likely copy of M (s1): 98% of rows within 1 px, 50% identical'
    >>> copy_line({"of": "s1", "model": "M", "share": 0.0, "exact_share": 0.0, "rows": 30, "near_share": 0.94})
    'Likely copy of M (s1): 94% of rows within 5 px as traces (0% within 1 px, 0% identical)'
    """
    within, exact = _percent(found["share"]), _percent(found["exact_share"])
    near = _percent(found.get("near_share", found["share"]))
    points = f"{within}% of rows within 1 px, {exact}% identical"
    if within >= POINTS_TELL or near <= within:
        return f"Likely copy of {found['model']} ({found['of']}): {points}"
    traces = f"{near}% of rows within {NEAR_PX:g} px as traces"
    return f"Likely copy of {found['model']} ({found['of']}): {traces} ({within}% within 1 px, {exact}% identical)"


def _percent(share: float) -> int:
    return math.floor(100 * share + 1e-9)


def candidates(entry: Entry, entries: Sequence[Entry]) -> list[Entry]:
    """Earlier test submissions of other users with a result: entries on the board first, then the newest."""
    mine = (entry.request.created_at, entry.submission_id)
    found = [
        e
        for e in entries
        if e.request.split == Split.TEST
        and (e.request.created_at, e.submission_id) < mine
        and not e.same_user(entry.user)
        and _has_result(e)
    ]
    return sorted(found, key=lambda e: (not e.public, -e.created))


def _has_result(entry: Entry) -> bool:
    """Scored at least once: FINISHED, or queued again (a rescore) after a FINISHED result that still stands."""
    return entry.job.status != FAILED and entry.job.scorer_version is not None


class CopyFinder:
    """The worker's duplicate check, with its cache of parsed traces (one per worker process)."""

    def __init__(
        self,
        registry: Registry,
        cache_bytes: int = DEFAULT_CACHE_BYTES,
        max_candidates: int = MAX_CANDIDATES,
        budget_s: float = BUDGET_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.registry = registry
        self.cache = TraceCache(cache_bytes)
        self.max_candidates = max_candidates
        self.budget_s = budget_s
        self.clock = clock
        self._positions: dict[tuple[str, str, str], dict[tuple[str, str], int]] = {}

    def files(self, entry: Entry, data: bytes, key: AnswerKey) -> dict[str, bytes]:
        """``{copy.json: ...}`` for a test submission that copies an earlier one, else ``{}``. Never raises:
        a failed check is logged and the result is recorded without it."""
        if entry.request.split != Split.TEST:
            return {}
        try:
            found = self.find(entry, self.registry.entries(), data, key)
        except Exception:
            log.exception("the duplicate check of %s failed; its result is recorded without it", entry.submission_id)
            return {}
        return {copy_path(entry.submission_id): dump(dict(found))} if found else {}

    def find(self, entry: Entry, entries: Sequence[Entry], data: bytes, key: AnswerKey) -> LikelyCopy | None:
        """The earlier submission of another user that ``data`` (``entry``'s upload) copies, if any."""
        new = self._traces(entry.submission_id, key, lambda: data)
        if new is None or new.rows == 0:
            return None
        others = candidates(entry, entries)
        if len(others) > self.max_candidates:
            log.warning(
                "duplicate check of %s: %d earlier submissions, checking the first %d (entries on the board, then "
                "the newest)",
                entry.submission_id,
                len(others),
                self.max_candidates,
            )
            others = others[: self.max_candidates]
        best: tuple[Match, Entry] | None = None
        started = self.clock()
        for checked, other in enumerate(others):
            if self.clock() - started > self.budget_s:
                log.warning(
                    "duplicate check of %s: stopped after %d of %d candidates, over its %.0f s budget",
                    entry.submission_id,
                    checked,
                    len(others),
                    self.budget_s,
                )
                break
            old = self._traces(other.submission_id, key, partial(self._upload, other))
            match = None if old is None else compare(new, old, max(THRESHOLD, best[0].near_share if best else 0.0))
            if match is not None and (best is None or _better(match, other, *best)):
                best = (match, other)
        if best is None:
            return None
        match, original = best
        return LikelyCopy(
            of=original.submission_id,
            model=str(original.metadata.model),
            share=round(match.share, 4),
            exact_share=round(match.exact_share, 4),
            rows=match.rows,
            near_share=round(match.near_share, 4),
        )

    def _rows(self, key: AnswerKey) -> dict[tuple[str, str], int]:
        ident = (key.dataset, key.split, key.revision)
        if ident not in self._positions:
            self._positions = {ident: row_positions(key)}  # one split's rows at a time: the test split
        return self._positions[ident]

    def _traces(self, submission_id: str, key: AnswerKey, read: Callable[[], bytes | None]) -> Traces | None:
        positions = self._rows(key)

        def load() -> Traces | None:
            data = read()
            if data is None:
                log.warning("duplicate check: the upload of %s is missing; skipped", submission_id)
                return None
            try:
                return parse_traces(data, key, positions)
            except SubmissionError as error:  # e.g. an upload for an older answer key: nothing to compare
                log.info("duplicate check: the upload of %s cannot be read against this key: %s", submission_id, error)
                return None

        return self.cache.get((submission_id, key.dataset, key.split, key.revision), load)

    def _upload(self, entry: Entry) -> bytes | None:
        return self.registry.store.read(upload_path(entry.submission_id))


def _better(match: Match, other: Entry, best: Match, best_entry: Entry) -> bool:
    """More rows near, then more within 1 px, or the same from an earlier submission (the original rather
    than a copy of it)."""
    if (match.near_share, match.share) != (best.near_share, best.share):
        return (match.near_share, match.share) > (best.near_share, best.share)
    return (other.request.created_at, other.submission_id) < (best_entry.request.created_at, best_entry.submission_id)
