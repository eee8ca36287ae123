"""How figures and ranks moved from one release's board to another's (the changelog, ``?since=``, My submissions).

Pure functions over two public tables (``table.COLUMNS`` rows). Ranks are the one rank of ``space.board.ranks.ranked``
(the default board's, the entry page's and the CSV's: among the unflagged entries of the split), so a move
reads the same as the two boards. An entry on one board only is new (or gone); the baseline and Hub-reported
rows are never ranked and never listed. An entry the new release has not rescored yet (its row still says an
older release) is listed as waiting, with its old figures on both sides.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from space.board.ranks import UNRANKED, ranked
from space.site.html import number

Row = Mapping[str, object]


@dataclass(frozen=True)
class Move:
    submission_id: str
    model: str
    kind: str  # "submission" or "reported"
    old_rank: int | None  # None: not on the old board
    new_rank: int | None  # None: not on the new board
    old_score: float | None
    new_score: float | None
    waiting: bool = False  # still scored under an older release on the new board

    @property
    def change(self) -> int | None:
        """Places gained (positive) or lost (negative); ``None`` when the entry is on one board only."""
        if self.old_rank is None or self.new_rank is None:
            return None
        return self.old_rank - self.new_rank

    def change_text(self) -> str:
        """``▲ 2``, ``▼ 1``, ``=``, ``new``, ``gone``, ``waiting``: what the rank-change cell says.

        >>> [Move("a", "A", "submission", o, n, 1.0, 1.0).change_text() for o, n in ((3, 1), (1, 2), (2, 2))]
        ['▲ 2', '▼ 1', '=']
        """
        if self.waiting:
            return "waiting"
        if self.old_rank is None:
            return "new"
        if self.new_rank is None:
            return "gone"
        change = self.old_rank - self.new_rank
        return "=" if change == 0 else f"▲ {change}" if change > 0 else f"▼ {-change}"

    @property
    def changed(self) -> bool:
        return not self.waiting and (self.old_rank != self.new_rank or self.old_score != self.new_score)


def release_name(row: Row) -> str:
    value = row.get("release")
    return value if isinstance(value, str) and value else "v1"  # a table written before releases: v1


def current_release(rows: Iterable[Row]) -> str:
    """The release of a live board: its baseline's (reported, Hub and baseline rows are always in the current one).

    >>> current_release([{"kind": "submission", "release": "v1"}, {"kind": "baseline", "release": "v2"}])
    'v2'
    """
    rows = list(rows)
    found = next((r for r in rows if r.get("kind") == "baseline"), None) or next(iter(rows), None)
    return release_name(found) if found is not None else "v1"


def moves(old_rows: Iterable[Row], new_rows: Iterable[Row], split: str = "test") -> list[Move]:
    """Every ranked entry of ``split`` on either board: new rank first (entries gone from the new board last).

    >>> old = [{"submission_id": i, "model": i, "kind": "submission", "split": "test", "score": s}
    ...        for i, s in (("a", 50.0), ("b", 40.0))]
    >>> new = [{**old[0], "score": 30.0}, old[1], {**old[1], "submission_id": "c", "model": "c", "score": 1.0}]
    >>> [(m.submission_id, m.old_rank, m.new_rank, m.change_text()) for m in moves(old, new)]
    [('b', 2, 1, '▲ 1'), ('a', 1, 2, '▼ 1'), ('c', None, 3, 'new')]
    """
    new_list = list(new_rows)
    board = current_release(new_list)
    old = {str(r.get("submission_id")): r for r in ranked(old_rows, split) if r.get("kind") not in UNRANKED}
    new = {str(r.get("submission_id")): r for r in ranked(new_list, split) if r.get("kind") not in UNRANKED}
    found = []
    for ident in [*new, *(i for i in old if i not in new)]:
        before, after = old.get(ident), new.get(ident)
        either = after or before
        assert either is not None
        waiting = after is not None and after.get("kind") == "submission" and release_name(after) != board
        found.append(
            Move(
                ident,
                str(either.get("model") or "—"),
                str(either.get("kind")),
                _rank(before),
                _rank(after),
                _score(before),
                _score(after),
                waiting,
            )
        )
    return found


def rescored_notes(old_rows: Iterable[Row], new_rows: Iterable[Row], new_name: str) -> dict[str, str]:
    """For each entry rescored under ``new_name`` whose figure or rank changed: what its submitter reads.

    >>> old = [{"submission_id": "a", "kind": "submission", "split": "test", "score": 41.2, "release": "v1"},
    ...        {"submission_id": "b", "kind": "reported", "split": "test", "score": 41.0, "release": "v1"}]
    >>> new = [{**old[0], "score": 40.8, "release": "v2"}, {**old[1], "release": "v2"}]
    >>> rescored_notes(old, new, "v2")
    {'a': 'Rescored under v2: 41.20 → 40.80 (rank 1 → 2)'}
    """
    notes = {}
    for move in moves(old_rows, new_rows):
        if move.kind != "submission" or move.waiting or move.old_rank is None or not move.changed:
            continue
        rank = f"rank {move.old_rank} → {move.new_rank}" if move.old_rank != move.new_rank else f"rank {move.new_rank}"
        figures = f"{number(move.old_score)} → {number(move.new_score)}"
        notes[move.submission_id] = f"Rescored under {new_name}: {figures} ({rank})"
    return notes


def _rank(row: Row | None) -> int | None:
    value = row.get("rank") if row is not None else None
    return value if isinstance(value, int) else None


def _score(row: Row | None) -> float | None:
    value = row.get("score") if row is not None else None
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None
