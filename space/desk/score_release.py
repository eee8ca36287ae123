"""The desk's score release section: which policy is in force, and the figures it withholds (maintainers only)."""

from __future__ import annotations

from collections.abc import Sequence

from leaderboard.records import ReleasePolicy
from leaderboard.service import SubmissionView
from space.site.html import esc, number, table

HELP = (
    "<strong>exact</strong>: every test figure is shown to its submitter as scored. "
    "<strong>ladder</strong> (Blum &amp; Hardt's Ladder): a test figure is shown only when it is the submitter's "
    "first for the model, or beats their best shown one by a one-sided paired bootstrap over scenes at 95%; "
    'otherwise they read "not a significant improvement over your best", the figure stays here, and the entry '
    "can never reach the board. A switch applies to the jobs that finish afterwards (decisions taken stand) and "
    "is written to the audit log. Validation figures are always shown."
)


def state_html(policy: ReleasePolicy, default: ReleasePolicy) -> str:
    """The policy in force, beside this deployment's default (``LEADERBOARD_RELEASE_POLICY``)."""
    origin = "the deployment's default" if policy == default else "set by a maintainer"
    return (
        f'<p id="release-policy-now">In force: <strong>{esc(policy)}</strong> ({origin}; '
        f"<code>LEADERBOARD_RELEASE_POLICY</code> is <code>{esc(default)}</code>).</p>"
        f'<p class="nt-help">{HELP}</p>'
    )


def withheld_table(views: Sequence[SubmissionView]) -> str:
    """Test figures the ladder withheld from their submitters, newest first, with the exact score and why."""
    headers = ["Submitted (UTC)", "Id", "User", "Model", "Score (withheld)", "Decision"]
    rows = [
        [
            esc(v.created_at[:16].replace("T", " ")),
            f"<code>{esc(v.submission_id)}</code>",
            esc(v.user),
            esc(v.metadata.get("model")),
            f"<strong>{number(v.summary.score if v.summary else None)}</strong>",
            esc(v.release_note or ""),
        ]
        for v in views
        if not v.released
    ]
    numeric = [False, False, False, False, True, False]
    return '<h4 id="release-withheld-heading">Figures withheld from their submitters</h4>' + table(
        headers,
        rows,
        css="nt-table nt-compact",
        numeric=numeric,
        element_id="release-withheld-table",
        empty="No figure is withheld.",
    )
