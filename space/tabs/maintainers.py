"""The maintainers' desk: pending entries, approve / reject / hide / unhide / edit, reported rows, rescore, audit.

Its own page (``space.server.DESK_PATH``, ``/maintainers``), served by the same server behind the same
guard and sessions: the public page does not carry its ~60 components, which Gradio would otherwise
copy for every visit of every visitor. The public page links to it for maintainers. That link,
like the desk's being shown at all, is cosmetics: every handler resolves the caller from the
session (``auth.require_maintainer``) and the service checks ``MAINTAINERS`` again on every action,
so a direct API call by anyone else is refused.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gradio as gr

from leaderboard.flags import read_flags
from leaderboard.moderation import decision_text
from leaderboard.probing import ProbeFinder, finished_tests
from leaderboard.records import SPLITS, Split
from space.errors import describe, refusal, shown
from space.pages import about, desk_copies, views
from space.pages.activity import HELP as ACTIVITY_HELP
from space.pages.activity import activity_table
from space.pages.html import esc
from space.pages.probes import probe_section
from space.services import Services
from space.tabs import desk_release, maintainers_flags

OPEN_WEIGHTS = [("yes", "yes"), ("no", "no"), ("not said", "")]
DONE = {"approve": "Approved", "reject": "Rejected", "hide": "Hid", "unhide": "Unhid"}
EDITABLE = ("model", "organization", "model_link", "paper_link", "description", "open_weights", "parameters_b")


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
            out, refresh = _desk(services)

        def open_(picked, profile: gr.OAuthProfile | None):
            """On load: the desk for a maintainer; for anyone else a note, and nothing of the desk."""
            bar = auth.header(profile, "desk")
            if not auth.is_maintainer(profile):
                return [bar, gr.update(visible=True), gr.update(visible=False), *(gr.skip() for _ in out)]
            return [bar, gr.update(visible=False), gr.update(visible=True), *refresh(picked, profile)]

        quiet = {"show_progress": "hidden", "api_visibility": "undocumented"}
        desk.load(open_, [out[2]], [identity, refused, panel, *out], **quiet)
    return desk


def _desk(services: Services) -> tuple[list, Callable]:
    """The desk's components and listeners; ``(their outputs, the refresh handler)``."""
    service, auth = services.leaderboard, services.auth
    gr.Markdown(about.MAINTAINERS_HELP, elem_classes="nt-help")
    status = gr.HTML(elem_id="maint-status")
    pending = gr.HTML(elem_id="pending")
    with gr.Row(equal_height=True):
        # Custom values pass the dropdown so that every call reaches the maintainer check (and the
        # service's NotFound), whatever the caller's session holds as choices.
        target = gr.Dropdown([], label="Submission to act on", elem_id="maint-target", scale=4, allow_custom_value=True)
        reload = gr.Button("Refresh", elem_id="maint-refresh", scale=1, size="sm")
    copy_mark = gr.HTML(elem_id=desk_copies.MARK_ID, visible=False)  # a likely copy, seen before Approve
    with gr.Row(equal_height=True):
        approve = gr.Button("Approve", variant="primary", elem_id="approve-button", scale=1)
        hide = gr.Button("Hide", elem_id="hide-button", scale=1)
        unhide = gr.Button("Unhide", elem_id="unhide-button", scale=1)
        reason = gr.Textbox(
            label="Reason for rejecting (the submitter sees it)", elem_id="reject-reason", scale=3, lines=1
        )
        reject = gr.Button("Reject", variant="stop", elem_id="reject-button", scale=1)
    detail = gr.HTML(elem_id="maint-detail")
    with gr.Accordion("Edit the metadata of this submission", open=False):
        with gr.Row():
            e_model = gr.Textbox(label="Model name")
            e_org = gr.Textbox(label="Organisation")
            e_weights = gr.Radio(OPEN_WEIGHTS, label="Open weights")
            e_params = gr.Textbox(label="Parameter count (billions)")
        with gr.Row():
            e_link = gr.Textbox(label="Model link")
            e_paper = gr.Textbox(label="Paper or code link")
        e_description = gr.Textbox(label="Description", lines=2)
        save = gr.Button("Save edits", elem_id="edit-button")
    flags = maintainers_flags.build()
    with gr.Accordion("Reported rows (figures published elsewhere, shown with their source)", open=False):
        with gr.Row():
            r_model = gr.Textbox(label="Model name")
            r_org = gr.Textbox(label="Organisation")
            r_split = gr.Radio(list(SPLITS), value=Split.TEST.value, label="Split")
        with gr.Row():
            r_score = gr.Number(label="Score")
            r_valid = gr.Number(label="Valid-only score (optional)")
            r_coverage = gr.Number(label="Coverage 0–1 (optional)")
        with gr.Row():
            r_source = gr.Textbox(label="Source (link to the publication)")
            r_link = gr.Textbox(label="Model link (optional)")
        add = gr.Button("Add reported row", elem_id="add-reported-button")
        with gr.Row(equal_height=True):
            r_remove = gr.Dropdown([], label="Reported row to remove", scale=4, allow_custom_value=True)
            remove = gr.Button("Remove", variant="stop", scale=1)
    with gr.Accordion("Rescore everything (after a scorer or answer-key change)", open=False):
        r_note = gr.Textbox(label="Why (kept in the audit log)")
        r_confirm = gr.Checkbox(label="Yes, queue every scored submission again")
        rescore = gr.Button("Rescore all", variant="stop", elem_id="rescore-button")
    release_out, release_show = desk_release.build(services)  # the score release policy (issue 15)
    with gr.Accordion("All submissions", open=False):
        everything = gr.HTML(elem_id="all-submissions")
    with gr.Accordion("Submissions per user (what probing the test set looks like)", open=False):
        gr.Markdown(ACTIVITY_HELP, elem_classes="nt-help")
        per_user = gr.HTML(elem_id="user-activity")
    with gr.Accordion("Audit log (latest 100, newest first)", open=True):
        audit = gr.HTML(elem_id="audit")

    edit_fields = [e_model, e_org, e_link, e_paper, e_description, e_weights, e_params]
    page = [pending, target, detail, everything, per_user, audit, r_remove, *edit_fields, copy_mark, *release_out]

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
        reported = [
            (f"{r['model']} ({r['split']}, {r['score']})", r["submission_id"])
            for r in service.public_table()
            if r["kind"] == "reported"
        ]
        meta = view.metadata if view else {}
        return [
            views.maintainer_table(waiting, "pending-table", "Nothing is waiting for a decision.")
            + desk_copies.pending_marks(waiting),
            gr.update(choices=choices, value=chosen),
            _detail(view) + _flag_note(flag),
            views.maintainer_table(all_, "all-table", "No submission yet."),
            activity_table(all_, service.clock()) + probe_section(probes.pairs(finished_tests(all_))),
            views.audit_table(service.audit_log(by, limit=100)),
            gr.update(choices=reported, value=None),
            meta.get("model") or "",
            meta.get("organization") or "",
            meta.get("model_link") or "",
            meta.get("paper_link") or "",
            meta.get("description") or "",
            {True: "yes", False: "no"}.get(meta.get("open_weights"), ""),  # type: ignore[arg-type]
            "" if meta.get("parameters_b") is None else str(meta.get("parameters_b")),
            gr.update(value=(mark := desk_copies.mark(view)), visible=bool(mark)),  # no empty gap without one
            *release_show(by, all_),
        ]

    def refresh(picked, profile: gr.OAuthProfile | None):
        by = auth.require_maintainer(profile)
        with shown():
            return ["", *load(picked, by)]

    def report(by: str, picked, failed: str, action: Callable[[], str]) -> list:
        """Run one maintainer action: its success note, or what went wrong (as the page says it), then the page."""
        try:
            done = views.note(action(), "ok")
        except Exception as error:
            done = views.note(f"{failed}: {describe(error)}", "error")
        services.board.invalidate()  # the action may have changed the public table: the next view reads it
        with shown():
            return [done, *load(picked, by)]

    def act(action: str):
        calls = {
            "approve": lambda picked, by, reason_: service.approve(picked, by=by),
            "reject": lambda picked, by, reason_: service.reject(picked, by=by, reason=reason_),
            "hide": lambda picked, by, reason_: service.hide(picked, by=by),
            "unhide": lambda picked, by, reason_: service.unhide(picked, by=by),
        }

        def run(picked, reason_, profile: gr.OAuthProfile | None):
            by = auth.require_maintainer(profile)
            if not picked:
                raise refusal("Pick a submission first.")

            def do() -> str:
                calls[action](picked, by, reason_)
                return f"{DONE[action]} {picked}."

            return report(by, picked, f"{action.capitalize()} {picked}", do)

        run.__name__ = action
        return run

    def edit(picked, model, org, link, paper, description, weights, params, profile: gr.OAuthProfile | None):
        by = auth.require_maintainer(profile)
        if not picked:
            raise refusal("Pick a submission first.")
        changes = dict(
            zip(
                EDITABLE,
                (model, org or None, link or None, paper or None, description or None, weights or None, params or None),
            )
        )

        def do() -> str:
            service.edit(picked, by=by, changes=changes)
            return f"Saved the edits of {picked}."

        return report(by, picked, f"Edit {picked}", do)

    def add_reported(picked, model, org, split, score, valid, coverage, source, link, profile: gr.OAuthProfile | None):
        by = auth.require_maintainer(profile)
        values = {
            "model": model,
            "organization": org or None,
            "split": split,
            "score": score,
            "score_valid_only": valid,
            "coverage": coverage,
            "source": source,
            "model_link": link or None,
        }

        def do() -> str:
            row = service.add_reported(by, **values)
            return f"Added the reported row {row.model} ({row.score:g})."

        return report(by, picked, "Add reported row", do)

    def remove_reported(picked, row_id, profile: gr.OAuthProfile | None):
        by = auth.require_maintainer(profile)
        if not row_id:
            raise refusal("Pick a reported row first.")

        def do() -> str:
            service.remove_reported(row_id, by=by)
            return f"Removed the reported row {row_id}."

        return report(by, picked, f"Remove {row_id}", do)

    def rescore_all(picked, note_, confirmed, profile: gr.OAuthProfile | None):
        by = auth.require_maintainer(profile)
        if not confirmed:
            raise refusal("Tick the confirmation first: a rescore queues every scored submission again.")

        def do() -> str:
            queued = service.rescore(by, note_ or None)
            services.wakeup()
            return f"Rescore requested: {queued} submission(s) queued again."

        return report(by, picked, "Rescore", do)

    out = [status, *page]
    hidden: dict[str, Any] = {"api_visibility": "undocumented"}
    reload.click(refresh, [target], out, api_name="maintainers_refresh", **hidden)
    target.input(refresh, [target], out, **hidden)
    for button, action in ((approve, "approve"), (reject, "reject"), (hide, "hide"), (unhide, "unhide")):
        button.click(act(action), [target, reason], out, api_name=action, **hidden)
    save.click(edit, [target, *edit_fields], out, api_name="edit", **hidden)
    add.click(
        add_reported,
        [target, r_model, r_org, r_split, r_score, r_valid, r_coverage, r_source, r_link],
        out,
        api_name="add_reported",
        **hidden,
    )
    remove.click(remove_reported, [target, r_remove], out, api_name="remove_reported", **hidden)
    rescore.click(rescore_all, [target, r_note, r_confirm], out, api_name="rescore", **hidden)
    maintainers_flags.wire(flags, services, target, report, out)
    return out, refresh


