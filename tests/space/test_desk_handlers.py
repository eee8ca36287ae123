"""The maintainers' desk's handlers called as functions, over a real service and no page (``space/desk/``).

Each handler answers one value per output of its listener, in the order ``space/desk/tab.py`` wires them:
the note under the control, the two confirmations an answer closes (approving a contested entry, removing a
reported row), then the page a refresh redraws (``desk_state.load``), then any outputs of the listener's own
(a confirmation's question and what it asks).
"""

from __future__ import annotations

import dataclasses
import inspect
import shutil
from collections.abc import Callable, Iterator
from html import unescape
from pathlib import Path

import gradio as gr
import pytest
from gradio.helpers import special_args
from gradio.utils import get_type_hints
from starlette.requests import Request

from leaderboard import Leaderboard, Settings
from leaderboard.records.entries import ReviewDecision
from space.desk import confirm as desk_confirm
from space.desk import flags, releases, reported_section, score_release_section
from space.desk.handlers import approve_, approve_confirmed, edit, hide, open_, refresh, reject, rescore_all, unhide
from space.desk.state import CLOSES, DeskState
from space.web.services import Services
from space.web.settings import SpaceSettings
from space.workspace.handlers import bound
from tests.service_fixtures import MAINTAINER, submit

# What the desk's refresh redraws: the pending list, the picker, the copy mark, the declarations, the four
# decisions, the entry's facts, all submissions, per user, the audit log, the reported rows' picker, the seven
# edit boxes, the flag's remove button, the release policy's three and the service status's two.
PAGE = 26
ANSWER = 1 + CLOSES + PAGE  # a note, the confirmations, the page
# Indices in an answer (``ANSWER`` values): where the tests look.
PICKER, APPROVE, AUDIT, REPORTED = 1 + CLOSES + 1, 1 + CLOSES + 4, 1 + CLOSES + 11, 1 + CLOSES + 12


@pytest.fixture
def services(settings: Settings, service: Leaderboard, tmp_path: Path) -> Iterator[Services]:
    """The Space's services over the test's service, checking files in this process (no checking children)."""
    checker = service.intake.checker
    made = Services.create(settings, SpaceSettings(), leaderboard=service, examples=tmp_path / "examples")
    service.intake.checker = checker
    yield dataclasses.replace(made, checks=None, drawings=None)
    shutil.rmtree(made.scratch, ignore_errors=True)


@pytest.fixture
def state(services: Services) -> DeskState:
    return DeskState.create(services, PAGE)


def signed_in(user: str = MAINTAINER) -> gr.OAuthProfile:
    return gr.OAuthProfile({"preferred_username": user, "name": user, "profile": "", "picture": ""})


BOSS = signed_in()


def public_entry(service: Leaderboard, path: Path, model: str = "Alice-Nav") -> str:
    """A scored test submission that asked to be published: awaiting a decision."""
    entry = submit(service, path, model=model, publish=True).submission_id
    service.worker.drain()
    return entry


def reported(service: Leaderboard) -> list[str]:
    """The ids of the reported rows on the public board (as the remove picker offers them)."""
    return [str(r["submission_id"]) for r in service.public_table() if r.get("kind") == "reported"]


def note(answer: list) -> str:
    return unescape(answer[0])


def untouched(answer: list, extra: int = 0) -> bool:
    """Nothing on the page touched: every output but the note (and ``extra`` outputs at the end) skipped."""
    return answer[1 : len(answer) - extra] == [gr.skip()] * (CLOSES + PAGE)


def test_a_refresh_draws_the_whole_page_with_what_awaits_a_decision_first(state, service, files):
    private = submit(service, files["test-noisy1"], model="Private-Nav").submission_id
    waiting = public_entry(service, files["test-noisy"])
    answer = refresh(state, None, BOSS)
    assert len(answer) == ANSWER and answer[0] == ""
    assert answer[1:3] == [gr.update(visible=False)] * CLOSES  # an open confirmation closes
    picker = answer[PICKER]
    assert [value for _, value in picker["choices"]] == [waiting, private] and picker["value"] == waiting
    assert picker["choices"][0][0].startswith("awaiting · Alice-Nav · alice · test · ")
    assert answer[APPROVE] == gr.update(visible=True, variant="primary")  # nothing contested: the default


def test_approve_as_a_maintainer_publishes_the_entry_and_picks_the_next_one_awaiting(state, service, files):
    first = public_entry(service, files["test-noisy"])
    second = public_entry(service, files["test-noisy1"], model="Bob-Nav")
    answer = approve_(state, first, "", BOSS)
    assert len(answer) == ANSWER + 2 and answer[-2:] == [gr.skip(), None]  # no question; nothing to confirm
    assert note(answer).endswith(f"Approved {first}: Alice-Nav by alice is approved for the public board.</div>")
    assert 'role="status"' in answer[0]
    assert service.status(first).decision == ReviewDecision.APPROVED
    assert answer[PICKER]["value"] == second  # the next entry awaiting a decision
    assert first in answer[AUDIT]


