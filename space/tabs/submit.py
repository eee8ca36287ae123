"""The Submit tab: split, file, metadata; the validation report before confirming; quota; the id."""

from __future__ import annotations

from typing import Any

import gradio as gr

from leaderboard import Rejected
from leaderboard.metadata import MAX_DESCRIPTION, MAX_NAME
from space.errors import describe, shown
from space.pages import about, views
from space.services import Services

SPLITS = [
    ("Validation: private score with row-by-row feedback", "validation"),
    ("Test: hidden ground truth, for the leaderboard", "test"),
]
OPEN_WEIGHTS = [("yes", "yes"), ("no", "no"), ("not said", "")]


def build(services: Services, demo: gr.Blocks) -> gr.Tab:
    service, auth = services.leaderboard, services.auth
    limit = service.settings.test_submissions_per_day
    with gr.Tab("Submit", id="submit", elem_id="tab-submit") as tab:
        gr.Markdown(about.SUBMIT_HELP, elem_classes="nt-help")
        quota = gr.Markdown(about.quota_text(None, limit), elem_id="quota")
        with gr.Row():
            with gr.Column(scale=1):
                split = gr.Radio(SPLITS, value="validation", label="Split", elem_id="submit-split")
                upload = gr.File(
                    label="Predictions TSV", file_types=[".tsv", ".txt", ".csv"], type="filepath", elem_id="submit-file"
                )
                check = gr.Button("1 · Check the file", elem_id="check-button")
            with gr.Column(scale=1):
                model = gr.Textbox(label="Model name (required)", max_length=MAX_NAME, elem_id="meta-model")
                organization = gr.Textbox(label="Organisation", max_length=MAX_NAME, elem_id="meta-organization")
                model_link = gr.Textbox(label="Model link", placeholder="https://huggingface.co/org/model")
                paper_link = gr.Textbox(label="Paper or code link", placeholder="https://arxiv.org/abs/…")
                email = gr.Textbox(
                    label="Contact e-mail (private: only maintainers see it)", type="email", elem_id="meta-email"
                )
                description = gr.Textbox(label="Description", lines=2, max_length=MAX_DESCRIPTION)
                with gr.Row():
                    open_weights = gr.Radio(OPEN_WEIGHTS, value="", label="Open weights")
                    parameters = gr.Textbox(label="Parameter count", placeholder="e.g. 7B or 500M")
                publish = gr.Checkbox(
                    label="Publish on the leaderboard once a maintainer approves (test split only)",
                    value=False,
                    interactive=False,
                    elem_id="meta-publish",
                )
        report = gr.HTML(elem_id="validation-report")
        submit = gr.Button("2 · Submit", variant="primary", interactive=False, elem_id="submit-button")
        receipt = gr.HTML(elem_id="submit-receipt")

    def show_quota(profile: gr.OAuthProfile | None):
        user = auth.user(profile)
        with shown():
            return about.quota_text(service.quota_left(user) if user else None, limit)

    def run_check(path: str | None, split_: str):
        """The report (never an exception: a bad file is an answer, shown where the user looks)."""
        if not path:
            return "", gr.update(interactive=False), ""
        try:
            services.warmup.wait()
            return views.report_html(service.validate(path, split_)), gr.update(interactive=True), ""
        except Rejected as error:
            return views.rejected_html(str(error), error.report), gr.update(interactive=False), ""
        except Exception as error:
            return views.note(describe(error), "error"), gr.update(interactive=False), ""

    def on_split(split_: str):
        """Publishing is for test submissions: validation scores stay private."""
        return gr.update(interactive=True) if split_ == "test" else gr.update(interactive=False, value=False)

    def run_submit(
        path,
        split_,
        model_,
        org,
        link_,
        paper,
        email_,
        description_,
        open_,
        params,
        publish_,
        profile: gr.OAuthProfile | None,
    ):
        user = auth.require_user(profile, "submit")
        if not path:
            raise gr.Error("Upload a predictions TSV first.")
        metadata = {
            "model": model_,
            "organization": org,
            "model_link": link_,
            "paper_link": paper,
            "contact_email": email_,
            "description": description_,
            "open_weights": open_ or None,
            "parameters_b": params,
        }
        publish_ = bool(publish_) and split_ == "test"
        try:
            receipt_ = service.submit(path, split=split_, user=user, metadata=metadata, publish=publish_)
        except Rejected as error:
            return views.rejected_html(str(error), error.report, "Not submitted"), gr.skip(), gr.skip()
        except Exception as error:  # the quota, the store: said where the user looks
            return views.note(f"Not submitted: {describe(error)}", "error"), gr.skip(), gr.skip()
        services.wakeup()  # score it now, not at the next interval
        with shown():
            html = views.receipt_html(
                receipt_.submission_id, receipt_.split, receipt_.duplicate, receipt_.quota_left, publish_
            )
            return html, about.quota_text(service.quota_left(user), limit), gr.update(interactive=False)

    quiet: dict[str, Any] = {"api_visibility": "undocumented"}
    demo.load(show_quota, None, quota, show_progress="hidden", **quiet)
    tab.select(show_quota, None, quota, show_progress="hidden", **quiet)
    upload.change(run_check, [upload, split], [report, submit, receipt], api_name="check_file", **quiet)
    check.click(run_check, [upload, split], [report, submit, receipt], **quiet)
    split.change(run_check, [upload, split], [report, submit, receipt], **quiet)
    split.change(on_split, split, publish, show_progress="hidden", **quiet)
    fields = [
        upload,
        split,
        model,
        organization,
        model_link,
        paper_link,
        email,
        description,
        open_weights,
        parameters,
        publish,
    ]
    submit.click(run_submit, fields, [receipt, quota, submit], api_name="submit", concurrency_limit=2, **quiet)
    return tab
