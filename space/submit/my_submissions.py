"""My submissions: statuses that update by themselves, failure messages, scores, per-row downloads.

While one of the visitor's submissions is waiting or running, a timer ticks every ``POLL_S``; a tick
costs nothing unless the worker reported an outcome for one of them (``Services.outcomes``: then
the page redraws at once, so FINISHED shows within about ``POLL_S`` of the worker's commit) or
``FULL_S`` have passed (a claim, or a change made by another process). While only a maintainer's
decision is awaited, it ticks every ``FULL_S``. When nothing of the visitor's is awaited, the timer
is off: no polling at all.

The page and its wiring; what each event does is in ``my_handlers`` (the reads) and
``my_actions`` (what the buttons do).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import gradio as gr

from space.site import words
from space.submit.my_actions import cancel, choose_public, confirmed, share_on_hub, withdraw
from space.submit.my_handlers import (
    FULL_S,
    POLL_S,
    MineState,
    Outputs,
    _with_release_note,
    _with_rescore_note,
    on_row,
    refresh,
    tick,
)
from space.web.services import Services
from space.workspace import a11y
from space.workspace.a11y import FOCUS_ANSWER
from space.workspace.handlers import bound

# The release and rescore notes are read here by their tests.
__all__ = ["FULL_S", "POLL_S", "_with_release_note", "_with_rescore_note", "build"]

# A click on a row, or Enter / Space on a focused row, picks it (the dropdown below does the same).
ROW_PICKING = """
const pick = (row) => {
  if (!row || !row.dataset.id) return;
  trigger('select', {index: Number(row.dataset.index), value: row.dataset.id, selected: true});
};
element.addEventListener('click', (e) => {
  if (!e.target.closest('a, button')) pick(e.target.closest('tr[data-id]'));
});
element.addEventListener('keydown', (e) => {
  const row = e.target.closest('tr[data-id]');
  if (row && (e.key === 'Enter' || e.key === ' ')) { e.preventDefault(); pick(row); }
});
"""
# The table: rows are picked by click or keyboard; on a phone the
# first columns (model, status, score) stay on the screen.
MINE_CSS = """
tr[data-id] { cursor: pointer; }
tr[data-id]:focus-visible { outline: 3px solid var(--color-accent); outline-offset: -3px; }
tr.nt-picked td { background: var(--color-accent-soft); }
tr.nt-picked td:first-child { box-shadow: inset 4px 0 0 var(--color-accent); }
td.nt-model { min-width: 7rem; max-width: 12rem; overflow-wrap: break-word; }
.nt-row-tag { display: none; }
@media (max-width: 640px) {
  td.nt-model { min-width: 6.5rem; max-width: 8rem; } th, td { padding: 5px 4px; }
  .nt-row-tag { display: block; font-size: 0.8em; font-weight: 400; margin-top: 2px; }
}
"""
QUIET: dict[str, Any] = {"show_progress": "hidden", "api_visibility": "undocumented"}
READS: dict[str, Any] = {**QUIET, "concurrency_limit": None}  # reads of the visitor's own rows: no queue
FOCUS: dict[str, Any] = {"js": FOCUS_ANSWER % "my-action-note", "show_progress": "hidden", "api_visibility": "private"}


@dataclass(frozen=True)
class Buttons:
    """The picked submission's buttons, in the order the handlers answer them: the confirmation last."""

    sent_file: gr.DownloadButton
    choose: gr.Button
    withdraw: gr.Button
    cancel: gr.Button
    share: gr.Button
    confirm: gr.Button

    def all(self) -> list[gr.Button | gr.DownloadButton]:
        return [self.sent_file, self.choose, self.withdraw, self.cancel, self.share, self.confirm]


@dataclass(frozen=True)
class MinePage:
    tab: gr.Tab
    table: gr.HTML
    pick: gr.Dropdown
    rows_file: gr.DownloadButton
    buttons: Buttons
    done: gr.HTML  # what an action did (or why not), under its button
    asked: gr.State  # (id, ids that would leave) the warning named, so the confirmation does just that
    detail: gr.HTML
    seen: gr.State  # what the page shows now, so an unchanged poll redraws nothing
    waiting: gr.State  # (outcome count, monotonic time, ids waiting) at the last read of the store
    timer: gr.Timer  # on only while something of the visitor's is waiting

    def outputs(self) -> list[Any]:
        """A read's outputs (``my_submissions_handlers.READ_OUTPUTS``)."""
        read = [self.table, self.pick, self.detail, self.rows_file, self.seen, self.waiting, self.timer]
        return [*read, *self.buttons.all()]


