"""The desk's flags: flag the picked submission with a kind, a reason and a link to the evidence, or
unflag it. Guarded as the desk's other actions: the caller is resolved from the session
(``auth.require_maintainer``) and the service checks ``MAINTAINERS`` again, so a direct API call by anyone
else is refused; both actions land in the audit log.
"""

from __future__ import annotations

from dataclasses import dataclass

import gradio as gr

from leaderboard.records import MAX_LINK
from leaderboard.storage import KINDS, MAX_REASON
from space.desk.confirm import Answers
from space.desk.state import DeskState, named, report, unchanged
from space.workspace.handlers import bound


@dataclass(frozen=True)
class FlagControls:
    kind: gr.Radio
    reason: gr.Textbox
    link: gr.Textbox
    flag: gr.Button
    unflag: gr.Button
    status: gr.HTML  # the answer, under the two buttons


def build() -> FlagControls:
    """The flag form, where the desk calls it (under the picked submission)."""
    with gr.Accordion("Flag this submission (the board marks it; the reason and link are public)", open=False):
        with gr.Row(equal_height=True):
            kind = gr.Radio(list(KINDS), value="unverified", label="Kind", elem_id="flag-kind", scale=2)
            link = gr.Textbox(
                label="Link to the evidence (a discussion, an issue)",
                max_length=MAX_LINK,
                elem_id="flag-link",
                scale=2,
            )
        reason = gr.Textbox(
            label="Reason (shown on the board on hover and on the entry page)",
            max_length=MAX_REASON,
            elem_id="flag-reason",
            lines=2,
        )
        with gr.Row():
            flag = gr.Button("Flag", variant="stop", elem_id="flag-button")
            unflag = gr.Button("Remove the flag", elem_id="unflag-button")
        status = gr.HTML(elem_id="flag-status")
    return FlagControls(kind, reason, link, flag, unflag, status)


def wire(controls: FlagControls, state: DeskState, answers: Answers) -> None:
    """Both buttons answer under the form; a refusal leaves the rest of the page (and what was typed) alone."""
    inputs = [answers.target, controls.kind, controls.reason, controls.link]
    answers.click(controls.flag, bound(flag, state), inputs, controls.status, "flag")
    answers.click(controls.unflag, bound(unflag, state), [answers.target], controls.status, "unflag")


# No docstrings on the handlers, as before the move: Gradio shows one as its endpoint's description.
def flag(
    state: DeskState, picked: str | None, kind: str, reason: str, link: str, profile: gr.OAuthProfile | None
) -> list:
    by = state.auth.require_maintainer(profile)
    if not picked:
        return unchanged(state, "Pick a submission first.", "warn")
    _, who = named(state, picked, by)

    def do() -> str:
        made = state.service.flag(picked, by=by, kind=kind, reason=reason, link=link or None)
        return f"Flagged {who} ({picked}) as {made.kind}: the board marks it with the reason."

    return report(state, by, picked, f"Not flagged ({who})", do)


def unflag(state: DeskState, picked: str | None, profile: gr.OAuthProfile | None) -> list:
    by = state.auth.require_maintainer(profile)
    if not picked:
        return unchanged(state, "Pick a submission first.", "warn")
    _, who = named(state, picked, by)

    def do() -> str:
        removed = state.service.unflag(picked, by=by)
        return f"Removed the flag of {who} ({picked})." if removed else f"{who} ({picked}) had no flag."

    return report(state, by, picked, f"Not unflagged ({who})", do)
