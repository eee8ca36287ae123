"""The desk's releases: open the next release of the board, beside "Rescore all".

Opening one freezes the current board (a copy and a tag in the results dataset, readable at ``/?release=vN``)
and rescores every entry under the new release (``leaderboard/review/edition_open.py``). Guarded as the desk's other
actions: the caller is resolved from the session (``auth.require_maintainer``) and the service checks
``MAINTAINERS`` again and writes the audit entry, so a direct API call by anyone else is refused.
"""

from __future__ import annotations

from dataclasses import dataclass

import gradio as gr

from leaderboard.publishing import MAX_NOTE
from space.desk.confirm import Answers
from space.desk.state import DeskState, report, unchanged
from space.workspace.handlers import bound

CONFIRM = "Yes, freeze the board and rescore every entry under the next release"


@dataclass(frozen=True)
class EditionControls:
    note: gr.Textbox
    confirm: gr.Checkbox
    open: gr.Button
    status: gr.HTML


def build() -> EditionControls:
    with gr.Accordion("Open the next release (freeze the board, rescore under new settings)", open=False):
        gr.Markdown(
            "A release names what every figure depends on: the answer key's revision, the scorer version, the "
            "baseline B and the score release policy. Open the next one after changing any of them: the current "
            "board is frozen as it is (its address `/?release=vN` and a tag of the results dataset keep it), then "
            "every entry is scored again under the new release. The note is public: [the changelog](/changelog) "
            "lists every release so far, with its note, date and rank moves.",
            elem_classes="nt-help",
        )
        note = gr.Textbox(
            label="What changed and why (public, on the changelog)",
            elem_id="release-note",
            lines=2,
            max_length=MAX_NOTE,
        )
        with gr.Row(elem_id="release-open-row"):
            confirm = gr.Checkbox(label=CONFIRM, elem_id="release-open-confirm")
            opening = gr.Button("Open the next release", variant="stop", elem_id="release-open-button", scale=0)
        status = gr.HTML(elem_id="release-open-status")
    return EditionControls(note, confirm, opening, status)


def wire(controls: EditionControls, state: DeskState, answers: Answers) -> None:
    inputs = [answers.target, controls.note, controls.confirm]
    answers.click(controls.open, bound(open_release, state), inputs, controls.status, "open_release")


# No docstring, as before the move: Gradio shows a handler's docstring as its endpoint's description.
def open_release(
    state: DeskState, picked: str | None, note: str, confirmed: bool, profile: gr.OAuthProfile | None
) -> list:
    by = state.auth.require_maintainer(profile)
    if not confirmed:
        return unchanged(
            state, "Tick the confirmation first: opening a release freezes the board and rescores it.", "warn"
        )

    def do() -> str:
        opened = state.service.open_release(note, by=by)
        state.services.wakeup()
        old = opened.closed.name
        return (
            f"Release {opened.edition.name} is open: {opened.queued} submission(s) queued for rescoring. Release "
            f"{old} is frozen: its board stays at /?release={old} and in the results dataset's tag {old}."
        )

    return report(state, by, picked, "Release not opened", do)