def build(services: Services, demo: gr.Blocks) -> gr.Tab:
    state = MineState.create(services)
    with gr.Tab("My submissions", id="mine", elem_id="tab-mine") as tab:
        page = _page(tab, demo)
    _wire_reads(demo, page, state)
    _wire_actions(page, state)
    return tab


def _page(tab: gr.Tab, demo: gr.Blocks) -> MinePage:
    a11y.install(demo)
    gr.Markdown(words.MY_HELP, elem_classes="nt-help")
    table = gr.HTML(elem_id="my-submissions", js_on_load=ROW_PICKING, css_template=MINE_CSS)
    with gr.Row(equal_height=True):
        pick = gr.Dropdown(label="Details of", choices=[], elem_id="my-pick", scale=3)
        rows_file = gr.DownloadButton(
            "Download per-row scores (TSV)", visible=False, elem_id="my-rows-download", variant="secondary", scale=1
        )
    with gr.Row(elem_id="my-actions"):
        sent_file, choose, withdraw_, cancel_, share = _action_row()
    done = gr.HTML(elem_id="my-action-note")
    # Choosing a public entry withdraws the submitter's others: said first, done on this second click.
    confirm = gr.Button("Yes: make it public, withdraw the others", visible=False, elem_id="my-choose-confirm")
    asked = gr.State(None)
    detail = gr.HTML(elem_id="my-detail")
    gr.Markdown(words.MY_MORE, elem_classes="nt-help")
    seen, waiting = gr.State(""), gr.State(None)
    timer = gr.Timer(POLL_S, active=False)
    buttons = Buttons(sent_file, choose, withdraw_, cancel_, share, confirm)
    return MinePage(tab, table, pick, rows_file, buttons, done, asked, detail, seen, waiting, timer)


def _action_row() -> tuple[gr.DownloadButton, gr.Button, gr.Button, gr.Button, gr.Button]:
    """What can be done with the picked submission, each shown only when it can work."""
    sent_file = gr.DownloadButton("Download the file I sent", visible=False, elem_id="my-sent-download")
    choose = gr.Button("Make this my public entry", visible=False, elem_id="my-choose", variant="primary")
    withdraw_ = gr.Button("Withdraw from the leaderboard", visible=False, elem_id="my-withdraw")
    cancel_ = gr.Button("Cancel: do not score it", visible=False, elem_id="my-cancel", variant="stop")
    # The result on the model's Hub page, proposed under the submitter's own account (their OAuth token).
    share = gr.Button("Propose it on my model's Hub page", visible=False, elem_id="my-share")
    return sent_file, choose, withdraw_, cancel_, share


def _wire_reads(demo: gr.Blocks, page: MinePage, state: MineState) -> None:
    """On load, when the tab is picked, on each tick while something waits, and when a submission is picked."""
    outputs, read = page.outputs(), bound(refresh, state)  # one function: the reads share their group
    demo.load(read, [page.pick, page.seen], outputs, **READS)
    page.tab.select(read, [page.pick, page.seen], outputs, **READS)
    page.timer.tick(bound(tick, state), [page.pick, page.seen, page.waiting], outputs, **READS)
    page.pick.input(read, [page.pick, page.seen], outputs, api_name="my_submission", **READS)
    page.table.select(bound(on_row, state), [page.seen], outputs, api_name="my_submission_row", **READS)


def _wire_actions(page: MinePage, state: MineState) -> None:
    """Each button its handler (its own group: two at a time), then the focus on what it did."""
    buttons, answered = page.buttons, [*page.outputs(), page.done, page.asked]
    picked = [page.pick, page.seen]
    acts: list[tuple[gr.Button, Callable[..., Outputs], list[Any], str]] = [
        (buttons.choose, choose_public, picked, "choose_public"),
        (buttons.withdraw, withdraw, picked, "withdraw"),
        (buttons.cancel, cancel, picked, "cancel"),
        (buttons.share, share_on_hub, picked, "share_on_hub"),
        (buttons.confirm, confirmed, [*picked, page.asked], "choose_public_confirmed"),
    ]
    for button, handler, inputs, name in acts:
        done = button.click(bound(handler, state), inputs, answered, api_name=name, concurrency_limit=2, **QUIET)
        done.then(None, **FOCUS)
