"""The desk's reported rows: add a figure published elsewhere (with its source), or remove one after a confirmation.

The optional figures (valid-only score, coverage) start empty and an empty box is stored as ``None``:
the board shows "—" and the CSV an empty cell, never a 0 nobody published. Guarded as the desk's other
actions: the caller is resolved from the session and the service checks ``MAINTAINERS`` again.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import gradio as gr

from leaderboard.records import SPLITS, Split
from space.tabs import desk_confirm
from space.tabs.desk_confirm import QUIET, Confirm, focus

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


def choices(table: Sequence[Mapping[str, object]]) -> list[tuple[str, str]]:
    """The reported rows of the public table as ``(label, id)`` for the remove picker."""
    return [(_row_label(r), str(r["submission_id"])) for r in table if r.get("kind") == "reported"]


def figure(text: object) -> str | None:
    """What a figure box holds: ``None`` when it is empty (unknown), else the text for the service to check.

    >>> figure(""), figure("  "), figure(None), figure(" 0.93 ")
    (None, None, None, '0.93')
    """
    stripped = str(text or "").strip()
    return stripped or None


def wire(
    controls: ReportedControls,
    services: Any,
    target: gr.Dropdown,
    report: Callable[..., list],
    unchanged: Callable[..., list],
    outputs: Callable[[gr.HTML], list],
) -> None:
    service, auth = services.leaderboard, services.auth

    def add(picked, model, org, split, score, valid, coverage, source, link, profile: gr.OAuthProfile | None):
        by = auth.require_maintainer(profile)
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
            row = service.add_reported(by, **values)
            return f"Added the reported row {row.model} ({row.split}, {row.score:g}): it is on the public board."

        return report(by, picked, "Not added", do)

    def ask(picked, row_id, profile: gr.OAuthProfile | None):
        auth.require_maintainer(profile)
        if not row_id:
            return [*unchanged("Pick a reported row first.", "warn"), gr.skip(), gr.skip()]
        row = next((r for r in service.public_table() if str(r.get("submission_id")) == row_id), None)
        if row is None or row.get("kind") != "reported":
            return [*unchanged(f"No reported row {row_id} on the board (refresh the desk).", "error"), None, None]
        text = (
            f"Remove the reported row {_row_label(row)}? It leaves the public board and the CSV now; "
            "the audit log keeps what it said."
        )
        box, question, asked = desk_confirm.ask(text, "remove", row_id)
        skips = [gr.skip() for _ in outputs(controls.removed)[3:]]
        return ["", gr.skip(), box, *skips, question, asked]

    def confirmed(picked, asked, profile: gr.OAuthProfile | None):
        by = auth.require_maintainer(profile)
        if not asked or asked[0] != "remove":
            return [*unchanged("Nothing is waiting for a confirmation: press Remove again.", "warn"), None]
        row_id = asked[1]

        def do() -> str:
            service.remove_reported(row_id, by=by)
            return f"Removed the reported row {row_id} from the public board."

        return [*report(by, picked, f"Not removed ({row_id})", do), None]

    add_out = outputs(controls.added)
    controls.add.click(add, [target, *controls.fields], add_out, api_name="add_reported", **QUIET).then(
        None, js=focus(controls.added.elem_id or "")
    )
    asking = controls.asking
    ask_out = [*outputs(controls.removed), asking.question, asking.asked]
    then = focus(asking.box.elem_id or "", controls.removed.elem_id or "")
    controls.remove.click(ask, [target, controls.remove_choice], ask_out, api_name="remove_reported", **QUIET).then(
        None, js=then
    )
    done_out = [*outputs(controls.removed), asking.asked]
    asking.yes.click(confirmed, [target, asking.asked], done_out, api_name="remove_reported_confirmed", **QUIET).then(
        None, js=focus(controls.removed.elem_id or "")
    )
    desk_confirm.dismiss(asking, controls.remove.elem_id or "", auth.require_maintainer, "remove_reported_cancelled")


def _row_label(row: Mapping[str, object]) -> str:
    return f"{row.get('model')} ({row.get('split')}, {row.get('score')})"
