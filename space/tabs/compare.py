"""The Compare tab: two public entries side by side (``/?compare=<id_a>,<id_b>`` or two pickers)."""

from __future__ import annotations

from typing import Any

import gradio as gr

from leaderboard.uncertainty_compare import EntryIntervals
from space.errors import shown
from space.pages import compare, entry
from space.services import Services

QUIET: dict[str, Any] = {"show_progress": "hidden", "api_visibility": "undocumented", "concurrency_limit": None}

PROMPT = "<p class='nt-small' id='compare-prompt'>Pick two entries to see their differences with paired intervals.</p>"


def build(services: Services, demo: gr.Blocks, tab_set: gr.Tabs, intervals: EntryIntervals) -> gr.Tab:
    with gr.Tab("Compare", id="compare", elem_id="tab-compare") as tab:
        with gr.Row(equal_height=True):
            pick_a = gr.Dropdown([], label="Entry A", elem_id="compare-a", min_width=260)
            pick_b = gr.Dropdown([], label="Entry B", elem_id="compare-b", min_width=260)
        page = gr.HTML(PROMPT, elem_id="compare-page", css_template=entry.CSS, js_on_load=None)

    def rows() -> list[dict[str, object]]:
        return services.board.snapshot().rows

    def show(id_a: str | None, id_b: str | None) -> str:
        with shown():
            # Cut each before use: an API caller may send anything.
            id_a, id_b = entry.entry_id({"entry": id_a or ""}), entry.entry_id({"entry": id_b or ""})
            if id_a is None or id_b is None:
                return PROMPT
            table = rows()
            found = [entry.find(table, i) for i in (id_a, id_b)]
            for wanted, row in zip((id_a, id_b), found):
                if row is None:
                    return entry.not_found(wanted)
            row_a, row_b = found
            assert row_a is not None and row_b is not None
            return compare.compare_html(row_a, row_b, intervals.compare(row_a, row_b))

    def opened(request: gr.Request):
        with shown():
            options = entry.choices(rows())
            wanted = compare.compare_ids(dict(request.query_params)) if request else None
            if wanted is None:
                return gr.update(choices=options), gr.update(choices=options), gr.skip(), gr.skip()
            known = {i for _, i in options}
            return (
                gr.update(choices=options, value=wanted[0] if wanted[0] in known else None),
                gr.update(choices=options, value=wanted[1] if wanted[1] in known else None),
                show(*wanted),
                gr.Tabs(selected="compare"),
            )

    for picker in (pick_a, pick_b):
        picker.input(show, [pick_a, pick_b], page, **QUIET)
    demo.load(opened, None, [pick_a, pick_b, page, tab_set], **QUIET)

    def refreshed():
        options = entry.choices(rows())
        return gr.update(choices=options), gr.update(choices=options)

    tab.select(refreshed, None, [pick_a, pick_b], **QUIET)
    return tab
