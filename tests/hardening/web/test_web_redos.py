"""The value that froze the app (ReDoS) sent to the Submit endpoint, and a 60,000-character search sent to every public
page: refused or cut at once, the value not echoed, no markup reflected.

Before the fix, ``"1"*2400 + " "*2400 + "x"`` in "Parameter count" took 50 s of the interpreter
(``re`` backtracking with the GIL held) and every visitor waited as long. Asserted structurally:
the refusal is the length cap's message (so the pattern never ran), it quotes no more than a short
prefix, and nothing was stored. The public pages (plain routes, ``space/site/routes.py``) read at most
``MAX_QUERY`` characters of a search and ``MAX_ID`` of an id, and keep at most ``MAX_HERE`` of their own
address (where a sign-in comes back to): what they show back is no longer than that, and escaped (the
JSON API's and the CSV's refusals are data, JSON or plain text with ``nosniff``); the app answers on.
"""

from __future__ import annotations

import re
from urllib.parse import quote

import httpx
import pytest

from space.board.view import MAX_QUERY
from space.entry.view import MAX_ID
from space.site.shell import MAX_HERE
from tests.browser.conftest import RunningApp
from tests.hardening.web import web_api
from tests.hardening.web.web_seed import Files, service_of, submit

ATTACK = "1" * 2400 + " " * 2400 + "x"
MARKUP = "<img src=x onerror=alert(1)>"
SEARCH = (MARKUP + "(a+)+$" + "a" * 60_000)[:60_000]  # a regex-looking search, then a long run to backtrack over
# Where a reader's text goes: the board's search and filters, an entry's id, a comparison, the JSON API.
PUBLIC = (
    "/?q={v}",
    "/?split=validation&all=1&flagged=1&q={v}",
    "/?org={v}",
    "/embed?q={v}",
    "/entry/{v}",
    "/?entry={v}",
    "/compare?compare={v}",
    "/compare?compare=a&compare={v}",
    "/about?q={v}",
    "/api/board?q={v}",
    "/api/board?split={v}",
    "/api/entry/{v}",
    "/board.csv?split={v}",
)


def test_the_redos_parameter_count_is_refused_by_its_length_cap(web_app: RunningApp, web_files: Files):
    cookie = web_api.sign_in(web_app.url, "redos-rita")
    before = len(service_of(web_app).my_submissions("redos-rita"))
    answer = submit(web_app, cookie, web_files.make("validation", seed=900), "validation", parameters_b=ATTACK)
    assert "nt-note-error" in answer.text  # the page's refusal note, not a receipt
    assert "Parameter count has 4801 characters, expected at most 32" in answer.text  # named by its label
    assert "1" * 64 not in answer.text and " " * 64 not in answer.text
    assert len(service_of(web_app).my_submissions("redos-rita")) == before


@pytest.mark.parametrize("route", PUBLIC)
def test_a_60000_character_search_costs_nothing_and_comes_back_cut_and_escaped(web_app: RunningApp, route: str):
    answer = _get(web_app, route.format(v=quote(SEARCH, safe="")))
    assert answer.status_code < 500, (route, answer.status_code, answer.text[:300])
    # The most a page reads of a search or an id, or keeps of its own address (where a sign-in comes back to).
    longest = max(MAX_QUERY, MAX_ID, MAX_HERE)
    run = max((len(m) for m in re.findall("a+", answer.text)), default=0)
    assert run <= longest, (route, f"the answer holds {run} characters of the search, more than the page reads")
    if answer.headers["content-type"].startswith("text/html"):
        assert MARKUP not in answer.text and "<img src=x" not in answer.text, (route, "markup reflected")
    else:  # a JSON or plain-text refusal is data, never rendered as a page: and browsers are told not to guess
        assert answer.headers.get("x-content-type-options") == "nosniff", route
    assert web_app.process.poll() is None and httpx.get(web_app.url + "/", timeout=30).status_code == 200


def _get(app: RunningApp, path: str) -> httpx.Response:
    """``path`` as a fresh client asks it. CI once saw the loopback connection reset while the answer was read
    (the app alive, the same request fine when run again, never reproduced quietly): a reset is asked again once,
    with the app checked alive first, so a second reset, or an app that died, still fails the test."""
    for attempt in (1, 2):
        try:
            with httpx.Client(base_url=app.url, timeout=30, follow_redirects=True) as client:
                return client.get(path)
        except httpx.ReadError:
            assert app.process.poll() is None, "the app died on the request"
            if attempt == 2:
                raise
    raise AssertionError("unreachable")
