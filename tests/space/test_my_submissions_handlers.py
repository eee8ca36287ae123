"""My submissions' handlers called as functions, over a real service and no page (``space/submit/``:
``my_handlers.py``, the reads, and ``my_actions.py``, the buttons).

A read answers, in the order ``space/submit/my_submissions.py`` wires them: the table, the picker, the details, the
per-row download, what the page shows (``seen``), what is awaited (``checked``), the timer, then the buttons (the
file sent, choose, withdraw, cancel, share, confirm). An action answers those and two more: its note, and what a
warning asked.
"""

from __future__ import annotations

import inspect
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gradio as gr
import pytest
from gradio.helpers import special_args
from gradio.utils import get_type_hints
from starlette.requests import Request

from leaderboard import Leaderboard
from space.board.cache import BoardCache
from space.explorer.picture import SubmissionTraces
from space.submit.my_actions import cancel, choose_public, confirmed, share_on_hub, withdraw
from space.submit.my_handlers import FULL_S, POLL_S, READ_OUTPUTS, MineState, on_row, refresh, tick
from space.web.auth import Auth
from space.web.services import Services
from space.web.settings import SpaceSettings
from space.web.warmup import Warmup
from space.workspace.handlers import bound
from tests.service_fixtures import MAINTAINER, submit

TABLE, PICKER, DETAIL, ROWS, SEEN, CHECKED, TIMER = range(7)
SENT, CHOOSE, WITHDRAW, CANCEL, SHARE, CONFIRM, NOTE, ASKED = range(7, 15)
NO_TOKEN = "Sign in with Hugging Face to propose it under your own account (this sign-in has no Hub token)."


def profile(user: str) -> gr.OAuthProfile:
    return gr.OAuthProfile({"preferred_username": user, "name": user, "profile": "", "picture": ""})


ALICE, MALLORY = profile("alice"), profile("mallory")


@pytest.fixture
def state(service: Leaderboard, tmp_path: Path) -> MineState:
    """My submissions' state over the test's service (its scratch folder for the downloads in ``tmp_path``)."""
    board = BoardCache(service.public_table, tmp_path / "board")
    services = Services(service, Auth(service, SpaceSettings()), Warmup(service.keys, tmp_path / "examples"),
                        SubmissionTraces(service), SpaceSettings(), tmp_path, board)  # fmt: skip
    return MineState.create(services)


def ids_in(answer: tuple) -> list[str]:
    """The submission ids the picker offers."""
    return [value for _, value in answer[PICKER]["choices"]]


def visible(answer: tuple, button: int) -> bool:
    return bool(answer[button].get("visible"))


def test_gradio_reads_each_bound_handler_as_the_handler_and_injects_the_signed_in_caller(state: MineState):
    """An event without ``api_name`` is named after its function (``refresh``, ``tick``), and Gradio finds the
    profile, the row clicked and the Hub token by the function's type hints."""
    expected: dict[Callable[..., Any], list[str]] = {
        refresh: ["picked", "shown_"],
        on_row: ["shown_"],
        tick: ["picked", "shown_", "checked"],
        choose_public: ["picked", "shown_"],
        withdraw: ["picked", "shown_"],
        cancel: ["picked", "shown_"],
        confirmed: ["picked", "shown_", "asked_"],
        share_on_hub: ["picked", "shown_"],
    }
    ann = {"preferred_username": "ann", "name": "ann", "profile": "", "picture": ""}
    signed_in = {"userinfo": ann, "access_token": "hf_ann", "scope": "openid", "expires_at": time.time() + 600}
    clicked = gr.EventData(None, {"value": "row-id", "index": 0})
    for handler, inputs in expected.items():
        fn = bound(handler, state)
        assert fn.__name__ == handler.__name__
        assert get_type_hints(fn)["profile"] == gr.OAuthProfile | None
        parameters = list(inspect.signature(fn).parameters)
        assert [p for p in parameters if p not in ("evt", "profile", "token")] == inputs
        request = gr.Request(Request({"type": "http", "session": {"oauth_info": signed_in}}))
        args, *_ = special_args(fn, [None] * len(inputs), request, clicked)
        assert len(args) == len(parameters) and args[parameters.index("profile")].username == "ann"
        if "token" in parameters:  # the Hub token, for a pull request under the submitter's own account
            assert args[parameters.index("token")].token == "hf_ann"
        if "evt" in parameters:
            assert isinstance(args[parameters.index("evt")], gr.SelectData)


