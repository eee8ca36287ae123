"""The About tab: what NaviTrace is, the score, the file format with example files, local scoring, citation."""

from __future__ import annotations

from typing import Any

import gradio as gr

from space.pages import about
from space.pages.warmup import EXAMPLES
from space.services import Services

EXAMPLES_LABEL = "Example submissions (made by `python -m scoring example-submission`); each a plain download:"


def build(services: Services, demo: gr.Blocks) -> gr.Tab:
    settings = services.leaderboard.settings
    page = about.about_page(settings.baseline_raw, embedded=not settings.answer_key_dataset)
    top, bottom = page.split("## Scoring locally", 1)
    with gr.Tab("About", id="about", elem_id="tab-about") as tab:
        gr.Markdown(top, elem_classes="nt-about")
        # Download buttons, not a file list: a gr.File shows a removable "×" that would only empty the page's copy.
        with gr.Column(elem_id="about-examples"):
            gr.Markdown(EXAMPLES_LABEL)
            with gr.Row():
                buttons = [
                    gr.DownloadButton(
                        f"{name} ({split}, {kind})",
                        visible=False,
                        variant="secondary",
                        size="sm",
                        elem_classes="nt-example",
                    )
                    for name, split, kind in EXAMPLES
                ]
            waiting = gr.Markdown("The example files are being prepared…", elem_id="about-examples-wait")
        gr.Markdown("## Scoring locally" + bottom, elem_classes="nt-about")

    def files():
        found = {p.name: p for p in services.warmup.example_files()}
        if not found:
            return (gr.skip(),) * (len(buttons) + 1)
        ready = [
            gr.update(visible=True, value=str(found[name])) if name in found else gr.update(visible=False)
            for name, _, _ in EXAMPLES
        ]
        return (*ready, gr.update(visible=False))

    quiet: dict[str, Any] = {"show_progress": "hidden", "api_visibility": "undocumented", "concurrency_limit": None}
    demo.load(files, None, [*buttons, waiting], **quiet)
    tab.select(files, None, [*buttons, waiting], **quiet)
    return tab
