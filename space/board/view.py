"""The public leaderboard as people see it: rank, search, filters, sort, column groups, HTML (the CSV: ``csv_rows``).

Pure functions over the public rows (``Leaderboard.public_table()``, see ``table.COLUMNS``); no
gradio. Only public columns are read, so nothing private can reach the page or the CSV.
Ranks are by ``score`` (ties share a rank) and rank ranges by the paired significance test, both
counted over the ranked set of ``space.board.ranks`` (the one rule of every page); the straight-forward
baseline is the reference line, always shown and never ranked. By default each model shows once,
with its submitter's best entry; the others are hidden, not re-ranked.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from leaderboard.records import model_key as name_key
from scoring.penalty_table import EMBODIMENTS
from space.board.columns import (
    GROUP_CATEGORY,
    GROUP_DETAILS,
    GROUP_EMBODIMENT,
    GROUPS,
    METADATA_LABELS,
    SHORT,
    columns,
    sort_key,
)
from space.board.ranks import UNRANKED, is_flagged, ranked
from space.site.html import esc, number, parameters, table

Row = Mapping[str, object]

__all__ = [
    "GROUP_CATEGORY",
    "GROUP_DETAILS",
    "GROUP_EMBODIMENT",
    "GROUPS",
    "METADATA_LABELS",
    "SHORT",
    "UNRANKED",
    "is_flagged",
    "ranked",
]

# The labels an older page or API call sorted by; a header click sends the column key instead.
SORTS = ("Score", "Valid-only score", "Coverage", "Date", "Model", *EMBODIMENTS)
LEGACY_SORTS = {"Score": "score", "Valid-only score": "valid", "Coverage": "coverage", "Date": "date", "Model": "model"}
LEGACY_SORTS.update({e: f"emb:{e}" for e in EMBODIMENTS})

MAX_QUERY = 200  # characters of a search the board reads
MAX_WORDS = 8  # distinct words of a search it matches
MAX_ORGANISATION = 100  # characters of the organisation filter


@dataclass(frozen=True)
class Filters:
    """Which entries to show; the baseline is always shown (the reference line)."""

    open_weights: bool = False  # only entries with open weights
    params_min: float | None = None  # billions, inclusive; entries without a count drop out when set
    params_max: float | None = None
    organization: str = ""  # a part of the organisation's name, any case
    not_trained: bool = False  # only entries declaring no training or tuning on NaviTrace data
    single_run: bool = False  # only entries declaring a single run (not the best of n)

    def keep(self, row: Row) -> bool:
        if self.open_weights and row.get("open_weights") is not True:
            return False
        declared = _dict(row.get("declarations"))  # rows without declarations drop out of these two filters
        if self.not_trained and declared.get("trained_on") != "none":
            return False
        if self.single_run and declared.get("best_of") != 1:
            return False
        if self.params_min is not None or self.params_max is not None:
            count = row.get("parameters_b")
            if not isinstance(count, int | float):
                return False
            if (self.params_min is not None and count < self.params_min) or (
                self.params_max is not None and count > self.params_max
            ):
                return False
        wanted = self.organization[:MAX_ORGANISATION].strip().casefold()
        return not wanted or wanted in str(row.get("organization") or "").casefold()


@dataclass(frozen=True)
class BoardView:
    """What the reader asked to see."""

    split: str = "test"
    query: str = ""
    sort: str = "score"  # a column key (``score``, ``emb:Human``, ``cat:...``), or an old label of ``SORTS``
    groups: frozenset[str] = field(default_factory=lambda: frozenset({GROUP_EMBODIMENT}))
    breakdown: str | None = None  # a metadata field (``METADATA_FIELDS``) shown as extra columns
    descending: bool | None = None  # None: the column's natural order (numbers high first, names A to Z)
    best_only: bool = True  # one row per model: its best entry
    filters: Filters = field(default_factory=Filters)
    hide_flagged: bool = True  # flagged entries (leaderboard/storage/flags.py) off the board until one click shows them
    show_hub: bool = False  # rows reported on the Hub, not scored here: off until one click shows them

    @property
    def sort_column(self) -> str:
        return LEGACY_SORTS.get(self.sort, self.sort)

    @property
    def is_descending(self) -> bool:
        natural = sort_key(self.sort_column)[1]
        return natural if self.descending is None else self.descending


def splits(rows: Iterable[Row]) -> list[str]:
    """The splits present, test first."""
    present = {str(r.get("split")) for r in rows}
    return [s for s in ("test", "validation") if s in present] or ["test"]


def best_per_model(rows: Iterable[Row]) -> list[dict[str, object]]:
    """The first (best) row of each model of each submitter (``model_key``); rows keep their order and ranks.

    >>> rows = [{"model": "A", "score": 9}, {"model": "a", "score": 3}, {"model": "B"},
    ...         {"model": "A", "score": 5, "model_group": "other-submitter"}]
    >>> [r.get("score") for r in best_per_model(rows)]
    [9, None, 5]
    """
    seen: set[tuple[str, ...]] = set()
    kept = []
    for row in rows:
        key = model_key(row)
        if row.get("kind") != "baseline" and key in seen:
            continue
        seen.add(key)
        kept.append(dict(row))
    return kept


def model_key(row: Row) -> tuple[str, ...]:
    """What "one model" means for best entry per model: the table's ``model_group`` (one submitter's entries of
    one model name), or, for rows without one (reported figures, Hub rows, tables written before it), the kind,
    organisation and model name as they look. Submitters are not public, so two people's entries stay apart
    only through ``model_group``."""
    group = row.get("model_group")
    if isinstance(group, str) and group:
        return ("group", group)
    names = (name_key(str(row.get(k) or "")) for k in ("organization", "model"))
    return (str(row.get("kind") or ""), *names)


def select(rows: Iterable[Row], view: BoardView) -> list[dict[str, object]]:
    """The rows of the view's split: ranked, then best per model (or all), filtered, searched, sorted.

    Ranks and rank ranges count the ranked set (``space.board.ranks``): the split's entries, flagged ones only when
    shown. Best entry per model, the search and the filters hide rows without re-ranking: searching for a
    model shows its place on the whole board, not 1, and a model's best entry has the rank it has on the
    page of all entries, on its entry page and in the CSV.
    """
    mine = [r for r in ranked(rows, view.split, flagged=not view.hide_flagged) if shown_kind(r, view)]
    found = best_per_model(mine) if view.best_only else mine
    words = query_words(view.query)
    found = [
        r
        for r in found
        if r.get("kind") == "baseline" or (view.filters.keep(r) and (not words or _matches(_haystack(r), words)))
    ]
    key, _ = sort_key(view.sort_column)
    present = [r for r in found if key(r) is not None]
    absent = [r for r in found if key(r) is None]
    if view.is_descending:
        # ``reversed`` twice keeps ties in score order under a descending sort (``sorted`` is stable).
        present = list(reversed(sorted(reversed(present), key=key)))
    else:
        present = sorted(present, key=key)
    return present + absent


def shown_kind(row: Row, view: BoardView) -> bool:
    """Whether the two default-on switches let ``row`` through: flagged entries and Hub-reported rows are
    left out, and a hidden flagged entry is out of the ranked set too: it takes no rank from the others."""
    if row.get("kind") == "hub":
        return view.show_hub
    return not (view.hide_flagged and is_flagged(row))


def query_words(query: str) -> list[str]:
    """The search words: the query cut to ``MAX_QUERY`` characters before it is split (a search box
    never needs more), at most ``MAX_WORDS`` distinct words. A 2 MB query cost 3.6 s of CPU before.

    >>> query_words("  Qwen  qwen 7B ")
    ['qwen', '7b']
    """
    words = dict.fromkeys(query[:MAX_QUERY].casefold().split())
    return list(words)[:MAX_WORDS]


def _matches(haystack: str, words: list[str]) -> bool:
    return all(w in haystack for w in words)


def render(rows: Iterable[Row], view: BoardView) -> str:
    """The table as HTML (every value escaped); sortable headers say the sort (``aria-sort`` and an arrow)."""
    shown = select(rows, view)
    categories = (
        sorted({c for r in shown for c in _dict(r.get("per_category"))}) if GROUP_CATEGORY in view.groups else []
    )
    values = sorted({v for r in shown for v in _meta(r, view.breakdown)}) if view.breakdown else []
    cols = columns(view.groups, categories, view.breakdown, values, shown)
    sorted_by = (view.sort_column, view.is_descending)
    return table(
        [c.header for c in cols],
        [[c.cell(r) for c in cols] for r in shown],
        css="nt-table nt-board",
        row_classes=[f"nt-row-{esc(r.get('kind'))}{' nt-row-flagged' if is_flagged(r) else ''}" for r in shown],
        header_titles=[c.tip for c in cols],
        numeric=[c.numeric for c in cols],
        column_classes=[c.css for c in cols],
        sort_keys=[c.key for c in cols],
        sorted_by=sorted_by,
        element_id="leaderboard-table",
        empty=_empty_text(view),
    )


def _empty_text(view: BoardView) -> str:
    if query_words(view.query):
        return f"No entry matches '{view.query.strip()[:MAX_QUERY]}'."
    if view.filters != Filters():
        return "No entry passes the filters."
    return f"No entry on the {view.split} split yet."


def summary_line(rows: Iterable[Row], view: BoardView | str) -> str:
    """The line above the table; it counts only what the reader sees (the search and the filters applied).

    "3 entries on the test split (1 reported); best score 41.20", "1 entry matches 'qwen'; best 12.00",
    "No entry matches 'x'." (and no best score then).
    """
    view = BoardView(split=view) if isinstance(view, str) else view
    rows = list(rows)
    return _summary(rows, view) + _hidden_note(rows, view)


def _hidden_note(rows: list[Row], view: BoardView) -> str:
    """What the two switches keep off the board, said so that nobody misses it."""
    mine = [r for r in rows if r.get("split") == view.split]
    flagged = sum(is_flagged(r) for r in mine) if view.hide_flagged else 0
    hub = sum(r.get("kind") == "hub" for r in mine) if not view.show_hub else 0
    notes = []
    if flagged:
        notes.append(f"{flagged} flagged {('entry', 'entries')[flagged != 1]} hidden (untick Hide flagged)")
    shown = sum(is_flagged(r) for r in mine) if not view.hide_flagged else 0
    if shown:
        notes.append(
            f"{shown} flagged {('entry', 'entries')[shown != 1]} shown and ranked with the others: ranks and ranges "
            "here count them (the default board, entry pages and the CSV do not)"
        )
    if hub:
        notes.append(f"{hub} Hub-reported {('result', 'results')[hub != 1]} not shown")
    return f" {'; '.join(notes)}." if notes else ""


def _summary(rows: list[Row], view: BoardView) -> str:
    shown = [r for r in select(rows, view) if r.get("kind") != "baseline"]
    words, filtered = query_words(view.query), view.filters != Filters()
    if not shown:
        if words:
            return f"No entry matches '{esc(view.query.strip()[:MAX_QUERY])}' on the {view.split} split."
        if filtered:
            return f"No entry on the {view.split} split passes the filters."
        return f"No model on the {view.split} split yet: only the straight-forward baseline."
    reported = sum(r.get("kind") == "reported" for r in shown)
    hub = sum(r.get("kind") == "hub" for r in shown)
    best = max((_float(r.get("score")) for r in shown if r.get("score") is not None), default=None)
    noun = ("model", "models") if view.best_only else ("entry", "entries")
    count = f"{len(shown)} {noun[len(shown) != 1]}"
    extra = f" ({reported} reported from publications)" if reported else ""
    extra += f" ({hub} reported on the Hub, not scored here)" if hub else ""
    if words:
        verb = "matches" if len(shown) == 1 else "match"
        return f"{count} {verb} '{esc(view.query.strip()[:MAX_QUERY])}'{extra}; best score {number(best)}."
    where = " pass the filters" if filtered else ""
    return f"{count} on the {view.split} split{where}{extra}; best score {number(best)}."


def _meta(row: Row, name: str | None) -> dict:
    return _dict(_dict(row.get("per_metadata")).get(name)) if name else {}


def _dict(value: object) -> dict:
    return value if isinstance(value, dict) else {}


def _float(value: object) -> float:
    try:
        return float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return float("-inf")


def _haystack(row: Row) -> str:
    """What a search reads: names, description, id, and the parameter count as people write it ("7B")."""
    words = [str(row.get(k) or "") for k in ("model", "organization", "description", "submission_id")]
    if row.get("parameters_b") is not None:
        words.append(parameters(row.get("parameters_b")))
    return " ".join(words).casefold()
