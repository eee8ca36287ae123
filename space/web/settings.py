"""Settings of the web app itself (the service's are ``leaderboard.config.Settings``), read once at start-up."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass

from leaderboard.config import SettingsError

SIGN_IN_POLICIES = ("loopback", "anyone", "off")
_HOST = re.compile(r"^(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$")


@dataclass(frozen=True)
class SpaceSettings:
    """Where to listen, how people sign in, who may call from where, and the limits per caller.

    ``space_id`` is set by Hugging Face on a Space (``SPACE_ID``): sign-in is then Hugging Face OAuth,
    and ``space_hosts`` (``SPACE_HOST``, comma-separated when the Space has a custom domain) are the
    addresses its pages are served from. Anywhere else the app offers a *local development* sign-in
    (any name), by default only to browsers on this machine (``LOCAL_SIGN_IN=loopback``); ``anyone``
    opens it to the network (a private demo), ``off`` disables it. Off a Space the app answers only to
    its own address (``127.0.0.1``/``localhost`` at its port) and to ``allowed_hosts``
    (``ALLOWED_HOSTS``: e.g. ``localhost:8080`` when Docker maps the port elsewhere).

    Each field's comment is its documentation: docs/SETTINGS.md is generated from them
    (``python -m space.web.settings_docs``). ``space/web/guard.py`` enforces the limits.
    """

    # Set by the Hub on a Space: sign-in is then Hugging Face's, and only the Space's own pages may call the app.
    space_id: str | None = None
    server_name: str = "127.0.0.1"  # the address to listen on (the Dockerfile sets 0.0.0.0)
    server_port: int = 7860  # the port to listen on, from 1 to 65535
    # Off a Space, who may use the local development sign-in: loopback (browsers on this machine), anyone, or off.
    local_sign_in: str = "loopback"
    # Set by the Hub on a Space (comma-separated with a custom domain): the pages that may call the app are
    # https://{each} and https://huggingface.co.
    space_hosts: tuple[str, ...] = ()
    # Off a Space the app answers only to its own address (127.0.0.1, localhost, [::1] at its port): other Host
    # headers and pages of other origins get a 403. Comma-separated host:port to add, e.g. localhost:8080 when
    # Docker maps the port elsewhere.
    allowed_hosts: tuple[str, ...] = ()
    uploads_per_minute: int = 6  # uploads per signed-in user in any minute (anonymous uploads are refused)
    upload_mb_per_hour: int = 320  # megabytes uploaded per signed-in user in any hour: five files at the 64 MB limit
    checks_per_minute: int = 6  # file checks per signed-in user in any minute, one at a time; two at once in all
    # Event calls of the signed-in pages (/submit/, /maintainers/) per client without a session in any minute (a
    # page load makes about 5; the public pages make none).
    anonymous_calls_per_minute: int = 600
    user_calls_per_minute: int = 600  # the same per signed-in user, all their sessions together
    max_call_kb: int = 64  # the largest request body other than an upload; a body that does not say its size is refused
    max_sessions: int = 10_000  # signed-in sessions the server keeps; the oldest is signed out past it
    # Page visits whose state Gradio keeps (its per-visit copy of the page, ~130 kB each); the oldest is forgotten
    # past it, and a closed visit at once. A forgotten visit that calls again starts from the page's defaults.
    # Also the visits' message queues kept (space/workspace/gradio_internals.py: only idle ones are forgotten past it).
    max_visits: int = 500
    token_cache_s: int = 60  # how long a token's whoami answer is kept (a revoked token works this long)
    token_lookups_per_minute: int = 20  # whoami calls to the Hub per client address (cache misses only)
    token_lookups_at_once: int = 4  # whoami calls in flight, all callers together: the rest wait without a thread
    # Proxies in front that append the caller's address to X-Forwarded-For (the Hub's: 1 on a Space, none
    # elsewhere); the caller's address is that many entries from the right, the rest was written by the caller.
    trusted_proxies: int | None = None
    sessions_per_user: int = 10  # one account's sessions; its 11th sign-in signs out its own oldest, never another's
    # A signed-in user's Gradio events waiting, running or unread, all their visits together (a page fires 4 as
    # it opens, and its timer one more); callers without a session the same, per client address.
    events_in_flight: int = 24
    anonymous_events_in_flight: int = 16  # the same for a client without a session (a stranger cannot fill the queue)
    fresh_views_per_minute: int = 120  # public pages drawn on request (not cached) per client address
    body_deadline_s: int = 20  # a request body must arrive within this, plus a second per 64 KB it announces

    @property
    def on_space(self) -> bool:
        return bool(self.space_id)

    @property
    def proxies(self) -> int:
        """The trusted proxies in front: ``TRUSTED_PROXIES``, else 1 on a Space (the Hub's) and 0 elsewhere."""
        if self.trusted_proxies is not None:
            return self.trusted_proxies
        return 1 if self.on_space else 0

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> SpaceSettings:
        env = os.environ if environ is None else environ
        port_text = env.get("GRADIO_SERVER_PORT", "").strip() or "7860"
        if not port_text.isdigit() or not 0 < int(port_text) < 65536:
            raise SettingsError(f"GRADIO_SERVER_PORT={port_text!r}: expected a port number from 1 to 65535")
        policy = env.get("LOCAL_SIGN_IN", "").strip().lower() or "loopback"
        if policy not in SIGN_IN_POLICIES:
            raise SettingsError(f"LOCAL_SIGN_IN={policy!r}: expected one of {', '.join(SIGN_IN_POLICIES)}")
        defaults = cls()
        return cls(
            space_id=env.get("SPACE_ID", "").strip() or None,
            space_hosts=_hosts(env, "SPACE_HOST"),
            server_name=env.get("GRADIO_SERVER_NAME", "").strip() or "127.0.0.1",
            server_port=int(port_text),
            local_sign_in=policy,
            allowed_hosts=_hosts(env, "ALLOWED_HOSTS"),
            uploads_per_minute=_count(env, "UPLOADS_PER_MINUTE", defaults.uploads_per_minute),
            upload_mb_per_hour=_count(env, "UPLOAD_MB_PER_HOUR", defaults.upload_mb_per_hour),
            checks_per_minute=_count(env, "CHECKS_PER_MINUTE", defaults.checks_per_minute),
            anonymous_calls_per_minute=_count(env, "ANONYMOUS_CALLS_PER_MINUTE", defaults.anonymous_calls_per_minute),
            user_calls_per_minute=_count(env, "USER_CALLS_PER_MINUTE", defaults.user_calls_per_minute),
            max_call_kb=_count(env, "MAX_CALL_KB", defaults.max_call_kb),
            max_sessions=_count(env, "MAX_SESSIONS", defaults.max_sessions),
            max_visits=_count(env, "MAX_VISITS", defaults.max_visits),
            token_cache_s=_count(env, "TOKEN_CACHE_S", defaults.token_cache_s),
            token_lookups_per_minute=_count(env, "TOKEN_LOOKUPS_PER_MINUTE", defaults.token_lookups_per_minute),
            token_lookups_at_once=_count(env, "TOKEN_LOOKUPS_AT_ONCE", defaults.token_lookups_at_once),
            trusted_proxies=_proxies(env),
            sessions_per_user=_count(env, "SESSIONS_PER_USER", defaults.sessions_per_user),
            events_in_flight=_count(env, "EVENTS_IN_FLIGHT", defaults.events_in_flight),
            anonymous_events_in_flight=_count(env, "ANONYMOUS_EVENTS_IN_FLIGHT", defaults.anonymous_events_in_flight),
            fresh_views_per_minute=_count(env, "FRESH_VIEWS_PER_MINUTE", defaults.fresh_views_per_minute),
            body_deadline_s=_count(env, "BODY_DEADLINE_S", defaults.body_deadline_s),
        )


def _count(env: Mapping[str, str], key: str, default: int) -> int:
    text = env.get(key, "").strip()
    if not text:
        return default
    if not text.isdigit() or int(text) < 1:
        raise SettingsError(f"{key}={text!r}: expected a whole number of at least 1")
    return int(text)


def _proxies(env: Mapping[str, str]) -> int | None:
    text = env.get("TRUSTED_PROXIES", "").strip()
    if not text:
        return None
    if not text.isdigit() or int(text) > 10:
        raise SettingsError(f"TRUSTED_PROXIES={text!r}: expected a whole number from 0 to 10")
    return int(text)


def _hosts(env: Mapping[str, str], key: str) -> tuple[str, ...]:
    """``host[:port]`` values, lower-cased; a scheme or a path is refused (``SPACE_HOST`` has neither)."""
    hosts = tuple(h.strip().lower() for h in env.get(key, "").split(",") if h.strip())
    for host in hosts:
        if not _HOST.match(host):
            raise SettingsError(f"{key}={host!r}: expected a host name with an optional port, e.g. localhost:8080")
    return hosts
