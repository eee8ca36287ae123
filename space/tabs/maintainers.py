"""The maintainers' desk: pending entries, approve / reject / hide / unhide / edit, reported rows, rescore, audit.

Its own page (``space.server.DESK_PATH``, ``/maintainers``), served by the same server behind the same
guard and sessions: the public page does not carry its ~60 components, which Gradio would otherwise
copy for every visit of every visitor. The public page links to it for maintainers. That link,
like the desk's being shown at all, is cosmetics: every handler resolves the caller from the
session (``auth.require_maintainer``) and the service checks ``MAINTAINERS`` again on every action,
so a direct API call by anyone else is refused.

Each action answers in a note right under its own control; a refused action changes nothing on the
page (what was typed stays), and approving a contested entry asks first (``desk_confirm``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gradio as gr

from leaderboard import hub_eval
from leaderboard.flags import read_flags
from leaderboard.moderation import decision_text
from leaderboard.probing import ProbeFinder, finished_tests
from leaderboard.records import Split
from space.errors import describe, shown
from space.pages import about, desk_copies, desk_detail, views
from space.pages.activity import HELP as ACTIVITY_HELP
from space.pages.activity import activity_table
from space.pages.html import esc
from space.pages.probes import probe_section
from space.services import Services
from space.tabs import desk_confirm, desk_editions, desk_health, desk_release, desk_reported, maintainers_flags
from space.tabs.desk_confirm import QUIET, focus, say

OPEN_WEIGHTS = [("yes", "yes"), ("no", "no"), ("not said", "")]
DONE = {
    "approve": "Approved {id}: {who} is approved for the public board.",
    "reject": "Rejected {id}: {who}; its submitter sees the reason.",
    "hide": "Hid {id}: {who} is off the public board until it is unhidden.",
    "unhide": "Unhid {id}: {who} is shown again.",
}
EDITABLE = ("model", "organization", "model_link", "paper_link", "description", "open_weights", "parameters_b")
STATUS_ID = "maint-status"  # the decisions' answers, right under their buttons


DESK_TITLE = "Maintainers' desk"
NOT_YOURS = "This page is for the maintainers of the leaderboard (MAINTAINERS); sign in as one of them to use it."


def build(services: Services) -> gr.Blocks:
    """The desk as a page of its own (mounted at ``/maintainers`` by ``space.server.build_app``)."""
    auth = services.auth
    with gr.Blocks(title=f"{about.TITLE}: {DESK_TITLE}", analytics_enabled=False) as desk:
        # The header every page shares (space/public/shell.py), filled in for the caller on load.
        identity = gr.HTML(auth.header(None, "desk"), elem_id="identity-bar", padding=False)
        # HTML, not Markdown: Gradio opens Markdown links in a new tab, and this one goes back in place.
        gr.HTML(f'<h1>{DESK_TITLE}</h1><p><a href="/" id="back-to-board">← Back to the leaderboard</a></p>')
        refused = gr.HTML(views.note(NOT_YOURS, "info"), visible=False, elem_id="desk-refused")
        with gr.Column(visible=False, elem_id="tab-maintainers") as panel:
            out, refresh, target = _desk(services)

        def open_(picked, profile: gr.OAuthProfile | None):
            """On load: the desk for a maintainer; for anyone else a note, and nothing of the desk."""
            bar = auth.header(profile, "desk")
            if not auth.is_maintainer(profile):
                return [bar, gr.update(visible=True), gr.update(visible=False), *(gr.skip() for _ in out)]
            return [bar, gr.update(visible=False), gr.update(visible=True), *refresh(picked, profile)]

        desk.load(open_, [target], [identity, refused, panel, *out], **QUIET)
    return desk


def _desk(services: Services) -> tuple[list, Callable, gr.Dropdown]:
    """The desk's components and listeners; ``(the refresh's outputs, the refresh handler, the picker)``."""
    service, auth = services.leaderboard, services.auth
    gr.Markdown(about.MAINTAINERS_HELP, elem_classes="nt-help")
    pending = gr.HTML(elem_id="pending")
    with gr.Row(elem_id="maint-pick"):
        # Custom values pass the dropdown so that every call reaches the maintainer check (and the
        # service's NotFound), whatever the caller's session holds as choices.
        target = gr.Dropdown([], label="Submission to act on", elem_id="maint-target", scale=4, allow_custom_value=True)
        reload = gr.Button("Refresh", elem_id="maint-refresh", scale=0, min_width=110)
    copy_mark = gr.HTML(elem_id=desk_copies.MARK_ID, visible=False)  # a likely copy, seen before Approve
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
    with gr.Accordion("Edit the metadata of this submission", open=False):
        with gr.Row():
            e_model = gr.Textbox(label="Model name", elem_id="edit-model")
            e_org = gr.Textbox(label="Organisation")
            e_weights = gr.Radio(OPEN_WEIGHTS, label="Open weights")
            e_params = gr.Textbox(label="Parameter count (billions)")
        with gr.Row():
            e_link = gr.Textbox(label="Model link", elem_id="edit-model-link")
            e_paper = gr.Textbox(label="Paper or code link")
        e_description = gr.Textbox(label="Description", lines=2)
        save = gr.Button("Save edits", elem_id="edit-button")
        edit_status = gr.HTML(elem_id="edit-status")
    flags = maintainers_flags.build()
    reported = desk_reported.build()
    with gr.Accordion("Rescore everything (after a scorer or answer-key change)", open=False):
        r_note = gr.Textbox(label="Why (kept in the audit log)")
        with gr.Row(elem_id="rescore-row"):
            r_confirm = gr.Checkbox(label="Yes, queue every scored submission again", elem_id="rescore-confirm")
            rescore = gr.Button("Rescore all", variant="stop", elem_id="rescore-button", scale=0, min_width=160)
        rescore_status = gr.HTML(elem_id="rescore-status")
    editions = desk_editions.build()  # the board's releases: open the next one (issue 27)
    release_out, release_show = desk_release.build(services)  # the score release policy
    health_out, health_show = desk_health.build(services)  # the service's status and the last errors
    with gr.Accordion("All submissions", open=False):
        everything = gr.HTML(elem_id="all-submissions")
    with gr.Accordion("Submissions per user (what probing the test set looks like)", open=False):
        gr.Markdown(ACTIVITY_HELP, elem_classes="nt-help")
        per_user = gr.HTML(elem_id="user-activity")
    with gr.Accordion("Audit log (latest 100, newest first)", open=True):
        audit = gr.HTML(elem_id="audit")

    edit_fields = [e_model, e_org, e_link, e_paper, e_description, e_weights, e_params]
    buttons = [approve, hide, unhide, reject]
    page = [pending, target, copy_mark, declared, *buttons, detail, everything, per_user, audit, reported.remove_choice]
    page += [*edit_fields, flags.unflag, *release_out, *health_out]
    closes = [asking.box, reported.asking.box]  # an open confirmation closes once the page changed

    def outputs(answer: gr.HTML) -> list:
        return [answer, *closes, *page]

    # Reads each finished test submission's rows once (cached), only after ``service.submissions(by)``
    # has checked that ``by`` is a maintainer.
    probes = ProbeFinder(lambda submission_id: service.rows(submission_id))

    def load(picked: str | None, by: str) -> list:
        waiting = service.pending(by)
        all_ = service.submissions(by)
        waiting_ids = {v.submission_id for v in waiting}
        choices = [(f"awaiting · {_label(v)}", v.submission_id) for v in waiting]
        choices += [
            (f"{decision_text(v.decision, v.publish)}{' · hidden' if v.hidden else ''} · {_label(v)}", v.submission_id)
            for v in all_
            if v.submission_id not in waiting_ids
        ]
        ids = [value for _, value in choices]
        chosen = picked if picked in ids else (ids[0] if ids else None)
        view = next((v for v in all_ if v.submission_id == chosen), None)
        flag = read_flags(service.requests).get(chosen) if chosen else None
        declarations = service.registry.request(chosen).declarations if view is not None and chosen else None
        can = desk_detail.offered(view)
        meta = view.metadata if view else {}
        return [
            desk_detail.pending_table(waiting) + desk_copies.pending_marks(waiting),
            gr.update(choices=choices, value=chosen),
            gr.update(value=(mark := desk_copies.mark(view)), visible=bool(mark)),  # no empty gap without one
            desk_detail.declared_html(declarations, view) + _hub_note(service, view, chosen),
            # Approve is the big default only when nothing about the entry is contested.
            gr.update(visible=can.approve, variant="secondary" if can.contested else "primary"),
            gr.update(visible=can.hide),
            gr.update(visible=can.unhide),
            gr.update(visible=can.reject),
            desk_detail.flag_note(flag) + desk_detail.facts_html(view),
            views.maintainer_table(all_, "all-table", "No submission yet."),
            activity_table(all_, service.clock()) + probe_section(probes.pairs(finished_tests(all_))),
            views.audit_table(service.audit_log(by, limit=100)),
            gr.update(choices=desk_reported.choices(service.public_table()), value=None),
            meta.get("model") or "",
            meta.get("organization") or "",
            meta.get("model_link") or "",
            meta.get("paper_link") or "",
            meta.get("description") or "",
            {True: "yes", False: "no"}.get(meta.get("open_weights"), ""),  # type: ignore[arg-type]
            "" if meta.get("parameters_b") is None else str(meta.get("parameters_b")),
            gr.update(visible=flag is not None),  # nothing to remove on an entry without a flag
            *release_show(by, all_),
            *health_show(by),
        ]

    def refresh(picked, profile: gr.OAuthProfile | None):
        by = auth.require_maintainer(profile)
        with shown():
            return ["", *(gr.update(visible=False) for _ in closes), *load(picked, by)]

    def unchanged(text: str, kind: str = "error") -> list:
        """A refused or failed action: its note, and nothing else on the page touched (typed input stays)."""
        return [say(text, kind), *(gr.skip() for _ in closes), *(gr.skip() for _ in page)]

    def report(by: str, picked, failed: str, action: Callable[[], str], then: str | None = None) -> list:
        """Run one maintainer action: its success note and the page (picking ``then`` when given), or what
        went wrong (as the page says it) with the page left as it was."""
        try:
            done = say(action(), "ok")
        except Exception as error:
            services.board.refresh()  # a store write of unknown outcome may have landed all the same
            return unchanged(f"{failed}: {describe(error)}")
        services.board.refresh()  # the action may have changed the public table: the next view shows it
        with shown():
            return [done, *(gr.update(visible=False) for _ in closes), *load(then or picked, by)]

    def named(picked: str, by: str) -> tuple[Any, str]:
        """``(the view or None, "Carl-Nav by carl")`` for messages; the id alone when it is unknown."""
        try:
            view = service.status(picked, by)
        except Exception:  # an unknown id: the action itself says so
            return None, picked
        return view, desk_detail.who(view)

    def decide(action: str, by: str, picked: str, reason_: str | None) -> list:
        calls = {
            "approve": lambda: service.approve(picked, by=by),
            "reject": lambda: service.reject(picked, by=by, reason=reason_ or ""),
            "hide": lambda: service.hide(picked, by=by),
            "unhide": lambda: service.unhide(picked, by=by),
        }
        waiting = [v.submission_id for v in service.pending(by)]
        _, who = named(picked, by)

        def do() -> str:
            calls[action]()
            return DONE[action].format(id=picked, who=who)

        # Once decided, the next entry awaiting a decision is picked.
        then = desk_detail.next_pending(waiting, picked) if action in ("approve", "reject") else None
        return report(by, picked, f"{action.capitalize()} {who}", do, then)

    def act(action: str):
        def run(picked, reason_, profile: gr.OAuthProfile | None):
            by = auth.require_maintainer(profile)
            if not picked:
                return unchanged("Pick a submission first.", "warn")
            return decide(action, by, picked, reason_)

        run.__name__ = action
        return run

    def approve_(picked, reason_, profile: gr.OAuthProfile | None):
        """Approve at once, or, for a rejected entry or a likely copy, ask first naming what will happen."""
        by = auth.require_maintainer(profile)
        if not picked:
            return [*unchanged("Pick a submission first.", "warn"), gr.skip(), gr.skip()]
        view, _ = named(picked, by)
        if view is not None and desk_detail.offered(view).contested:
            question = desk_confirm.ask(desk_detail.approve_question(view), "approve", picked)
            return ["", question[0], gr.skip(), *(gr.skip() for _ in page), *question[1:]]
        return [*decide("approve", by, picked, reason_), gr.skip(), None]

    def approve_confirmed(asked, profile: gr.OAuthProfile | None):
        by = auth.require_maintainer(profile)
        if not asked or asked[0] != "approve":
            return [*unchanged("Nothing is waiting for a confirmation: press Approve again.", "warn"), None]
        return [*decide("approve", by, asked[1], None), None]

    def edit(picked, model, org, link, paper, description, weights, params, profile: gr.OAuthProfile | None):
        by = auth.require_maintainer(profile)
        if not picked:
            return unchanged("Pick a submission first.", "warn")
        values = (model, org or None, link or None, paper or None, description or None, weights or None, params or None)
        changes = dict(zip(EDITABLE, values))
        _, who = named(picked, by)

        def do() -> str:
            service.edit(picked, by=by, changes=changes)
            return f"Saved the edits of {who} ({picked})."

        return report(by, picked, f"Not saved ({who})", do)

    def rescore_all(picked, note_, confirmed, profile: gr.OAuthProfile | None):
        by = auth.require_maintainer(profile)
        if not confirmed:
            return unchanged("Tick the confirmation first: a rescore queues every scored submission again.", "warn")

        def do() -> str:
            queued = service.rescore(by, note_ or None)
            services.wakeup()
            return f"Rescore requested: {queued} submission(s) queued again."

        return report(by, picked, "Rescore", do)

    def wire(button: gr.Button, fn: Callable, inputs: list, answer: gr.HTML, api_name: str, extra=()) -> None:
        ids = [asking.box.elem_id or "", answer.elem_id or ""] if button is approve else [answer.elem_id or ""]
        button.click(fn, inputs, [*outputs(answer), *extra], api_name=api_name, **QUIET).then(None, js=focus(*ids))

    out = outputs(status)
    reload.click(refresh, [target], out, api_name="maintainers_refresh", **QUIET)
    # On a choice, not on every input: Gradio's dropdown also reports "input" when it loses the focus, and a
    # refresh then would overwrite what the maintainer has started typing in the edit form.
    target.select(refresh, [target], out, **QUIET)
    wire(approve, approve_, [target, reason], status, "approve", (asking.question, asking.asked))
    asking.yes.click(
        approve_confirmed, [asking.asked], [*out, asking.asked], api_name="approve_confirmed", **QUIET
    ).then(None, js=focus(STATUS_ID))
    desk_confirm.dismiss(asking, "approve-button", auth.require_maintainer, "approve_cancelled")
    for button, action in ((reject, "reject"), (hide, "hide"), (unhide, "unhide")):
        wire(button, act(action), [target, reason], status, action)
    wire(save, edit, [target, *edit_fields], edit_status, "edit")
    wire(rescore, rescore_all, [target, r_note, r_confirm], rescore_status, "rescore")
    maintainers_flags.wire(flags, services, target, report, outputs(flags.status), named)
    desk_reported.wire(reported, services, target, report, unchanged, outputs)
    desk_editions.wire(editions, services, target, report, unchanged, wire)
    return out, refresh, target


def _label(view) -> str:
    score = view.summary.score if view.summary else None
    value = f"{score:.2f}" if isinstance(score, int | float) else view.status
    return f"{view.metadata.get('model')} · {view.user} · {view.split} · {value} · {view.submission_id}"


def _hub_note(service, view, chosen: str | None) -> str:  # noqa: ANN001
    """What approving the entry does on the Hub (a pull request, where, or why none), beside its declarations."""
    if view is None or not chosen or view.split != Split.TEST:
        return ""
    sharing = bool(service.settings.hub_benchmark_dataset)
    text = hub_eval.approval_note(service.registry.entry(chosen), sharing)
    return f'<p class="nt-help" id="desk-hub-pr">{esc(text)}</p>'
