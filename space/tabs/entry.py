"""The Entry tab: one public entry (``/?entry=<id>``); it also builds the Compare tab (``/?compare=a,b``).

Both read the public table the board serves (``services.board``: its rows hold the intervals and rank
ranges, computed when the table was rebuilt) and ask ``EntryIntervals`` for the per-category
intervals and paired differences, which come from the private per-row scores as aggregates only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

import gradio as gr

from leaderboard.uncertainty_compare import EntryIntervals
from space.errors import shown
from space.pages import entry
from space.services import Services
from space.tabs import compare

QUIET: dict[str, Any] = {"show_progress": "hidden", "api_visibility": "undocumented", "concurrency_limit": None}
PROMPT = "<p class='nt-small' id='entry-prompt'>Pick an entry to see everything known about it.</p>"


def intervals_of(services: Services) -> EntryIntervals:
    service = services.leaderboard

    @lru_cache(maxsize=2)
    def categories(split: str) -> Mapping[str, Sequence[str]]:
        services.warmup.wait()
        return {s.sample_id: s.category for s in service.keys.public(split).samples}  # public: no ground truth

    return EntryIntervals(service.registry.store, categories)


def build(services: Services, demo: gr.Blocks, tab_set: gr.Tabs) -> gr.Tab:
    intervals = intervals_of(services)
    with gr.Tab("Entry", id="entry", elem_id="tab-entry") as tab:
        picker = gr.Dropdown([], label="Entry", elem_id="entry-picker", allow_custom_value=False)
        page = gr.HTML(PROMPT, elem_id="entry-page", css_template=entry.CSS, js_on_load=None)

    def rows() -> list[dict[str, object]]:
        return services.board.snapshot().rows

    def show(submission_id: str | None) -> str:
        with shown():
            submission_id = entry.entry_id({"entry": submission_id or ""})  # an API caller may send anything
            if submission_id is None:
                return PROMPT
            found = entry.find(rows(), submission_id)
            if found is None:
                return entry.not_found(submission_id)
            return entry.entry_html(found, intervals.groups(found))

    def opened(request: gr.Request):
        """``/?entry=<id>``: open this tab on that entry; otherwise only fill the picker."""
        with shown():
            wanted = entry.entry_id(dict(request.query_params)) if request else None
            options = entry.choices(rows())
            if wanted is None:
                return gr.update(choices=options), gr.skip(), gr.skip()
            known = wanted in {i for _, i in options}
            return (
                gr.update(choices=options, value=wanted if known else None),
                show(wanted),
                gr.Tabs(selected="entry"),
            )

    picker.input(show, picker, page, **QUIET)
    demo.load(opened, None, [picker, page, tab_set], **QUIET)
    tab.select(lambda: gr.update(choices=entry.choices(rows())), None, picker, **QUIET)
    compare.build(services, demo, tab_set, intervals)
    return tab
