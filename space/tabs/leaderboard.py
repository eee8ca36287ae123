"""The landing tab: the public table (search, filters, header sorting, column groups), CSV download, charts.

The view lives in the page address (``space/pages/board_url.py``): opening a link sets the controls,
and every change writes them back (``board_script.URL_JS``), so a link reproduces what its sender saw.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

import gradio as gr

from space.board_download import link_html as csv_link
from space.errors import shown
from space.pages import about, board, board_url
from space.pages.board_script import BOARD_SCRIPT, URL_JS
from space.pages.html import TRUST_CSS
from space.postprocessed import NO_POSTPROCESS, in_handler
from space.services import Services

BREAKDOWNS = [("none", "")] + [(label, name) for name, label in board.METADATA_LABELS.items()]


@dataclass(frozen=True)
class LeaderboardTab:
    tab: gr.Tab
    refresh: Callable[[Any], None]  # the event-wiring helper other tabs call after a change: ``refresh(trigger)``


def build(services: Services, demo: gr.Blocks | None = None) -> LeaderboardTab:
    with gr.Tab("Leaderboard", id="leaderboard", elem_id="tab-leaderboard") as tab:
        with gr.Row(equal_height=True, elem_id="board-controls"):
            split = gr.Radio(["test", "validation"], value="test", label="Split", elem_id="board-split", min_width=160)
            query = gr.Textbox(
                label="Search", placeholder="model, organisation, 7B…", elem_id="board-search", scale=2, min_width=160
            )
        # The three switches in one row, a phone included (``#board-toggles`` in space/theme.py): issue 15's
        # flagged entries hidden and Hub-reported results left out by default, one click each.
        with gr.Row(equal_height=True, elem_id="board-toggles"):
            best = gr.Checkbox(value=True, label="Best entry per model", elem_id="board-best", min_width=160)
            hide_flagged = gr.Checkbox(value=True, label="Hide flagged", elem_id="board-hide-flagged", min_width=120)
            show_hub = gr.Checkbox(
                value=False, label="Show Hub-reported results", elem_id="board-show-hub", min_width=160
            )
        # Column groups only add columns a phone hides: shown from laptop width up (``#board-columns``).
        with gr.Row(equal_height=True, elem_id="board-columns"):
            groups = gr.CheckboxGroup(
                list(board.GROUPS), value=[board.GROUP_EMBODIMENT], label="Column groups", elem_id="board-groups"
            )
            breakdown = gr.Dropdown(
                BREAKDOWNS, value="", label="Metadata breakdown (extra columns)", elem_id="board-breakdown"
            )
        with gr.Accordion("Filters", open=False, elem_id="board-filters"):
            with gr.Row(equal_height=True):
                open_weights = gr.Checkbox(label="Open weights only", elem_id="board-open", min_width=140)
                params_min = gr.Number(label="Parameters from (B)", minimum=0, elem_id="board-pmin", min_width=120)
                params_max = gr.Number(label="Parameters up to (B)", minimum=0, elem_id="board-pmax", min_width=120)
                organization = gr.Textbox(
                    label="Organisation", elem_id="board-org", max_length=board.MAX_ORGANISATION, min_width=140
                )
            with gr.Row(equal_height=True):  # what the submitters declared (entries without declarations drop out)
                not_trained = gr.Checkbox(label="Not trained on NaviTrace", elem_id="board-not-trained", min_width=160)
                single_run = gr.Checkbox(label="Single run only", elem_id="board-single-run", min_width=140)
        sort = gr.Textbox(value="score", visible="hidden", elem_id="board-sort", label="Sort (set by the headers)")
        summary = gr.Markdown(elem_id="board-summary")
        table = gr.HTML(elem_id="leaderboard", js_on_load=BOARD_SCRIPT, css_template=TRUST_CSS)
        # A link to GET /board.csv (space/board_download.py), not a file sent with every visit's first event.
        download = gr.HTML(csv_link("test"), elem_id="board-csv")
        gr.Markdown(about.BOARD_HELP, elem_classes="nt-help")
        charts = gr.HTML(elem_id="board-charts", js_on_load=None)

    filters = [open_weights, params_min, params_max, organization, hide_flagged, show_hub, not_trained, single_run]
    view_inputs = [split, query, sort, groups, breakdown, best, *filters]

    # Read-only and served from ``services.board``: drawn once per change of the results, whoever asks.
    def show_table(*values):
        with shown():
            return services.board.table(board_url.view_of(*values))

    def show_rest(split_):
        """The CSV and the charts: after the table, so a visitor reads the table without waiting for them."""
        with shown():
            split_ = split_ if split_ in board_url.SPLITS else "test"
            extras, link = services.board.extras(split_), csv_link(split_)
            if not extras.has_charts:
                note = f"<em>The charts appear once scored submissions of the {split_} split are on the board.</em>"
                return link, f'<div id="charts-empty">{note}</div>'
            return link, _charts_html(extras.by_embodiment, extras.by_category, extras.progress)

    def show_all(*values):
        return (*show_table(*values), *show_rest(values[0]))

    def leaderboard_table(split: str, query: str, sort: str, groups: list[str], breakdown: str) -> tuple[str, str]:
        """The summary line and the table HTML, best entry per model (the board's API before the filters came;
        ``sort`` as ``score``, ``emb:Human:asc`` or an old label such as ``Score``)."""
        return show_table(split, query, sort, groups, breakdown, True)

    def leaderboard(split: str, query: str, sort: str, groups: list[str], breakdown: str) -> tuple[str, str, str]:
        """The summary line, the table and the charts, as HTML (a full refresh, as the split's change draws it)."""
        (line, html), (_, charts_html) = show_table(split, query, sort, groups, breakdown), show_rest(split)
        return line, html, charts_html

    def from_address(request: gr.Request):
        """The controls a link asks for (``?split=…&q=…&sort=…``); the defaults without one."""
        controls = board_url.from_query(dict(request.query_params) if request else {})
        return tuple(list(v) if isinstance(v, tuple) else v for v in asdict(controls).values())

    outputs_rest = [download, charts]
    outputs_all = [summary, table, *outputs_rest]
    common: dict[str, Any] = {"show_progress": "hidden", "api_visibility": "undocumented", "concurrency_limit": None}
    common |= NO_POSTPROCESS  # each handler below postprocesses its outputs itself (space/postprocessed.py)
    table_event, rest_event = in_handler([summary, table], show_table), in_handler(outputs_rest, show_rest)
    # One event for every control, "always_last": one drawing at a time, and a change made meanwhile is drawn
    # after it with the controls' latest values; separate events could land out of order (an older view last).
    controls: list[Any] = [split, query, sort, groups, breakdown, best, *filters]
    changes = [control.change for control in controls]
    gr.on(changes, table_event, view_inputs, [summary, table], trigger_mode="always_last", js=URL_JS, **common).then(
        rest_event, [split], outputs_rest, **common
    )
    with tab:  # the names API callers use (benchmarks/bench_app.py), with the arguments they pass
        for api in (leaderboard_table, leaderboard):
            gr.api(api, api_name=api.__name__, api_visibility="undocumented", concurrency_limit=None)

    def refresh(trigger) -> None:
        trigger(table_event, view_inputs, [summary, table], **common).then(rest_event, [split], outputs_rest, **common)

    def opened(request: gr.Request):
        """The view the address asks for and the board it describes: one event per visit, not two
        (each event costs the server a round of Gradio's queue; issue 11)."""
        values = from_address(request)
        return (*values, *show_all(*values))

    if demo is not None:
        demo.load(in_handler([*view_inputs, *outputs_all], opened), None, [*view_inputs, *outputs_all], **common)
    tab.select(table_event, view_inputs, [summary, table], **common)
    return LeaderboardTab(tab, refresh)


def _charts_html(*parts: str) -> str:
    return f'<div class="nt-charts">{"".join(parts)}</div>'
