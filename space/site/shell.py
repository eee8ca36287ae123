"""What every page shares: the header (title, nav, sign-in), the HTML document around a page's body, the footer.

``header_html`` is also what the signed-in Gradio pages put at their top, so one header serves every page.
Everything a person typed (a user name) is escaped; the sign-in forms post to the routes of ``space/web/auth.py``.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from urllib.parse import quote

from space.site.html import esc
from space.site.words import DATASET, PAPER, TITLE, WEBPAGE

STATIC = Path(__file__).parent / "static"
SITE_CSS = ("header.css", "pages.css")  # served as one file; a Gradio page links header.css alone
SIGN_IN_PATH, SIGN_OUT_PATH = "/local-auth/sign-in", "/local-auth/sign-out"  # space/web/auth.py's routes
DESK = "/maintainers/"  # the trailing slash: the mount's redirect would name http behind a TLS proxy
NAV = (
    ("board", "Leaderboard", "/"),
    ("submit", "Submit", "/submit/"),
    ("mine", "My submissions", "/submit/?tab=mine"),
    ("explorer", "Explorer", "/submit/?tab=explorer"),
    ("about", "About", "/about"),
)
SIGN_INS = ("local", "local-off", "huggingface")
MAX_HERE = 500  # characters of the address a sign-in returns to


@dataclass(frozen=True)
class Viewer:
    """Who is looking, as the header needs it (the site's session decides; ``space/web/auth.py`` builds it)."""

    user: str | None = None
    maintainer: bool = False
    sign_in: str = "local"  # "local" (development sign-in), "local-off" (disabled), "huggingface" (OAuth on a Space)

    def __post_init__(self) -> None:
        if self.sign_in not in SIGN_INS:
            raise ValueError(f"Viewer.sign_in {self.sign_in!r}: expected one of {', '.join(SIGN_INS)}")


def header_html(viewer: Viewer, active: str, here: str = "/") -> str:
    """The site's header: the title, the nav (``active`` is marked as the current page: one of ``board``,
    ``submit``, ``mine``, ``explorer``, ``about``, ``desk``), and who is signed in. ``here`` is the
    path a sign-in or sign-out returns to."""
    items = [(key, text, href) for key, text, href in NAV]
    if viewer.maintainer:
        items.append(("desk", "Maintainers' desk", DESK))
    current = ' aria-current="page"'
    links = "".join(
        f'<li><a href="{esc(href)}"{current if key == active else ""}>{esc(text)}</a></li>' for key, text, href in items
    )
    return (
        '<header class="nt-site" id="site-header">'
        f'<a class="nt-site-title" href="/">{esc(TITLE)}</a>'
        f'<nav class="nt-site-nav" id="nt-nav" aria-label="Main"><ul>{links}</ul></nav>'
        f"{identity_html(viewer, _here(here))}</header>"
    )


def identity_html(viewer: Viewer, here: str) -> str:
    """The sign-in bar (``#identity``): a form to sign in or out, or the Hugging Face links on a Space."""
    role = " · maintainer" if viewer.maintainer else ""
    back = f'<input type="hidden" name="next" value="{esc(here)}">'
    if viewer.sign_in == "huggingface":
        if viewer.user:
            body = f'Signed in as <strong>{esc(viewer.user)}</strong>{role} <a href="/logout">Sign out</a>'
        else:
            target = quote(here, safe="")
            body = f'<a class="nt-button" href="/login/huggingface?_target_url={target}">Sign in with Hugging Face</a>'
        return f'<div class="nt-identity" id="identity">{body}</div>'
    if viewer.sign_in == "local-off":
        return '<div class="nt-identity" id="identity">Sign-in is disabled here (LOCAL_SIGN_IN=off).</div>'
    badge = '<span class="nt-badge nt-badge-dev" title="Not Hugging Face: any name, for development">local</span>'
    if viewer.user:
        return (
            f'<div class="nt-identity nt-local" id="identity">{badge} Signed in as <strong>{esc(viewer.user)}</strong>'
            f'{role} <form method="post" action="{SIGN_OUT_PATH}" class="nt-inline">{back}'
            '<button type="submit" class="nt-button">Sign out</button></form></div>'
        )
    return (
        f'<div class="nt-identity nt-local" id="identity">{badge} '
        f'<form method="post" action="{SIGN_IN_PATH}" class="nt-inline" aria-label="Local sign-in">{back}'
        '<label for="nt-local-user">User name</label> '
        '<input id="nt-local-user" name="user" aria-label="User name (local sign-in)" autocomplete="username" '
        'required maxlength="96" '
        'placeholder="e.g. alice">'
        ' <button type="submit" class="nt-button">Sign in locally</button></form></div>'
    )


@dataclass(frozen=True)
class Meta:
    """What a page says about itself to browsers, search engines and link previews."""

    title: str
    description: str
    canonical: str  # an absolute address when known (link previews want one), else the path
    kind: str = "website"  # og:type


def head(meta: Meta, script: bool = False, extra: str = "") -> str:
    """The document's start up to ``<body>``: one stylesheet, at most one deferred script, no inline code."""
    title, text, url = esc(meta.title), esc(meta.description), esc(meta.canonical)
    js = f'<script src="{asset("board.js")}" defer></script>' if script else ""
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{title}</title><meta name="description" content="{text}"><link rel="canonical" href="{url}">'
        f'<meta property="og:type" content="{esc(meta.kind)}"><meta property="og:site_name" content="{esc(TITLE)}">'
        f'<meta property="og:title" content="{title}"><meta property="og:description" content="{text}">'
        f'<meta property="og:url" content="{url}"><meta name="twitter:card" content="summary">'
        f'<meta name="twitter:title" content="{title}"><meta name="twitter:description" content="{text}">'
        f'{extra}<link rel="icon" href="{asset("favicon.svg")}" type="image/svg+xml">'
        f'<link rel="stylesheet" href="{asset("site.css")}">{js}</head>'
    )


def page(meta: Meta, header: str, body: str, script: bool = False) -> str:
    """A whole page: the head, a skip link, the shared header, ``body`` as the main content, the footer."""
    return (
        f'{head(meta, script)}<body><a class="nt-skip" href="#main">Skip to the content</a>{header}'
        f'<main id="main" class="nt-main">{body}</main>{footer()}</body></html>'
    )


def footer() -> str:
    links = (("Paper", PAPER), ("Dataset", DATASET), ("Project page", WEBPAGE))
    outside = " · ".join(f'<a href="{esc(url)}" rel="noopener">{esc(text)}</a>' for text, url in links)
    return (
        f'<footer class="nt-site-footer"><p>{esc(TITLE)} · {outside} · <a href="/about">About and citation</a>'
        ' · <a href="/changelog" id="footer-changelog">Changelog</a> · <a href="/board.csv?split=test">CSV</a></p>'
        "</footer>"
    )


def asset(name: str) -> str:
    """The address of a static file, with its content's hash: browsers may keep it for a year."""
    return f"/static/{name}?v={_digest(name)}"


@cache
def _digest(name: str) -> str:
    return hashlib.sha256(static_file(name)).hexdigest()[:12]


def static_file(name: str) -> bytes:
    """A file of ``static/``; ``site.css``, the pages' one stylesheet, is the header's rules then the pages'."""
    if name == "site.css":
        return b"".join((STATIC / part).read_bytes() for part in SITE_CSS)
    return (STATIC / name).read_bytes()


def _here(path: str) -> str:
    """A path of this site to come back to (never another site's address)."""
    text = str(path or "/")[:MAX_HERE]
    return text if text.startswith("/") and not text.startswith("//") and "\\" not in text else "/"
