"""The entry page (``/entry/<id>``) and compare (``/compare?compare=a&compare=b``) as plain pages.

The figures are ``space/entry/view.py``'s and ``compare.py``'s; this module adds the ways on: back to the
board, "Compare with…" (a GET form to ``/compare`` with this entry chosen), and compare's two pickers
(a GET form with two ``<select name="compare">``: the address says what is shown).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from urllib.parse import quote

from leaderboard.publishing import Edition
from leaderboard.statistics import EntryIntervals, GroupFigure
from space.entry import citation, compare, view
from space.site.html import esc, number
from space.web.services import Services

Row = Mapping[str, object]
PROMPT = "Pick two entries to see their differences with paired intervals."
# Where an entry's citation goes: it names this site's address, so the route writes it in per request
# (``citation_in``) and the page drawn once per results version stays the same for every host name.
CITE_MARK = "<!--nt-cite-->"


def intervals_of(services: Services) -> EntryIntervals:
    """Per-group intervals and paired differences, from the private per-row scores as aggregates only;
    the categories come from the public answer key (``services.warmup`` prepares it)."""
    service = services.leaderboard

    @lru_cache(maxsize=2)
    def categories(split: str) -> Mapping[str, Sequence[str]]:
        services.warmup.wait()
        return {s.sample_id: s.category for s in service.keys.public(split).samples}  # public: no ground truth

    return EntryIntervals(service.registry.store, categories)


def entry_href(submission_id: object) -> str:
    return f"/entry/{quote(str(submission_id or ''), safe='')}"


def back_link(split: object) -> str:
    split = split if split in ("test", "validation") else "test"
    href = "/" if split == "test" else f"/?split={split}"
    return f'<a class="nt-back" id="back-to-board" href="{href}">← Back to the board</a>'


def entry_body(row: Row, groups: Sequence[GroupFigure], choices: Sequence[tuple[str, str]], release: str = "") -> str:
    """An entry's page: the way back, the figures, and the form to compare it with another entry; ``release``:
    the line naming the release of its figures (``changelog_page.entry_release``), under its name."""
    here = str(row.get("submission_id"))
    others = [(text, value) for text, value in choices if value != here]
    picker = ""
    if others:
        options = "".join(f'<option value="{esc(v)}">{esc(t)}</option>' for t, v in others)
        picker = (
            '<form class="nt-compare-with" id="compare-with" method="get" action="/compare">'
            f'<input type="hidden" name="compare" value="{esc(here)}">'
            '<label for="compare-other">Compare with…</label>'
            f'<select id="compare-other" name="compare">{options}</select>'
            ' <button type="submit" class="nt-button">Compare</button></form>'
        )
    cite = '<a href="#entry-cite" id="entry-cite-link">Cite this entry</a>'
    return (
        f'<nav class="nt-page-nav" aria-label="Entry">{back_link(row.get("split"))}{cite}{picker}</nav>'
        f'<article id="entry-page">{_after_title(_titled(view.entry_html(row, groups)), release)}{CITE_MARK}</article>'
    )


def citation_in(body: str, row: Row, origin: str, editions: Sequence[Edition] = citation.NO_EDITIONS) -> str:
    """``body`` (an ``entry_body``) with the entry's citation in its place, naming ``origin`` (checked there) and
    the release of its figures among ``editions``."""
    return body.replace(CITE_MARK, citation.citation_html(row, origin, editions), 1)


def _titled(html: str) -> str:
    """The entry's name as the page's one ``<h1>`` (``entry_html`` makes it an ``<h2>`` for a tab's page)."""
    start = html.find("<h2 id='entry-title'>")
    end = html.find("</h2>", start)
    if start < 0 or end < 0:
        return html
    html = f"{html[:start]}<h1 id='entry-title'>{html[start + 21 : end]}</h1>{html[end + 5 :]}"
    return _outline(html).replace('<th scope="col"></th>', '<th scope="col"><span class="nt-vh">Value</span></th>')


def _after_title(html: str, line: str) -> str:
    """``line`` right under the page's ``<h1>`` (at the top when there is none)."""
    end = html.find("</h1>")
    return f"{html[: end + 5]}{line}{html[end + 5 :]}" if end >= 0 else line + html


def _outline(html: str) -> str:
    """The sections under the page's ``<h1>`` as ``<h2>`` (the shared page code writes ``<h3>`` for a tab)."""
    return html.replace("<h3>", "<h2>").replace("</h3>", "</h2>")


def missing_body(submission_id: str) -> str:
    return _missing(
        "No such entry",
        f"No public entry has the id “{esc(submission_id)}”. It may be private, awaiting approval, withdrawn, or "
        'mistyped: pick one on <a href="/">the board</a>.',
    )


def missing_in_release_body(submission_id: str, release: str) -> str:
    """The page of an entry that release ``release``'s board did not have (it came later, or was not public then)."""
    ident, name = quote(submission_id, safe=""), quote(release, safe="")
    return _missing(
        f"Not in release {esc(release)}",
        f"The board of release {esc(release)} has no entry with the id “{esc(submission_id)}”: it came later, or was "
        f'not public then. See <a href="/entry/{esc(ident)}">its current page</a> or '
        f'<a href="/?release={esc(name)}">release {esc(release)}\'s board</a>.',
    )


def _missing(title: str, note: str) -> str:
    """A missing entry's page: the way back, ``title`` and ``note`` (both escaped already)."""
    return (
        f'<nav class="nt-page-nav" aria-label="Entry">{back_link("test")}</nav><div id="entry-page">'
        f'<h1>{title}</h1><p class="nt-note nt-note-warn" id="entry-missing">{note}</p></div>'
    )


def compare_form(choices: Sequence[tuple[str, str]], chosen: tuple[str | None, str | None]) -> str:
    def select(ident: str, label: str, wanted: str | None) -> str:
        options = '<option value="">— pick an entry —</option>' + "".join(
            f'<option value="{esc(v)}"{" selected" if v == wanted else ""}>{esc(t)}</option>' for t, v in choices
        )
        return (
            f'<span class="nt-field"><label for="{ident}">{label}</label>'
            f'<select id="{ident}" name="compare" required>{options}</select></span>'
        )

    return (
        '<form class="nt-compare-form" id="compare-form" method="get" action="/compare">'
        f"{select('compare-a', 'Entry A', chosen[0])}{select('compare-b', 'Entry B', chosen[1])}"
        '<button type="submit" class="nt-button nt-primary">Compare</button></form>'
    )


def compare_body(
    choices: Sequence[tuple[str, str]],
    ids: tuple[str, str] | None,
    found: tuple[Row | None, Row | None],
    differences: Sequence[GroupFigure] | None,
) -> str:
    """Compare's page: the pickers, then the comparison, a prompt, or which id is not public."""
    chosen = ids or (None, None)
    head = (
        f'<nav class="nt-page-nav" aria-label="Compare">{back_link(_split(found))}</nav>'
        f"<h1>Compare two entries</h1>{compare_form(choices, chosen)}"
    )
    if ids is None:
        shown = f"<p class='nt-small' id='compare-prompt'>{PROMPT}</p>"
    elif found[0] is None or found[1] is None:
        missing = ids[0] if found[0] is None else ids[1]
        shown = (
            f'<p class="nt-note nt-note-warn" id="entry-missing">No public entry has the id “{esc(missing)}”: '
            "pick one of the board's entries above.</p>"
        )
    else:
        shown = _outline(compare.compare_html(found[0], found[1], differences or []))
    return f'<div id="compare-page">{head}{shown}</div>'


def compare_ids(values: Sequence[str]) -> tuple[str, str] | None:
    """The two ids of ``?compare=a,b`` or ``?compare=a&compare=b`` (each cut to ``view.MAX_ID``)."""
    if len(values) == 1:
        return compare.compare_ids({"compare": values[0]})
    if len(values) >= 2:
        a, b = (str(v)[: view.MAX_ID].strip() for v in values[:2])
        return (a, b) if a and b else None
    return None


def entry_description(row: Row) -> str:
    rank = f", rank {row.get('rank')}" if row.get("rank") is not None else ""
    return (
        f"{row.get('model')} on the NaviTrace {row.get('split')} split: score {number(row.get('score'))}{rank} "
        "(100 = a perfect navigation trace, 0 = the straight-forward baseline)."
    )


def _split(found: tuple[Row | None, Row | None]) -> object:
    return next((r.get("split") for r in found if r is not None), "test")
