"""The desk's "Open the next release", over HTTP against the real site: refused on the server to anyone
but a maintainer (anonymous, or signed in as someone else), whatever the call carries; a maintainer's opens it,
audited, and says where the frozen board stays."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.hardening.web import web_api
from tests.space.served_site import Site, demo_site

NOTE = "New answer-key revision: two mislabelled scenes fixed."


@pytest.fixture
def site(tmp_path, demo_dataset, demo_public, key_cache, monkeypatch) -> Iterator[Site]:
    with demo_site(tmp_path / "home", (demo_dataset, demo_public), key_cache, monkeypatch) as running:
        yield running


def test_only_a_maintainer_opens_a_release_from_the_desk(site: Site):
    desk = web_api.desk(site.url)
    service = site.services.leaderboard
    callers = {"anonymous": None, "mallory": web_api.sign_in(site.url, "mallory")}
    for who, cookie in callers.items():
        answer = web_api.call(desk, "open_release", ["", NOTE, True], cookie, oauth_token="hf_forged")
        assert not answer.ok and "not a maintainer" in answer.text, (who, answer.text[:300])
    assert [e.name for e in service.release_history()] == ["v1"] and service.results.tags() == []
    assert not [e for e in service.audit_log("boss") if e["action"] == "release-open"]

    boss = web_api.sign_in(site.url, "boss")
    unticked = web_api.call(desk, "open_release", ["", NOTE, False], boss)
    assert unticked.ok and "Tick the confirmation first" in unticked.text
    assert [e.name for e in service.release_history()] == ["v1"]
    opened = web_api.call(desk, "open_release", ["", NOTE, True], boss)
    assert opened.ok and "Release v2 is open" in opened.text and "/?release=v1" in opened.text, opened.text[:500]
    assert [e.name for e in service.release_history()] == ["v1", "v2"] and service.results.tags() == ["v1"]
    audit = [e for e in service.audit_log("boss") if e["action"] == "release-open"]
    assert len(audit) == 1 and audit[0]["who"] == "boss" and audit[0]["after"]["note"] == NOTE
