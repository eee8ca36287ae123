"""The board's page and its embed: intro, controls (a GET form), summary, table, CSV link, help, charts.

Everything is in the HTML the server sends; ``static/board.js`` only saves reloads. The split is a pair
of links, the search and the "Filters and columns" panel (closed by default, so the first rows are in
the first screen) one GET form; a header link sorts. Drawn once per results version and view.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from datetime import UTC, date, datetime

from space.board import status_line
from space.board import view as board
from space.board.address import DEFAULT, address, query, sort_parts, view_of
from space.board.cache import Snapshot
from space.board.charts import charts_html
from space.board.columns import METADATA_LABELS
from space.board.controls import SPLITS, Controls
from space.board.table import table_html
from space.site.about import inline
from space.site.html import esc, number
from space.site.words import BOARD_HELP, DATASET, PAPER, TITLE

Row = dict[str, object]
SUBMIT = "/submit/"
CSV = "/board.csv"  # space/board/csv_route.py
GROUP_CHOICES = (  # (code in the address, the board's group, the label)
    ("emb", board.GROUP_EMBODIMENT, "Per embodiment"),
    ("cat", board.GROUP_CATEGORY, "Per task category"),
    ("details", board.GROUP_DETAILS, "Details (rows, description, versions, id)"),
)
VALIDATION_NOTE = (
    "The validation split is for development: its ground truth is public, so its results stay private to "
    "whoever submitted them (each submitter sees theirs, row by row, in My submissions and the Explorer). "
    "Only figures reported from publications or on the Hub can appear here, and none has been reported yet. "
    "The ranking is on the test split."
)


def board_body(snapshot: Snapshot, controls: Controls, notes: str = "") -> str:
    """The board page's main content for ``controls``; ``notes`` (the release it shows, what changed since another:
    ``changelog_page.board_notes``) go under the title."""
    view = view_of(controls)
    intro = (
        '<section class="nt-intro" aria-labelledby="board-title"><div class="nt-intro-text">'
        '<h1 id="board-title">Leaderboard</h1><p>Vision-language models draw a 2D navigation trace into a '
        "first-person photo for an embodiment (Human, Legged Robot, Wheeled Robot, Bicycle). 100 is a perfect trace, "
        f'0 the straight-forward baseline. <a href="{PAPER}">Paper</a> · <a href="{DATASET}">Dataset</a> · '
        '<a href="/about">How scoring works</a></p></div>'
        f'<a class="nt-button nt-primary" id="submit-link" href="{SUBMIT}">Submit your model</a></section>'
    )
    return intro + notes + controls_html(controls) + results_html(snapshot, controls, view)


def embed_body(snapshot: Snapshot, controls: Controls) -> str:
    """The board for an iframe: the split links, the summary and the table, compact, no header or nav."""
    view = view_of(controls)
    rows = board.select(snapshot.rows, view)
    full = address(controls)
    title = f'<h1><a href="{esc(full)}">{esc(TITLE)}</a></h1>'
    head = f'<div class="nt-embed-head">{title}{splits_html(controls, "/embed")}</div>'
    return (
        f'<div class="nt-embed" id="board-embed">{head}{summary_html(snapshot, controls, view, rows, "/embed")}'
        f"{table_html(rows, view, controls, '/embed', empty_text(controls, view, rows))}"
        f'<p class="nt-small">Full board, entries and charts: <a href="{esc(full)}">{esc(TITLE)}</a></p></div>'
    )


def results_html(snapshot: Snapshot, controls: Controls, view: board.BoardView) -> str:
    """What the form and the header links change: summary, table, CSV, help, charts (``#board-results``)."""
    rows = board.select(snapshot.rows, view)
    chart_rows = [r for r in snapshot.rows if board.shown_kind(r, board.BoardView(split=view.split))]
    charts = charts_html(chart_rows, view.split)
    if not charts:
        later = f"The charts appear once scored submissions of the {esc(view.split)} split are on the board."
        charts = f'<p id="charts-empty" class="nt-small">{later}</p>'
    return (
        f'<div id="board-results">{summary_html(snapshot, controls, view, rows, "/")}'
        f"{table_html(rows, view, controls, '/', empty_text(controls, view, rows))}{ties_legend(rows)}"
        f'<div class="nt-help">{inline(BOARD_HELP)}</div>'
        '<section id="board-charts" aria-labelledby="charts-title"><h2 id="charts-title">Charts</h2>'
        f"{charts}</section></div>"
    )


def ties_legend(rows: Sequence[Row]) -> str:
    """What "Rank (UB)" and the tied groups mean, under a table that shows them ("" when no row has one)."""
    if not any(isinstance(r.get("rank_ub"), int) for r in rows):
        return ""
    return (
        '<p class="nt-help nt-ties-legend" id="board-ties-legend"><strong>Rank (UB)</strong>: the upper-bound rank, '
        "1 + the entries significantly better (higher in more than 95% of the paired bootstrap resamples of the "
        "scenes, one-sided). Entries that share it are statistically tied: "
        '<span class="nt-tie-key nt-tie-a">bracketed and tinted together</span> when the board is sorted by score, '
        "and marked “tied ×n” with n the number of entries sharing it. Rank orders by the score alone.</p>"
    )


def splits_html(controls: Controls, path: str = "/") -> str:
    links = "".join(_split_link(controls, path, s) for s in SPLITS)
    return f'<nav class="nt-splits" id="board-splits" aria-label="Split">{links}</nav>'


def _split_link(controls: Controls, path: str, split: str) -> str:
    current = ' aria-current="page"' if split == controls.split else ""
    href = address(controls, path, split=split)
    return f'<a href="{esc(href)}" target="_self"{current}>{split.capitalize()}</a>'


def controls_html(controls: Controls) -> str:
    """The split links, then one GET form: the search, and the filters and columns in a closed panel."""
    key, direction = sort_parts(controls)
    state = [("split", "" if controls.split == "test" else controls.split), ("sort", "" if key == "score" else key)]
    state += [("dir", direction), ("release", controls.release), ("since", controls.since)]
    hidden = "".join(f'<input type="hidden" name="{n}" value="{esc(v)}">' for n, v in state if v)
    active = count_active(controls)
    badge = f' <span class="nt-count">({active} set)</span>' if active else ""
    return (
        f'<div class="nt-controls">{splits_html(controls)}'
        '<form class="nt-board-form" id="board-form" method="get" action="/" role="search">'
        f'<span id="board-state">{hidden}</span>'
        '<label class="nt-vh" for="board-search">Search the board</label>'
        f'<input type="search" id="board-search" name="q" value="{esc(controls.query)}" maxlength="{board.MAX_QUERY}" '
        'placeholder="Search: model, organisation, 7B…" autocomplete="off">'
        '<button type="submit" class="nt-button">Search</button>'
        f'<details id="board-filters"><summary>Filters and columns{badge}</summary>{_panel(controls)}</details></form>'
        f'<span id="board-csv"><a class="nt-button" id="board-csv-link" href="{esc(_csv_href(controls))}" '
        "download>"
        f'Download CSV<span class="nt-csv-split"> ({esc(controls.split)})</span></a></span></div>'
    )


def _csv_href(controls: Controls) -> str:
    """The CSV of the split, of the release shown when one is named (``space/board/csv_route.py``)."""
    release = f"&release={controls.release}" if controls.release else ""
    return f"{CSV}?split={controls.split}{release}"


def _panel(controls: Controls) -> str:
    groups = "".join(
        _check("cols", code, label, group in controls.groups, f"board-cols-{code}")
        for code, group, label in GROUP_CHOICES
    )
    options = "".join(
        f'<option value="{esc(v)}"{" selected" if v == controls.breakdown else ""}>{esc(t)}</option>'
        for v, t in (("", "none"), *METADATA_LABELS.items())
    )
    entries = (
        _check("all", "1", "All entries (not only each model's best)", not controls.best_only, "board-all")
        + _check("flagged", "1", "Show flagged entries", not controls.hide_flagged, "board-show-flagged")
        + _check("hub", "1", "Show Hub-reported results", controls.show_hub, "board-show-hub")
    )
    filters = (
        _check("open", "1", "Open weights only", controls.open_weights, "board-open")
        + _check("notrained", "1", "Not trained on NaviTrace", controls.not_trained, "board-not-trained")
        + _check("single", "1", "Single run only", controls.single_run, "board-single-run")
        + _number("pmin", "Parameters from (B)", controls.params_min)
        + _number("pmax", "Parameters up to (B)", controls.params_max)
        + '<span class="nt-field"><label for="board-org">Organisation</label>'
        f'<input id="board-org" name="org" value="{esc(controls.organization)}" maxlength="{board.MAX_ORGANISATION}">'
        "</span>"
    )
    return (
        '<div class="nt-panel"><fieldset><legend>Column groups</legend><input type="hidden" name="cols" value="">'
        f'{groups}<span class="nt-field"><label for="board-by">Metadata breakdown</label>'
        f'<select id="board-by" name="by">{options}</select></span></fieldset>'
        f"<fieldset><legend>Entries</legend>{entries}</fieldset><fieldset><legend>Filters</legend>{filters}</fieldset>"
        '<p class="nt-panel-actions"><button type="submit" class="nt-button nt-primary">Apply</button> '
        f'<a href="{esc(address(Controls(split=controls.split, release=controls.release)))}">Reset to the default '
        "board</a></p></div>"
    )


def _check(name: str, value: str, label: str, checked: bool, ident: str) -> str:
    mark = " checked" if checked else ""
    return (
        f'<span class="nt-check"><input type="checkbox" id="{ident}" name="{name}" value="{value}"{mark}>'
        f'<label for="{ident}">{esc(label)}</label></span>'
    )


def _number(name: str, label: str, value: float | None) -> str:
    shown = "" if value is None else f"{value:g}"
    return (
        f'<span class="nt-field"><label for="board-{name}">{esc(label)}</label><input id="board-{name}" name="{name}" '
        f'type="number" min="0" step="any" inputmode="decimal" value="{shown}"></span>'
    )


def count_active(controls: Controls) -> int:
    """How many of the panel's settings differ from the default board (shown on its closed summary)."""
    base = dataclasses.replace(controls, split=DEFAULT.split, query="", sort=DEFAULT.sort, release="", since="")
    return len(query(base))


def summary_html(snapshot: Snapshot, controls: Controls, view: board.BoardView, rows: Sequence[Row], path: str) -> str:
    """The line above the table: what is shown, what is hidden (with a link to show it), when it last changed."""
    scored = [r for r in rows if r.get("kind") != "baseline"]
    plain = not board.query_words(view.query) and view.filters == board.Filters()
    if not scored and plain and view.split == "validation":
        text = esc(VALIDATION_NOTE)
    elif not scored and plain:
        text = (
            f"No model on the {esc(view.split)} split yet: the straight-forward baseline (score 0) is the line to beat."
            " "
            f'<a href="{SUBMIT}">Submit your model</a>.'
        )
    else:
        text = board.summary_line(snapshot.rows, view).replace(" (untick Hide flagged)", "")
    mine = [r for r in snapshot.rows if r.get("split") == view.split]
    more = []
    if view.hide_flagged and any(board.is_flagged(r) for r in mine):
        more.append(f'<a href="{esc(address(controls, path, hide_flagged=False))}" target="_self">Show flagged</a>')
    if not view.show_hub and any(r.get("kind") == "hub" for r in mine):
        more.append(f'<a href="{esc(address(controls, path, show_hub=True))}" target="_self">Show Hub-reported</a>')
    links = f" {' · '.join(more)}" if more else ""
    status = status_line.SLOT if path == "/" else ""  # scoring's live line, put in per request (status_line.py)
    return f'<p id="board-summary" role="status">{text}{links} {updated_html(snapshot)}{status}</p>'


def last_updated(snapshot: Snapshot) -> datetime | date | None:
    """When the results last changed: the change this process saw, else the newest submission date."""
    days = [d for r in snapshot.rows if (d := _day(r.get("submitted_at"))) is not None]
    newest = max(days, default=None)
    if snapshot.changed_at is not None:
        seen = datetime.fromtimestamp(snapshot.changed_at, UTC)
        if newest is None or seen.date() >= newest:
            return seen
    return newest


def updated_html(snapshot: Snapshot) -> str:
    when = last_updated(snapshot)
    if when is None:
        return ""
    if isinstance(when, datetime):
        text, stamp = f"{when.day} {when:%b %Y, %H:%M} UTC", f"{when:%Y-%m-%dT%H:%M}Z"
    else:
        text, stamp = f"{when.day} {when:%b %Y}", when.isoformat()
    return f'<span class="nt-updated" id="board-updated">Last updated <time datetime="{stamp}">{text}</time>.</span>'


def empty_text(controls: Controls, view: board.BoardView, rows: Sequence[Row]) -> str:
    if board.query_words(view.query):
        return f"No entry matches “{view.query.strip()[: board.MAX_QUERY]}”."
    if view.filters != board.Filters():
        return "No entry passes the filters."
    if view.split == "validation":
        return "No reported figure for the validation split yet."
    return f"No entry on the {view.split} split yet."


def description(snapshot: Snapshot, controls: Controls) -> str:
    """The page's description for search engines and link previews: what is ranked and who leads."""
    view = board.BoardView(split=controls.split)
    scored = [r for r in board.select(snapshot.rows, view) if r.get("kind") not in ("baseline",)]
    lead = "Vision-language models ranked on NaviTrace, a benchmark of 2D navigation traces for four embodiments"
    if not scored:
        return f"{lead}. No model on the {controls.split} split yet."
    best = scored[0]
    return (
        f"{lead}: {len(scored)} models on the {controls.split} split; "
        f"best {best.get('model')} with {number(best.get('score'))} (100 = perfect, 0 = straight-line baseline)."
    )


def _day(value: object) -> date | None:
    try:
        return date.fromisoformat(str(value or "")[:10])
    except ValueError:
        return None
