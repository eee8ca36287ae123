"""The maintainers' desk: private submissions are not "pending", and refusing someone
who is not a maintainer is an expected answer, logged in one line, never as a traceback."""

from __future__ import annotations

import logging

import httpx

from leaderboard.review.moderation import PRIVATE
from space.site import views
from tests.service_fixtures import MAINTAINER, submit
from tests.space.test_gradio_internals import served_, site  # noqa: F401  (the running site, with its desk)


def test_private_submissions_are_not_pending_and_public_ones_are(service, files):
    submit(service, files["validation-noisy"], split="validation", model="Val-Private")
    submit(service, files["test-noisy"], model="Test-Private", publish=False)
    public = submit(service, files["test-noisy1"], model="Test-Public", publish=True)
    service.worker.drain()
    assert [v.submission_id for v in service.pending(MAINTAINER)] == [public.submission_id]
    everything = views.maintainer_table(service.submissions(MAINTAINER), "all-table", "none")
    models = ("Val-Private", "Test-Private", "Test-Public")
    rows = {model: row for row in everything.split("<tr")[1:] for model in models if model in row}
    assert PRIVATE in rows["Val-Private"] and PRIVATE in rows["Test-Private"]
    assert ">pending<" in rows["Test-Public"] and ">pending<" not in rows["Val-Private"] + rows["Test-Private"]


def test_a_refused_maintainer_call_logs_one_warning_and_no_traceback(served_, capfd, caplog):  # noqa: F811
    url, _, _ = served_
    capfd.readouterr()
    with caplog.at_level(logging.WARNING), httpx.Client(base_url=f"{url}/maintainers", timeout=60) as client:
        answer = refused_call(client, "maintainers_refresh", [""])
    assert "You are not signed in, so you are not a maintainer" in answer
    printed = capfd.readouterr()
    assert "Traceback" not in printed.err + printed.out
    refused = [r for r in caplog.records if "not a maintainer" in r.getMessage()]
    assert len(refused) == 1 and refused[0].levelno == logging.WARNING and refused[0].exc_info is None


def refused_call(client: httpx.Client, api_name: str, data: list) -> str:
    """What a refused call reads: the door's refusal (the site's guard answers before Gradio queues anything)
    or, past it, the event's error."""
    posted = client.post(f"/gradio_api/call/{api_name}", json={"data": data})
    if posted.status_code != 200:
        return posted.text
    return client.get(f"/gradio_api/call/{api_name}/{posted.json()['event_id']}").text