def test_i_see_my_own_submissions_newest_first_with_the_newest_detailed(state: MineState, service, files, clock):
    older = submit(service, files["validation-noisy"], split="validation", model="Old").submission_id
    clock.advance(60)
    newer = submit(service, files["test-noisy1"], model="New").submission_id
    bobs = submit(service, files["test-noisy2"], user="bob", model="Bob's").submission_id
    answer = refresh(state, None, "", ALICE)
    assert len(answer) == READ_OUTPUTS
    assert ids_in(answer) == [newer, older] and answer[PICKER]["value"] == newer
    assert older in answer[TABLE] and newer in answer[TABLE] and bobs not in answer[TABLE]
    assert newer in answer[DETAIL] and "New" in answer[DETAIL]
    assert answer[SEEN].startswith(f'[["{newer}"')  # what is shown, to redraw nothing when nothing changed
    assert visible(answer, CANCEL) and not visible(answer, CHOOSE) and not visible(answer, WITHDRAW)
    assert Path(answer[SENT]["value"]).read_bytes() == files["test-noisy1"].read_bytes()  # the file I sent
    again = refresh(state, older, answer[SEEN], ALICE)  # the older one picked: its details
    assert again[PICKER]["value"] == older and older in again[DETAIL] and "Old" in again[DETAIL]


def test_a_finished_validation_submission_offers_its_rows(state: MineState, service, files):
    submission_id = submit(service, files["validation-noisy"], split="validation").submission_id
    service.worker.drain()
    answer = refresh(state, submission_id, "", ALICE)
    assert visible(answer, ROWS) and Path(answer[ROWS]["value"]).name == f"navitrace_rows_{submission_id}.tsv"
    assert answer[TIMER].active is False and answer[CHECKED] is None  # nothing awaited: no polling


def test_a_stranger_gets_nothing_of_anothers_submission(state: MineState, service, files):
    alices = submit(service, files["test-noisy1"], model="Secret-Model").submission_id
    answer = refresh(state, alices, "", MALLORY)  # an id not the caller's: their own newest, here none
    assert ids_in(answer) == [] and answer[PICKER]["value"] is None and answer[DETAIL] == ""
    assert alices not in answer[TABLE] and "Secret-Model" not in answer[TABLE]
    assert all(update == gr.update(visible=False) for update in answer[SENT:])  # no button, no file
    clicked = on_row(
        state, answer[SEEN], gr.SelectData(None, {"value": alices, "index": 0}), MALLORY
    )  # a row id planted by hand
    assert alices not in clicked[TABLE] and clicked[DETAIL] == ""
    for action in (choose_public, withdraw, cancel):
        refused = action(state, alices, "", MALLORY)
        assert "Not done: Submission" in refused[NOTE] and "belongs to another user" in refused[NOTE]
        assert alices not in refused[TABLE]
    refused = confirmed(state, alices, "", [alices, []], MALLORY)
    assert "belongs to another user" in refused[NOTE]
    view = service.status(alices, "alice")
    assert view.status == "PENDING" and not view.cancelled and not view.publish  # untouched


def test_signed_out_the_page_asks_to_sign_in_once_and_the_actions_refuse(state: MineState, service, files):
    submit(service, files["test-noisy1"])
    answer = refresh(state, None, "", None)
    assert "Sign in to see your submissions." in answer[TABLE] and answer[SEEN] == "anonymous"
    assert answer[PICKER] == gr.update(choices=[], value=None) and answer[TIMER].active is False
    assert refresh(state, None, "anonymous", None) == (gr.skip(),) * READ_OUTPUTS  # said already: nothing redrawn
    for action in (choose_public, withdraw, cancel):
        with pytest.raises(gr.Error, match="Sign in .* to change your submissions"):
            action(state, "anything", "", None)
    with pytest.raises(gr.Error, match="Sign in .* to propose your result on the Hub"):
        share_on_hub(state, "anything", "", None, None)


def test_i_cancel_a_waiting_submission_and_get_my_quota_back(state: MineState, service, files):
    submission_id = submit(service, files["test-noisy1"]).submission_id
    left = service.quota("alice").left
    answer = cancel(state, submission_id, "", ALICE)
    assert answer[NOTE] == (
        '<div class="nt-note nt-note-ok">'
        f"{submission_id} is cancelled: it will not be scored. Its place in your daily test quota is free again.</div>"
    )
    assert answer[ASKED] is None and "CANCELLED" in answer[TABLE] and not visible(answer, CANCEL)
    assert service.status(submission_id, "alice").cancelled and service.quota("alice").left == left + 1
    again = cancel(state, submission_id, "", ALICE)  # the service checks the state again
    assert "Not done: Submission" in again[NOTE] and "already cancelled" in again[NOTE]


def test_an_action_with_nothing_picked_says_so(state: MineState):
    for answer in (withdraw(state, None, "", ALICE), share_on_hub(state, "", "", ALICE, None)):
        assert "Pick a submission first." in answer[NOTE] and answer[ASKED] is None


