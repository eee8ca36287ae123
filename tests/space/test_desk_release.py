"""The score release policy on the pages: the submitter's table and details carry the note and no
figure; the desk lists the withheld figure with its decision; the desk's switch refuses anyone but a maintainer."""

from __future__ import annotations

import dataclasses

import httpx

from leaderboard.records.policies import ReleasePolicy
from leaderboard.service import Leaderboard
from space.desk import score_release
from space.site import views
from space.submit.my_submissions import _with_release_note
from tests.service_fixtures import MAINTAINER, submit
from tests.space.test_desk import refused_call
from tests.space.test_gradio_internals import served_, site  # noqa: F401  (the running site, with its desk)


def _withheld(settings, clock, files) -> tuple[Leaderboard, str, str]:
    """A ladder service with alice's first figure and a second one, the same rows again, withheld."""
    service = Leaderboard(dataclasses.replace(settings, release_policy=ReleasePolicy.LADDER), clock=clock)
    first = submit(service, files["test-noisy1"], model="Navigator").submission_id
    service.worker.drain()
    clock.advance(601)  # past the dedupe window
    again = submit(service, files["test-noisy1"], model="Navigator", publish=True).submission_id
    service.worker.drain()
    return service, first, again


def test_my_submissions_show_the_note_and_no_figure(settings, clock, files):
    service, first, again = _withheld(settings, clock, files)
    mine = [_with_release_note(v) for v in service.my_submissions("alice")]
    best = service.status(first, "alice").summary
    assert best is not None and best.score is not None
    figure = views.number(best.score)
    table = views.my_table(mine)
    rows = {sid: row for row in table.split("<tr")[1:] for sid in (first, again) if sid in row}
    assert figure in rows[first]
    assert "not a significant improvement over your best" in rows[again] and figure in rows[again]  # the best's
    withheld = next(v for v in mine if v.submission_id == again)
    detail = views.detail_html(withheld)
    assert "not a significant improvement over your best" in detail and "Score <strong>" not in detail
    assert "not released (ladder policy)" in detail


def test_the_desk_lists_the_withheld_figure_with_its_decision(settings, clock, files):
    service, first, again = _withheld(settings, clock, files)
    exact = service.status(again, MAINTAINER).summary
    assert exact is not None
    html = score_release.withheld_table(service.submissions(MAINTAINER))
    assert f"<code>{again}</code>" in html and f"<code>{first}</code>" not in html  # only the withheld one
    assert views.number(exact.score) in html and "withheld from its submitter (ladder)" in html
    state = score_release.state_html(ReleasePolicy.LADDER, ReleasePolicy.EXACT)
    assert "In force: <strong>ladder</strong> (set by a maintainer" in state


def test_the_desk_switch_refuses_anyone_but_a_maintainer(served_):  # noqa: F811
    url, _, _ = served_
    with httpx.Client(base_url=f"{url}/maintainers", timeout=60) as client:
        answer = refused_call(client, "set_release_policy", ["ladder"])
    assert "You are not signed in, so you are not a maintainer" in answer
