"""The desk's service status: the board's line, the health route's figures, and the last errors (maintainers only).

The figures are the ones ``GET /api/health`` answers (``leaderboard.runtime.health.Health``); the errors
(``health_monitor.ErrorNote``: failed jobs, failed scoring rounds, failed Hub calls) carry their messages,
which may name paths, repositories and users: this section is drawn only for a maintainer
(``space/desk/health_section.py`` checks).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from leaderboard.runtime import ErrorNote, Health, Status, stamp
from space.board import status_line
from space.site.html import esc, table

HELP = (
    "The same figures as <code>/api/health</code>, the address an uptime check reads (200 when ok or degraded, "
    "503 when down). Scoring is <em>down</em> when its process is stopped or has not been heard from for the "
    "time shown; the Hub is judged from the app's own last calls, never by calling it for this page."
)
MARKS = {Status.OK: "ok", Status.DEGRADED: "warn", Status.DOWN: "error"}


def status_html(health: Health) -> str:
    """The status in one line, its problems, and the route's JSON as it is served now."""
    problems = ", ".join(p.value for p in health.problems) or "none"
    body = json.dumps(health.public(), indent=1)
    return (
        f'<div class="nt-note nt-note-{MARKS[health.status]}" id="desk-health-status">'
        f"<strong>{esc(health.status.value)}</strong> · {esc(status_line.line(health))} "
        f"(problems: {esc(problems)})</div>"
        f'<p class="nt-help">{HELP}</p>'
        f'<details id="desk-health-json"><summary>The health route\'s answer</summary><pre>{esc(body)}</pre></details>'
    )


def errors_html(notes: Sequence[ErrorNote]) -> str:
    """The last errors, newest first: when, where, the submission (if any) and the message as recorded."""
    rows = [
        [
            esc((stamp(n.at) or "").replace("T", " ").rstrip("Z")),
            esc(n.source),
            f"<code>{esc(n.submission_id)}</code>" if n.submission_id else "—",
            esc(n.message),
        ]
        for n in notes
    ]
    return '<h4 id="desk-errors-heading">Last errors</h4>' + table(
        ["At (UTC)", "Where", "Submission", "Message"],
        rows,
        css="nt-table nt-compact",
        element_id="desk-errors",
        empty="No error recorded since the app started (failed jobs are read from the store).",
    )
