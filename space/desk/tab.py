"""The maintainers' desk: pending entries, approve / reject / hide / unhide / edit, reported rows, rescore, audit.

Its own page (``space.web.server.DESK_PATH``, ``/maintainers``), served by the same server behind the same
guard and sessions: the public page does not carry its ~60 components, which Gradio would otherwise
copy for every visit of every visitor. The public page links to it for maintainers. That link,
like the desk's being shown at all, is cosmetics: every handler resolves the caller from the
session (``auth.require_maintainer``) and the service checks ``MAINTAINERS`` again on every action,
so a direct API call by anyone else is refused.

Each action answers in a note right under its own control; a refused action changes nothing on the
page (what was typed stays), and approving a contested entry asks first (``confirm``).

The page and its wiring; what each event does is in ``handlers`` (and, for the sections placed by their own
modules, beside their layout), over the ``DeskState`` of ``state``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import gradio as gr

from space.desk import confirm as desk_confirm
from space.desk import copies, health_section, releases, reported_section, score_release_section
from space.desk import flags as maintainers_flags
from space.desk.activity import HELP as ACTIVITY_HELP
from space.desk.confirm import QUIET, Answers, Confirm
from space.desk.flags import FlagControls
from space.desk.handlers import approve_, approve_confirmed, edit, hide, open_, refresh, reject, rescore_all, unhide
from space.desk.releases import EditionControls
from space.desk.reported_section import ReportedControls
from space.desk.state import DeskState
from space.site import views, words
from space.web.services import Services
from space.workspace.handlers import bound

OPEN_WEIGHTS = [("yes", "yes"), ("no", "no"), ("not said", "")]
STATUS_ID = "maint-status"  # the decisions' answers, right under their buttons


DESK_TITLE = "Maintainers' desk"
NOT_YOURS = "This page is for the maintainers of the leaderboard (MAINTAINERS); sign in as one of them to use it."


@dataclass(frozen=True)
class Decisions:
    """The entry to act on, what is known of it, and the decisions with their answer and confirmation."""

    pending: gr.HTML
    target: gr.Dropdown
    reload: gr.Button
    copy_mark: gr.HTML
    declared: gr.HTML
    approve: gr.Button
    hide: gr.Button
    unhide: gr.Button
    reason: gr.Textbox
    reject: gr.Button
    status: gr.HTML
    asking: Confirm
    detail: gr.HTML


@dataclass(frozen=True)
class EditForm:
    fields: list  # in ``desk_handlers.EDITABLE``'s order
    save: gr.Button
    status: gr.HTML


@dataclass(frozen=True)
class Rescore:
    note: gr.Textbox
    confirm: gr.Checkbox
    button: gr.Button
    status: gr.HTML


@dataclass(frozen=True)
class Desk:
    """The desk's sections, top to bottom."""

    decisions: Decisions
    edits: EditForm
    flags: FlagControls
    reported: ReportedControls
    rescore: Rescore
    editions: EditionControls
    release: list  # the release policy's components a refresh redraws
    health: list  # the service status's
    health_refresh: Callable[[str], list]
    lists: list  # all submissions, per user, the audit log

    def answers(self) -> Answers:
        """Where the desk's actions answer, in the order ``desk_state.load`` draws the page."""
        d, edits = self.decisions, self.edits
        page = [d.pending, d.target, d.copy_mark, d.declared, d.approve, d.hide, d.unhide, d.reject, d.detail]
        page += [*self.lists, self.reported.remove_choice, *edits.fields, self.flags.unflag, *self.release]
        return Answers(d.target, [d.asking.box, self.reported.asking.box], [*page, *self.health])


def build(services: Services) -> gr.Blocks:
    """The desk as a page of its own (mounted at ``/maintainers`` by ``space.web.server.build_app``)."""
    with gr.Blocks(title=f"{words.TITLE}: {DESK_TITLE}", analytics_enabled=False) as page:
        # The header every page shares (space/site/shell.py), filled in for the caller on load.
        identity = gr.HTML(services.auth.header(None, "desk"), elem_id="identity-bar", padding=False)
        # HTML, not Markdown: Gradio opens Markdown links in a new tab, and this one goes back in place.
        gr.HTML(f'<h1>{DESK_TITLE}</h1><p><a href="/" id="back-to-board">← Back to the leaderboard</a></p>')
        refused = gr.HTML(views.note(NOT_YOURS, "info"), visible=False, elem_id="desk-refused")
        with gr.Column(visible=False, elem_id="tab-maintainers") as panel:
            desk = _desk(services)
            answers = desk.answers()
            state = DeskState.create(services, len(answers.page), desk.health_refresh)
            _wire(desk, answers, state)
        out = answers.outputs(desk.decisions.status)
        page.load(bound(open_, state), [desk.decisions.target], [identity, refused, panel, *out], **QUIET)
    return page


def _desk(services: Services) -> Desk:
    """The desk's components, top to bottom (the release policy's switch wired with them)."""
    gr.Markdown(words.MAINTAINERS_HELP, elem_classes="nt-help")
    decisions = _decisions()
    edits = _edit_form()
    flags = maintainers_flags.build()
    reported = reported_section.build()
    rescore = _rescore()
    editions = releases.build()  # the board's releases: open the next one
    release = score_release_section.build(services)  # the score release policy
    health, health_refresh = health_section.build(services)  # the service's status and the last errors
    lists = _lists()
    return Desk(decisions, edits, flags, reported, rescore, editions, release, health, health_refresh, lists)


