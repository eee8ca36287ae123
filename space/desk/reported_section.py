"""The desk's reported rows: add a figure published elsewhere (with its source), or remove one after a confirmation.

The optional figures (valid-only score, coverage) start empty and an empty box is stored as ``None``:
the board shows "—" and the CSV an empty cell, never a 0 nobody published. Guarded as the desk's other
actions: the caller is resolved from the session and the service checks ``MAINTAINERS`` again.
"""

from __future__ import annotations

from dataclasses import dataclass

import gradio as gr

from leaderboard.records import SPLITS, Split
from space.desk import confirm as desk_confirm
from space.desk.confirm import Answers, Confirm
from space.desk.reported import choices, figure, row_label
from space.desk.state import DeskState, report, unchanged, untouched
from space.workspace.handlers import bound

__all__ = ["ReportedControls", "add", "ask", "build", "choices", "confirmed", "figure", "wire"]

UNKNOWN = "empty if unknown (shown as —)"


@dataclass(frozen=True)
class ReportedControls:
    fields: list  # model, organisation, split, score, valid-only, coverage, source, model link
    add: gr.Button
    added: gr.HTML
    remove_choice: gr.Dropdown
    remove: gr.Button
    removed: gr.HTML
    asking: Confirm


def build() -> ReportedControls:
    with gr.Accordion("Reported rows (figures published elsewhere, shown with their source)", open=False):
        with gr.Row():
            model = gr.Textbox(label="Model name", elem_id="reported-model")
            org = gr.Textbox(label="Organisation", elem_id="reported-org")
            split = gr.Radio(list(SPLITS), value=Split.TEST.value, label="Split", elem_id="reported-split")
        with gr.Row():
            # Text boxes, not number boxes: Gradio's number box shows (and sends) 0 when left empty.
            score = gr.Textbox(label="Score", placeholder="e.g. 43.77", elem_id="reported-score")
            valid = gr.Textbox(label="Valid-only score (optional)", placeholder=UNKNOWN, elem_id="reported-valid")
            coverage = gr.Textbox(label="Coverage 0–1 (optional)", placeholder=UNKNOWN, elem_id="reported-coverage")
        with gr.Row():
            source = gr.Textbox(label="Source (link to the publication)", elem_id="reported-source")
            link = gr.Textbox(label="Model link (optional)", elem_id="reported-link")
        add = gr.Button("Add reported row", elem_id="add-reported-button")
        added = gr.HTML(elem_id="add-reported-status")
        with gr.Row(equal_height=True):
            remove_choice = gr.Dropdown(
                [], label="Reported row to remove", scale=4, allow_custom_value=True, elem_id="remove-reported-choice"
            )
            remove = gr.Button("Remove…", scale=0, min_width=120, elem_id="remove-reported-button")
        removed = gr.HTML(elem_id="remove-reported-status")
        asking = desk_confirm.build("remove-confirm", "Yes, remove it from the board")
    return ReportedControls(
        [model, org, split, score, valid, coverage, source, link], add, added, remove_choice, remove, removed, asking
    )


def wire(controls: ReportedControls, state: DeskState, answers: Answers) -> None:
    """Add answers under its button; Remove asks first, in a confirmation under the picker."""
    target, asking, removed = answers.target, controls.asking, controls.removed
    answers.click(controls.add, bound(add, state), [target, *controls.fields], controls.added, "add_reported")
    answers.click(
        controls.remove,
        bound(ask, state),
        [target, controls.remove_choice],
        removed,
        "remove_reported",
        extra=(asking.question, asking.asked),
        first=(asking.box.elem_id or "",),
    )
    inputs = [target, asking.asked]
    answers.click(asking.yes, bound(confirmed, state), inputs, removed, "remove_reported_confirmed", (asking.asked,))
    check = state.auth.require_maintainer
    desk_confirm.dismiss(asking, controls.remove.elem_id or "", check, "remove_reported_cancelled")


# No docstrings on the handlers, as before the move: Gradio shows one as its endpoint's description.
def add(
    state: DeskState,
    picked: str | None,
    model: str,
    org: str,
    split: str,
    score: str,
    valid: str,
    coverage: str,
    source: str,
    link: str,
    profile: gr.OAuthProfile | None,
) -> list:
    by = state.auth.require_maintainer(profile)
    values = {
        "model": model,
        "organization": org or None,
        "split": split,
        "score": figure(score),
        "score_valid_only": figure(valid),
        "coverage": figure(coverage),
        "source": source,
        "model_link": link or None,
    }

    def do() -> str:
        row = state.service.add_reported(by, **values)
        return f"Added the reported row {row.model} ({row.split}, {row.score:g}): it is on the public board."

    return report(state, by, picked, "Not added", do)


def ask(state: DeskState, picked: str | None, row_id: str | None, profile: gr.OAuthProfile | None) -> list:
    state.auth.require_maintainer(profile)
    if not row_id:
        return [*unchanged(state, "Pick a reported row first.", "warn"), gr.skip(), gr.skip()]
    row = next((r for r in state.service.public_table() if str(r.get("submission_id")) == row_id), None)
    if row is None or row.get("kind") != "reported":
        return [*unchanged(state, f"No reported row {row_id} on the board (refresh the desk).", "error"), None, None]
    text = (
        f"Remove the reported row {row_label(row)}? It leaves the public board and the CSV now; "
        "the audit log keeps what it said."
    )
    box, question, asked = desk_confirm.ask(text, "remove", row_id)
    return ["", gr.skip(), box, *untouched(state), question, asked]


def confirmed(
    state: DeskState, picked: str | None, asked: tuple[str, str] | None, profile: gr.OAuthProfile | None
) -> list:
    by = state.auth.require_maintainer(profile)
    if not asked or asked[0] != "remove":
        return [*unchanged(state, "Nothing is waiting for a confirmation: press Remove again.", "warn"), None]
    row_id = asked[1]

    def do() -> str:
        state.service.remove_reported(row_id, by=by)
        return f"Removed the reported row {row_id} from the public board."

    return [*report(state, by, picked, f"Not removed ({row_id})", do), None]
