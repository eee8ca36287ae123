"""Small, safe HTML building blocks for the pages (no gradio here).

Everything that came from a person (model names, descriptions, reasons, links) goes through
``esc`` or ``link``: HTML and script in a metadata field render as inert text, and only
``http(s)`` links become anchors.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Sequence

_HTTP = re.compile(r"^https?://[^\s\"'<>]+$")


def esc(value: object) -> str:
    """Text for HTML, quotes included; ``None`` becomes the empty string.

    >>> esc('<img src=x onerror="alert(1)">')
    '&lt;img src=x onerror=&quot;alert(1)&quot;&gt;'
    """
    return "" if value is None else html.escape(str(value), quote=True)


def safe_url(url: object) -> str | None:
    """The URL when it is a plain http(s) address, else ``None`` (no ``javascript:``, no quotes).

    >>> safe_url("https://huggingface.co/org/model"), safe_url("javascript:alert(1)")
    ('https://huggingface.co/org/model', None)
    """
    text = str(url or "").strip()
    return text if _HTTP.match(text) else None


def link(text: object, url: object, css: str | None = None) -> str:
    """An anchor opening in a new tab when ``url`` is a safe http(s) URL, else the escaped text."""
    target = safe_url(url)
    if target is None:
        return esc(text)
    cls = f' class="{esc(css)}"' if css else ""
    return f'<a href="{esc(target)}" target="_blank" rel="noopener noreferrer nofollow"{cls}>{esc(text)}</a>'


def badge(text: str, kind: str, title: str | None = None) -> str:
    tip = f' title="{esc(title)}"' if title else ""
    return f'<span class="nt-badge nt-badge-{esc(kind)}"{tip}>{esc(text)}</span>'


def number(value: object, digits: int = 2) -> str:
    """A number for people, "—" when there is none.

    >>> number(12.3456), number(None), number(-0.004)
    ('12.35', '—', '-0.00')
    """
    if value is None or value == "":
        return "—"
    try:
        return f"{float(value):.{digits}f}"  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return "—"


def percent(value: object, digits: int = 1) -> str:
    """A fraction as a percentage: ``0.5`` -> ``50.0%``; "—" when there is none."""
    if value is None or value == "":
        return "—"
    try:
        return f"{100 * float(value):.{digits}f}%"  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return "—"


def parameters(value: object) -> str:
    """A parameter count in billions for people.

    >>> parameters(7.0), parameters(0.5), parameters(None)
    ('7B', '500M', '—')
    """
    if value is None or value == "":
        return "—"
    try:
        billions = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return "—"
    return f"{billions:g}B" if billions >= 1 else f"{billions * 1000:g}M"


def table(
    headers: Sequence[str],
    rows: Iterable[Sequence[str]],
    *,
    css: str = "nt-table",
    row_classes: Iterable[str] | None = None,
    header_titles: Sequence[str | None] | None = None,
    numeric: Sequence[bool] | None = None,
    element_id: str | None = None,
    empty: str = "Nothing to show yet.",
) -> str:
    """A table from already-escaped cell HTML (build cells with ``esc``/``link``/``badge``)."""
    classes = iter(row_classes) if row_classes is not None else None
    titles = header_titles or [None] * len(headers)
    right = numeric or [False] * len(headers)
    head = "".join(
        f'<th scope="col"{_title(t)}{" class=nt-num" if r else ""}>{esc(h)}</th>'
        for h, t, r in zip(headers, titles, right)
    )
    body = []
    for cells in rows:
        cls = next(classes, "") if classes is not None else ""
        tds = "".join(f"<td{' class=nt-num' if r else ''}>{c}</td>" for c, r in zip(cells, right))
        body.append(f'<tr class="{esc(cls)}">{tds}</tr>' if cls else f"<tr>{tds}</tr>")
    if not body:
        body.append(f'<tr><td class="nt-empty" colspan="{len(headers)}">{esc(empty)}</td></tr>')
    ident = f' id="{esc(element_id)}"' if element_id else ""
    return (
        f'<div class="nt-table-wrap"><table class="{esc(css)}"{ident}><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table></div>"
    )


def _title(text: str | None) -> str:
    return f' title="{esc(text)}"' if text else ""
