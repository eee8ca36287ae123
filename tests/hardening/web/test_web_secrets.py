"""Nothing private leaves the app: not through a route, an endpoint, a file it hands out, an error or its log.

The secrets (``web_seed.secrets_of``): eve's contact e-mail, the per-row scores of her scored test
submission (values and a ``rows.tsv`` line), the ground-truth start points of every test trace,
the paths of ``LEADERBOARD_HOME``, the answer-key cache and the private dataset, and the bytes of
eve's upload. The crawl covers every public plain route (``PUBLIC_ROUTES``: the board in every view,
an entry and the ids an attacker would try, compare, About, the embed, the CSV and the JSON API), every
GET route in the Gradio pages' ``/openapi.json`` that takes no path parameter, and every event
endpoint in their ``/config`` called anonymously, as another user and as eve herself, with the ids
an attacker would try; then every file URL those answers handed out. The signed-in page
(``/submit``) and the maintainers' desk (``/maintainers``) are crawled alike.
"""

from __future__ import annotations

import re

import httpx

from tests.browser.conftest import RunningApp
from tests.hardening.web import web_api
from tests.hardening.web.web_seed import ATTACKER, VICTIM, Files, Seeded, leaks, moderation_state


def public_routes(seeded: Seeded) -> list[str]:
    """The plain pages and the JSON API, in every view a reader can ask for, and the ids an attacker would try."""
    ids = (seeded.test_id, seeded.validation_id, seeded.reported_id)
    routes = ["/", "/?split=validation", "/?all=1&flagged=1&hub=1&cols=emb,cat,details", "/about", "/embed",
              "/board.csv", "/board.csv?split=validation", "/api/board", "/api/board?split=validation",
              f"/compare?compare={seeded.test_id},{seeded.validation_id}"]  # fmt: skip
    routes += [f"/entry/{i}" for i in ids] + [f"/api/entry/{i}" for i in ids] + [f"/?entry={i}" for i in ids]
    return routes


def get_routes(url: str) -> list[str]:
    """GET routes without path parameters, from the app's own OpenAPI description."""
    paths = httpx.get(f"{url}/openapi.json", timeout=30).json()["paths"]
    return sorted(p for p, methods in paths.items() if "get" in methods and "{" not in p)


def test_no_route_endpoint_file_or_log_line_gives_a_secret_away(web_app: RunningApp, seeded: Seeded, web_files: Files):
    url, found = web_app.url, []
    cookies = {"anonymous": None, ATTACKER: web_api.sign_in(url, ATTACKER), VICTIM: web_api.sign_in(url, VICTIM)}
    own = {VICTIM: ("eve's upload",)}  # eve may get her own file back; nobody else may
    before = moderation_state(web_app)
    pages = (web_api.gradio(url), web_api.desk(url))
    routes = [f"{page.removeprefix(url)}{route}" for page in pages for route in get_routes(page)]
    assert {"/submit/config", "/submit/gradio_api/info", "/maintainers/config"} <= set(routes)
    routes = public_routes(seeded) + routes
    handed_out: dict[str, set[str]] = {who: set() for who in cookies}
    calls = 0
    for who, cookie in cookies.items():
        with httpx.Client(base_url=url, headers=web_api.headers(cookie), timeout=30) as client:
            for route in routes:
                text = web_api.get_text(client, route, 3)  # /gradio_api/dev/reload streams forever
                found += [f"{who} GET {route} -> {leak}" for leak in leaks(text, seeded.secrets, own.get(who, ()))]
        # Only a signed-in user may upload; an anonymous caller gets to name the attacker's upload.
        upload = web_api.upload(url, web_files.make("validation", seed=99), cookie or cookies[ATTACKER])
        for page, endpoint in [(p, e) for p in pages for e in web_api.endpoints(web_api.config(p))]:
            for text_input in (None, seeded.test_id, seeded.validation_id, seeded.reported_id):
                answer = web_api.call(page, endpoint.api_name, web_api.plausible(endpoint, text_input, upload), cookie)
                calls += 1
                where = f"{who} {endpoint.api_name}({text_input})"
                found += [f"{where} -> {leak}" for leak in leaks(answer.text, seeded.secrets, own.get(who, ()))]
                handed_out[who] |= web_api.file_urls(answer.text)
    files = 0
    for who, urls in handed_out.items():
        with httpx.Client(headers=web_api.headers(cookies[who]), timeout=30) as client:
            for file_url in urls:
                files += 1
                text = web_api.get_text(client, file_url)
                found += [f"{who} file {file_url} -> {leak}" for leak in leaks(text, seeded.secrets, own.get(who, ()))]
    log = web_app.log_text()
    found += [f"app log -> {leak}" for leak in leaks(log, seeded.secrets, ("private path",))]
    assert not found, "\n".join(found[:40])
    assert moderation_state(web_app) == before, "a non-maintainer's call changed the moderation state"
    kinds = ", ".join(f"{len(v)} {k}" for k, v in seeded.secrets.items())
    print(f"\n{len(routes)} routes x {len(cookies)} callers, {calls} endpoint calls, {files} files, the log; {kinds}")


