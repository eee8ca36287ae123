"""The maintainers' desk's duplicate marks: a likely copy is seen before anyone approves it.

Two places, both above the Approve button: under the pending list, one line per pending entry that
copies an earlier one; and, for the submission picked to act on, the same line in a warning box
right above the buttons. Only maintainers' views carry ``likely_copy`` (``leaderboard.statistics.copies``);
nothing here reaches the public board, its CSV or a submitter's page.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast
from urllib.parse import quote

from leaderboard.service import SubmissionView
from leaderboard.statistics import LikelyCopy, copy_line
from space.site.html import esc

MARK_ID = "maint-copy"  # the picked submission's mark, above the Approve button
PENDING_ID = "pending-copies"  # the marks under the pending list


def line(view: SubmissionView) -> str | None:
    """The mark's words ("Likely copy of <model> (<id>): 98% of rows within 1 px, ..."), or ``None``."""
    found = view.likely_copy
    return copy_line(cast(LikelyCopy, found)) if found else None


def pending_marks(waiting: Sequence[SubmissionView]) -> str:
    """Under the pending list: each pending entry that copies an earlier one (nothing when none does)."""
    items = [
        f"<li><code>{esc(v.submission_id)}</code> ({esc(v.metadata.get('model'))} · {esc(v.user)}): {esc(text)}</li>"
        for v in waiting
        if (text := line(v))
    ]
    if not items:
        return ""
    return (
        f"<div id='{PENDING_ID}' class='nt-note nt-note-warn' role='alert'>"
        f"<strong>{len(items)} pending {'entry looks' if len(items) == 1 else 'entries look'} copied:</strong>"
        f"<ul>{''.join(items)}</ul></div>"
    )


def compare_url(view: SubmissionView) -> str | None:
    """The compare page for the earlier entry and this one (``/compare?compare=a,b``), or ``None``."""
    found = view.likely_copy
    if not found or not found.get("of"):
        return None
    return "/compare?compare=" + quote(f"{found['of']},{view.submission_id}", safe=",")


def mark(view: SubmissionView | None) -> str:
    """Above the Approve button: the picked submission's mark (empty when it copies nothing)."""
    text = line(view) if view is not None else None
    if not text or view is None:
        return ""
    url = compare_url(view)
    compare = (
        f'<a href="{esc(url)}" target="_blank" rel="noopener noreferrer" id="maint-copy-compare">Compare the two</a>'
        if url
        else "Compare the two"
    )
    return (
        f"<div class='nt-note nt-note-warn' role='alert'><strong>{esc(text)}.</strong> "
        f"{compare} before approving (opens in a new tab); the share counts this file's rows.</div>"
    )
