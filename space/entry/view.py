"""The entry page (``/?entry=<submission_id>``): everything public about one row of the board.

Pure functions over a public table row (``leaderboard.publishing.table.COLUMNS``) and its group intervals
(``leaderboard.statistics.uncertainty_compare``); no gradio. Only rows of the public table can be shown, so a
private or unknown id reads as "no public entry" whichever it is.
Charts are HTML bars with whiskers for the 95% interval: they wrap on a phone and need no plotting
library.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

from leaderboard.statistics import GroupFigure, format_difference, format_interval, format_rank_range, tries_text
from scoring.penalty_table import EMBODIMENTS
from space.board.view import METADATA_LABELS, ranked, splits
from space.entry.standing import standing, upper_bound
from space.site.html import TRUST_CSS, badge, esc, link, number, parameters, percent, safe_url, table

Row = Mapping[str, object]
MAX_ID = 120  # characters of an id read from the URL (ids are ~40)
KINDS = {"reported": "reported figure", "baseline": "baseline", "hub": "reported on the Hub, not scored here"}
TRAINED = {"none": "no", "validation": "yes, on the validation split", "test": "yes, on the test split's images"}
CI_HELP = (
    "Brackets: the 95% confidence interval (1,000 bootstrap resamples of the split's images; all embodiments "
    "of one image are drawn together). Rank: among the board's entries, flagged ones left out, ties sharing it. "
    "Rank range: from 1 + the entries significantly better (higher in more than 95% of the same resamples, "
    "paired) to the number of entries minus those significantly worse; entries sharing its first number are tied."
)
CSS = (
    TRUST_CSS
    + """
.nt-entry h2 { margin: 0 0 4px; }
.nt-ci-bars { margin: 6px 0 14px; font-size: 0.88rem; }
.nt-ci-row { display: grid; grid-template-columns: minmax(6rem, 11rem) 1fr minmax(9rem, auto); gap: 2px 10px;
  align-items: center; padding: 2px 0; }
