"""The desk's score release section: switch between ``exact`` and ``ladder``, see what is withheld.

Part of the maintainers' desk (``space.desk.tab`` places it and refreshes it with the page).
The switch resolves the caller from the session (``auth.require_maintainer``) and the service checks
``MAINTAINERS`` again and writes the audit entry, so a direct API call by anyone else is refused.
"""

from __future__ import annotations

import gradio as gr

from leaderboard import Leaderboard
from leaderboard.records import ReleasePolicy
from leaderboard.service import SubmissionView
from space.desk import score_release
from space.desk.confirm import QUIET, focus, say
from space.web.services import Services
from space.workspace.errors import describe, shown
from space.workspace.handlers import bound

CHOICES = [(p.value, p.value) for p in ReleasePolicy]


def build(services: Services) -> list:
    """The section, its switch wired; the components the page refreshes (``show`` fills them)."""
    with gr.Accordion("Score release policy (exact or ladder)", open=False, elem_id="release-policy"):
        state = gr.HTML(elem_id="release-policy-state")
        choice = gr.Radio(CHOICES, label="Release policy", elem_id="release-policy-choice")
        switch = gr.Button("Apply the release policy", variant="primary", elem_id="release-policy-apply", size="md")
        done = gr.HTML(elem_id="release-policy-done")
        withheld = gr.HTML(elem_id="release-withheld")
    outputs = [state, choice, withheld]
    switch.click(bound(apply, services), [choice], [done, *outputs], api_name="set_release_policy", **QUIET).then(
        None, js=focus(done.elem_id or "")
    )
    return outputs


def show(service: Leaderboard, by: str, all_: list[SubmissionView] | None = None) -> list:
    """The policy in force and the withheld figures (``submissions`` checks that ``by`` is a maintainer)."""
    all_ = service.submissions(by) if all_ is None else all_
    policy = service.release_policy()
    return [
        score_release.state_html(policy, service.settings.release_policy),
        gr.update(value=policy.value),
        score_release.withheld_table(all_),
    ]


# No docstring, as before the move: Gradio shows a handler's docstring as its endpoint's description.
def apply(services: Services, picked: str | None, profile: gr.OAuthProfile | None) -> list:
    service = services.leaderboard
    by = services.auth.require_maintainer(profile)
    if not picked:
        return [say("Pick a release policy first.", "warn"), gr.skip(), gr.skip(), gr.skip()]
    try:
        before = service.release_policy()
        after = service.set_release_policy(picked, by=by)
        said = f"The release policy is now {after} (was {before}); the switch is in the audit log."
        note = say(said if after != before else f"The release policy is {after} already.", "ok")
    except Exception as error:  # a refusal or the store: said under the button
        note = say(f"Not switched: {describe(error)}", "error")
    with shown():
        return [note, *show(service, by)]
