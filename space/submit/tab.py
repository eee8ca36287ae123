"""The Submit tab: split, file, metadata; the validation report before confirming; quota; the id.

The page and its wiring; what each event does is in ``handlers``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import gradio as gr

from leaderboard.records import MAX_DESCRIPTION, MAX_NAME, Split
from space.site import views, words
from space.submit import declarations as submit_declarations
from space.submit.declarations import DeclarationControls
from space.submit.handlers import (
    FILE_LABEL,
    SubmitState,
    cleared,
    on_split,
    open_form,
    run_check,
    run_submit,
    show_quota,
)
from space.submit.messages import FIELDS
from space.web.services import Services
from space.workspace import a11y
from space.workspace.a11y import FOCUS_ANSWER
from space.workspace.handlers import bound

__all__ = ["FIELDS", "SPLITS", "build"]

SPLITS = [
    ("Validation: private score with row-by-row feedback", Split.VALIDATION.value),
    ("Test: hidden ground truth, for the leaderboard", Split.TEST.value),
]
OPEN_WEIGHTS = [("yes", "yes"), ("no", "no"), ("not said", "")]
MODEL_LABEL = "Model name (required)"
CLOSED: dict[str, Any] = {"interactive": False}  # the form, opened by open_form once the page knows who is signed in
QUIET: dict[str, Any] = {"api_visibility": "undocumented"}
SHOWS: dict[str, Any] = {"show_progress": "hidden", "api_visibility": "private"}  # the browser's own scrolling
# The three ways to check share two workers: a check reads the whole file (up to 60 MB) into memory.
# The file input is read raw (``path_of``): Gradio's preprocessing of it leaves an empty file each time.
CHECKING: dict[str, Any] = {"concurrency_limit": 2, "concurrency_id": "check", "preprocess": False, **QUIET}


@dataclass(frozen=True)
class FileControls:
    split: gr.Radio
    split_note: gr.HTML
    upload: gr.File
    check: gr.Button
    report: gr.HTML


@dataclass(frozen=True)
class FormControls:
    fields: tuple[gr.Textbox | gr.Radio, ...]  # the metadata, in ``METADATA``'s order
    publish: gr.Checkbox
    declared: DeclarationControls
    submit: gr.Button
    receipt: gr.HTML
    why: gr.HTML


@dataclass(frozen=True)
class SubmitPage:
    tab: gr.Tab
    quota: gr.Markdown
    file: FileControls
    form: FormControls


def build(services: Services, demo: gr.Blocks) -> gr.Tab:
    state = SubmitState.create(services)
    with gr.Tab("Submit", id="submit", elem_id="tab-submit") as tab:
        a11y.install(demo)
        gr.Markdown(words.SUBMIT_HELP, elem_classes="nt-help")
        quota = gr.Markdown(words.quota_text(None, state.limit, state.service.clock()), elem_id="quota")
        with gr.Row():
            with gr.Column(scale=1):
                file = _file_column()
            with gr.Column(scale=1):
                form = _form_column(hub=state.hub)
    page = SubmitPage(tab, quota, file, form)
    _wire_start(demo, page, state)
    _wire_checks(page, state)
    _wire_submit(page, state)
    return tab


def _file_column() -> FileControls:
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
    return FileControls(split, split_note, upload, check, report)


def _form_column(hub: bool) -> FormControls:
    fields = _metadata_fields()
    publish = gr.Checkbox(
        label="Publish on the leaderboard once a maintainer approves (test split only)",
        value=False,
        elem_id="meta-publish",
        **CLOSED,
    )
    declared = submit_declarations.build(hub=hub)
    submit = gr.Button("2 · Submit", variant="primary", interactive=False, elem_id="submit-button")
    receipt = gr.HTML(elem_id="submit-receipt")  # under the button it answers
    why = gr.HTML(views.note(words.SIGNED_OUT_SUBMIT, "info"), elem_id="submit-why")
    return FormControls(fields, publish, declared, submit, receipt, why)


def _metadata_fields() -> tuple[gr.Textbox | gr.Radio, ...]:
    """The metadata form, closed; in ``METADATA``'s order."""
    model = gr.Textbox(label=MODEL_LABEL, max_length=MAX_NAME, elem_id="meta-model", **CLOSED)
    organization = gr.Textbox(label="Organisation", max_length=MAX_NAME, elem_id="meta-organization", **CLOSED)
    link_hint, paper_hint = "https://huggingface.co/org/model", "https://arxiv.org/abs/…"
    model_link = gr.Textbox(label="Model link", placeholder=link_hint, elem_id="meta-model-link", **CLOSED)
    paper_link = gr.Textbox(label="Paper or code link", placeholder=paper_hint, elem_id="meta-paper-link", **CLOSED)
    email = gr.Textbox(
        label="Contact e-mail (private: only maintainers see it)", type="email", elem_id="meta-email", **CLOSED
    )
    description = gr.Textbox(
        label="Description", lines=2, max_length=MAX_DESCRIPTION, elem_id="meta-description", **CLOSED
    )
    with gr.Row():
        open_weights = gr.Radio(OPEN_WEIGHTS, value="", label="Open weights", elem_id="meta-open-weights", **CLOSED)
        parameters = gr.Textbox(
            label="Parameter count", placeholder="e.g. 7B or 500M", elem_id="meta-parameters", **CLOSED
        )
    return (model, organization, model_link, paper_link, email, description, open_weights, parameters)