def test_reject_as_a_maintainer_gives_the_submitter_the_reason(state, service, files):
    entry = public_entry(service, files["test-noisy"])
    answer = reject(state, entry, "trained on the test images", BOSS)
    assert len(answer) == ANSWER
    assert f"Rejected {entry}: Alice-Nav by alice; its submitter sees the reason." in note(answer)
    mine = service.status(entry, "alice")
    assert mine.decision == ReviewDecision.REJECTED and mine.reason == "trained on the test images"


def test_an_action_without_an_entry_or_on_an_unknown_one_says_so_and_leaves_the_page(state, files, service):
    answer = hide(state, "", "", BOSS)
    assert "Pick a submission first." in note(answer) and 'role="alert"' in answer[0] and untouched(answer)
    answer = unhide(state, "nope", "", BOSS)
    assert note(answer).startswith('<div class="nt-note nt-note-error"') and "Unhide nope: " in note(answer)
    assert untouched(answer)


def test_approving_a_rejected_entry_asks_first_and_the_confirmation_approves_it(state, service, files):
    entry = public_entry(service, files["test-noisy"])
    reject(state, entry, "bad", BOSS)
    answer = approve_(state, entry, "", BOSS)
    box, question, asked = answer[1], answer[-2], answer[-1]
    assert box == gr.update(visible=True) and asked == ("approve", entry)
    assert "although it was rejected (bad)" in unescape(question)
    assert answer[0] == "" and answer[3 : 3 + PAGE] == [gr.skip()] * PAGE
    assert service.status(entry).decision == ReviewDecision.REJECTED  # nothing done yet
    answer = approve_confirmed(state, asked, BOSS)
    assert len(answer) == ANSWER + 1 and answer[-1] is None  # the question is forgotten
    assert f"Approved {entry}" in note(answer) and service.status(entry).decision == ReviewDecision.APPROVED
    answer = approve_confirmed(state, None, BOSS)  # "Yes" pressed again, or sent without a question
    assert "Nothing is waiting for a confirmation: press Approve again." in note(answer) and untouched(answer, 1)


def test_open_shows_a_maintainer_the_desk_and_anyone_else_a_note_and_nothing_of_it(state, service, files):
    entry = public_entry(service, files["test-noisy"])
    bar, refused, panel, *desk = open_(state, None, BOSS)
    assert "boss" in bar and refused == gr.update(visible=False) and panel == gr.update(visible=True)
    assert len(desk) == ANSWER and desk[PICKER]["value"] == entry
    for someone in (signed_in("mallory"), None):
        bar, refused, panel, *desk = open_(state, entry, someone)
        assert refused == gr.update(visible=True) and panel == gr.update(visible=False)
        assert desk == [gr.skip()] * ANSWER  # nothing of the desk: not the list, not the entry


def every_action(entry: str, row: str) -> list[tuple[Callable[..., list], list]]:
    """Each handler of the desk with inputs that would act on ``entry`` (or the reported row ``row``)."""
    reported = ["Paper-VLM", "", "test", "40", "", "", "https://arxiv.org/abs/2510.00000", ""]
    return [
        (refresh, [entry]),
        (approve_, [entry, ""]),
        (approve_confirmed, [("approve", entry)]),
        (reject, [entry, "no"]),
        (hide, [entry, ""]),
        (unhide, [entry, ""]),
        (edit, [entry, "Renamed", "", "", "", "", "", ""]),
        (rescore_all, [entry, "why", True]),
        (flags.flag, [entry, "unverified", "why", ""]),
        (flags.unflag, [entry]),
        (reported_section.add, [entry, *reported]),
        (reported_section.ask, [entry, row]),
        (reported_section.confirmed, [entry, ("remove", row)]),
        (releases.open_release, [entry, "a new key", True]),
    ]


@pytest.mark.parametrize("who", ["mallory", None])
def test_every_action_is_refused_to_anyone_but_a_maintainer_and_changes_nothing(state, service, files, who):
    entry = public_entry(service, files["test-noisy"])
    service.add_reported(MAINTAINER, model="Paper-VLM", score="41.5", source="https://arxiv.org/abs/1")
    (row,) = reported(service)
    audit = service.audit_log(MAINTAINER)
    caller = signed_in(who) if who else None
    said = f"{who!r} is not a maintainer" if who else "You are not signed in, so you are not a maintainer"
    for handler, inputs in every_action(entry, row):
        with pytest.raises(gr.Error, match=said):
            handler(state, *inputs, caller)
    with pytest.raises(gr.Error, match=said):
        score_release_section.apply(state.services, "ladder", caller)
    with pytest.raises(gr.Error, match=said):
        desk_confirm.cancel(state.auth.require_maintainer, caller)
    view = service.status(entry)
    assert view.decision == ReviewDecision.PENDING and not view.hidden and view.metadata["model"] == "Alice-Nav"
    assert service.audit_log(MAINTAINER) == audit and service.release_policy() == "exact"
    assert reported(service) == [row]