def test_gradio_monitoring_is_off(web_app: RunningApp):
    """Gradio's default /monitoring/summary lists every endpoint (maintainer ones too) with call counts: each
    mounted page refuses it, and the site's root has no such route."""
    for page, refused in (("", 404), ("/submit", 403), ("/maintainers", 403)):
        for path in ("/monitoring", "/monitoring/summary", "/monitoring/anything"):
            response = httpx.get(web_app.url + page + path, timeout=10)
            assert response.status_code == refused, (page + path, response.status_code, response.text[:200])
            assert "approve" not in response.text and "show_quota" not in response.text, page + path


def test_another_users_validation_rows_and_traces_are_refused(web_app: RunningApp, seeded: Seeded):
    """mallory names eve's validation submission wherever a submission can be picked: refused every time.

    Gradio refuses a value that is not among the dropdown's choices for the session (the page
    offers the caller's own submissions only), and the handlers check the owner again.
    """
    url = web_app.url
    mallory = web_api.sign_in(url, ATTACKER)
    by_name = {e.api_name: e for e in web_api.endpoints(web_api.config(url))}
    session = "mallory-session"
    for opener in ("refresh", "open_tab"):  # fill the session's dropdowns the way the page does
        assert web_api.call(url, opener, web_api.plausible(by_name[opener], None, None), mallory, session).ok
    for name in ("my_submission", "pick_submission", "explore", "draw", "pick_row"):
        args = web_api.plausible(by_name[name], seeded.validation_id, None)
        for where in (session, None):
            answer = web_api.call(url, name, args, mallory, where)
            assert not answer.ok, (name, answer.text[:300])
            assert re.search(REFUSED, answer.text), (name, answer.text[:300])
            assert not leaks(answer.text, seeded.secrets), name


REFUSED = r"not in the list of choices|belongs to another user|test submission"


def test_per_row_test_scores_reach_nobody_through_the_pages(web_app: RunningApp, seeded: Seeded):
    """Not the submitter, not a maintainer: test rows stay in the requests store (the CLI is the way)."""
    url = web_app.url
    by_name = {e.api_name: e for e in web_api.endpoints(web_api.config(url))}
    for user in (VICTIM, "boss"):
        cookie, session = web_api.sign_in(url, user), f"{user}-session"
        assert web_api.call(url, "open_tab", web_api.plausible(by_name["open_tab"], None, None), cookie, session).ok
        for where in (session, None):
            args = web_api.plausible(by_name["pick_submission"], seeded.test_id, None)
            answer = web_api.call(url, "pick_submission", args, cookie, where)
            assert not answer.ok and re.search(REFUSED, answer.text), (user, answer.text[:300])
            assert not leaks(answer.text, seeded.secrets), user
    eve, session = web_api.sign_in(url, VICTIM), "eve-mine"
    assert web_api.call(url, "refresh", [None, None], eve, session).ok
    answer = web_api.call(url, "my_submission", [seeded.test_id, None], eve, session)
    assert answer.ok and f"<h3>Eve-Secret-VLM <small><code>{seeded.test_id}" in answer.text, answer.text[:500]
    assert "navitrace_rows_" not in answer.text, "a per-row download of a test submission"
    assert not leaks(answer.text, seeded.secrets, ("eve's upload",))
