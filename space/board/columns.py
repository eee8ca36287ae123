"""The board's columns: header, cell, tooltip, sort key, and whether a phone shows it.

A column's ``key`` is what a header click sorts by (``score``, ``emb:Human``, ``cat:<name>``,
``meta:<field>:<value>``); ``sort_key`` turns it into a value per row and the column's natural
direction (numbers high first, the date newest first, names A to Z). Columns marked secondary are
hidden on a phone (``.nt-sec`` in ``space/workspace/theme.py``), so rank, model and score fit 390 px.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from leaderboard.statistics import format_rank_range as rank_range  # one wording: the entry page's too
from scoring.penalty_table import EMBODIMENTS
from space.site.html import badge, esc, link, number, parameters, percent

Row = Mapping[str, object]
Key = Callable[[Row], Any]  # a number, a string or a bool of one kind per column, or None

GROUP_EMBODIMENT, GROUP_CATEGORY, GROUP_DETAILS = "Per embodiment", "Per category", "Details"
GROUPS = (GROUP_EMBODIMENT, GROUP_CATEGORY, GROUP_DETAILS)
METADATA_LABELS = {
    "urban_rural": "Urban / rural",
    "lighting_conditions": "Lighting",
    "weather_conditions": "Weather",
    "natural_structured": "Natural / structured",
    "task_type": "Task type",
}
SHORT = {"Legged Robot": "Legged", "Wheeled Robot": "Wheeled"}
SCORE_TIP = (
    "Mean over every expected row of the split; invalid or missing rows count as 0. 100 = perfect, 0 = baseline. "
    "In brackets: the 95% bootstrap interval over scenes"
)
RANK_TIP = (
    "Rank by score among the ranked entries (flagged ones only when shown); ties share a rank. "
    "Best entry per model and the search hide rows but never re-rank"
)
RANK_RANGE_TIP = (
    "From 1 + the entries significantly better (the upper-bound rank: entries sharing it are tied) to the "
    "number of ranked entries minus those significantly worse. Significantly: higher in more than 95% of the "
    "paired bootstrap resamples of the scenes. Only entries with per-row scores have one"
)
UB_TIP = (
    "Upper-bound rank: 1 + the ranked entries significantly better (higher in more than 95% of the paired "
    "bootstrap resamples of the scenes). Entries sharing it are statistically tied ('tied ×n': n share it)"
)
TRIES_TIP = (
    "Test-split submissions the submitter made: for this model / in all (cancelled ones not counted). "
    "A submitter may test privately and choose which entry is public; this says how many tries stood behind it"
)
HUB_TIP = "Reported on the Hub, not scored here: a figure the model's repository publishes for this benchmark"
FLAG_KINDS = {
    "contamination": "contamination",
    "unverified": "unverified",
    "duplicate": "duplicate",
    "other": "flagged",
}
SECONDARY = "nt-sec"


@dataclass(frozen=True)
class Column:
    header: str
    cell: Callable[[Row], str]
    key: str | None = None  # what a click on the header sorts by; None: not sortable
    tip: str | None = None
    numeric: bool = False
    css: str = SECONDARY


def columns(
    groups: Collection[str],
    categories: Sequence[str],
    breakdown: str | None,
    values: Sequence[str],
    rows: Sequence[Row],
) -> list[Column]:
    """The columns of a view, in order; the rank range only when some shown row carries one (``space.board.ranks``)."""
    cols = [
        Column("Rank", lambda r: esc(r.get("rank") or "—"), "rank", RANK_TIP, True, ""),
        *([Column("Rank (UB)", ub_cell, "rank_ub", UB_TIP, True, "")] if any(r.get("rank_ub") for r in rows) else []),
        Column("Model", model_cell, "model", "The model; click for its entry page", css="nt-model"),
        Column("Score", score_cell, "score", SCORE_TIP, True, "nt-score"),
    ]
    if any(r.get("rank_bounds") for r in rows):
        cols.append(Column("Rank range", rank_range_cell, "rank_range", RANK_RANGE_TIP))
    cols += [
        Column("Tries", tries_cell, "tries", TRIES_TIP, True),
        Column("Organisation", lambda r: esc(r.get("organization") or "—"), "org"),
        Column("Coverage", lambda r: percent(r.get("coverage")), "coverage", "Share of rows with a valid trace", True),
        Column(
            "Valid-only",
            lambda r: number(r.get("score_valid_only")),
            "valid",
            "Mean over valid rows only (the published notebook's 'Total Score')",
            True,
        ),
    ]
    if GROUP_EMBODIMENT in groups:
        cols += [
            Column(SHORT.get(e, e), _embodiment_cell(e), f"emb:{e}", f"Score over the {e} rows (coverage-aware)", True)
            for e in EMBODIMENTS
        ]
    cols += [
        Column(c, _nested_cell("per_category", c), f"cat:{c}", f"Score over the samples in category {c}", True)
        for c in categories
    ]
    if breakdown:
        label = METADATA_LABELS.get(breakdown, breakdown)
        cols += [
            Column(f"{label}: {v}", _metadata_cell(breakdown, v), f"meta:{breakdown}:{v}", f"{label} = {v}", True)
            for v in values
        ]
    cols += [
        Column("Paper / code", links_cell, None, "Links the submitter or the publication gave"),
        Column("Open weights", _open_weights, "open"),
        Column("Params", lambda r: esc(parameters(r.get("parameters_b"))), "params", "Parameters", True),
        Column("Date", lambda r: f'<span class="nt-nowrap">{esc(r.get("submitted_at") or "—")}</span>', "date"),
    ]
    if GROUP_DETAILS in groups:
        cols += [
            Column("Rows valid / invalid / missing", _counts, None, "Rows of the split: valid, invalid, missing"),
            Column("Description", _description),
            Column("Scorer / data", lambda r: esc(_versions(r)), None, "Release, scorer version, answer-key revision"),
            Column("Id", lambda r: f"<code>{esc(r.get('submission_id'))}</code>", "id"),
        ]
    return cols


def sort_key(key: str) -> tuple[Key, bool]:
    """``(value of a row or None, natural direction is descending)`` for a column key; ValueError names the key."""
    fixed: dict[str, tuple[Key, bool]] = {
        "rank": (lambda r: r.get("rank"), False),
        "score": (lambda r: _num(r.get("score")), True),
        "valid": (lambda r: _num(r.get("score_valid_only")), True),
        "coverage": (lambda r: _num(r.get("coverage")), True),
        "model": (lambda r: str(r.get("model") or "").casefold() or None, False),
        "org": (lambda r: str(r.get("organization") or "").casefold() or None, False),
        "date": (lambda r: r.get("submitted_at") or None, True),
        "params": (lambda r: _num(r.get("parameters_b")), True),
        "open": (lambda r: None if r.get("open_weights") is None else bool(r.get("open_weights")), True),
        "id": (lambda r: str(r.get("submission_id") or "") or None, False),
        "rank_range": (lambda r: _pair(r.get("rank_bounds")), False),
        "rank_ub": (lambda r: _num(r.get("rank_ub")), False),
        "tries": (lambda r: _num(r.get("submissions_model")), True),
    }
    if key in fixed:
        return fixed[key]
    kind, _, name = key.partition(":")
    if kind == "emb" and name in EMBODIMENTS:
        return (lambda r: _num(_dict(r.get("per_embodiment")).get(name))), True
    if kind == "cat" and name:
        return (lambda r: _num(_dict(r.get("per_category")).get(name))), True
    field, _, value = name.partition(":")
    if kind == "meta" and field in METADATA_LABELS and value:
        return (lambda r: _num(_dict(_dict(r.get("per_metadata")).get(field)).get(value))), True
    raise ValueError(f"sort {key[:80]!r}: expected a column key such as score, model, date, params, emb:Human")


# -- cells -----------------------------------------------------------------------------------------


def interval(value: object) -> str | None:
    """``[low, high]`` as "[34.10, 38.50]"; None when there is no interval (reported rows, withheld figures).

    >>> interval([34.1, 38.5]), interval(None)
    ('[34.10, 38.50]', None)
    """
    pair = _pair(value)
    return None if pair is None else f"[{number(pair[0])}, {number(pair[1])}]"


def score_cell(row: Row) -> str:
    """The score in bold and its interval after it (a smaller, muted line under it on a phone)."""
    shown = f"<strong>{number(row.get('score'))}</strong>"
    ci = interval(row.get("score_ci"))
    return shown if ci is None else f'{shown} <span class="nt-ci" title="95% interval">{esc(ci)}</span>'


def ub_cell(row: Row) -> str:
    """The upper-bound rank, and under it "tied ×n" when n ranked entries share it (read as "tied with n − 1
    others"); "—" without one (reported rows, the baseline, withheld figures).

    >>> ub_cell({"rank_ub": 2, "rank_ub_tied_with": 0}), ub_cell({})
    ('<span class="nt-ub">2</span>', '—')
    """
    ub, tied = row.get("rank_ub"), row.get("rank_ub_tied_with")
    if not isinstance(ub, int):
        return "—"
    shown = f'<span class="nt-ub">{ub}</span>'
    if not isinstance(tied, int) or tied < 1:
        return shown
    words = tied_words(tied)
    tip = f"{words}: {tied + 1} ranked entries share upper-bound rank {ub} (statistically tied)"
    return (
        f'{shown}<span class="nt-tie" title="{esc(tip)}"><span aria-hidden="true">tied ×{tied + 1}</span>'
        f'<span class="nt-vh">, {words}</span></span>'
    )


def tied_words(others: int) -> str:
    """ "tied with 3 others", "tied with 1 other".

    >>> tied_words(1), tied_words(3)
    ('tied with 1 other', 'tied with 3 others')
    """
    return f"tied with {others} other{'' if others == 1 else 's'}"


def rank_range_cell(row: Row) -> str:
    """ "2–5", with how many ranked entries are significantly better, tied and worse on hover; "—" without one."""
    shown = esc(rank_range(row.get("rank_bounds")))
    counts = _dict(row.get("rank_counts"))
    if not counts:
        return shown
    better, tied, worse = (counts.get(k) for k in ("better", "tied", "worse"))
    tip = f"{better} significantly better, {tied} not significantly different, {worse} significantly worse"
    return f'<span title="{esc(tip)}">{shown}</span>'


def model_cell(row: Row) -> str:
    kind, name = row.get("kind"), row.get("model") or "—"
    if kind == "baseline":
        return f"{esc(name)} {badge('baseline', 'baseline', 'Score 0 by definition: the reference line')}"
    if kind == "reported":
        return f"{esc(name)} {badge('reported', 'reported', 'A published figure, not scored by this Space')}"
    if kind == "hub":
        return f"{link(name, row.get('model_link'), 'nt-link')} {badge('Hub', 'hub', HUB_TIP)}"
    entry = quote(str(row.get("submission_id") or ""), safe="")
    return f'<a class="nt-entry" href="/?entry={esc(entry)}">{esc(name)}</a>{flag_badge(row.get("flag"))}'


def flag_badge(flag: object) -> str:
    """A flagged entry's mark: the kind, with the reason on hover (the entry page has the link)."""
    if not isinstance(flag, Mapping):
        return ""
    kind = str(flag.get("kind") or "other")
    tip = f"Flagged by the maintainers ({kind}): {flag.get('reason') or ''}"
    return " " + badge(f"⚑ {FLAG_KINDS.get(kind, 'flagged')}", "flag", tip)


def tries_cell(row: Row) -> str:
    """ "3 / 5": test submissions for this model / in all; "—" for rows without counts."""
    model, total = row.get("submissions_model"), row.get("submissions_total")
    if not isinstance(model, int) or not isinstance(total, int):
        return "—"
    return f'<span title="{model} for this model, {total} in all">{model} / {total}</span>'


def links_cell(row: Row) -> str:
    """Paper or code, the model card, and for a reported figure its source; "—" when none is given."""
    found = [
        link(text, row.get(column), "nt-link")
        for text, column in (
            ("paper", "paper_link"),
            ("code", "code_link"),
            ("model", "model_link"),
            ("source", "source"),
        )
        if row.get(column)
    ]
    return " · ".join(found) or "—"


def _embodiment_cell(embodiment: str) -> Callable[[Row], str]:
    def cell(row: Row) -> str:
        value = number(_dict(row.get("per_embodiment")).get(embodiment))
        ci = interval(_dict(row.get("per_embodiment_ci")).get(embodiment))
        return value if ci is None else f'<span title="95% interval {esc(ci)}">{value}</span>'

    return cell


def _nested_cell(column: str, name: str) -> Callable[[Row], str]:
    return lambda r: number(_dict(r.get(column)).get(name))


def _metadata_cell(name: str, value: str) -> Callable[[Row], str]:
    return lambda r: number(_dict(_dict(r.get("per_metadata")).get(name)).get(value))


def _open_weights(row: Row) -> str:
    value = row.get("open_weights")
    if value is True:
        return badge("open", "open", "Open weights")
    return "closed" if value is False else "—"


def _counts(row: Row) -> str:
    if row.get("n_expected") is None:
        return "—"
    return esc(f"{row.get('n_valid')} / {row.get('n_invalid')} / {row.get('n_missing')} of {row.get('n_expected')}")


def _description(row: Row) -> str:
    text = str(row.get("description") or "")
    short = text if len(text) <= 120 else text[:117] + "…"
    return f'<span title="{esc(text)}">{esc(short)}</span>' if text else "—"


def _versions(row: Row) -> str:
    parts = [str(row[k]) for k in ("release", "scorer_version", "dataset_revision") if row.get(k)]
    return " · ".join(parts) or "—"


def _pair(value: object) -> tuple[float, float] | None:
    if isinstance(value, list | tuple) and len(value) == 2 and all(isinstance(v, int | float) for v in value):
        return float(value[0]), float(value[1])
    return None


def _num(value: object) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _dict(value: object) -> dict:
    return value if isinstance(value, dict) else {}
