"""The public leaderboard as people see it: rank, search, sort, column groups, HTML and CSV.

Pure functions over the public rows (``Leaderboard.public_table()``, see ``table.COLUMNS``); no
gradio. Only public columns are read, so nothing private can reach the page or the CSV.
Ranks are by ``score`` (ties share a rank); the straight-forward baseline is the reference line,
always shown and never ranked.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from scoring.aggregate import METADATA_FIELDS
from scoring.evaluate import spreadsheet_safe
from scoring.penalty_table import EMBODIMENTS
from space.pages.html import badge, esc, link, number, parameters, percent, table

Row = Mapping[str, object]

GROUP_EMBODIMENT, GROUP_CATEGORY, GROUP_DETAILS = "Per embodiment", "Per category", "Details"
GROUPS = (GROUP_EMBODIMENT, GROUP_CATEGORY, GROUP_DETAILS)
SORTS = ("Score", "Valid-only score", "Coverage", "Date", "Model", *EMBODIMENTS)
METADATA_LABELS = {
    "urban_rural": "Urban / rural",
    "lighting_conditions": "Lighting",
    "weather_conditions": "Weather",
    "natural_structured": "Natural / structured",
    "task_type": "Task type",
}
SHORT = {"Legged Robot": "Legged", "Wheeled Robot": "Wheeled"}
SCORE_TIP = "Mean over every expected row of the split; invalid or missing rows count as 0. 100 = perfect, 0 = baseline"


MAX_QUERY = 200  # characters of a search the board reads
MAX_WORDS = 8  # distinct words of a search it matches


@dataclass(frozen=True)
class BoardView:
    """What the reader asked to see."""

    split: str = "test"
    query: str = ""
    sort: str = "Score"
    groups: frozenset[str] = field(default_factory=lambda: frozenset({GROUP_EMBODIMENT}))
    breakdown: str | None = None  # a metadata field (``METADATA_FIELDS``) shown as extra columns


def splits(rows: Iterable[Row]) -> list[str]:
    """The splits present, test first."""
    present = {str(r.get("split")) for r in rows}
    return [s for s in ("test", "validation") if s in present] or ["test"]


def ranked(rows: Iterable[Row], split: str) -> list[dict[str, object]]:
    """The rows of ``split`` best first, each with ``rank`` (``None`` for the baseline).

    >>> rows = [{"split": "test", "kind": "submission", "score": 5.0, "model": "a"},
    ...         {"split": "test", "kind": "baseline", "score": 0.0, "model": "b"},
    ...         {"split": "test", "kind": "reported", "score": 5.0, "model": "c"}]
    >>> [(r["model"], r["rank"]) for r in ranked(rows, "test")]
    [('a', 1), ('c', 1), ('b', None)]
    """
    mine = [dict(r) for r in rows if r.get("split") == split]
    mine.sort(key=lambda r: (r.get("score") is None, -_float(r.get("score")), str(r.get("submitted_at") or "")))
    rank, previous, seen = 0, None, 0
    for row in mine:
        if row.get("kind") == "baseline":
            row["rank"] = None
            continue
        seen += 1
        if row.get("score") != previous:
            rank, previous = seen, row.get("score")
        row["rank"] = rank
    return mine


def select(rows: Iterable[Row], view: BoardView) -> list[dict[str, object]]:
    """Ranked rows of the view's split, filtered by the query (the baseline always stays), sorted."""
    found = ranked(rows, view.split)
    words = query_words(view.query)
    if words:
        found = [r for r in found if r.get("kind") == "baseline" or _matches(_haystack(r), words)]
    if view.sort != "Score":
        key, reverse = _sort_key(view.sort)
        present = [r for r in found if key(r) is not None]
        absent = [r for r in found if key(r) is None]
        found = sorted(present, key=key, reverse=reverse) + absent  # stable: ties keep the score order
    return found


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
    """The table as HTML (every value escaped)."""
    shown = select(rows, view)
    categories = (
        sorted({c for r in shown for c in _dict(r.get("per_category"))}) if GROUP_CATEGORY in view.groups else []
    )
    values = _breakdown_values(shown, view.breakdown)
    columns = _columns(view, categories, values)
    headers = [c.header for c in columns]
    body = [[c.cell(r) for c in columns] for r in shown]
    classes = [f"nt-row-{esc(r.get('kind'))}" for r in shown]
    return table(
        headers,
        body,
        css="nt-table nt-board",
        row_classes=classes,
        header_titles=[c.tip for c in columns],
        numeric=[c.numeric for c in columns],
        element_id="leaderboard-table",
        empty="No entry matches the search.",
    )


