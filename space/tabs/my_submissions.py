"""My submissions: statuses that update by themselves, failure messages, scores, per-row downloads.

While one of the visitor's submissions is waiting or running, a timer ticks every ``POLL_S``; a tick
costs nothing unless the worker reported an outcome for one of them (``Services.outcomes``: then
the page redraws at once, so FINISHED shows within about ``POLL_S`` of the worker's commit) or
``FULL_S`` have passed (a claim, or a change made by another process). While only a maintainer's
decision is awaited, it ticks every ``FULL_S``. When nothing of the visitor's is awaited, the timer
is off: no polling at all.
"""

from __future__ import annotations

import json
import time
from typing import Any

import gradio as gr

from leaderboard.records import APPROVAL_PENDING
from leaderboard.results import rows_download_tsv
from space.errors import shown
from space.pages import about, views
from space.services import Services

POLL_S = 0.5  # while something of the visitor's is waiting: how soon an outcome shows
FULL_S = 3.0  # and how often the page reads the store anyway (RUNNING, a decision, another process's change)
WAITING = ("PENDING", "RUNNING")


def build(services: Services, demo: gr.Blocks) -> gr.Tab:
    service, auth = services.leaderboard, services.auth
    with gr.Tab("My submissions", id="mine", elem_id="tab-mine") as tab:
        gr.Markdown(about.MY_HELP, elem_classes="nt-help")
        table = gr.HTML(elem_id="my-submissions")
        with gr.Row(equal_height=True):
            pick = gr.Dropdown(label="Details of", choices=[], elem_id="my-pick", scale=3)
            rows_file = gr.DownloadButton(
                "Download per-row scores (TSV)", visible=False, elem_id="my-rows-download", variant="secondary", scale=1
            )
        detail = gr.HTML(elem_id="my-detail")
        seen = gr.State("")  # what the page shows now, so an unchanged poll redraws nothing
        waiting = gr.State(None)  # (outcome count, monotonic time, ids waiting) at the last read of the store
        timer = gr.Timer(POLL_S, active=False)  # on only while something of the visitor's is waiting

    skipped = (gr.skip(),) * 7

    def refresh(picked: str | None, shown_: str, profile: gr.OAuthProfile | None):
        user = auth.user(profile)
        if user is None:
            prompt = views.note("Sign in to see your submissions.", "info")
            if shown_ == "anonymous":
                return skipped
            off = gr.Timer(active=False)
            return prompt, gr.update(choices=[], value=None), "", gr.update(visible=False), "anonymous", None, off
        count = services.outcomes.count  # before the read: an outcome landing during it is not missed
        with shown():
            mine = service.my_submissions(user)
        pending = [v.submission_id for v in mine if v.status in WAITING]
        undecided = any(v.publish and v.decision == APPROVAL_PENDING and v.status != "FAILED" for v in mine)
        checked = (count, time.monotonic(), pending) if pending or undecided else None
        fingerprint = json.dumps(
            [[v.submission_id, v.status, v.decision, v.hidden, v.message, v.queue and v.queue.position] for v in mine]
            + [picked]
        )
        if fingerprint == shown_:
            return (*skipped[:5], checked, gr.skip())  # the timer's state follows the statuses: unchanged too
        choices = [
            (f"{v.submission_id} · {v.split} · {v.metadata.get('model')} · {v.status}", v.submission_id) for v in mine
        ]
        ids = [v.submission_id for v in mine]
        chosen = picked if picked in ids else (ids[0] if ids else None)
        view = next((v for v in mine if v.submission_id == chosen), None)
        detail_html = views.detail_html(view) if view else ""
        download = _download(services, view, user)
        picker, timer_on = gr.update(choices=choices, value=chosen), _timer(bool(pending), undecided)
        return views.my_table(mine), picker, detail_html, download, fingerprint, checked, timer_on

    def tick(picked: str | None, shown_: str, checked, profile: gr.OAuthProfile | None):
        """A timer tick: a read of the store only when an outcome of the visitor's came in, or now and then."""
        if checked is not None:
            count, when, pending = checked  # pending empty: only a decision is awaited, and ticks are FULL_S apart
            if pending and time.monotonic() - when < FULL_S and not services.outcomes.any_since(count, pending):
                return skipped
        return refresh(picked, shown_, profile)

    outputs = [table, pick, detail, rows_file, seen, waiting, timer]
    quiet: dict[str, Any] = {"show_progress": "hidden", "api_visibility": "undocumented"}
    reads: dict[str, Any] = {**quiet, "concurrency_limit": None}  # reads of the visitor's own rows: no queue
    demo.load(refresh, [pick, seen], outputs, **reads)
    tab.select(refresh, [pick, seen], outputs, **reads)
    timer.tick(tick, [pick, seen, waiting], outputs, **reads)
    pick.input(refresh, [pick, seen], outputs, api_name="my_submission", **reads)
    return tab


def _timer(scoring: bool, undecided: bool) -> gr.Timer:
    if scoring:
        return gr.Timer(POLL_S, active=True)
    return gr.Timer(FULL_S, active=undecided)


def _download(services: Services, view, user: str):
    """The per-row TSV of a finished *validation* submission of ``user`` (the service refuses the test split)."""
    if view is None or view.split != "validation" or view.status != "FINISHED":
        return gr.update(visible=False, value=None)
    with shown():
        rows = services.leaderboard.rows(view.submission_id, user=user)
    folder = services.scratch / "rows"
    folder.mkdir(exist_ok=True)
    path = folder / f"navitrace_rows_{view.submission_id}.tsv"
    path.write_bytes(rows_download_tsv(rows))  # formula-guarded: spreadsheets open this file
    return gr.update(visible=True, value=str(path))