.nt-ci-track { position: relative; height: 16px; background: var(--background-fill-secondary); border-radius: 3px; }
.nt-ci-bar { position: absolute; top: 3px; height: 10px; background: #3b82f6; border-radius: 2px; opacity: 0.75; }
.nt-ci-bar.nt-ci-neg { background: #ef4444; }
.nt-ci-whisker { position: absolute; top: 7px; height: 2px; background: var(--body-text-color); }
.nt-ci-whisker::before, .nt-ci-whisker::after { content: ""; position: absolute; top: -5px; width: 2px; height: 12px;
  background: var(--body-text-color); }
.nt-ci-whisker::before { left: 0; } .nt-ci-whisker::after { right: 0; }
.nt-ci-zero { position: absolute; top: 0; bottom: 0; width: 1px; background: var(--body-text-color-subdued); }
.nt-ci-value { font-variant-numeric: tabular-nums; white-space: nowrap; text-align: right; }
@media (max-width: 600px) { .nt-ci-row { grid-template-columns: 1fr auto; }
  #compare-table th, #compare-table td { padding: 4px 3px; font-size: 0.78rem; }
  .nt-ci-row .nt-ci-track { grid-column: 1 / -1; grid-row: 2; } }
"""
)


def entry_id(query: Mapping[str, str], name: str = "entry") -> str | None:
    """The id asked for in the URL, cut to ``MAX_ID`` characters (empty or absent: ``None``)."""
    value = str(query.get(name) or "")[:MAX_ID].strip()
    return value or None


def find(rows: Iterable[Row], submission_id: str) -> dict[str, object] | None:
    """The public row of ``submission_id`` with its one ``rank``, ``rank_bounds`` and ``rank_counts``
    (``space.board.ranks``: among the unflagged entries, as on the default board and in the CSV); ``None`` when it is
    not public."""
    rows = list(rows)
    for split in splits(rows):
        for row in ranked(rows, split):
            if row.get("submission_id") == submission_id:
                return row
    return None


def choices(rows: Iterable[Row]) -> list[tuple[str, str]]:
    """``(label, id)`` of every public row, test first, best first: what the pickers offer."""
    rows = list(rows)
    return [(label(r), str(r["submission_id"])) for split in splits(rows) for r in ranked(rows, split)]


def label(row: Row) -> str:
    rank = f"#{row['rank']} " if row.get("rank") is not None else ""
    return f"{rank}{row.get('model') or '?'} ({row.get('split')}, {number(row.get('score'))})"


def not_found(submission_id: str) -> str:
    return (
        f'<div class="nt-note nt-note-warn" id="entry-missing">No public entry has the id “{esc(submission_id)}”. '
        "It may be private, awaiting approval, withdrawn, or mistyped: pick one of the board's entries above.</div>"
    )


def entry_html(row: Row, groups: Sequence[GroupFigure]) -> str:
    """The page of one public row: headline, facts, links, the two charts, the metadata breakdown."""
    kind = str(row.get("kind"))
    tag = f" {badge(KINDS[kind], kind)}" if kind in KINDS else ""
    headline = (
        f'<p class="nt-big" id="entry-score">Score <b>{number(row.get("score"))}</b> '
        f"<span title='95% confidence interval'>{format_interval(row.get('score_ci'))}</span> · rank "
        f"<b>{esc(row.get('rank') if row.get('rank') is not None else '—')}</b> "
        f"(range {format_rank_range(row.get('rank_bounds'))}){upper_bound(row)} on the {esc(row.get('split'))} "
        "split</p>"
    )
    parts = [f"<h2 id='entry-title'>{esc(row.get('model'))}{tag}</h2>", flag_box(row.get("flag")), headline]
    parts.append(standing(row))
    if kind == "submission" and row.get("score_ci") is None:
        parts.append("<p class='nt-small'>No interval: the per-row scores behind this figure are not shown.</p>")
    elif kind != "submission":
        parts.append("<p class='nt-small'>No interval or rank range: a fixed figure without per-row scores.</p>")
    parts.append(facts(row))
    parts.append(declarations_block(row))
    parts.append(hub_pr_block(row))
    embodiment = [g for g in groups if g.kind == "per_embodiment"]
    embodiment.sort(key=lambda g: EMBODIMENTS.index(g.name) if g.name in EMBODIMENTS else 99)
    category = [g for g in groups if g.kind == "per_category"]
    if embodiment:
        parts.append("<h3>Per embodiment</h3>" + bars(embodiment, "entry-embodiment"))
    if category:
        parts.append("<h3>Per task category</h3>" + bars(category, "entry-category"))
    parts.append(metadata_breakdown(row))
    parts.append(f"<p class='nt-small'>{esc(CI_HELP)}</p>")
    return f'<div class="nt-entry">{"".join(parts)}</div>'


def facts(row: Row) -> str:
    links = " · ".join(
        link(text, row.get(column))
        for text, column in (("model card", "model_link"), ("paper or code", "paper_link"), ("source", "source"))
        if row.get(column)
    )
    open_weights = row.get("open_weights")
    pairs = [
        ("Organisation", esc(row.get("organization") or "—")),
        ("Links", links or "—"),
        ("Description", esc(row.get("description") or "—")),
        ("Test submissions", esc(tries_text(row.get("submissions_model"), row.get("submissions_total")) or "—")),
        ("Parameters", parameters(row.get("parameters_b"))),
        ("Open weights", "—" if open_weights is None else ("yes" if open_weights else "no")),
        ("Valid-only score", number(row.get("score_valid_only"))),
        ("Coverage", percent(row.get("coverage"))),
        ("Scorer version", esc(row.get("scorer_version") or "—")),
        ("Answer key (dataset revision)", esc(row.get("dataset_revision") or "—")),
        ("Submitted", esc(row.get("submitted_at") or "—")),
        ("Id", f"<code>{esc(row.get('submission_id'))}</code>"),
    ]
    rows = [[esc(k), v] for k, v in pairs]
    return table(["About this entry", ""], rows, css="nt-table nt-facts", element_id="entry-facts")


def flag_box(flag: object) -> str:
    """A flagged entry's warning, first thing under its name: the kind, the reason, the evidence."""
    if not isinstance(flag, Mapping):
        return ""
    evidence = f" Evidence: {link('the discussion', flag.get('link'))}." if safe_url(flag.get("link")) else ""
    return (
        f'<div class="nt-flag-box" id="entry-flag" role="note"><b>⚑ Flagged by the maintainers: '
        f"{esc(flag.get('kind'))}</b> ({esc(flag.get('flagged_at') or '—')}). {esc(flag.get('reason'))}"
        f"{evidence}</div>"
    )


def declarations_block(row: Row) -> str:
    """What the submitter declared about how a public test entry was obtained (``records/declarations.py``)."""
    if row.get("kind") != "submission" or row.get("split") != "test":
        return ""
    declared = row.get("declarations")
    if not isinstance(declared, Mapping):
        note = "No declarations: this entry was submitted as a private score, or before they were asked."
        return f"<h3>Declared by the submitter</h3><p class='nt-small' id='entry-declarations'>{note}</p>"
    best_of = declared.get("best_of")
    runs = "a single run" if best_of == 1 else f"the best of {esc(best_of)} runs"
    code = link(declared.get("code_link"), declared.get("code_link")) if declared.get("code_link") else "not given"
    beyond = declared.get("test_images_beyond_inference")
    pairs = [
        ("Trained or tuned on NaviTrace data", esc(TRAINED.get(str(declared.get("trained_on")), "—"))),
        ("Test images used beyond inference", "yes" if beyond else "no"),
        ("Prompt or inference code", code),
        ("Runs", runs),
    ]
    # A list of pairs, not a table: the answers (a long code link) wrap on a phone instead of running off it.
    items = "".join(f"<dt>{esc(k)}</dt><dd>{v}</dd>" for k, v in pairs)
    return f"<h3>Declared by the submitter</h3><dl class='nt-declared' id='entry-declarations'>{items}</dl>"


def hub_pr_block(row: Row) -> str:
    """The pull request that proposed this result to the model's Hub repo (``hub_pr_url``), when one was opened."""
    url = safe_url(row.get("hub_pr_url"))
    if url is None:
        return ""
    anchor = link("the pull request adding this result", url)
    return (
        f'<p class="nt-note nt-note-info" id="entry-hub-pr">On the Hub: {anchor} to '
        "the model's repository (<code>.eval_results/navitrace.yaml</code>); the score shows on the model page "
        "and on the benchmark's leaderboard there once its owners merge it.</p>"
    )


def bars(groups: Sequence[GroupFigure], element_id: str, low: float | None = None, signed: bool = False) -> str:
    """One bar per group from 0 to its value, a whisker over its interval, the figures in words.

    The axis runs from ``low`` (default: 0, or below for a negative figure) to 100, or for
    differences (``low=0``) from the lowest to the highest figure, 0 and every interval included, so
    nothing is drawn outside its track. Each track is a small SVG (presentation attributes and
    classes, no inline style: the pages' CSP has no 'unsafe-inline')."""
    values = [v for g in groups for v in (g.value, *(g.interval or ())) if v is not None]
    lo = min([0.0 if low is None else low, *values])
    hi = max([100.0 if low is None else 0.0, *values])
    span = (hi - lo) or 1.0

    def at(value: float) -> float:
        return round(100 * (min(max(value, lo), hi) - lo) / span, 2)

    cells = []
    for g in groups:
        if g.value is None:
            shown = "withheld"
        elif signed:
            shown = format_difference(g.value, g.interval)
        else:
            shown = f"{number(g.value)} {format_interval(g.interval)}"
        cells.append(
            f'<div class="nt-ci-row"><span class="nt-ci-label">{esc(g.name or "overall")}</span>'
            f'<svg class="nt-ci-track" viewBox="0 0 100 16" preserveAspectRatio="none" role="img" '
            f'aria-label="{esc(g.name or "overall")}: {esc(shown)}">{_track(g, at)}</svg>'
            f'<span class="nt-ci-value">{esc(shown)}</span></div>'
        )
    return f'<div class="nt-ci-bars" id="{esc(element_id)}">{"".join(cells)}</div>'


def _track(g: GroupFigure, at: Callable[[float], float]) -> str:
    """The inside of one track: the zero line, the bar, the interval's whisker (its ends drawn as caps)."""
    flat = 'vector-effect="non-scaling-stroke"'  # lines keep their width however wide the track is drawn
    zero = at(0.0)
    parts = [f'<line class="nt-ci-zero" x1="{zero}" x2="{zero}" y1="0" y2="16" stroke="#64748b" {flat}/>']
    if g.value is not None:
        left, right = sorted((zero, at(g.value)))
        css, fill = ("nt-ci-bar nt-ci-neg", "#dc2626") if g.value < 0 else ("nt-ci-bar", "#3b82f6")
        parts.append(
            f'<rect class="{css}" x="{left}" y="3" width="{round(right - left, 2)}" height="10" fill="{fill}"/>'
        )
    if g.interval is not None:
        a, b = at(g.interval[0]), at(g.interval[1])
        parts.append(
            f'<path class="nt-ci-whisker" d="M{a} 8H{b}M{a} 2V14M{b} 2V14" stroke="#111827" stroke-width="2" '
            f'fill="none" {flat}/>'
        )
    return "".join(parts)


def metadata_breakdown(row: Row) -> str:
    groups = row.get("per_metadata")
    if not isinstance(groups, Mapping) or not groups:
        return ""
    lines = [
        [esc(METADATA_LABELS.get(str(name), name)), esc(value), number(score)]
        for name, values in groups.items()
        if isinstance(values, Mapping)
        for value, score in values.items()
    ]
    breakdown = table(
        ["metadata", "value", "score"],
        lines,
        css="nt-table nt-compact",
        numeric=[False, False, True],
        element_id="entry-metadata",
    )
    return "<h3>Per metadata value</h3>" + breakdown
