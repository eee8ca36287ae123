"""Who is asking: resolved on the server for every call, never taken from a form field.

Every event handler that needs a user takes ``profile: gr.OAuthProfile | None``; Gradio fills it
from the signed session cookie of the request, never from the browser's inputs.

- On a Space (``SPACE_ID`` set) the session is Hugging Face OAuth: the README front matter's
  ``hf_oauth: true``, Gradio's OAuth routes and session middleware at the site's root
  (``space/web/server.py``), and the shared header's link to ``/login/huggingface?_target_url=<this page>``.
- Anywhere else, a *local development* sign-in: a form posts a user name to
  ``/local-auth/sign-in``, which stores it in the same signed session (a secret made at start-up),
  so the handlers cannot tell the difference. The page says clearly that this is not Hugging Face.

Either way the session is also known on the server (``space.web.guard.Keeper``): signing out closes it
there, so a copy of the cookie is worth nothing afterwards. Where a request may come from (its
``Host`` and ``Origin``) is checked once for every route, these included, by ``space.web.guard.Door``.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable

import gradio as gr
from fastapi import Request
from fastapi.responses import HTMLResponse, RedirectResponse
from starlette.middleware import Middleware
from starlette.middleware.sessions import SessionMiddleware
from starlette.routing import Route

from leaderboard import Leaderboard, Rejected
from leaderboard.jobs import check_user
from space.site.html import esc
from space.site.shell import Viewer, header_html
from space.site.words import LOCAL_SIGN_IN
from space.web.guard import SESSION_HOURS, user_of
from space.web.settings import SpaceSettings
from space.workspace.errors import refusal

log = logging.getLogger(__name__)

SIGN_IN_PATH, SIGN_OUT_PATH = "/local-auth/sign-in", "/local-auth/sign-out"
LOOPBACK = {"127.0.0.1", "::1", "localhost"}
MAX_NEXT = 500  # characters of the address a sign-in returns to
# Where a Gradio page's header sends a sign-in back to, by the page it marks as active (its tab's own address).
GRADIO_PAGES = {
    "submit": "/submit/",
    "mine": "/submit/?tab=mine",
    "explorer": "/submit/?tab=explorer",
    "desk": "/maintainers/",
}


class Auth:
    """Identity and permissions of the caller of an event handler."""

    def __init__(self, service: Leaderboard, space: SpaceSettings) -> None:
        self.service = service
        self.space = space

    @property
    def local(self) -> bool:
        return not self.space.on_space

    def user(self, profile: gr.OAuthProfile | None) -> str | None:
        name = getattr(profile, "username", None) if profile is not None else None
        return str(name) if name else None

    def is_maintainer(self, profile: gr.OAuthProfile | None) -> bool:
        return self.service.is_maintainer(self.user(profile))

    def require_user(self, profile: gr.OAuthProfile | None, doing: str = "do this") -> str:
        user = self.user(profile)
        if user is None:
            how = "with the local sign-in at the top" if self.local else "with Hugging Face (button at the top)"
            raise refusal(f"Sign in {how} to {doing}.")
        return user

    def require_maintainer(self, profile: gr.OAuthProfile | None) -> str:
        """The maintainer's name; ``gr.Error`` otherwise. The service checks again on every action."""
        user = self.user(profile)
        if not self.service.is_maintainer(user):
            who = f"{user!r} is" if user else "You are not signed in, so you are"
            raise refusal(f"{who} not a maintainer: only users listed in MAINTAINERS may moderate.")
        return str(user)

    def viewer(self, user: str | None) -> Viewer:
        """The shared header's idea of ``user`` (``None``: signed out)."""
        if not self.local:
            how = "huggingface"
        else:
            how = "local-off" if self.space.local_sign_in == "off" else "local"
        return Viewer(user=user, maintainer=self.service.is_maintainer(user), sign_in=how)

    def header(self, profile: gr.OAuthProfile | None, active: str) -> str:
        """The header every page shares, for a Gradio page's caller; signing in or out there comes back to it."""
        return header_html(self.viewer(self.user(profile)), active, GRADIO_PAGES.get(active, "/"))

    def bar_html(self, profile: gr.OAuthProfile | None) -> str:
        """The identity line at the top of the page."""
        user = self.user(profile)
        role = " · maintainer" if self.is_maintainer(profile) else ""
        if not self.local:
            text = f"Signed in as <strong>{esc(user)}</strong>{role}" if user else "Not signed in"
            return f'<div class="nt-identity" id="identity">{text}</div>'
        if user:
            return (
                '<div class="nt-identity nt-local" id="identity">'
                '<span class="nt-badge nt-badge-dev">local sign-in</span> '
                f"Signed in as <strong>{esc(user)}</strong>{role} "
                f'<form method="post" action="{SIGN_OUT_PATH}" class="nt-inline">'
                f'<button type="submit" class="nt-button">Sign out</button></form></div>'
            )
        if self.space.local_sign_in == "off":
            return '<div class="nt-identity" id="identity">Sign-in is disabled here (LOCAL_SIGN_IN=off).</div>'
        return (
            f'<div class="nt-identity nt-local" id="identity"><span class="nt-badge nt-badge-dev">development</span> '
            f'<form method="post" action="{SIGN_IN_PATH}" class="nt-inline" aria-label="Local sign-in">'
            '<label for="nt-local-user">User name (local sign-in)</label> '
            '<input id="nt-local-user" name="user" autocomplete="username" required maxlength="96" '
            'placeholder="e.g. alice"> '
            '<button type="submit" class="nt-button">Sign in locally</button></form>'
            f'<div class="nt-small">{esc(LOCAL_SIGN_IN.replace("**", ""))}</div></div>'
        )