def _flag_note(flag) -> str:
    if flag is None:
        return ""
    text = f"Flagged ({flag.kind}) by {flag.flagged_by} on {flag.flagged_at[:10]}: {flag.reason}"
    return views.note(text + (f" · {flag.link}" if flag.link else ""), "warn")


def _label(view) -> str:
    score = view.summary.score if view.summary else None
    value = f"{score:.2f}" if isinstance(score, int | float) else view.status
    return f"{view.metadata.get('model')} · {view.user} · {view.split} · {value} · {view.submission_id}"


def _detail(view) -> str:
    if view is None:
        return views.note("No submission to show.", "info")
    m = view.metadata
    facts = [
        ("user", view.user),
        ("contact e-mail (private)", m.get("contact_email") or "—"),
        ("publish requested", "yes" if view.publish else "no (private score)"),
        ("decision", decision_text(view.decision, view.publish) + (f": {view.reason}" if view.reason else "")),
        ("hidden", "yes" if view.hidden else "no"),
        ("attempts", view.attempts),
        ("score release", view.release_note or ("released to its submitter" if view.summary else "—")),
    ]
    rows = "".join(f"<tr><th>{esc(k)}</th><td>{esc(v)}</td></tr>" for k, v in facts)
    report = view.report or {}
    intake = (
        f"<p class='nt-small'>Intake report: {esc(report.get('n_valid'))} valid, "
        f"{esc(report.get('n_invalid'))} invalid, "
        f"{esc(report.get('n_missing'))} missing of {esc(report.get('n_expected'))}.</p>"
        if report
        else ""
    )
    return f"{views.detail_html(view)}<table class='nt-table nt-compact nt-facts'>{rows}</table>{intake}"