def summary_line(rows: Iterable[Row], split: str) -> str:
    """ "3 models on the test split (1 reported); best score 41.20" for the line above the table."""
    mine = [r for r in rows if r.get("split") == split and r.get("kind") != "baseline"]
    if not mine:
        return f"No model on the {split} split yet: only the straight-forward baseline."
    reported = sum(r.get("kind") == "reported" for r in mine)
    best = max((_float(r.get("score")) for r in mine if r.get("score") is not None), default=None)
    extra = f" ({reported} reported from publications)" if reported else ""
    return f"{len(mine)} entr{'y' if len(mine) == 1 else 'ies'} on the {split} split{extra}; best score {number(best)}."


# -- CSV -------------------------------------------------------------------------------------------

CSV_BASE = (
    "rank",
    "kind",
    "model",
    "organization",
    "model_link",
    "paper_link",
    "source",
    "open_weights",
    "parameters_b",
    "split",
    "score",
    "score_valid_only",
    "coverage",
    "n_expected",
    "n_valid",
    "n_invalid",
    "n_missing",
)
CSV_TAIL = ("submitted_at", "scorer_version", "dataset_revision", "submission_id", "description")


def csv_bytes(rows: Iterable[Row], split: str) -> bytes:
    """Every public column of the split, breakdowns flattened (``per_embodiment.Human``, ...)."""
    shown = ranked(rows, split)
    categories = sorted({c for r in shown for c in _dict(r.get("per_category"))})
    metadata = [(f, v) for f in METADATA_FIELDS for v in sorted({v for r in shown for v in _meta(r, f)})]
    header = [*CSV_BASE]
    header += [f"per_embodiment.{e}" for e in EMBODIMENTS]
    header += [f"per_category.{c}" for c in categories]
    header += [f"per_metadata.{f}.{v}" for f, v in metadata]
    header += [*CSV_TAIL]
    out = io.StringIO()
    # CR LF ends (RFC 4180): the csv module quotes a cell holding a CR only then, and an unquoted
    # CR would start a new row in a spreadsheet, where "'\r=1" leaves a live "=1".
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(header)
    for r in shown:
        line = [r.get(c) for c in CSV_BASE]
        line += [_dict(r.get("per_embodiment")).get(e) for e in EMBODIMENTS]
        line += [_dict(r.get("per_category")).get(c) for c in categories]
        line += [_meta(r, f).get(v) for f, v in metadata]
        line += [r.get(c) for c in CSV_TAIL]
        writer.writerow([_csv_cell(v) for v in line])
    return out.getvalue().encode("utf-8")