def viewer_of(auth: Auth) -> Callable[[Request], Viewer]:
    """Who a plain page's request comes from, read from the signed session (``space.web.guard.Keeper`` has already
    forgotten any sign-in the server no longer knows)."""

    def viewer(request: Request) -> Viewer:
        session = request.scope.get("session") or {}
        user = user_of(session.get("oauth_info"))
        return auth.viewer(user)

    return viewer


def back_to(value: object) -> str:
    """Where to send a browser after signing in or out: a path of this site, never another site.

    >>> back_to("/submit/?tab=mine"), back_to("//evil.example/x"), back_to("https://evil.example"), back_to(None)
    ('/submit/?tab=mine', '/', '/', '/')
    """
    text = str(value or "")
    if not text.startswith("/") or text.startswith("//") or "\\" in text or len(text) > MAX_NEXT:
        return "/"
    return text


def sign_in_routes(space: SpaceSettings) -> list[Route]:
    """The development sign-in's routes (not on a Space, where Gradio's OAuth routes serve instead)."""
    if space.on_space:
        return []

    def refuse(status: int, text: str) -> HTMLResponse:
        body = f'<p>{esc(text)}</p><p><a href="/">Back to the leaderboard</a></p>'
        return HTMLResponse(f"<!doctype html><title>Sign-in refused</title>{body}", status_code=status)

    def problem(request: Request) -> str | None:
        """Why this request may not sign in, or ``None``."""
        if space.local_sign_in == "off":
            return "Local sign-in is disabled (LOCAL_SIGN_IN=off)."
        host = request.client.host if request.client else ""
        if space.local_sign_in == "loopback" and host not in LOOPBACK:
            return (
                f"Local sign-in is only for browsers on this machine, and this request came from {host or 'unknown'} "
                "(set LOCAL_SIGN_IN=anyone to open it to the network)."
            )
        return None  # where the request comes from (Host, Origin) is the door's to check: space/web/guard.py

    async def sign_in(request: Request):
        why = problem(request)
        if why:
            return refuse(403, why)
        form = await request.form()
        try:
            user = check_user(str(form.get("user") or ""))
        except Rejected as error:
            return refuse(400, f"Cannot sign in: {error}.")
        request.session["oauth_info"] = {
            "userinfo": {"preferred_username": user, "name": user, "profile": "", "picture": "", "local": True},
            "expires_at": int(time.time()) + SESSION_HOURS * 3600,
            # The shape of Gradio's OAuth session, which a handler asking for a ``gr.OAuthToken`` reads: no Hub token.
            "access_token": None,
            "scope": "",
        }
        log.info("local sign-in as %s", user)
        return RedirectResponse(back_to(form.get("next")), status_code=303)

    async def sign_out(request: Request):
        request.session.pop("oauth_info", None)
        form = await request.form()
        return RedirectResponse(back_to(form.get("next")), status_code=303)

    return [Route(SIGN_IN_PATH, sign_in, methods=["POST"]), Route(SIGN_OUT_PATH, sign_out, methods=["POST"])]


def local_session() -> Middleware:
    """The signed session of the development sign-in: a fresh secret per start, so sessions end with the
    process and nobody can forge one."""
    return Middleware(SessionMiddleware, secret_key=secrets.token_hex(32), same_site="lax", https_only=False)
