"""The About tab: what NaviTrace is, the score, the file format with example files, local scoring, citation."""

from __future__ import annotations

from typing import Any

import gradio as gr

from space.pages import about
from space.services import Services


def build(services: Services, demo: gr.Blocks) -> gr.Tab:
    settings = services.leaderboard.settings
    page = about.about_page(settings.baseline_raw, embedded=not settings.answer_key_dataset)
    top, bottom = page.split("## Scoring locally", 1)
    with gr.Tab("About", id="about", elem_id="tab-about") as tab:
        gr.Markdown(top, elem_classes="nt-about")
        examples = gr.File(
            label="Example submissions (made by python -m scoring example-submission)",
            file_count="multiple",
            interactive=False,
            elem_id="about-examples",
        )
        gr.Markdown("## Scoring locally" + bottom, elem_classes="nt-about")

    def files():
        found = services.warmup.example_files()
        return [str(p) for p in found] if found else gr.skip()

    quiet: dict[str, Any] = {"show_progress": "hidden", "api_visibility": "undocumented", "concurrency_limit": None}
    demo.load(files, None, examples, **quiet)
    tab.select(files, None, examples, **quiet)
    return tab