def _csv_cell(value: object) -> str:
    """Text that a spreadsheet would run as a formula gets a leading quote (CSV injection); numbers stay numbers."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | float):
        return repr(value) if isinstance(value, float) else str(value)
    return spreadsheet_safe(str(value))


# -- columns ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Column:
    header: str
    cell: Callable[[Row], str]
    tip: str | None = None
    numeric: bool = False


def _columns(view: BoardView, categories: Sequence[str], values: Sequence[str]) -> list[_Column]:
    cols = [
        _Column("Rank", lambda r: esc(r.get("rank") or "—"), "Rank by score; ties share a rank", True),
        _Column("Model", _model_cell),
        _Column("Organisation", lambda r: esc(r.get("organization") or "—")),
        _Column("Score", lambda r: f"<strong>{number(r.get('score'))}</strong>", SCORE_TIP, True),
        _Column("Coverage", lambda r: percent(r.get("coverage")), "Share of expected rows with a valid trace", True),
        _Column(
            "Valid-only",
            lambda r: number(r.get("score_valid_only")),
            "Mean over valid rows only (the published notebook's 'Total Score')",
            True,
        ),
    ]
    if GROUP_EMBODIMENT in view.groups:
        cols += [
            _Column(SHORT.get(e, e), _nested("per_embodiment", e), f"Score over the {e} rows (coverage-aware)", True)
            for e in EMBODIMENTS
        ]
    cols += [
        _Column(c, _nested("per_category", c), f"Score over the rows of samples in category {c}", True)
        for c in categories
    ]
    if view.breakdown:
        label = METADATA_LABELS.get(view.breakdown, view.breakdown)
        cols += [
            _Column(f"{label}: {v}", _metadata_cell(view.breakdown, v), f"Score over samples with {label} = {v}", True)
            for v in values
        ]
    cols += [
        _Column("Open weights", _open_weights),
        _Column("Params", lambda r: esc(parameters(r.get("parameters_b")))),
        _Column("Date", lambda r: f'<span class="nt-nowrap">{esc(r.get("submitted_at") or "—")}</span>'),
    ]
    if GROUP_DETAILS in view.groups:
        cols += [
            _Column("Rows valid / invalid / missing", _counts, "Rows of the split: valid, invalid, missing"),
            _Column("Description", _description),
            _Column("Scorer / data", lambda r: esc(_versions(r))),
            _Column("Id", lambda r: f"<code>{esc(r.get('submission_id'))}</code>"),
        ]
    return cols


def _model_cell(row: Row) -> str:
    name = link(row.get("model") or "—", row.get("model_link"))
    kind = row.get("kind")
    if kind == "baseline":
        return f"{name} {badge('baseline', 'baseline', 'Score 0 by definition: the reference line')}"
    if kind == "reported":
        source = link("source", row.get("source"), "nt-source")
        tip = "A published figure, not scored by this Space"
        return f"{name} {badge('reported', 'reported', tip)} {source}"
    paper = row.get("paper_link")
    return f"{name} {link('paper', paper, 'nt-source')}" if paper else name


def _open_weights(row: Row) -> str:
    value = row.get("open_weights")
    if value is True:
        return badge("open", "open", "Open weights")
    return "closed" if value is False else "—"


def _nested(column: str, name: str):
    return lambda r: number(_dict(r.get(column)).get(name))


def _metadata_cell(name: str, value: str):
    return lambda r: number(_meta(r, name).get(value))


def _counts(row: Row) -> str:
    if row.get("n_expected") is None:
        return "—"
    return esc(f"{row.get('n_valid')} / {row.get('n_invalid')} / {row.get('n_missing')} of {row.get('n_expected')}")


def _description(row: Row) -> str:
    text = str(row.get("description") or "")
    short = text if len(text) <= 120 else text[:117] + "…"
    return f'<span title="{esc(text)}">{esc(short)}</span>' if text else "—"


def _versions(row: Row) -> str:
    parts = [str(row[k]) for k in ("scorer_version", "dataset_revision") if row.get(k)]
    return " · ".join(parts) or "—"


def _breakdown_values(rows: Sequence[Row], name: str | None) -> list[str]:
    if not name:
        return []
    return sorted({v for r in rows for v in _meta(r, name)})


def _meta(row: Row, name: str) -> dict:
    return _dict(_dict(row.get("per_metadata")).get(name))


def _dict(value: object) -> dict:
    return value if isinstance(value, dict) else {}


def _float(value: object) -> float:
    try:
        return float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return float("-inf")


def _haystack(row: Row) -> str:
    return " ".join(str(row.get(k) or "") for k in ("model", "organization", "description", "submission_id")).casefold()


def _sort_key(sort: str):
    """``(key, reverse)``: numbers high first, the date newest first, the model A to Z."""
    if sort == "Model":
        return (lambda r: str(r.get("model") or "").casefold() or None), False
    if sort == "Date":
        return (lambda r: r.get("submitted_at") or None), True
    column = {"Valid-only score": "score_valid_only", "Coverage": "coverage"}.get(sort)
    if column:
        return (lambda r: r.get(column)), True
    if sort in EMBODIMENTS:
        return (lambda r: _dict(r.get("per_embodiment")).get(sort)), True
    raise ValueError(f"sort {sort!r}: expected one of {', '.join(SORTS)}")
