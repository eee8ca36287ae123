"""The maintainers' desk's handlers: open, pick, decide (approve, reject, hide, unhide), edit, rescore.

Each is a function of a ``DeskState`` and the event's inputs, callable without a page;
``space.workspace.handlers.bound`` gives Gradio a function without the state, read as the handler (its name,
which is its API name when the listener gives none, and its annotations, by which Gradio injects the caller's
``gr.OAuthProfile``). Every one resolves the caller as a maintainer first (``auth.require_maintainer``) and the
service checks ``MAINTAINERS`` again on every action; only ``open_`` answers anyone, with a note and nothing of
the desk. The handlers of the desk's other sections sit beside their layout: ``flags``, ``reported_section``,
``releases``, ``score_release_section``.
"""

from __future__ import annotations

import gradio as gr

from space.desk import confirm, detail
from space.desk.state import CLOSES, DeskState, drawn, named, report, unchanged, untouched

DONE = {
    "approve": "Approved {id}: {who} is approved for the public board.",
    "reject": "Rejected {id}: {who}; its submitter sees the reason.",
    "hide": "Hid {id}: {who} is off the public board until it is unhidden.",
    "unhide": "Unhid {id}: {who} is shown again.",
}
EDITABLE = ("model", "organization", "model_link", "paper_link", "description", "open_weights", "parameters_b")
PICK_FIRST = "Pick a submission first."


def open_(state: DeskState, picked: str | None, profile: gr.OAuthProfile | None) -> list:
    """On load: the desk for a maintainer; for anyone else a note, and nothing of the desk."""
    bar = state.auth.header(profile, "desk")
    if not state.auth.is_maintainer(profile):
        nothing = [gr.skip() for _ in range(1 + CLOSES + state.page)]
        return [bar, gr.update(visible=True), gr.update(visible=False), *nothing]
    return [bar, gr.update(visible=False), gr.update(visible=True), *refresh(state, picked, profile)]


# A handler without a docstring had none before the move: Gradio shows one as its endpoint's description.
def refresh(state: DeskState, picked: str | None, profile: gr.OAuthProfile | None) -> list:
    by = state.auth.require_maintainer(profile)
    return drawn(state, "", picked, by)


def decide(state: DeskState, action: str, by: str, picked: str, reason_: str | None) -> list:
    """Approve, reject, hide or unhide ``picked``; once decided, the next entry awaiting a decision is picked."""
    service = state.service
    calls = {
        "approve": lambda: service.approve(picked, by=by),
        "reject": lambda: service.reject(picked, by=by, reason=reason_ or ""),
        "hide": lambda: service.hide(picked, by=by),
        "unhide": lambda: service.unhide(picked, by=by),
    }
    waiting = [v.submission_id for v in service.pending(by)]
    _, who = named(state, picked, by)

    def do() -> str:
        calls[action]()
        return DONE[action].format(id=picked, who=who)

    then = detail.next_pending(waiting, picked) if action in ("approve", "reject") else None
    return report(state, by, picked, f"{action.capitalize()} {who}", do, then)


def _decided(
    state: DeskState, action: str, picked: str | None, reason_: str | None, profile: gr.OAuthProfile | None
) -> list:
    by = state.auth.require_maintainer(profile)
    if not picked:
        return unchanged(state, PICK_FIRST, "warn")
    return decide(state, action, by, picked, reason_)


def reject(state: DeskState, picked: str | None, reason_: str | None, profile: gr.OAuthProfile | None) -> list:
    return _decided(state, "reject", picked, reason_, profile)


def hide(state: DeskState, picked: str | None, reason_: str | None, profile: gr.OAuthProfile | None) -> list:
    return _decided(state, "hide", picked, reason_, profile)


def unhide(state: DeskState, picked: str | None, reason_: str | None, profile: gr.OAuthProfile | None) -> list:
    return _decided(state, "unhide", picked, reason_, profile)


def approve_(state: DeskState, picked: str | None, reason_: str | None, profile: gr.OAuthProfile | None) -> list:
    """Approve at once, or, for a rejected entry or a likely copy, ask first naming what will happen."""
    by = state.auth.require_maintainer(profile)
    if not picked:
        return [*unchanged(state, PICK_FIRST, "warn"), gr.skip(), gr.skip()]
    view, _ = named(state, picked, by)
    if view is not None and detail.offered(view).contested:
        question = confirm.ask(detail.approve_question(view), "approve", picked)
        return ["", question[0], gr.skip(), *untouched(state), *question[1:]]
    return [*decide(state, "approve", by, picked, reason_), gr.skip(), None]


def approve_confirmed(state: DeskState, asked: tuple[str, str] | None, profile: gr.OAuthProfile | None) -> list:
    by = state.auth.require_maintainer(profile)
    if not asked or asked[0] != "approve":
        return [*unchanged(state, "Nothing is waiting for a confirmation: press Approve again.", "warn"), None]
    return [*decide(state, "approve", by, asked[1], None), None]


def edit(
    state: DeskState,
    picked: str | None,
    model: str,
    org: str,
    link: str,
    paper: str,
    description: str,
    weights: str,
    params: str,
    profile: gr.OAuthProfile | None,
) -> list:
    by = state.auth.require_maintainer(profile)
    if not picked:
        return unchanged(state, PICK_FIRST, "warn")
    values = (model, org or None, link or None, paper or None, description or None, weights or None, params or None)
    changes = dict(zip(EDITABLE, values))
    _, who = named(state, picked, by)

    def do() -> str:
        state.service.edit(picked, by=by, changes=changes)
        return f"Saved the edits of {who} ({picked})."

    return report(state, by, picked, f"Not saved ({who})", do)


def rescore_all(
    state: DeskState, picked: str | None, note_: str | None, confirmed: bool, profile: gr.OAuthProfile | None
) -> list:
    by = state.auth.require_maintainer(profile)
    if not confirmed:
        return unchanged(state, "Tick the confirmation first: a rescore queues every scored submission again.", "warn")

    def do() -> str:
        queued = state.service.rescore(by, note_ or None)
        state.services.wakeup()
        return f"Rescore requested: {queued} submission(s) queued again."

    return report(state, by, picked, "Rescore", do)
