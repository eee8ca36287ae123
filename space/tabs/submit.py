"""The Submit tab: split, file, metadata; the validation report before confirming; quota; the id."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import gradio as gr

from leaderboard import Rejected
from leaderboard.intake import Quota
from leaderboard.metadata import MAX_DESCRIPTION, MAX_NAME
from leaderboard.records import Split
from space.errors import describe, shown
from space.limits import RateLimit
from space.pages import about, views
from space.services import Services
from space.tabs import submit_declarations, submit_messages, workspace_a11y
from space.tabs.workspace_a11y import FOCUS_ANSWER
from space.uploads import Uploads, path_of

SPLITS = [
    ("Validation: private score with row-by-row feedback", Split.VALIDATION.value),
    ("Test: hidden ground truth, for the leaderboard", Split.TEST.value),
]
FILE_LABEL = "Predictions TSV"
OPEN_WEIGHTS = [("yes", "yes"), ("no", "no"), ("not said", "")]
MODEL_LABEL = "Model name (required)"
# The service names a field by its key; the page says the label on screen and marks the field (its elem_id).
FIELDS = {
    "model": ("Model name", "meta-model"),
    "organization": ("Organisation", "meta-organization"),
    "model_link": ("Model link", "meta-model-link"),
    "paper_link": ("Paper or code link", "meta-paper-link"),
    "contact_email": ("Contact e-mail", "meta-email"),
    "description": ("Description", "meta-description"),
    "open_weights": ("Open weights", "meta-open-weights"),
    "parameters_b": ("Parameter count", "meta-parameters"),
    **submit_declarations.FIELDS,
}
NO_MODEL = "model is required: the name readers will see on the board"
REFUSED_GONE = "The file was taken off the form: fix it and upload it again."


def build(services: Services, demo: gr.Blocks) -> gr.Tab:
    service, auth = services.leaderboard, services.auth
    limit = service.settings.test_submissions_per_day
    uploads, per_minute = Uploads(), services.space.checks_per_minute
    checks, checking, lock = RateLimit(per_minute, 60), set[str](), threading.Lock()
    with gr.Tab("Submit", id="submit", elem_id="tab-submit") as tab:
        workspace_a11y.install(demo)
        gr.Markdown(about.SUBMIT_HELP, elem_classes="nt-help")
        quota = gr.Markdown(about.quota_text(None, limit, service.clock()), elem_id="quota")
        with gr.Row():
            with gr.Column(scale=1):
                split = gr.Radio(SPLITS, value=Split.VALIDATION.value, label="Split", elem_id="submit-split")
                split_note = gr.HTML(elem_id="split-quota")  # no test submission left: said before any upload
                upload = gr.File(  # usable once the page knows who is signed in (show_quota)
                    label=f"{FILE_LABEL}: sign in at the top to upload",
                    file_types=[".tsv", ".txt", ".csv"],
                    type="filepath",
                    interactive=False,
                    elem_id="submit-file",
                )
                check = gr.Button("1 · Check the file", interactive=False, elem_id="check-button")
                report = gr.HTML(elem_id="validation-report")  # under the button: where the eyes are
            with gr.Column(scale=1):
                closed: dict[str, Any] = {
                    "interactive": False
                }  # opened by open_form once the page knows who is signed in
                model = gr.Textbox(label=MODEL_LABEL, max_length=MAX_NAME, elem_id="meta-model", **closed)
                organization = gr.Textbox(
                    label="Organisation", max_length=MAX_NAME, elem_id="meta-organization", **closed
                )
                link_hint, paper_hint = "https://huggingface.co/org/model", "https://arxiv.org/abs/…"
                model_link = gr.Textbox(label="Model link", placeholder=link_hint, elem_id="meta-model-link", **closed)
                paper_link = gr.Textbox(
                    label="Paper or code link", placeholder=paper_hint, elem_id="meta-paper-link", **closed
                )
                email = gr.Textbox(
                    label="Contact e-mail (private: only maintainers see it)",
                    type="email",
                    elem_id="meta-email",
                    **closed,
                )
                description = gr.Textbox(
                    label="Description", lines=2, max_length=MAX_DESCRIPTION, elem_id="meta-description", **closed
                )
                with gr.Row():
                    open_weights = gr.Radio(
                        OPEN_WEIGHTS, value="", label="Open weights", elem_id="meta-open-weights", **closed
                    )
                    parameters = gr.Textbox(
                        label="Parameter count", placeholder="e.g. 7B or 500M", elem_id="meta-parameters", **closed
                    )
                publish = gr.Checkbox(
                    label="Publish on the leaderboard once a maintainer approves (test split only)",
                    value=False,
                    elem_id="meta-publish",
                    **closed,
                )
                declared = submit_declarations.build(hub=service.settings.hub_benchmark_dataset is not None)
                submit = gr.Button("2 · Submit", variant="primary", interactive=False, elem_id="submit-button")
                receipt = gr.HTML(elem_id="submit-receipt")  # under the button it answers
                why = gr.HTML(views.note(about.SIGNED_OUT_SUBMIT, "info"), elem_id="submit-why")
    form = [model, organization, model_link, paper_link, email, description, open_weights, parameters]

    def with_budget(text: str) -> str:
        """The quota line, and a line when the Hub's hourly commit limit holds scoring back (issue 14)."""
        budget = service.commit_budget().message
        return f"{text}\n\n{budget}" if budget else text

    def show_quota(profile: gr.OAuthProfile | None):
        """The quota, and the file input usable only when signed in (the server refuses anonymous uploads)."""
        user = auth.user(profile)
        with shown():
            text = with_budget(about.quota_text(service.quota(user) if user else None, limit, service.clock()))
        label = FILE_LABEL if user else f"{FILE_LABEL}: sign in at the top to upload"
        return text, gr.update(interactive=user is not None, label=label), gr.update(interactive=user is not None)

    def open_form(split_: str, profile: gr.OAuthProfile | None):
        """The metadata form: open when signed in, closed (and saying why) when not, before anything is typed."""
        user = auth.user(profile)
        fields = [gr.update(interactive=user is not None) for _ in form]
        publish_ = gr.update(interactive=user is not None and split_ == Split.TEST)
        hint = views.note(about.NOT_CHECKED if user else about.SIGNED_OUT_SUBMIT, "info")
        return (*fields, publish_, hint, _split_note(user, split_))

    def _full(user: str | None, split_: str) -> Quota | None:
        """The user's quota when the test split is picked and none is left today, else ``None``."""
        if user is None or split_ != Split.TEST:
            return None
        with shown():
            left = service.quota(user)
        return left if left.left == 0 else None

    def _split_note(user: str | None, split_: str) -> str:
        """Said under the split, before any upload: the test split is closed for today."""
        full = _full(user, split_)
        return views.note(about.no_test_left(full, service.clock()), "error") if full else ""

    def run_check(value: object, split_: str, profile: gr.OAuthProfile | None):
        """The report (never an exception: a bad file is an answer, shown where the user looks).

        Only for signed-in users, ``CHECKS_PER_MINUTE`` each and one at a time. A refused file is deleted and
        leaves the file box; its reason stays under the button until another file is checked.
        """
        closed_, path = gr.update(interactive=False), path_of(value)
        user = auth.user(profile)
        if not path:  # no file (refused, submitted or removed): what was said about the last one stays
            why_ = views.note(about.NOT_CHECKED if user else about.SIGNED_OUT_SUBMIT, "info")
            return gr.skip(), closed_, gr.skip(), why_, gr.skip()
        if user is None:  # the door refuses anonymous uploads: this path is nobody's to delete
            note = views.note(about.CHECK_SIGNED_OUT, "error")
            return note, closed_, "", views.note(about.SIGNED_OUT_SUBMIT), gr.skip()
        held = uploads.own(user, path)  # the user's copy once claimed, else the upload itself
        if not held or not Path(held).is_file():  # refused or submitted before: said before any check is spent
            return views.note(about.CHECK_GONE, "warn"), closed_, "", views.note(about.NOT_CHECKED), None
        with lock:
            wait = None if user in checking else checks.take(user)
            if user in checking or wait is not None:
                busy = views.note(about.checks_text(per_minute, wait or 1), "warn")
                return busy, gr.skip(), gr.skip(), gr.skip(), gr.skip()
            checking.add(user)
        try:
            try:
                own = uploads.claim(user, path)  # the user's own copy: another user's refusal cannot delete it
            except FileNotFoundError:
                return views.note(about.CHECK_GONE, "warn"), closed_, "", views.note(about.NOT_CHECKED), None
            services.warmup.wait()
            checked = services.validate(own, split_)  # in a checking process: pages keep their interpreter
            full = _full(user, split_)  # a file that passed, but no test submission left today
            if full is None:
                ready = views.note(about.READY, "ok")
                return views.report_html(checked), gr.update(interactive=True), "", ready, gr.skip()
            report_ = views.report_html(checked, ready=False) + views.note(about.PASSED_BUT_FULL, "warn")
            hint = views.note(about.submit_off_full(full, service.clock()), "error")
            return report_, closed_, "", hint, gr.skip()
        except Rejected as error:
            uploads.release(user, path)
            refused = views.rejected_html(str(error), error.report) + views.note(REFUSED_GONE, "info")
            return refused, closed_, "", views.note(about.NOT_CHECKED), None
        except Exception as error:
            return views.note(describe(error), "error"), closed_, "", views.note(about.NOT_CHECKED), gr.skip()
        finally:
            with lock:
                checking.discard(user)

    def cleared(profile: gr.OAuthProfile | None):
        """The user removed the file: its report goes, and the file too (it will not be submitted)."""
        user = auth.user(profile)
        if user is not None:
            uploads.drop(user)
        return "", gr.update(interactive=False), views.note(about.NOT_CHECKED if user else about.SIGNED_OUT_SUBMIT)

    def on_split(split_: str, profile: gr.OAuthProfile | None):
        """Publishing is for test submissions: validation scores stay private. The test quota, said at once."""
        publish_ = gr.update(interactive=True) if split_ == Split.TEST else gr.update(interactive=False, value=False)
        return publish_, _split_note(auth.user(profile), split_)

    def run_submit(
        value,
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
        trained_on_,
        beyond_,
        code_link_,
        best_of_,
        share_on_hub_,
        profile: gr.OAuthProfile | None,
    ):
        user, path = auth.require_user(profile, "submit"), path_of(value)
        if not path:
            raise gr.Error("Upload a predictions TSV first.")
        own = uploads.own(user, path)  # the copy claimed at the check: the user's own
        if not own or not Path(own).is_file():
            gone, hint = views.note(about.CHECK_GONE, "warn"), views.note(about.NOT_CHECKED)
            return gone, hint, gr.skip(), gr.update(interactive=False), None, gr.skip()
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
        answers = submit_declarations.answers(
            split_, publish_, trained_on_, beyond_, code_link_, best_of_, share_on_hub_, hub=declared.hub
        )
        # Nothing said above the Submit button contradicts the refusal under it: "Ready" goes.
        refused: tuple = ("", *(gr.skip(),) * 4)
        if not str(model_ or "").strip():  # said before the service's answer, in the words on screen
            return submit_messages.refusal(NO_MODEL, FIELDS), *refused
        unanswered = submit_declarations.unanswered(answers)
        if unanswered:
            return submit_messages.unanswered(unanswered), *refused
        try:
            receipt_ = service.submit(
                own, split=split_, user=user, metadata=metadata, publish=publish_, declarations=answers
            )
        except Rejected as error:  # the metadata, mostly (the file passed its check): kept, to fix and send again
            return submit_messages.refusal(str(error), FIELDS, error.report), *refused
        except Exception as error:  # the quota, the store: said where the user looks
            return views.note(f"Not submitted: {describe(error)}", "error"), *refused
        uploads.release(user, path)  # the service keeps its own copy
        services.wakeup()  # score it now, not at the next interval
        with shown():
            now, left = service.clock(), service.quota(user)
            renamed = _renamed(receipt_.submission_id, user, str(model_ or "")) if receipt_.duplicate else None
            words = about.quota_words(left, now) if receipt_.split == Split.TEST else None
            window = round(service.settings.dedupe_window_s / 60)
            html = views.receipt_html(
                receipt_.submission_id, receipt_.split, receipt_.duplicate, words, publish_, renamed, window
            )
            hint = views.note(about.NOT_CHECKED, "info")
            # The file input and its report are emptied (the service has its copy): the next file can come at once.
            quota_ = with_budget(about.quota_text(left, limit, now))
            return html, hint, quota_, gr.update(interactive=False), None, ""

    def _renamed(submission_id: str, user: str, typed: str) -> tuple[str, str] | None:
        """(kept, typed) when a re-sent file's submission keeps the name sent the first time."""
        kept = str(service.status(submission_id, user).metadata.get("model") or "")
        return (kept, typed.strip()) if typed.strip() and typed.strip() != kept else None

    quiet: dict[str, Any] = {"api_visibility": "undocumented"}
    shows: dict[str, Any] = {"show_progress": "hidden", "api_visibility": "private"}  # the browser's own scrolling
    signed_in = [quota, upload, check]
    opened = [*form, publish, why, split_note]
    for start in (demo.load, tab.select):
        start(show_quota, None, signed_in, show_progress="hidden", **quiet)
        start(open_form, split, opened, show_progress="hidden", **quiet)
    # The three ways to check share two workers: a check reads the whole file (up to 60 MB) into memory.
    # The file input is read raw (``path_of``): Gradio's preprocessing of it leaves an empty file each time.
    checking_ = {"concurrency_limit": 2, "concurrency_id": "check", "preprocess": False, **quiet}
    checked = [report, submit, receipt, why, upload]
    # A check runs when the user uploads (not on every change of the box: emptying it after a refusal or a
    # submission is no new file), on the button, and when the split changes under a file.
    upload.upload(run_check, [upload, split], checked, api_name="check_file", **checking_).then(
        None, js=FOCUS_ANSWER % "validation-report", **shows
    )
    check.click(run_check, [upload, split], checked, **checking_).then(
        None, js=FOCUS_ANSWER % "validation-report", **shows
    )
    split.change(run_check, [upload, split], checked, **checking_)
    upload.clear(cleared, None, [report, submit, why], show_progress="hidden", **quiet)
    split.change(on_split, split, [publish, split_note], show_progress="hidden", **quiet)
    for asked in (split.change, publish.change):  # the declarations: asked of a public test entry only
        asked(submit_declarations.shown, [split, publish], declared.box, show_progress="hidden", **quiet)
    fields = [upload, split, *form, publish, *declared.inputs]
    answered = [receipt, why, quota, submit, upload, report]
    sent = submit.click(run_submit, fields, answered, api_name="submit", concurrency_limit=2, preprocess=False, **quiet)
    sent.then(None, js=FOCUS_ANSWER % "submit-receipt", **shows)
    return tab
