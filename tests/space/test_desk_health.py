"""The desk's service status: a maintainer sees the status and the last errors with their messages;
anyone else gets none of it from the server, whatever they call (the section's own check, and over HTTP)."""

from __future__ import annotations

from collections.abc import Iterator

import gradio as gr
import pytest

from leaderboard import Leaderboard
from leaderboard.records.entries import FAILED, Job, job_path
from leaderboard.records.errors import NotAuthorised
from space.desk import health_section
from space.web.services import Services
from space.web.settings import SpaceSettings
from tests.hardening.web import web_api
from tests.service_fixtures import MAINTAINER, submit
from tests.space.served_site import Site, demo_site

JOB_ERROR = "could not open /srv/private/zoe-run.tsv"
ROUND_ERROR = "StorageError: org/private-requests: could not read 'jobs'"


def _seed(service: Leaderboard, services: Services, path) -> str:
    """A failed job and a failed scoring round, with messages only maintainers may read."""
    broken = submit(service, path, user="zoe", model="Zoe-Model").submission_id
    failed = Job(broken, FAILED, attempts=1, message=JOB_ERROR, failure="server",
                 finished_at="2030-01-01T00:00:00.000000Z")  # fmt: skip
    service.requests.commit({job_path(broken): failed.to_bytes()})
    assert services.health is not None
    services.health.pulse.started()
    services.health.pulse.heard("failed", ROUND_ERROR)
    services.health.pulse.heard("idle")
    services.health.refresh()
    return broken


def test_the_section_shows_a_maintainer_the_status_and_the_last_errors(settings, files, tmp_path):
    service = Leaderboard(settings)
    services = Services.create(settings, SpaceSettings(), leaderboard=service, examples=tmp_path / "ex")
    broken = _seed(service, services, files["test-noisy1"])
    with gr.Blocks():
        _, show = health_section.build(services)
    status, errors = show(MAINTAINER)
    assert "<strong>degraded</strong> · Scoring: nothing waiting" in status  # the board's line, and more
    assert "worker_failing" in status  # the failed round is the last one
    assert "&quot;status&quot;: &quot;degraded&quot;" in status  # the route's JSON as it is served
    assert JOB_ERROR in errors and f"<code>{broken}</code>" in errors and "scoring round" in errors
    assert "org/private-requests" in errors
    for someone in ("alice", "", "zoe"):
        with pytest.raises(NotAuthorised):
            show(someone)
    services.close()


@pytest.fixture
def site(tmp_path, demo_dataset, demo_public, key_cache, monkeypatch) -> Iterator[Site]:
    with demo_site(tmp_path / "home", (demo_dataset, demo_public), key_cache, monkeypatch) as running:
        yield running


def test_over_http_only_a_maintainer_gets_the_errors(site: Site, files):
    _seed(site.services.leaderboard, site.services, files["test-noisy1"])
    desk = web_api.desk(site.url)
    boss = web_api.sign_in(site.url, "boss")
    shown = web_api.call(desk, "maintainers_refresh", [""], boss)
    assert shown.ok and JOB_ERROR in shown.text and ROUND_ERROR.split(":")[0] in shown.text
    assert "desk-errors" in shown.text
    for who, cookie in {"anonymous": None, "mallory": web_api.sign_in(site.url, "mallory")}.items():
        refused = web_api.call(desk, "maintainers_refresh", [""], cookie, oauth_token="hf_forged")
        assert not refused.ok and "not a maintainer" in refused.text, (who, refused.text[:300])
        opened = web_api.call(desk, "open_", [""], cookie)  # the page's own load event: allowed to anyone
        assert opened.ok, (who, opened.text[:300])
        for answer in (refused, opened):
            assert JOB_ERROR not in answer.text and "private-requests" not in answer.text, who
            assert "desk-errors" not in answer.text and "worker_failing" not in answer.text, who
