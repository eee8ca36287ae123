"""The desk's confirmations and answers, placed right under the control that asked for them.

A confirmation is a small panel that names what will happen, with "Yes, …" and "Cancel"; what it confirms
is kept in the session's state (never sent by the page), and the handler behind "Yes" checks the caller
and the entry again. Answers are notes that take the keyboard focus, so it never falls to ``<body>``
when the pressed button disappears and a screen reader reads the answer out.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import gradio as gr

from space.site.html import esc
from space.workspace.handlers import bound

# Gradio's progress tracker would cover every output with a spinner (an error badge on failure) and announce
# its raw "common.complete" key: the desk says itself, in one note, what happened.
QUIET: dict[str, Any] = {"show_progress": "hidden", "api_visibility": "undocumented"}


def say(text: str, kind: str = "info") -> str:
    """A note that can take the focus (``tabindex=-1``); errors are alerts, the rest status messages."""
    role = "alert" if kind in ("error", "warn") else "status"
    return f'<div class="nt-note nt-note-{esc(kind)}" role="{role}" tabindex="-1">{esc(text)}</div>'


def focus(*elem_ids: str) -> str:
    """Client-side: once the answer is drawn, focus the note of the first of ``elem_ids`` that shows one, and
    bring it into view (a hidden confirmation panel is skipped for the status under it)."""
    return (
        "() => { requestAnimationFrame(() => requestAnimationFrame(() => {"
        f" for (const id of {list(elem_ids)!r}) {{ const box = document.getElementById(id);"
        " const to = box && box.offsetParent !== null"
        " && (box.matches('button') ? box : box.querySelector('[tabindex=\"-1\"]'));"
        " if (to) { to.focus({preventScroll: true}); box.scrollIntoView({block: 'nearest'}); return; } } })); }"
    )


@dataclass(frozen=True)
class Confirm:
    box: gr.Column
    question: gr.HTML
    yes: gr.Button
    no: gr.Button
    asked: gr.State  # what "Yes" confirms: (action, target id), or None


def build(elem_id: str, yes_label: str) -> Confirm:
    """The hidden panel; ``ask`` fills and shows it."""
    with gr.Column(visible=False, elem_id=elem_id, elem_classes="nt-confirm") as box:
        question = gr.HTML(elem_id=f"{elem_id}-question")
        with gr.Row():
            yes = gr.Button(yes_label, variant="stop", elem_id=f"{elem_id}-yes", scale=0, min_width=200)
            no = gr.Button("Cancel", elem_id=f"{elem_id}-no", scale=0, min_width=120)
    return Confirm(box, question, yes, no, gr.State(None))


def ask(text: str, action: str, target: str) -> list:
    """``[box, question, asked]`` shown with the question."""
    question = f'<div class="nt-note nt-note-warn" role="alert" tabindex="-1"><strong>{esc(text)}</strong></div>'
    return [gr.update(visible=True), question, (action, target)]


def dismiss(confirm: Confirm, back_to: str, check: Callable[[gr.OAuthProfile | None], str], api_name: str) -> None:
    """Cancel hides the panel, forgets the question, and gives the focus back to the button that asked
    (``check`` refuses anyone but a maintainer, as every listener of the desk does)."""
    outputs = [confirm.box, confirm.asked]
    confirm.no.click(bound(cancel, check), None, outputs, api_name=api_name, **QUIET).then(None, js=focus(back_to))


# No docstring, as before the move: Gradio shows a handler's docstring as its endpoint's description.
def cancel(check: Callable[[gr.OAuthProfile | None], str], profile: gr.OAuthProfile | None) -> list:
    check(profile)
    return [gr.update(visible=False), None]


@dataclass(frozen=True)
class Answers:
    """Where the desk's actions answer: the note under the control, the confirmations an answer closes, then
    the page a refresh redraws (``space.desk.state`` fills them in this order); and the picked entry,
    which every action reads."""

    target: gr.Dropdown
    closes: list
    page: list

    def outputs(self, answer: gr.HTML) -> list:
        return [answer, *self.closes, *self.page]

    def click(
        self,
        button: gr.Button,
        handler: Callable[..., list],
        inputs: list,
        answer: gr.HTML,
        api_name: str,
        extra: Sequence[gr.components.Component] = (),
        first: Sequence[str] = (),
    ) -> None:
        """``button`` runs ``handler``, whose answer (and ``extra`` outputs) then takes the focus: the first of
        the elements ``first`` that shows (a confirmation), else the note under ``answer``."""
        outputs = [*self.outputs(answer), *extra]
        button.click(handler, inputs, outputs, api_name=api_name, **QUIET).then(
            None, js=focus(*first, answer.elem_id or "")
        )
