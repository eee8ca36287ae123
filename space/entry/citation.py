"""How to cite one entry of the board: BibTeX and plain text naming the entry (model, who
submitted it as they named themselves, its id), the release its figures belong to and that release's date, the
score with its 95% interval, and a permanent address (``/entry/{id}?release=vN``, absolute).

The submitter is the organisation the submitter gave: the public table carries no user names (only aggregates
and what submitters chose to publish), so a citation names no more than the board does. Every value typed by a
person is escaped for its place: LaTeX's specials in BibTeX (braces as ``\\textbraceleft{}``, so that BibTeX,
which counts every brace, escaped or not, stays balanced), HTML's in the page.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from urllib.parse import quote

from leaderboard.publishing import Edition
from leaderboard.publishing import release_of as edition_of
from space.site.html import esc, number

Row = Mapping[str, object]
FIRST_RELEASE = "v1"  # every store made before releases existed is in v1 (leaderboard/publishing/editions.py's FIRST)
RELEASE_NAME = re.compile(r"v[1-9][0-9]{0,5}")
NO_EDITIONS: Sequence[Edition] = ()
# An origin a citation may name: a scheme, a host (a name, an IPv4 or a bracketed IPv6 address), a port.
ORIGIN = re.compile(r"https?://(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252})|\[[0-9A-Fa-f:.]{2,45}\])(?::[0-9]{1,5})?")
LATEX = {
    "\\": r"\textbackslash{}",
    "{": r"\textbraceleft{}",
    "}": r"\textbraceright{}",
    "%": r"\%",
    "&": r"\&",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "^": r"\textasciicircum{}",
    "~": r"\textasciitilde{}",
}


@dataclass(frozen=True)
class CitedRelease:
    """The release a figure belongs to, as a citation names it."""

    name: str  # "v1", "v2", ...
    date: str | None  # "2026-03-01"


def release_of(row: Row, editions: Sequence[Edition] = NO_EDITIONS) -> CitedRelease:
    """The release of ``row``'s figures and its date: the one place a citation looks it up.

    The release as ``editions`` (``Leaderboard.release_history()``) know it, through the releases' own lookup
    (``leaderboard.publishing.editions.release_of``): its name and the day it opened. Without them, or for a release
    without a day (the implicit v1 of a store older than releases), the row's ``release`` column (a table made
    before it has none: v1) and the entry's own date.

    >>> release_of({"release": "v2", "submitted_at": "2026-03-01"}), release_of({})
    (CitedRelease(name='v2', date='2026-03-01'), CitedRelease(name='v1', date=None))
    """
    found = edition_of(dict(row), list(editions)) if editions else None
    name = found.name if found is not None else str(row.get("release") or "")
    day = (found.date if found is not None else None) or str(row.get("submitted_at") or "")[:10]
    return CitedRelease(name if RELEASE_NAME.fullmatch(name) else FIRST_RELEASE, day or None)


def permanent_url(row: Row, origin: str, release: CitedRelease | None = None) -> str:
    """``{origin}/entry/{id}?release=vN``: the entry as this release shows it (``origin``: this site's, checked).

    >>> permanent_url({"submission_id": "ab12", "release": "v2"}, "https://x.hf.space")
    'https://x.hf.space/entry/ab12?release=v2'
    """
    base = origin if ORIGIN.fullmatch(origin) else ""
    ident = quote(str(row.get("submission_id") or ""), safe="")
    return f"{base}/entry/{ident}?release={quote((release or release_of(row)).name, safe='')}"


def bibtex_text(value: object) -> str:
    """``value`` as the text of a BibTeX field: one line, LaTeX's special characters written as commands.

    >>> bibtex_text("a}{b\\\\ 100% #1_x\\n~$")
    'a\\\\textbraceright{}\\\\textbraceleft{}b\\\\textbackslash{} 100\\\\% \\\\#1\\\\_x \\\\textasciitilde{}\\\\$'
    """
    text = " ".join(str(value or "").split())
    return "".join(LATEX.get(c, c) for c in text if c.isprintable())


def score_words(row: Row) -> str:
    """ "score 40.00 (95% CI 38.00–42.00)", without the interval when there is none, "score withheld"."""
    score = row.get("score")
    if not isinstance(score, int | float) or isinstance(score, bool):
        return "score withheld"
    ci = row.get("score_ci")
    if isinstance(ci, list | tuple) and len(ci) == 2 and all(isinstance(v, int | float) for v in ci):
        return f"score {number(score)} (95% CI {number(ci[0])}–{number(ci[1])})"
    return f"score {number(score)}"


def plain(row: Row, origin: str, release: CitedRelease | None = None) -> str:
    """The citation in one paragraph (Unicode text, nothing escaped: the page escapes it)."""
    release = release or release_of(row)
    who = " ".join(str(row.get("organization") or "").split())
    when = f" ({release.date})" if release.date else ""
    model = " ".join(str(row.get("model") or "").split())
    return (
        f"{who + '. ' if who else ''}{model}, NaviTrace Leaderboard entry {row.get('submission_id')} "
        f"({row.get('split')} split), release {release.name}{when}: {score_words(row)}. "
        f"{permanent_url(row, origin, release)}"
    )


def bibtex(row: Row, origin: str, release: CitedRelease | None = None) -> str:
    """The citation as a BibTeX ``@misc`` entry; its key is ``navitrace-{id}``."""
    release = release or release_of(row)
    url = permanent_url(row, origin, release)
    key = re.sub(r"[^A-Za-z0-9_.:-]", "", str(row.get("submission_id") or ""))[:80] or "entry"
    when = f" ({release.date})" if release.date else ""
    fields = [
        (
            "title",
            f"{bibtex_text(row.get('model'))} on the {{NaviTrace}} Leaderboard ({bibtex_text(row.get('split'))} "
            f"split, release {release.name})",
        ),  # fmt: skip
        ("author", f"{{{bibtex_text(row.get('organization'))}}}" if row.get("organization") else None),
        ("year", release.date[:4] if release.date else None),
        ("howpublished", f"\\url{{{url}}}"),
        ("url", url),
        (
            "note",
            f"Entry {bibtex_text(row.get('submission_id'))}, release {release.name}{when}: "
            f"{bibtex_text(score_words(row)).replace('–', '--')}",  # LaTeX's en dash
        ),
    ]
    lines = ",\n".join(f"  {name:<12} = {{{value}}}" for name, value in fields if value)
    return f"@misc{{navitrace-{key},\n{lines}\n}}"


def citation_html(row: Row, origin: str, editions: Sequence[Edition] = NO_EDITIONS) -> str:
    """The entry page's "Cite this entry": the release and the address, then BibTeX and plain text, each in a
    ``<pre>`` with a copy button that ``static/board.js`` shows (without JavaScript the text is selectable);
    ``editions``: the board's releases (``release_of``)."""
    if row.get("kind") != "submission":
        source = " (its source is linked above)" if row.get("source") else ""
        return (
            '<section id="entry-cite" aria-labelledby="entry-cite-title"><h2 id="entry-cite-title">Cite this entry'
            f"</h2><p>A figure not scored here: cite where it was published{source}.</p></section>"
        )
    release = release_of(row, editions)
    url = permanent_url(row, origin, release)
    when = f" ({esc(release.date)})" if release.date else ""
    blocks = "".join(
        f'<div class="nt-cite-head"><h3 id="{ident}-title">{title}</h3><button type="button" '
        f'class="nt-button nt-copy" data-copy="{ident}" hidden>Copy {title}</button>'
        f'<span class="nt-small" id="{ident}-status" role="status"></span></div>'
        f'<pre id="{ident}" class="nt-cite-text" tabindex="0" aria-labelledby="{ident}-title">{esc(text)}</pre>'
        for ident, title, text in (
            ("entry-cite-bibtex", "BibTeX", bibtex(row, origin, release)),
            ("entry-cite-plain", "Plain text", plain(row, origin, release)),
        )
    )
    return (
        '<section id="entry-cite" aria-labelledby="entry-cite-title"><h2 id="entry-cite-title">Cite this entry</h2>'
        f'<p id="entry-cite-release">Release <strong>{esc(release.name)}</strong>{when} · permanent address: '
        f'<a href="{esc(url)}">{esc(url)}</a></p>{blocks}'
        '<p class="nt-small">Please cite the benchmark too: '
        '<a href="/about#citation">the NaviTrace paper</a>.</p></section>'
    )
