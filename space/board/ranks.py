"""One rule for ranks and rank ranges, on the board in any view, on the entry page, in the CSV and the JSON.

The *ranked set* of a split is its submission and reported rows, flagged entries left out unless the reader
shows them (``?flagged=1``); the baseline and Hub-reported rows are never ranked. Over that set, for a row
with score ``s``:

- ``rank`` = 1 + the ranked rows scoring strictly above ``s`` (ties share the better rank);
- ``rank_bounds`` = ``[best, worst]``: ``best`` = 1 + the ranked rows significantly better (the upper-bound
  rank, LMArena's "Rank (UB)": rows sharing it are statistically tied), ``worst`` = the size of the set
  minus the ranked rows significantly worse. "Significantly better" is the table's ``significantly_better``
  (``leaderboard/statistics/uncertainty.py``: one-sided 95% on the paired scene resamples of the intervals), counted
  here only when the other row's score is also higher, so ``best <= rank <= worst`` always holds;
- ``rank_ub`` = ``best``, named on its own for the CSV and the JSON, and ``rank_ub_tied_with`` = how many other
  ranked rows share it: rows sharing an upper-bound rank read as tied on every page.

Best entry per model, the search and the filters only hide rows: an entry keeps the rank it has in the
ranked set, so the default board, the entry page and the CSV say the same. A row outside the set (a flagged
entry on the default board, the entry page or the CSV) is placed where its score puts it among the set,
counting itself, and takes no rank from anyone. Only entries with per-row scores (a ``significantly_better``
list) get a range; reported rows, the baseline, Hub rows, withheld scores and old tables show "—".
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from collections.abc import Iterable, Mapping

Row = Mapping[str, object]
UNRANKED = ("baseline", "hub")  # the reference line, and figures reported on the Hub (not scored here)


def is_flagged(row: Row) -> bool:
    return isinstance(row.get("flag"), Mapping)


def ranked(rows: Iterable[Row], split: str, flagged: bool = False) -> list[dict[str, object]]:
    """The rows of ``split`` best first (copies), each with ``rank``, ``rank_bounds``, ``rank_counts``, ``rank_ub``
    and ``rank_ub_tied_with``.

    ``flagged``: whether flagged entries are in the ranked set (the board with "Hide flagged" off); by
    default they are not, which is the one rank of every entry wherever no view is chosen.

    >>> rows = [{"split": "test", "kind": "submission", "score": 5.0, "model": "a"},
    ...         {"split": "test", "kind": "baseline", "score": 0.0, "model": "b"},
    ...         {"split": "test", "kind": "reported", "score": 5.0, "model": "c"}]
    >>> [(r["model"], r["rank"]) for r in ranked(rows, "test")]
    [('a', 1), ('c', 1), ('b', None)]
    """
    mine = [dict(r) for r in rows if r.get("split") == split]
    mine.sort(key=lambda r: (r.get("score") is None, -score(r), str(r.get("submitted_at") or "")))
    place(mine, [r for r in mine if r.get("kind") not in UNRANKED and (flagged or not is_flagged(r))])
    return mine


def place(rows: list[dict[str, object]], ranked_set: list[dict[str, object]]) -> None:
    """Write ``rank``, ``rank_bounds`` and ``rank_counts`` into ``rows``, counted over ``ranked_set``.

    ``rank_counts``: how many rows of the set are significantly better, tied (neither way) and significantly
    worse; ``None`` with the bounds for rows without a ``significantly_better`` list.
    """
    scores = sorted(score(r) for r in ranked_set)
    members = {str(r.get("submission_id")): r for r in ranked_set}
    known = {str(r.get("submission_id")): r for r in rows}
    worse: Counter[str] = Counter()  # id -> rows of the set it is significantly better than
    for row in ranked_set:
        for other in set(better_ids(row) or ()):
            if other in known and score(known[other]) > score(row):
                worse[other] += 1
    for row in rows:
        if row.get("kind") in UNRANKED:
            row.update(rank=None, rank_bounds=None, rank_counts=None)
            continue
        mine, me = score(row), str(row.get("submission_id"))
        row["rank"] = 1 + len(scores) - bisect_right(scores, mine)
        better = better_ids(row) if row.get("kind") == "submission" else None
        if better is None:
            row.update(rank_bounds=None, rank_counts=None)
            continue
        above = sum(1 for o in set(better) if o != me and o in members and score(members[o]) > mine)
        below = worse[me]
        size = len(ranked_set) + (me not in members)
        row["rank_bounds"] = [1 + above, size - below]
        row["rank_counts"] = {"better": above, "tied": size - 1 - above - below, "worse": below}
    share_upper_bounds(rows, members)


def share_upper_bounds(rows: list[dict[str, object]], members: Mapping[str, Row]) -> None:
    """Write ``rank_ub`` (the upper-bound rank, ``rank_bounds[0]``; None without bounds) and ``rank_ub_tied_with``
    (how many *other* rows of the ranked set share it: the entries it reads as tied with) into ``rows``."""
    for row in rows:
        bounds = row.get("rank_bounds")
        row["rank_ub"] = bounds[0] if isinstance(bounds, list) else None
    shared = Counter(r["rank_ub"] for r in rows if r["rank_ub"] is not None and str(r.get("submission_id")) in members)
    for row in rows:
        inside = str(row.get("submission_id")) in members
        row["rank_ub_tied_with"] = None if row["rank_ub"] is None else shared[row["rank_ub"]] - inside


def better_ids(row: Row) -> list[str] | None:
    """The row's ``significantly_better`` ids; None when it has none (no per-row scores, an old table)."""
    value = row.get("significantly_better")
    return [str(v) for v in value] if isinstance(value, list) else None


def score(row: Row) -> float:
    """The score to rank by; a missing (withheld) one ranks below every number, tied with the other missing."""
    value = row.get("score")
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else float("-inf")