def test_a_reported_row_is_added_then_removed_after_a_confirmation(state, service):
    source = "https://arxiv.org/abs/2510.00000"
    answer = reported_section.add(state, None, "Paper-VLM", "Lab", "test", " 41.5 ", "", " ", source, "", BOSS)
    said = "Added the reported row Paper-VLM (test, 41.5): it is on the public board."
    assert len(answer) == ANSWER and said in note(answer)
    (row,) = [r for r in service.public_table() if r.get("kind") == "reported"]
    assert row["coverage"] is None and row["score_valid_only"] is None  # left empty: unknown, never 0
    row_id = str(row["submission_id"])
    assert answer[REPORTED] == gr.update(choices=[("Paper-VLM (test, 41.5)", row_id)], value=None)

    answer = reported_section.ask(state, None, row_id, BOSS)
    assert len(answer) == ANSWER + 2 and answer[0] == "" and answer[1] == gr.skip()
    assert answer[2] == gr.update(visible=True) and answer[-1] == ("remove", row_id)
    assert "Remove the reported row Paper-VLM (test, 41.5)? It leaves the public board" in unescape(answer[-2])
    assert reported(service) == [row_id]

    answer = reported_section.confirmed(state, None, answer[-1], BOSS)
    assert f"Removed the reported row {row_id} from the public board." in note(answer) and answer[-1] is None
    assert reported(service) == []
    assert answer[REPORTED] == gr.update(choices=[], value=None)


def test_removing_a_reported_row_needs_one_on_the_board_and_a_question_asked(state, service, files):
    answer = reported_section.ask(state, None, "", BOSS)
    assert "Pick a reported row first." in note(answer) and untouched(answer, 2)
    entry = public_entry(service, files["test-noisy"])  # a submission is no reported row
    answer = reported_section.ask(state, None, entry, BOSS)
    assert f"No reported row {entry} on the board (refresh the desk)." in note(answer) and answer[-2:] == [None, None]
    answer = reported_section.confirmed(state, None, None, BOSS)
    assert "Nothing is waiting for a confirmation: press Remove again." in note(answer) and untouched(answer, 1)


def test_rescore_needs_its_confirmation_ticked_then_queues_every_scored_submission(state, services, service, files):
    public_entry(service, files["test-noisy"])
    public_entry(service, files["test-noisy1"], model="Bob-Nav")
    woken = []
    state = dataclasses.replace(state, services=dataclasses.replace(services, wakeup=lambda: woken.append(True)))
    answer = rescore_all(state, None, "new key", False, BOSS)
    said = "Tick the confirmation first: a rescore queues every scored submission again."
    assert said in note(answer) and untouched(answer) and not woken
    answer = rescore_all(state, None, "new key", True, BOSS)
    assert "Rescore requested: 2 submission(s) queued again." in note(answer) and woken == [True]
    assert len(answer) == ANSWER and answer[1:3] == [gr.update(visible=False)] * CLOSES


@pytest.mark.parametrize(
    ("handler", "inputs"),
    [
        (open_, ["picked"]),
        (refresh, ["picked"]),
        (approve_, ["picked", "reason_"]),
        (reject, ["picked", "reason_"]),
        (edit, list(inspect.signature(edit).parameters)[1:-1]),
        (reported_section.add, list(inspect.signature(reported_section.add).parameters)[1:-1]),
        (releases.open_release, ["picked", "note", "confirmed"]),
    ],
)
def test_gradio_reads_a_bound_handler_as_the_handler_and_injects_the_signed_in_profile(state, handler, inputs):
    """An event without an API name is named after its handler (``open_``, the page's load, is the one the
    site's door lets anyone call; ``refresh``), and the profile is found by the function's type hints."""
    fn = bound(handler, state)
    assert fn.__name__ == handler.__name__ and fn.__doc__ == handler.__doc__
    assert list(inspect.signature(fn).parameters) == [*inputs, "profile"]
    assert get_type_hints(fn)["profile"] == gr.OAuthProfile | None
    session = {"oauth_info": {"userinfo": {"preferred_username": "boss", "name": "b", "profile": "", "picture": ""}}}
    args, *_ = special_args(fn, [None] * len(inputs), Request({"type": "http", "session": session}))
    assert len(args) == len(inputs) + 1 and args[-1].username == "boss"
