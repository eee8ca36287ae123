"""The Submit tab's declarations: asked when the test split and publishing are chosen.

A public test entry says how it was obtained (``leaderboard/records/declarations.py``); the service refuses one
without the answers and names the missing ones, so the form starts with nothing chosen rather than with
answers nobody gave. The Hub opt-in sits here too, with a sentence saying what it does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import gradio as gr

from leaderboard.jobs import REQUIRED_DECLARATIONS
from leaderboard.records import MAX_LINK, Split

TRAINED_ON = [
    ("No", "none"),
    ("Yes, on the validation split", "validation"),
    ("Yes, on the test split's images", "test"),
]
YES_NO = [("No", "no"), ("Yes", "yes")]
BEST_OF_LABEL = "Runs behind this file: 1 for a single run, n when it is the best of n runs"
TRAINED_LABEL = "Was the model trained or tuned on NaviTrace data?"
BEYOND_LABEL = "Were the test images used in any way beyond inference (prompt tuning on them, picking settings)?"
CODE_LABEL = "Link to the prompt or inference code (optional)"
HUB_LABEL = "Share this result on the model's Hub page"
# The service's keys, as the form asks them (label, elem_id): what a refusal names and marks.
FIELDS = {
    "trained_on": (TRAINED_LABEL, "decl-trained"),
    "test_images_beyond_inference": (BEYOND_LABEL, "decl-beyond"),
    "code_link": (CODE_LABEL, "decl-code"),
    "best_of": (BEST_OF_LABEL, "decl-best-of"),
    "share_on_hub": (HUB_LABEL, "decl-hub"),
}
INTRO = (
    "**Declarations** (required for a public test entry; shown on its entry page and used by the board's "
    "filters). Answer for the model and procedure behind this file."
)
HUB_HELP = (
    "Once a maintainer approves this entry, the Space opens a pull request on the model's Hugging Face repository "
    "(the model link above) that adds this result as `.eval_results/navitrace.yaml`, so it shows on the model "
    "page. Nothing is pushed directly: the repository's owners decide whether to merge it."
)


@dataclass(frozen=True)
class DeclarationControls:
    box: gr.Column
    trained_on: gr.Radio
    beyond: gr.Radio
    code_link: gr.Textbox
    best_of: gr.Textbox
    share_on_hub: gr.Checkbox
    hub: bool  # whether the Hub benchmark is configured: the opt-in is offered only then

    @property
    def inputs(self) -> list[Any]:
        return [self.trained_on, self.beyond, self.code_link, self.best_of, self.share_on_hub]


def build(hub: bool) -> DeclarationControls:
    """The declarations' box, hidden until the test split and publishing are both chosen; the Hub opt-in only
    when ``hub`` (without the Hub benchmark configured no pull request is ever opened)."""
    with gr.Column(visible=False, elem_id="declarations") as box:
        gr.Markdown(INTRO)
        trained_on = gr.Radio(TRAINED_ON, value=None, label=TRAINED_LABEL, elem_id="decl-trained")
        beyond = gr.Radio(
            YES_NO,
            value=None,
            label=BEYOND_LABEL,
            elem_id="decl-beyond",
        )
        code_link = gr.Textbox(
            label=CODE_LABEL,
            placeholder="https://github.com/…",
            max_length=MAX_LINK,
            elem_id="decl-code",
        )
        # Text, not a number box: an empty one must read as "not answered", not as 0; and no grey "1" in it,
        # which reads as an answer given.
        best_of = gr.Textbox(label=BEST_OF_LABEL, placeholder="type a number", max_length=8, elem_id="decl-best-of")
        share_on_hub = gr.Checkbox(value=False, label=HUB_LABEL, elem_id="decl-hub", visible=hub)
        gr.Markdown(HUB_HELP, elem_classes="nt-help", visible=hub)
    return DeclarationControls(box, trained_on, beyond, code_link, best_of, share_on_hub, hub)


def shown(split: str, publish: bool) -> dict[str, Any]:
    """The box's visibility for the split and the publish box."""
    return gr.update(visible=split == Split.TEST and bool(publish))


def answers(
    split: str, publish: bool, trained_on, beyond, code_link, best_of, share_on_hub, *, hub: bool = True
) -> dict[str, object] | None:
    """What to send to ``Leaderboard.submit``: the answers given, for a public test entry only (the service
    names what is missing); None otherwise, as nothing was asked. No Hub opt-in without the Hub benchmark."""
    if split != Split.TEST or not publish:
        return None
    given = {
        "trained_on": trained_on or None,
        "test_images_beyond_inference": beyond or None,
        "code_link": (code_link or "").strip() or None,
        "best_of": str(best_of or "").strip() or None,  # checked by the service (a whole number from 1)
        "share_on_hub": bool(share_on_hub) and hub,
    }
    return {k: v for k, v in given.items() if v is not None}


def unanswered(given: dict[str, object] | None) -> list[tuple[str, str]]:
    """The required questions a public test entry left unanswered, as (label, elem_id), in the form's order."""
    if given is None:
        return []
    return [FIELDS[key] for key in REQUIRED_DECLARATIONS if key not in given]