def _decisions() -> Decisions:
    pending = gr.HTML(elem_id="pending")
    with gr.Row(elem_id="maint-pick"):
        # Custom values pass the dropdown so that every call reaches the maintainer check (and the
        # service's NotFound), whatever the caller's session holds as choices.
        target = gr.Dropdown([], label="Submission to act on", elem_id="maint-target", scale=4, allow_custom_value=True)
        reload = gr.Button("Refresh", elem_id="maint-refresh", scale=0, min_width=110)
    copy_mark = gr.HTML(elem_id=copies.MARK_ID, visible=False)  # a likely copy, seen before Approve
    declared = gr.HTML(elem_id="maint-declarations")  # what the submitter declared, seen before Approve
    with gr.Row(elem_id="maint-decide"):
        approve = gr.Button("Approve", variant="primary", elem_id="approve-button", scale=1)
        hide = gr.Button("Hide", elem_id="hide-button", scale=1)
        unhide = gr.Button("Unhide", elem_id="unhide-button", scale=1)
        reason = gr.Textbox(
            label="Reason for rejecting (the submitter sees it)", elem_id="reject-reason", scale=3, lines=1
        )
        reject = gr.Button("Reject", variant="stop", elem_id="reject-button", scale=1)
    status = gr.HTML(elem_id=STATUS_ID)
    asking = desk_confirm.build("approve-confirm", "Yes, approve and publish")
    detail = gr.HTML(elem_id="maint-detail")
    return Decisions(
        pending, target, reload, copy_mark, declared, approve, hide, unhide, reason, reject, status, asking, detail
    )


def _edit_form() -> EditForm:
    with gr.Accordion("Edit the metadata of this submission", open=False):
        with gr.Row():
            model = gr.Textbox(label="Model name", elem_id="edit-model")
            org = gr.Textbox(label="Organisation")
            weights = gr.Radio(OPEN_WEIGHTS, label="Open weights")
            params = gr.Textbox(label="Parameter count (billions)")
        with gr.Row():
            link = gr.Textbox(label="Model link", elem_id="edit-model-link")
            paper = gr.Textbox(label="Paper or code link")
        description = gr.Textbox(label="Description", lines=2)
        save = gr.Button("Save edits", elem_id="edit-button")
        status = gr.HTML(elem_id="edit-status")
    return EditForm([model, org, link, paper, description, weights, params], save, status)


def _rescore() -> Rescore:
    with gr.Accordion("Rescore everything (after a scorer or answer-key change)", open=False):
        note = gr.Textbox(label="Why (kept in the audit log)")
        with gr.Row(elem_id="rescore-row"):
            confirm = gr.Checkbox(label="Yes, queue every scored submission again", elem_id="rescore-confirm")
            button = gr.Button("Rescore all", variant="stop", elem_id="rescore-button", scale=0, min_width=160)
        status = gr.HTML(elem_id="rescore-status")
    return Rescore(note, confirm, button, status)


def _lists() -> list:
    """All submissions, the submissions per user and the audit log."""
    with gr.Accordion("All submissions", open=False):
        everything = gr.HTML(elem_id="all-submissions")
    with gr.Accordion("Submissions per user (what probing the test set looks like)", open=False):
        gr.Markdown(ACTIVITY_HELP, elem_classes="nt-help")
        per_user = gr.HTML(elem_id="user-activity")
    with gr.Accordion("Audit log (latest 100, newest first)", open=True):
        audit = gr.HTML(elem_id="audit")
    return [everything, per_user, audit]


def _wire(desk: Desk, answers: Answers, state: DeskState) -> None:
    """Every listener of the desk, in the order the page has always declared them (their ids follow it)."""
    _wire_decisions(desk.decisions, answers, state)
    edits, rescore = desk.edits, desk.rescore
    target = answers.target
    answers.click(edits.save, bound(edit, state), [target, *edits.fields], edits.status, "edit")
    inputs = [target, rescore.note, rescore.confirm]
    answers.click(rescore.button, bound(rescore_all, state), inputs, rescore.status, "rescore")
    maintainers_flags.wire(desk.flags, state, answers)
    reported_section.wire(desk.reported, state, answers)
    releases.wire(desk.editions, state, answers)


def _wire_decisions(d: Decisions, answers: Answers, state: DeskState) -> None:
    """Refresh and pick; approve (asking first when the entry is contested), reject, hide, unhide."""
    out, refreshed = answers.outputs(d.status), bound(refresh, state)  # one function: one concurrency group
    d.reload.click(refreshed, [d.target], out, api_name="maintainers_refresh", **QUIET)
    # On a choice, not on every input: Gradio's dropdown also reports "input" when it loses the focus, and a
    # refresh then would overwrite what the maintainer has started typing in the edit form.
    d.target.select(refreshed, [d.target], out, **QUIET)
    asking, inputs = d.asking, [d.target, d.reason]
    extra, first = (asking.question, asking.asked), (asking.box.elem_id or "",)
    answers.click(d.approve, bound(approve_, state), inputs, d.status, "approve", extra, first)
    answers.click(
        asking.yes, bound(approve_confirmed, state), [asking.asked], d.status, "approve_confirmed", (asking.asked,)
    )
    desk_confirm.dismiss(asking, "approve-button", state.auth.require_maintainer, "approve_cancelled")
    for button, handler, api_name in (
        (d.reject, reject, "reject"),
        (d.hide, hide, "hide"),
        (d.unhide, unhide, "unhide"),
    ):
        answers.click(button, bound(handler, state), inputs, d.status, api_name)
