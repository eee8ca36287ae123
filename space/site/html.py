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

    A figure that rounds to zero reads "0.00", never "-0.00": the straight-forward baseline's own file
    scores 0 up to floating-point noise (e.g. -1e-14), and a minus sign there says something false.

    >>> number(12.3456), number(None), number(-0.004), number(-0.006)
    ('12.35', '—', '0.00', '-0.01')
    """
    if value is None or value == "":
        return "—"
    try:
        text = f"{float(value):.{digits}f}"  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return "—"
    return text[1:] if text.startswith("-") and float(text) == 0 else text


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


def legend(names: Sequence[str], colours: Sequence[str]) -> str:
    """A chart's legend as a wrapping list (a colour swatch, then the escaped name)."""
    items = "".join(
        f'<li><i style="background:{esc(colours[i % len(colours)])}"></i>{esc(n)}</li>' for i, n in enumerate(names)
    )
    return f'<ul class="nt-legend" aria-label="Legend">{items}</ul>'


def table(
    headers: Sequence[str],
    rows: Iterable[Sequence[str]],
    *,
    css: str = "nt-table",
    row_classes: Iterable[str] | None = None,
    header_titles: Sequence[str | None] | None = None,
    numeric: Sequence[bool] | None = None,
    column_classes: Sequence[str] | None = None,
    sort_keys: Sequence[str | None] | None = None,
    sorted_by: tuple[str, bool] | None = None,
    element_id: str | None = None,
    empty: str = "Nothing to show yet.",
) -> str:
    """A table from already-escaped cell HTML (build cells with ``esc``/``link``/``badge``).

    A column with a sort key gets a header button (``data-sort``) that the page's script turns into a
    sort; ``sorted_by`` (key, descending) marks that column with ``aria-sort`` and an arrow.
    """
    classes = iter(row_classes) if row_classes is not None else None
    count = len(headers)
    titles = header_titles or [None] * count
    right = numeric or [False] * count
    extra = column_classes or [""] * count
    keys = sort_keys or [None] * count
    cell_class = [_classes(("nt-num" if r else ""), x) for r, x in zip(right, extra)]
    head = "".join(_header(h, t, c, k, sorted_by) for h, t, c, k in zip(headers, titles, cell_class, keys))
    body = []
    for cells in rows:
        cls = next(classes, "") if classes is not None else ""
        tds = "".join(f"<td{c}>{cell}</td>" for cell, c in zip(cells, cell_class))
        body.append(f'<tr class="{esc(cls)}">{tds}</tr>' if cls else f"<tr>{tds}</tr>")
    if not body:
        body.append(f'<tr><td class="nt-empty" colspan="{count}">{esc(empty)}</td></tr>')
    ident = f' id="{esc(element_id)}"' if element_id else ""
    state = f' data-sort="{esc(sorted_by[0])}" data-desc="{int(sorted_by[1])}"' if sorted_by else ""
    return (
        f'<div class="nt-table-wrap"><table class="{esc(css)}"{ident}{state}><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table></div>"
    )


def _classes(*names: str) -> str:
    joined = " ".join(n for n in names if n)
    return f' class="{esc(joined)}"' if joined else ""


def _header(text: str, title: str | None, cls: str, key: str | None, sorted_by: tuple[str, bool] | None) -> str:
    if key is None:
        return f'<th scope="col"{_title(title)}{cls}>{esc(text)}</th>'
    here = sorted_by is not None and sorted_by[0] == key
    aria = f' aria-sort="{"descending" if sorted_by[1] else "ascending"}"' if here and sorted_by else ""
    arrow = ("▼" if sorted_by[1] else "▲") if here and sorted_by else ""
    mark = f'<span class="nt-arrow" aria-hidden="true">{arrow}</span>' if arrow else ""
    return (
        f'<th scope="col"{_title(title)}{cls}{aria}><button type="button" class="nt-sort" data-sort="{esc(key)}">'
        f"{esc(text)}{mark}</button></th>"
    )


def _title(text: str | None) -> str:
    return f' title="{esc(text)}"' if text else ""


# The disclosure marks (flags, tries, declarations) of the board and the entry page
# (``gr.HTML(css_template=...)``: no ``${`` in here).
TRUST_CSS = """
.nt-badge-flag { background: #fee2e2; color: #991b1b; cursor: help; }
.nt-badge-hub { background: #e0f2fe; color: #075985; cursor: help; }
.nt-row-hub td { background: rgba(14, 165, 233, 0.07); font-style: italic; }
.nt-row-flagged td { background: rgba(239, 68, 68, 0.06); }
.nt-flag-box { border-left: 4px solid #dc2626; background: rgba(239, 68, 68, 0.08); padding: 8px 12px;
  margin: 8px 0 12px; border-radius: 4px; }
.nt-declared { display: grid; grid-template-columns: minmax(7rem, 40%) minmax(0, 1fr); gap: 4px 14px;
  margin: 4px 0 12px; }
.nt-declared dt { font-weight: 600; margin: 0; }
.nt-declared dd { margin: 0; overflow-wrap: anywhere; min-width: 0; }
#entry-hub-pr { margin: 8px 0 12px; }
"""
