"""The Submit tab: split, file, metadata; the validation report before confirming; quota; the id."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import gradio as gr

from leaderboard import Rejected
from leaderboard.metadata import MAX_DESCRIPTION, MAX_NAME
from leaderboard.records import Split
from space.errors import describe, shown
from space.limits import RateLimit
from space.pages import about, views
from space.services import Services
from space.uploads import Uploads

SPLITS = [
    ("Validation: private score with row-by-row feedback", Split.VALIDATION.value),
    ("Test: hidden ground truth, for the leaderboard", Split.TEST.value),
]
FILE_LABEL = "Predictions TSV"
OPEN_WEIGHTS = [("yes", "yes"), ("no", "no"), ("not said", "")]


def build(services: Services, demo: gr.Blocks) -> gr.Tab:
    service, auth = services.leaderboard, services.auth
    limit = service.settings.test_submissions_per_day
    uploads, per_minute = Uploads(), services.space.checks_per_minute
    checks, checking, lock = RateLimit(per_minute, 60), set[str](), threading.Lock()
    with gr.Tab("Submit", id="submit", elem_id="tab-submit") as tab:
        gr.Markdown(about.SUBMIT_HELP, elem_classes="nt-help")
        quota = gr.Markdown(about.quota_text(None, limit), elem_id="quota")
        with gr.Row():
            with gr.Column(scale=1):
                split = gr.Radio(SPLITS, value=Split.VALIDATION.value, label="Split", elem_id="submit-split")
                upload = gr.File(  # usable once the page knows who is signed in (show_quota)
                    label=f"{FILE_LABEL}: sign in at the top to upload",
                    file_types=[".tsv", ".txt", ".csv"],
                    type="filepath",
                    interactive=False,
                    elem_id="submit-file",
                )
                check = gr.Button("1 · Check the file", interactive=False, elem_id="check-button")
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

    def with_budget(text: str) -> str:
        """The quota line, and a line when the Hub's hourly commit limit holds scoring back (issue 14)."""
        budget = service.commit_budget().message
        return f"{text}\n\n{budget}" if budget else text

    def show_quota(profile: gr.OAuthProfile | None):
        """The quota, and the file input usable only when signed in (the server refuses anonymous uploads)."""
        user = auth.user(profile)
        with shown():
            text = with_budget(about.quota_text(service.quota_left(user) if user else None, limit))
        label = FILE_LABEL if user else f"{FILE_LABEL}: sign in at the top to upload"
        return text, gr.update(interactive=user is not None, label=label), gr.update(interactive=user is not None)

    def run_check(path: str | None, split_: str, profile: gr.OAuthProfile | None):
        """The report (never an exception: a bad file is an answer, shown where the user looks).

        Only for signed-in users, ``CHECKS_PER_MINUTE`` each and one at a time; a refused file is deleted.
        """
        closed = gr.update(interactive=False)
        user = auth.user(profile)
        if not path:
            return "", closed, ""
        if user is None:  # the door refuses anonymous uploads: this path is nobody's to delete
            return views.note(about.CHECK_SIGNED_OUT, "error"), closed, ""
        if not Path(path).is_file():
            return views.note(about.CHECK_GONE, "warn"), closed, ""
        with lock:
            wait = None if user in checking else checks.take(user)
            if user in checking or wait is not None:
                return views.note(about.checks_text(per_minute, wait or 1), "warn"), gr.skip(), gr.skip()
            checking.add(user)
        try:
            services.warmup.wait()
            report_ = views.report_html(service.validate(path, split_))
            uploads.hold(user, path)
            return report_, gr.update(interactive=True), ""
        except Rejected as error:
            uploads.release(user, path)
            return views.rejected_html(str(error), error.report), closed, ""
        except Exception as error:
            return views.note(describe(error), "error"), closed, ""
        finally:
            with lock:
                checking.discard(user)

    def on_split(split_: str):
        """Publishing is for test submissions: validation scores stay private."""
        return gr.update(interactive=True) if split_ == Split.TEST else gr.update(interactive=False, value=False)

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
        if not Path(path).is_file():
            return views.note(about.CHECK_GONE, "warn"), gr.skip(), gr.update(interactive=False)
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
        publish_ = bool(publish_) and split_ == Split.TEST
        try:
            receipt_ = service.submit(path, split=split_, user=user, metadata=metadata, publish=publish_)
        except Rejected as error:  # the metadata, mostly (the file passed its check): kept, to fix and send again
            return views.rejected_html(str(error), error.report, "Not submitted"), gr.skip(), gr.skip()
        except Exception as error:  # the quota, the store: said where the user looks
            return views.note(f"Not submitted: {describe(error)}", "error"), gr.skip(), gr.skip()
        uploads.release(user, path)  # the service keeps its own copy
        services.wakeup()  # score it now, not at the next interval
        with shown():
            html = views.receipt_html(
                receipt_.submission_id, receipt_.split, receipt_.duplicate, receipt_.quota_left, publish_
            )
            return html, with_budget(about.quota_text(service.quota_left(user), limit)), gr.update(interactive=False)

    quiet: dict[str, Any] = {"api_visibility": "undocumented"}
    signed_in = [quota, upload, check]
    demo.load(show_quota, None, signed_in, show_progress="hidden", **quiet)
    tab.select(show_quota, None, signed_in, show_progress="hidden", **quiet)
    # The three ways to check share two workers: a check reads the whole file (up to 60 MB) into memory.
    checking_ = {"concurrency_limit": 2, "concurrency_id": "check", **quiet}
    upload.change(run_check, [upload, split], [report, submit, receipt], api_name="check_file", **checking_)
    check.click(run_check, [upload, split], [report, submit, receipt], **checking_)
    split.change(run_check, [upload, split], [report, submit, receipt], **checking_)
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
