"""My submissions: statuses that update by themselves, failure messages, scores, per-row downloads."""

from __future__ import annotations

import json
from typing import Any

import gradio as gr

from leaderboard.results import rows_download_tsv
from space.errors import shown
from space.pages import about, views
from space.services import Services

POLL_S = 3.0


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
        timer = gr.Timer(POLL_S, active=False)  # started on load for signed-in visitors only

    def refresh(picked: str | None, shown_: str, profile: gr.OAuthProfile | None):
        user = auth.user(profile)
        if user is None:
            prompt = views.note("Sign in to see your submissions.", "info")
            if shown_ == "anonymous":
                return gr.skip(), gr.skip(), gr.skip(), gr.skip(), gr.skip()
            return prompt, gr.update(choices=[], value=None), "", gr.update(visible=False), "anonymous"
        with shown():
            mine = service.my_submissions(user)
        fingerprint = json.dumps(
            [[v.submission_id, v.status, v.decision, v.hidden, v.message] for v in mine] + [picked]
        )
        if fingerprint == shown_:
            return gr.skip(), gr.skip(), gr.skip(), gr.skip(), gr.skip()
        choices = [
            (f"{v.submission_id} · {v.split} · {v.metadata.get('model')} · {v.status}", v.submission_id) for v in mine
        ]
        ids = [v.submission_id for v in mine]
        chosen = picked if picked in ids else (ids[0] if ids else None)
        view = next((v for v in mine if v.submission_id == chosen), None)
        detail_html = views.detail_html(view) if view else ""
        download = _download(services, view, user)
        return views.my_table(mine), gr.update(choices=choices, value=chosen), detail_html, download, fingerprint

    outputs = [table, pick, detail, rows_file, seen]
    quiet: dict[str, Any] = {"show_progress": "hidden", "api_visibility": "undocumented"}

    def poll_if_signed_in(profile: gr.OAuthProfile | None):
        return gr.Timer(active=auth.user(profile) is not None)

    demo.load(poll_if_signed_in, None, timer, **quiet)
    demo.load(refresh, [pick, seen], outputs, **quiet)
    tab.select(refresh, [pick, seen], outputs, **quiet)
    timer.tick(refresh, [pick, seen], outputs, **quiet)
    pick.input(refresh, [pick, seen], outputs, api_name="my_submission", **quiet)
    return tab


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
