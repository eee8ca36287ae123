"""My submissions' actions on the picked submission: make it the public entry (after a warning naming the entries
that would leave the board), withdraw it, cancel it, propose it on the model's Hub page.

Each handler answers what a read answers (``my_submissions_handlers.refresh``) and two more values: what it did,
under its button, and what a warning asked (``Asked``), for the confirmation to do just that. The service checks
the owner and the state again on every one.
"""

from __future__ import annotations

import gradio as gr

from leaderboard import Leaderboard, SubmissionView
from leaderboard.records import Split
from space.site import views
from space.submit.my_handlers import MineState, Outputs, refresh
from space.workspace.errors import describe

Asked = list[object]  # [id, ids that would leave]: what the warning before a choice named


# The actions, one handler a button (each its own queue of two, as Gradio groups events by their function); no
# docstrings, as before the move.
def choose_public(state: MineState, picked: str | None, shown_: str, profile: gr.OAuthProfile | None) -> Outputs:
    return act(state, "choose", picked, None, profile)


def withdraw(state: MineState, picked: str | None, shown_: str, profile: gr.OAuthProfile | None) -> Outputs:
    return act(state, "withdraw", picked, None, profile)


def cancel(state: MineState, picked: str | None, shown_: str, profile: gr.OAuthProfile | None) -> Outputs:
    return act(state, "cancel", picked, None, profile)


def confirmed(
    state: MineState, picked: str | None, shown_: str, asked_: Asked | None, profile: gr.OAuthProfile | None
) -> Outputs:
    return act(state, "confirm", picked, asked_, profile)


def act(
    state: MineState, action: str, picked: str | None, asked_: Asked | None, profile: gr.OAuthProfile | None
) -> Outputs:
    """One of the submitter's actions on the picked submission; the service checks that it is theirs."""
    user = state.auth.require_user(profile, "change your submissions")
    if not picked:
        return (*refresh(state, picked, "", profile), views.note("Pick a submission first.", "warn"), None)
    try:
        if action in ("choose", "confirm"):
            leaving = _leaving(state.service, picked, user)
            ask = [picked, [v.submission_id for v in leaving]]
            if leaving and (action == "choose" or asked_ != ask):  # said first; done on the confirmation
                warning = views.note(leaving_text(picked, leaving), "warn")
                return (*refresh(state, picked, "", profile)[:-1], gr.update(visible=True), warning, ask)
        text, kind = _perform(state.service, action, picked, user), "ok"
    except Exception as error:  # a refusal (not yours, not in that state) or the store: said under the button
        text, kind = f"Not done: {describe(error)}", "error"
    return (*refresh(state, picked, "", profile), views.note(text, kind), None)


def share_on_hub(
    state: MineState,
    picked: str | None,
    shown_: str,
    profile: gr.OAuthProfile | None,
    token: gr.OAuthToken | None,
) -> Outputs:
    """The pull request on the model's Hub repo, opened with the submitter's own token: the Hub then decides
    whether they may, and they are its author (the Space opens one itself only on repos they control)."""
    user = state.auth.require_user(profile, "propose your result on the Hub")
    if not picked:
        return (*refresh(state, picked, "", profile), views.note("Pick a submission first.", "warn"), None)
    if token is None or not token.token:
        why = "Sign in with Hugging Face to propose it under your own account (this sign-in has no Hub token)."
        return (*refresh(state, picked, "", profile), views.note(why, "warn"), None)
    try:
        url = state.service.ownership.open_pull_request(picked, user, token.token)
        text, kind = f"Proposed on the Hub under your account: {url}", "ok"
    except Exception as error:  # refused by the Hub or the service: said under the button
        text, kind = f"Not done: {describe(error)}", "error"
    return (*refresh(state, picked, "", profile), views.note(text, kind), None)


def _perform(service: Leaderboard, action: str, submission_id: str, user: str) -> str:
    """Do ``action``; what it did, in a sentence."""
    if action in ("choose", "confirm"):
        left = service.choose_public(submission_id, user)
        where = views.board_state(service.status(submission_id, user))  # on the leaderboard, or awaiting approval
        gone = f" Off the board now: {', '.join(left)}." if left else ""
        return f"{submission_id} is your public entry ({where}).{gone}"
    if action == "withdraw":
        service.withdraw(submission_id, user)
        return (
            f"{submission_id} is withdrawn: it has left the leaderboard. It stays in your list and in the "
            "maintainers' audit log; choose it again to bring it back."
        )
    service.cancel(submission_id, user)
    test = service.status(submission_id, user).split == Split.TEST
    freed = " Its place in your daily test quota is free again." if test else ""
    return f"{submission_id} is cancelled: it will not be scored.{freed}"


def _leaving(service: Leaderboard, submission_id: str, user: str) -> list[SubmissionView]:
    """The user's other entries asking to be on the board: choosing ``submission_id`` withdraws them
    (``Ownership.choose_public``). The owner is checked by ``status`` (``NotAuthorised`` for another's)."""
    chosen = service.status(submission_id, user)
    return [v for v in service.my_submissions(user) if v.publish and v.submission_id != chosen.submission_id]


def leaving_text(submission_id: str, leaving: list[SubmissionView]) -> str:
    """The warning before a choice that takes other entries off the board, naming each of them."""
    named = "; ".join(f"{v.metadata.get('model')} ({v.submission_id}, {views.board_state(v)})" for v in leaving)
    return (
        f"Making {submission_id} your public entry withdraws your other entries asking to be on the board: {named}. "
        "Each submitter has one public entry chosen here (a withdrawn entry can be chosen again later). "
        'Press "Yes: make it public, withdraw the others" to go ahead.'
    )
