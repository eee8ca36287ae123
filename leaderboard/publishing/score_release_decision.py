"""The worker's release decision for a finished test job, written with its result (``release.json``).

Under ``ladder`` the new figure is compared with the submitter's *best released* figure, whatever
the model: among their other test submissions that are scored in the current rescore generation and
released. None: the submitter's first test figure is released. Otherwise the paired scene bootstrap
decides (``release.compare``). The reference is kept per submitter, as Blum & Hardt keep it per
participant, so a new model name buys nothing: a figure under a fresh name is compared with the same
best as any other (docs/MAINTAINERS.md, "Score release policy", says why not per model name).

Jobs of one batch are written together at its end, so a decision taken a moment ago may not be
in the store yet; the decisions of the jobs this worker holds (RUNNING) are kept in memory for
the next ones to compare with, so two submissions scored in one batch cannot both pass as "first".
Validation submissions are always released (their ground truth is public): no file is written.
"""

from __future__ import annotations

import csv
import io
import logging
from collections import OrderedDict

from leaderboard.config import Settings
from leaderboard.publishing.score_release import EXACT_RELEASE, Release, compare, read_release, release_path
from leaderboard.publishing.score_release_policy import policy_in_force
from leaderboard.records import FINISHED, RUNNING, ReleasePolicy, Split, rows_path
from leaderboard.statistics import SceneTotals, scene_totals
from leaderboard.storage import Entry, Registry, read_rows, read_summary
from scoring.summary import Summary

log = logging.getLogger(__name__)

KEPT = 16  # decisions kept in memory: two batches' worth (commit_budget.MAX_BATCH = 8)


class Releases:
    def __init__(self, settings: Settings, registry: Registry) -> None:
        self.settings = settings
        self.registry = registry
        self.store = registry.store
        self._recent: OrderedDict[str, tuple[Release, float | None, SceneTotals]] = OrderedDict()

    def files(self, entry: Entry, summary: Summary, files: dict[str, bytes]) -> dict[str, bytes]:
        """``{release path: decision}`` for a finished test job (``files``: its result files), else nothing."""
        if entry.request.split != Split.TEST:
            return {}
        totals = scene_totals(_parse(files.get(rows_path(entry.submission_id), b"")))
        release = self.decide(entry, totals)
        self._recent[entry.submission_id] = (release, summary.score, totals)
        self._recent.move_to_end(entry.submission_id)
        while len(self._recent) > KEPT:
            self._recent.popitem(last=False)
        if not release.released:
            log.info("%s withheld from its submitter: %s", entry.submission_id, release)
        return {release_path(entry.submission_id): release.to_bytes()}

    def decide(self, entry: Entry, totals: SceneTotals) -> Release:
        policy = policy_in_force(self.store, self.settings.release_policy)
        if policy == ReleasePolicy.EXACT:
            return EXACT_RELEASE
        best = self._best(entry)
        if best is None:
            return Release(ReleasePolicy.LADDER, True)
        best_id, best_score, best_totals = best
        better, best_ci, gap = compare(totals, best_totals)
        return Release(ReleasePolicy.LADDER, better, best_id, best_score, best_ci, gap)

    def _best(self, entry: Entry) -> tuple[str, float, SceneTotals] | None:
        """The submitter's best released test figure, any model: ``(id, score, scene totals)``."""
        best: tuple[str, float] | None = None
        for other in self.registry.entries():
            if (
                other.submission_id == entry.submission_id
                or other.request.split != Split.TEST
                or not other.same_user(entry.user)
            ):
                continue
            found = self._figure(other)
            if found is not None and (best is None or found[1] > best[1]):
                best = found
        if best is None:
            return None
        kept = self._recent.get(best[0])
        totals = kept[2] if kept is not None else scene_totals(read_rows(self.store, best[0]))
        return best[0], best[1], totals

    def _figure(self, other: Entry) -> tuple[str, float] | None:
        """``(id, score)`` of a released figure the submitter has seen, or None."""
        kept = self._recent.get(other.submission_id)
        if other.job.status == RUNNING and kept is not None:  # decided in this batch, not yet written
            release, score = kept[0], kept[1]
        elif other.job.status == FINISHED and not other.stale:
            release = read_release(self.store, other.submission_id) or EXACT_RELEASE  # scored before release.json
            summary = read_summary(self.store, other.submission_id)
            score = summary.score if summary is not None else None
        else:
            return None
        return (other.submission_id, score) if release.released and score is not None else None


def _parse(data: bytes) -> list[dict[str, str]]:
    """The per-row TSV as ``results.read_rows`` gives it."""
    return list(csv.DictReader(io.StringIO(data.decode()), delimiter="\t")) if data else []
