"""The desk's flags: flag the picked submission with a kind, a reason and a link to the evidence, or
unflag it. Guarded as the desk's other actions: the caller is resolved from the session
(``auth.require_maintainer``) and the service checks ``MAINTAINERS`` again, so a direct API call by anyone
else is refused; both actions land in the audit log.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import gradio as gr

from leaderboard.flags import KINDS, MAX_REASON
from leaderboard.metadata import MAX_LINK
from space.tabs.desk_confirm import QUIET, focus, say

Report = Callable[[str, Any, str, Callable[[], str]], list]  # the desk's ``report(by, picked, failed, action)``
Named = Callable[[str, str], tuple[Any, str]]  # the desk's ``named(picked, by)``: (view, "Carl-Nav by carl")


@dataclass(frozen=True)
class FlagControls:
    kind: gr.Radio
    reason: gr.Textbox
    link: gr.Textbox
    flag: gr.Button
    unflag: gr.Button
    status: gr.HTML  # the answer, under the two buttons


def build() -> FlagControls:
    """The flag form, where the desk calls it (under the picked submission)."""
    with gr.Accordion("Flag this submission (the board marks it; the reason and link are public)", open=False):
        with gr.Row(equal_height=True):
            kind = gr.Radio(list(KINDS), value="unverified", label="Kind", elem_id="flag-kind", scale=2)
            link = gr.Textbox(
                label="Link to the evidence (a discussion, an issue)",
                max_length=MAX_LINK,
                elem_id="flag-link",
                scale=2,
            )
        reason = gr.Textbox(
            label="Reason (shown on the board on hover and on the entry page)",
            max_length=MAX_REASON,
            elem_id="flag-reason",
            lines=2,
        )
        with gr.Row():
            flag = gr.Button("Flag", variant="stop", elem_id="flag-button")
            unflag = gr.Button("Remove the flag", elem_id="unflag-button")
        status = gr.HTML(elem_id="flag-status")
    return FlagControls(kind, reason, link, flag, unflag, status)


def wire(controls: FlagControls, services: Any, target: gr.Dropdown, report: Report, out: list, named: Named) -> None:
    """``out`` starts with ``controls.status``; a refusal leaves the rest of the page (and what was typed) alone."""
    service, auth = services.leaderboard, services.auth
    untouched = [gr.skip() for _ in out[1:]]

    def flag(picked, kind, reason, link, profile: gr.OAuthProfile | None):
        by = auth.require_maintainer(profile)
        if not picked:
            return [say("Pick a submission first.", "warn"), *untouched]
        _, who = named(picked, by)

        def do() -> str:
            made = service.flag(picked, by=by, kind=kind, reason=reason, link=link or None)
            return f"Flagged {who} ({picked}) as {made.kind}: the board marks it with the reason."

        return report(by, picked, f"Not flagged ({who})", do)

    def unflag(picked, profile: gr.OAuthProfile | None):
        by = auth.require_maintainer(profile)
        if not picked:
            return [say("Pick a submission first.", "warn"), *untouched]
        _, who = named(picked, by)

        def do() -> str:
            removed = service.unflag(picked, by=by)
            return f"Removed the flag of {who} ({picked})." if removed else f"{who} ({picked}) had no flag."

        return report(by, picked, f"Not unflagged ({who})", do)

    inputs = [target, controls.kind, controls.reason, controls.link]
    then = focus(controls.status.elem_id or "")
    controls.flag.click(flag, inputs, out, api_name="flag", **QUIET).then(None, js=then)
    controls.unflag.click(unflag, [target], out, api_name="unflag", **QUIET).then(None, js=then)