def _wire_start(demo: gr.Blocks, page: SubmitPage, state: SubmitState) -> None:
    """On load and when the tab is picked: the quota, and the file input and the form opened for a signed-in user."""
    file, form = page.file, page.form
    signed_in = [page.quota, file.upload, file.check]
    opened = [*form.fields, form.publish, form.why, file.split_note]
    quota, form_ = bound(show_quota, state), bound(open_form, state)
    for start in (demo.load, page.tab.select):
        start(quota, None, signed_in, show_progress="hidden", **QUIET)
        start(form_, file.split, opened, show_progress="hidden", **QUIET)


def _wire_checks(page: SubmitPage, state: SubmitState) -> None:
    """A check runs when the user uploads (not on every change of the box: emptying it after a refusal or a
    submission is no new file), on the button, and when the split changes under a file."""
    file, form = page.file, page.form
    check = bound(run_check, state)
    checked = [file.report, form.submit, form.receipt, form.why, file.upload]
    file.upload.upload(check, [file.upload, file.split], checked, api_name="check_file", **CHECKING).then(
        None, js=FOCUS_ANSWER % "validation-report", **SHOWS
    )
    file.check.click(check, [file.upload, file.split], checked, **CHECKING).then(
        None, js=FOCUS_ANSWER % "validation-report", **SHOWS
    )
    file.split.change(check, [file.upload, file.split], checked, **CHECKING)
    file.upload.clear(
        bound(cleared, state), None, [file.report, form.submit, form.why], show_progress="hidden", **QUIET
    )
    file.split.change(
        bound(on_split, state), file.split, [form.publish, file.split_note], show_progress="hidden", **QUIET
    )
    for asked in (file.split.change, form.publish.change):  # the declarations: asked of a public test entry only
        asked(submit_declarations.shown, [file.split, form.publish], form.declared.box, show_progress="hidden", **QUIET)


def _wire_submit(page: SubmitPage, state: SubmitState) -> None:
    file, form = page.file, page.form
    fields = [file.upload, file.split, *form.fields, form.publish, *form.declared.inputs]
    answered = [form.receipt, form.why, page.quota, form.submit, file.upload, file.report]
    submit = bound(run_submit, state)
    sent = form.submit.click(
        submit, fields, answered, api_name="submit", concurrency_limit=2, preprocess=False, **QUIET
    )
    sent.then(None, js=FOCUS_ANSWER % "submit-receipt", **SHOWS)
