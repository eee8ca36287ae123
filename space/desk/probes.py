"""The maintainers' table of probing pairs: a user's test submissions that differ in only a few rows."""

from __future__ import annotations

from collections.abc import Sequence

from leaderboard.review import FEW_ROWS, ProbePair
from space.site.html import esc, table

HELP = (
    f"Each row is a test submission whose rows differ from an earlier one of the <strong>same user</strong> in only "
    f"1–{FEW_ROWS} rows. Comparing the two scores tells the submitter about exactly those rows of the hidden "
    "test set: a series of such pairs is hill-climbing on the answer key. Rows are compared on what the "
    "scorer stored (status and raw value); nothing per row is shown here."
)


def probe_table(pairs: Sequence[ProbePair]) -> str:
    headers = ["User", "Later submission", "Earlier submission", "Rows changed", "Of rows", "Later sent (UTC)"]
    rows = [
        [
            esc(p.user),
            f"<code>{esc(p.later)}</code>",
            f"<code>{esc(p.earlier)}</code>",
            esc(p.changed_rows),
            esc(p.compared_rows),
            esc(p.later_created_at[:16].replace("T", " ")),
        ]
        for p in pairs
    ]
    numeric = [False, False, False, True, True, False]
    empty = f"No user has test submissions that differ in only 1–{FEW_ROWS} rows."
    return table(headers, rows, css="nt-table nt-compact", numeric=numeric, element_id="probe-table", empty=empty)


def probe_section(pairs: Sequence[ProbePair]) -> str:
    """The table under its heading and help, for the desk's "Submissions per user" section."""
    return (
        '<h4 id="probe-heading">Test submissions that differ from an earlier one in only a few rows</h4>'
        f'<p class="nt-help">{HELP}</p>{probe_table(pairs)}'
    )