def test_making_an_entry_public_warns_first_when_others_leave_then_does_just_that(
    state: MineState, service, files, clock
):
    public = submit(service, files["test-noisy1"], model="First", publish=True).submission_id
    clock.advance(60)
    private = submit(service, files["test-noisy2"], model="Second").submission_id
    service.worker.drain()
    service.approve(public, MAINTAINER)
    shown_ = refresh(state, private, "", ALICE)
    assert visible(shown_, CHOOSE) and not visible(shown_, CONFIRM)
    warned = choose_public(state, private, shown_[SEEN], ALICE)
    assert warned[ASKED] == [private, [public]] and visible(warned, CONFIRM)  # the confirmation shown
    assert f"Making {private} your public entry withdraws" in warned[NOTE] and f"First ({public}" in warned[NOTE]
    assert not service.status(private, "alice").publish  # said first, nothing done
    stale = confirmed(state, private, "", [private, []], ALICE)  # a confirmation of another warning: warned again
    assert stale[ASKED] == [private, [public]] and not service.status(private, "alice").publish
    done = confirmed(state, private, "", warned[ASKED], ALICE)
    assert f"{private} is your public entry (" in done[NOTE] and f"Off the board now: {public}." in done[NOTE]
    assert done[ASKED] is None and not visible(done, CONFIRM)
    assert service.status(private, "alice").publish and service.status(public, "alice").withdrawn


def test_i_withdraw_my_public_entry_and_can_choose_it_again(state: MineState, service, files):
    entry = submit(service, files["test-noisy1"], publish=True).submission_id
    service.worker.drain()
    service.approve(entry, MAINTAINER)
    assert visible(refresh(state, entry, "", ALICE), WITHDRAW)
    answer = withdraw(state, entry, "", ALICE)
    assert f"{entry} is withdrawn: it has left the leaderboard." in answer[NOTE]
    assert not visible(answer, WITHDRAW) and visible(answer, CHOOSE)
    assert service.status(entry, "alice").withdrawn
    back = choose_public(state, entry, "", ALICE)  # no other entry leaves: done at once
    assert f"{entry} is your public entry" in back[NOTE] and service.status(entry, "alice").publish


def test_the_poll_reads_the_store_only_when_something_of_mine_came_in_or_now_and_then(state: MineState, service, files):
    submission_id = submit(service, files["test-noisy1"]).submission_id
    first = refresh(state, None, "", ALICE)
    count, when, pending = first[CHECKED]
    assert pending == [submission_id] and count == state.services.outcomes.count
    assert first[TIMER].active is True and first[TIMER].value == POLL_S  # on while it waits
    unchanged = refresh(state, None, first[SEEN], ALICE)  # nothing new: only what is awaited, again
    assert unchanged[:CHECKED] == (gr.skip(),) * CHECKED and unchanged[CHECKED][2] == [submission_id]
    assert unchanged[CHECKED + 1 :] == (gr.skip(),) * (READ_OUTPUTS - CHECKED - 1)
    service.worker.drain()  # scored, but the worker's outcome not heard yet: a tick reads nothing
    assert tick(state, None, first[SEEN], first[CHECKED], ALICE) == (gr.skip(),) * READ_OUTPUTS
    state.services.outcomes.scored(submission_id)  # now heard: the next tick redraws at once
    heard = tick(state, None, first[SEEN], first[CHECKED], ALICE)
    assert "FINISHED" in heard[TABLE] and heard[CHECKED] is None
    assert heard[TIMER].active is False and heard[TIMER].value == FULL_S  # nothing awaited: the timer off
    late = (count, time.monotonic() - FULL_S - 1, pending)  # no outcome heard, but FULL_S passed: read anyway
    assert "FINISHED" in tick(state, None, first[SEEN], late, ALICE)[TABLE]
    assert "FINISHED" in tick(state, None, first[SEEN], None, ALICE)[TABLE]


def test_a_decision_awaited_polls_every_full_s(state: MineState, service, files):
    submission_id = submit(service, files["test-noisy1"], publish=True).submission_id
    service.worker.drain()
    answer = refresh(state, submission_id, "", ALICE)
    assert answer[CHECKED][2] == [] and answer[TIMER].active is True and answer[TIMER].value == FULL_S


def test_sharing_on_the_hub_is_refused_without_a_hub_token(state: MineState, service, files):
    entry = submit(service, files["test-noisy1"], publish=True).submission_id
    service.worker.drain()
    service.approve(entry, MAINTAINER)
    assert not visible(refresh(state, entry, "", ALICE), SHARE)  # sharing is not set up on this service
    empty = gr.OAuthToken(token="", scope="", expires_at=0)
    for token in (None, empty):
        answer = share_on_hub(state, entry, "", ALICE, token)
        assert answer[NOTE] == f'<div class="nt-note nt-note-warn">{NO_TOKEN}</div>' and answer[ASKED] is None
    refused = share_on_hub(state, entry, "", MALLORY, gr.OAuthToken(token="hf_x", scope="", expires_at=0))
    assert refused[NOTE].startswith('<div class="nt-note nt-note-error">Not done: ') and entry not in refused[TABLE]
