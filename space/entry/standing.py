"""Where an entry stands among the others, in the words of its page and of My submissions:
the entries significantly better than it and below it, and those it is tied with, i.e. that share its
upper-bound rank (``space.board.ranks``: ``rank_counts``, ``rank_ub``, ``rank_ub_tied_with``)."""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import quote

from space.site.html import esc

Row = Mapping[str, object]


def standing(row: Row) -> str:
    """How the rank stands: how many entries it is significantly better than and tied with, how many are
    significantly better and how many not significantly different; a flagged entry's rank explained."""
    counts = row.get("rank_counts")
    said = []
    if isinstance(counts, Mapping):
        better, apart, worse = (int(counts.get(k) or 0) for k in ("better", "tied", "worse"))
        said.append(f"<strong>Significantly better than {_entries(worse)}; {tied_text(row)}.</strong>")
        said.append(
            f"Significantly below {_entries(better)}, not significantly different from {_entries(apart)} "
            "(one-sided 95%, paired over the same bootstrap resamples of the scenes)."
        )
    if isinstance(row.get("flag"), Mapping) and row.get("rank") is not None:
        said.append(
            "Flagged entries are hidden from the default board: the rank is where this score places it among "
            "the unflagged entries, and it takes no rank from them."
        )
    return f"<p id='entry-standing'>{' '.join(said)}</p>" if said else ""


def landed_html(row: Row) -> str:
    """Where a submitter's entry landed, for My submissions: its rank and upper-bound rank, how many entries it is
    significantly better than and tied with, and its page (which has its citation)."""
    counts = row.get("rank_counts")
    if row.get("rank") is None or not isinstance(counts, Mapping):
        return ""
    worse = int(counts.get("worse") or 0)
    href = f"/entry/{quote(str(row.get('submission_id') or ''), safe='')}"
    return (
        f"<p class='nt-note nt-note-info' id='my-standing'>On the board: rank {esc(row.get('rank'))}"
        f"{upper_bound(row)}. Significantly better than {_entries(worse)}; {esc(tied_text(row))}. "
        f"<a href='{esc(href)}' target='_blank' rel='noopener'>Its entry page</a> has the details and a citation.</p>"
    )


def tied_text(row: Row) -> str:
    """ "tied with 3 other entries (sharing upper-bound rank 2)", or "alone at upper-bound rank 1"."""
    ub, others = row.get("rank_ub"), row.get("rank_ub_tied_with")
    if not isinstance(ub, int) or not isinstance(others, int):
        return "no upper-bound rank"
    if others == 0:
        return f"tied with no other entry (alone at upper-bound rank {ub})"
    return f"tied with {others} other {'entry' if others == 1 else 'entries'} (sharing upper-bound rank {ub})"


def upper_bound(row: Row) -> str:
    """ " · upper-bound rank <b>2</b>" beside a rank; "" without one."""
    ub = row.get("rank_ub")
    return f" · upper-bound rank <b>{esc(ub)}</b>" if isinstance(ub, int) else ""


def _entries(count: int) -> str:
    return f"{count} {'entry' if count == 1 else 'entries'}"
