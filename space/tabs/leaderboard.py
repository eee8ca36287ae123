"""The landing tab: the public table (search, sort, column groups), CSV download, and charts."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import gradio as gr

from scoring.penalty_table import EMBODIMENTS
from space.errors import shown
from space.pages import about, board, charts
from space.services import Services

BREAKDOWNS = [("none", "")] + [(label, name) for name, label in board.METADATA_LABELS.items()]
CHART_HEIGHT = 320


@dataclass(frozen=True)
class LeaderboardTab:
    tab: gr.Tab
    refresh: Callable[[Any], None]  # the event-wiring helper other tabs call after a change: ``refresh(trigger)``


def build(services: Services) -> LeaderboardTab:
    with gr.Tab("Leaderboard", id="leaderboard", elem_id="tab-leaderboard") as tab:
        gr.Markdown(about.BOARD_HELP, elem_classes="nt-help")
        with gr.Row(equal_height=True):
            split = gr.Radio(["test", "validation"], value="test", label="Split", elem_id="board-split", scale=1)
            query = gr.Textbox(
                label="Search", placeholder="model, organisation, description…", elem_id="board-search", scale=2
            )
            sort = gr.Dropdown(list(board.SORTS), value="Score", label="Sort by", elem_id="board-sort", scale=1)
        with gr.Row(equal_height=True):
            groups = gr.CheckboxGroup(
                list(board.GROUPS),
                value=[board.GROUP_EMBODIMENT],
                label="Column groups",
                elem_id="board-groups",
                scale=2,
            )
            breakdown = gr.Dropdown(
                BREAKDOWNS, value="", label="Metadata breakdown (extra columns)", elem_id="board-breakdown", scale=1
            )
        summary = gr.Markdown(elem_id="board-summary")
        table = gr.HTML(elem_id="leaderboard", js_on_load=None)
        download = gr.DownloadButton("Download CSV", elem_id="board-csv", size="sm", variant="secondary")
        with gr.Accordion("Charts: the top models per embodiment and per category", open=True, elem_id="board-charts"):
            gr.Markdown(about.CHARTS_HELP, elem_classes="nt-help")
            empty_charts = gr.Markdown(elem_id="charts-empty")
            with gr.Row():
                by_embodiment = _plot("Per embodiment", "embodiment", "chart-embodiment")
                by_category = _plot("Per task category", "category", "chart-category")

    view_inputs = [split, query, sort, groups, breakdown]

    # Read-only and served from ``services.board``: drawn once per change of the results, whoever asks.
    def show_table(split_, query_, sort_, groups_, breakdown_):
        with shown():
            view = board.BoardView(split_, query_ or "", sort_ or "Score", frozenset(groups_ or ()), breakdown_ or None)
            return services.board.table(view)

    def show_rest(split_):
        """The CSV and the charts: after the table, so a visitor reads the table without waiting for them."""
        with shown():
            extras = services.board.extras(split_)
            embodiments, categories, has_charts = extras.by_embodiment, extras.by_category, extras.has_charts
            return (
                str(extras.csv_path),
                gr.update(value=embodiments, visible=has_charts, y_lim=charts.y_range(embodiments)),
                gr.update(value=categories, visible=has_charts, y_lim=charts.y_range(categories)),
                ""
                if has_charts
                else f"*The charts appear once scored submissions of the {split_} split are on the board.*",
            )

    def show_all(split_, query_, sort_, groups_, breakdown_):
        return (*show_table(split_, query_, sort_, groups_, breakdown_), *show_rest(split_))

    outputs_rest = [download, by_embodiment, by_category, empty_charts]
    outputs_all = [summary, table, *outputs_rest]
    common: dict[str, Any] = {"show_progress": "hidden", "api_visibility": "undocumented", "concurrency_limit": None}
    sort.change(show_table, view_inputs, [summary, table], api_name="leaderboard_table", **common)
    for control in (groups, breakdown):
        control.change(show_table, view_inputs, [summary, table], **common)
    query.change(show_table, view_inputs, [summary, table], trigger_mode="always_last", **common)
    split.change(show_all, view_inputs, outputs_all, api_name="leaderboard", **common)

    def refresh(trigger) -> None:
        trigger(show_table, view_inputs, [summary, table], **common).then(show_rest, [split], outputs_rest, **common)

    refresh(tab.select)
    return LeaderboardTab(tab, refresh)


def _plot(title: str, group: str, elem_id: str) -> gr.LinePlot:
    # Lines join one model's points across groups (a profile), which a stacked bar chart would hide:
    # gradio's BarPlot stacks the series of a colour and has no grouped mode.
    return gr.LinePlot(
        x="group",
        y="score",
        color="model",
        title=title,
        x_title=group,
        y_title="score (0 = baseline)",
        color_title="model",
        tooltip="all",
        height=CHART_HEIGHT,
        x_label_angle=-30 if group == "category" else 0,
        y_lim=[0, 100],
        sort=list(EMBODIMENTS) if group == "embodiment" else "x",
        elem_id=elem_id,
        show_label=False,
    )
