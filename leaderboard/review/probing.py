"""Test submissions of one user that differ from an earlier one in only a few rows: the probing signal.

Someone hill-climbing on the hidden test set changes a handful of rows between submissions and reads
the change of the aggregate: the difference of two scores over files that differ in *k* rows says
something about those *k* rows. The daily quota slows this down, the disclosure rule
(``disclosure.py``) stops the one-row version, and this module shows maintainers the rest.

Two submissions are compared row by row on what the scorer stored for each expected row (the row's
status and raw value, ``private/{id}/rows.tsv``): a row whose prediction changed almost surely has a
different raw value, and a row that stayed missing stays missing. Only maintainers call this; the
per-row figures it reads never leave the server, only the counts do.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from leaderboard.records import FINISHED, Split
from leaderboard.review.submission_view import SubmissionView

FEW_ROWS = 10  # at most this many rows changed: a deliberate edit rather than a new model's output
EARLIER_COMPARED = 20  # each submission is compared with its user's latest earlier ones, no more
_CACHE_SIZE = 2_000  # fingerprints kept (a submission's rows do not change until it is rescored)

Fingerprint = tuple[str, ...]  # one cell per expected row, in the answer key's row order


@dataclass(frozen=True)
class ProbePair:
    user: str
    earlier: str  # submission id
    later: str
    changed_rows: int
    compared_rows: int
    later_created_at: str


@dataclass(frozen=True)
class Submitted:
    """What the comparison needs of one finished test submission."""

    submission_id: str
    user: str
    created_at: str
    scored_at: str  # part of the cache key: a rescore writes new rows


def fingerprint(rows: Iterable[dict[str, str]]) -> Fingerprint:
    """The rows as comparable cells: ``status:raw`` (``raw`` is ``repr`` of the float, exact)."""
    return tuple(f"{row.get('status', '')}:{row.get('raw', '')}" for row in rows)


def changed_rows(a: Fingerprint, b: Fingerprint) -> int | None:
    """Rows that differ, or ``None`` when the two were scored against different row sets."""
    if len(a) != len(b):
        return None
    return sum(x != y for x, y in zip(a, b, strict=True))


class ProbeFinder:
    """Finds close pairs, reading each submission's rows once (``rows_of``) and caching the fingerprint."""

    def __init__(self, rows_of: Callable[[str], Sequence[dict[str, str]]], few: int = FEW_ROWS) -> None:
        self._rows_of = rows_of
        self.few = few
        self._cache: OrderedDict[tuple[str, str], Fingerprint] = OrderedDict()

    def pairs(self, submitted: Sequence[Submitted]) -> list[ProbePair]:
        """Each later submission's closest earlier one of the same user, when ``1 <= changed <= few``;
        newest first. Identical files (0 rows changed) are resubmissions, not probes."""
        by_user: dict[str, list[Submitted]] = {}
        for s in sorted(submitted, key=lambda s: s.created_at):
            by_user.setdefault(s.user.casefold(), []).append(s)
        found = []
        for mine in by_user.values():
            for i, later in enumerate(mine):
                closest = self._closest(later, mine[max(0, i - EARLIER_COMPARED) : i])
                if closest is not None:
                    found.append(closest)
        return sorted(found, key=lambda p: p.later_created_at, reverse=True)

    def _closest(self, later: Submitted, earlier: Sequence[Submitted]) -> ProbePair | None:
        mine = self._fingerprint(later)
        best: ProbePair | None = None
        for other in earlier:
            changed = changed_rows(self._fingerprint(other), mine)
            if changed is None or not 1 <= changed <= self.few:
                continue
            if best is None or changed < best.changed_rows:
                best = ProbePair(
                    later.user, other.submission_id, later.submission_id, changed, len(mine), later.created_at
                )
        return best

    def _fingerprint(self, s: Submitted) -> Fingerprint:
        key = (s.submission_id, s.scored_at)
        if key in self._cache:
            self._cache.move_to_end(key)
            return self._cache[key]
        made = fingerprint(self._rows_of(s.submission_id))
        self._cache[key] = made
        while len(self._cache) > _CACHE_SIZE:
            self._cache.popitem(last=False)
        return made


def finished_tests(views: Iterable[SubmissionView]) -> list[Submitted]:
    """The finished test submissions among maintainers' views."""
    return [
        Submitted(
            v.submission_id,
            v.user,
            v.created_at,
            f"{v.attempts}:{v.summary.scorer_version}:{v.summary.dataset_revision}",
        )
        for v in views
        if v.split == Split.TEST and v.status == FINISHED and v.summary is not None
    ]
