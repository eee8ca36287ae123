"""Every maintainer action, called straight through the app's API by someone else, is refused and changes nothing.

The maintainer endpoints are not a list kept here: they are every event listener that the app's
``/config`` wires to the Maintainers tab or to anything laid out inside it, so an action added to
the desk later is covered without editing this file. Each one is called anonymously and signed in
as a non-maintainer, with each of the ids an attacker would aim at (a published test submission,
a validation submission, a reported row) and with the page's own default values.
"""

from __future__ import annotations

import httpx

from tests.browser.conftest import RunningApp
from tests.hardening.web import web_api
from tests.hardening.web.web_seed import ATTACKER, Seeded, leaks, moderation_state

# Known today; the test fails if the enumeration stops finding them (so it cannot pass vacuously).
KNOWN = {"approve", "reject", "hide", "unhide", "edit", "rescore", "add_reported", "remove_reported", "flag", "unflag"}


def maintainer_endpoints(cfg: dict) -> list[web_api.Endpoint]:
    desk = web_api.inside(cfg, "tab-maintainers")
    return [e for e in web_api.endpoints(cfg) if desk & set(e.targets)]


def test_every_maintainer_endpoint_refuses_others_and_changes_nothing(web_app: RunningApp, seeded: Seeded):
    url = web_api.desk(web_app.url)  # the maintainers' desk: a page (and API) of its own
    cfg = web_api.config(url)
    desk = maintainer_endpoints(cfg)
    names = {e.api_name for e in desk}
    assert KNOWN <= names, f"the enumeration missed {KNOWN - names}"
    callers = {"anonymous": None, ATTACKER: web_api.sign_in(web_app.url, ATTACKER)}
    # Refused at the door (space/web/guard.py: a 403 before the event queues) or, for what the desk runs as it opens,
    # by the handler: in the same words.
    expected = {"anonymous": "You are not signed in, so you are not a maintainer", ATTACKER: f"'{ATTACKER}' is not"}
    before = moderation_state(web_app)
    calls = 0
    for who, cookie in callers.items():
        for endpoint in desk:
            for target in (seeded.test_id, seeded.validation_id, seeded.reported_id, None):
                args = web_api.plausible(endpoint, target, None)
                # Gradio reads the caller from the session cookie only; a token in the body changes nothing.
                answer = web_api.call(url, endpoint.api_name, args, cookie, oauth_token="hf_forged")
                calls += 1
                assert not answer.ok, f"{who} ran {endpoint.api_name}({target}): {answer.text[:300]}"
                assert expected[who] in answer.text, (who, endpoint.api_name, answer.text[:300])
                assert not leaks(answer.text, seeded.secrets), (who, endpoint.api_name)
    assert moderation_state(web_app) == before, "a refused call changed the moderation state"
    print(f"\n{len(desk)} maintainer endpoints ({', '.join(sorted(names))}): {calls} calls, all refused")


def test_the_public_pages_take_no_action_from_anyone(web_app: RunningApp, seeded: Seeded):
    """The plain pages and the JSON API only read: every other method is refused, even from a maintainer's page,
    and no query (an action's name, a forged user) changes anything or shows what only a maintainer sees."""
    url, ids = web_app.url, (seeded.test_id, seeded.validation_id, seeded.reported_id)
    routes = ["/", "/embed", "/about", "/compare", "/api/board", "/board.csv"]
    routes += [f"/entry/{i}" for i in ids] + [f"/api/entry/{i}" for i in ids]
    before = moderation_state(web_app)
    boss = web_api.sign_in(url, "boss")
    with httpx.Client(base_url=url, headers=web_api.headers(boss, url), timeout=30) as client:
        for route in routes:
            for method in ("POST", "PUT", "PATCH", "DELETE"):
                answer = client.request(method, route, data={"action": "approve", "submission_id": seeded.test_id})
                assert answer.status_code == 405, (method, route, answer.status_code)
    with httpx.Client(base_url=url, headers=web_api.headers(web_api.sign_in(url, ATTACKER)), timeout=30) as client:
        for route in routes:
            for query in ("action=approve", f"approve={seeded.test_id}", "user=boss", "maintainer=1", "hidden=1"):
                answer = client.get(f"{route}?{query}", follow_redirects=True)
                assert answer.status_code < 500, (route, query, answer.status_code)
                assert "Maintainers' desk" not in answer.text, (route, query, "the desk offered to a non-maintainer")
                assert not leaks(answer.text, seeded.secrets), (route, query)
    assert moderation_state(web_app) == before, "a public page changed the moderation state"
