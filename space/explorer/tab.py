"""The Explorer (validation split only): a sample, or a row of my validation submission, drawn and explained.

The layout and its wiring; the events themselves are in ``space.explorer.handlers``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import gradio as gr

from space.explorer import legend as explorer_legend
from space.explorer.handlers import (
    DEFAULT_LAYERS,
    LAYERS,
    NONE,
    Explorer,
    draw,
    layers_shown,
    open_tab,
    pick_row,
    pick_sample,
    pick_submission,
)
from space.site import words
from space.web.services import Services
from space.workspace import a11y
from space.workspace.handlers import bound


@dataclass(frozen=True)
class Controls:
    """The left column: what to draw."""

    submission: gr.Dropdown
    row: gr.Dropdown
    sample: gr.Dropdown
    embodiment: gr.Dropdown
    layers: gr.CheckboxGroup
    task: gr.HTML


@dataclass(frozen=True)
class Figures:
    """The right column: the row's figures, the legend and the picture."""

    breakdown: gr.HTML
    legend: gr.HTML
    image: gr.Image


def build(services: Services, demo: gr.Blocks) -> gr.Tab:
    with gr.Tab("Explorer", id="explorer", elem_id="tab-explorer") as tab:
        a11y.install(demo)
        gr.Markdown(words.EXPLORER_HELP, elem_classes="nt-help")
        with gr.Row():
            controls = _controls()
            figures = _figures()
    _wire(tab, controls, figures, Explorer(services, figures.image.GRADIO_CACHE))
    return tab


def _controls() -> Controls:
    with gr.Column(scale=1, min_width=300):
        submission = gr.Dropdown(
            [NONE], value="", label="Your validation submission (optional)", elem_id="explorer-submission"
        )
        # ``allow_custom_value``: an event sent just before another one changed these lists (a layer ticked
        # while a row was being picked) carries a value the new list lacks; Gradio would refuse the whole
        # event with a bare "Error". ``draw`` checks the values itself and falls back to the sample's first.
        row = gr.Dropdown(
            [],
            label="Row of that submission (worst first)",
            visible=False,
            elem_id="explorer-row",
            allow_custom_value=True,
        )
        sample = gr.Dropdown([], label="Sample", elem_id="explorer-sample", allow_custom_value=True)
        embodiment = gr.Dropdown([], label="Embodiment", elem_id="explorer-embodiment", allow_custom_value=True)
        layers = gr.CheckboxGroup(list(LAYERS), value=DEFAULT_LAYERS, label="Show", elem_id="explorer-layers")
        task = gr.HTML(elem_id="explorer-task")
    return Controls(submission, row, sample, embodiment, layers, task)


def _figures() -> Figures:
    with gr.Column(scale=2):
        # The figures first: beside the controls, above the picture, inside the first screen at 1440x900.
        breakdown = gr.HTML(elem_id="explorer-breakdown")
        legend = gr.HTML(explorer_legend.legend_html(layers_shown(DEFAULT_LAYERS)), elem_id="explorer-legend-box")
        image = gr.Image(label="Validation image", type="pil", interactive=False, elem_id="explorer-image")
    return Figures(breakdown, legend, image)


def _wire(tab: gr.Tab, c: Controls, figures: Figures, state: Explorer) -> None:
    drawn = [figures.image, figures.breakdown, c.task, figures.legend]
    quiet: dict[str, Any] = {"api_visibility": "undocumented"}
    drawing = bound(draw, state)  # one function for both of its events: Gradio queues them in one group (its id)
    shown = [c.submission, c.sample, c.embodiment, c.layers]
    tab.select(bound(open_tab, state), shown, [c.submission, c.sample, c.embodiment, *drawn], **quiet)
    c.sample.input(bound(pick_sample, state), [c.submission, c.sample, c.layers], [c.embodiment, *drawn], **quiet)
    c.embodiment.input(drawing, shown, drawn, api_name="explore", **quiet)
    c.layers.input(drawing, shown, drawn, **quiet)
    c.submission.input(bound(pick_submission, state), shown, [c.row, *drawn], **quiet)
    c.row.input(bound(pick_row, state), [c.submission, c.row, c.layers], [c.sample, c.embodiment, *drawn], **quiet)
