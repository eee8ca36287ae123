"""What the maintainers' desk says about the entry being decided (no gradio here).

Who it is (model and user, then the id), what its submitter declared, its flag with the evidence as a
link, the facts behind a decision, the compact pending list, and which actions apply to it and which of
them need a confirmation because they change what the public sees on a contested entry.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from leaderboard.records import Declarations, ReviewDecision
from leaderboard.review import decision_text
from leaderboard.service import SubmissionView
from leaderboard.storage import Flag
from space.entry.view import TRAINED
from space.site import views
from space.site.html import esc, link, number, percent, safe_url, table

DECLARED_ID = "maint-declared"
PENDING_TABLE_ID = "pending-table"
NOTHING_PENDING = "Nothing is waiting for a decision."


def who(view: SubmissionView | None, submission_id: str = "") -> str:
    """``Carl-Nav by carl``: how a message names an entry (the id follows it where the message needs one)."""
    if view is None:
        return submission_id
    return f"{view.metadata.get('model') or 'an unnamed model'} by {view.user}"


@dataclass(frozen=True)
class Offered:
    """The decision buttons that apply to the picked entry, and why approving it needs a confirmation."""

    approve: bool = False
    reject: bool = False
    hide: bool = False
    unhide: bool = False
    contested: str | None = None  # what a confirmation names ("it was rejected: ...", "a likely copy of ...")


def offered(view: SubmissionView | None) -> Offered:
    """Only what can be done: approve an entry that asked to be published (and whose figure is released),
    reject one not rejected yet, hide what is shown and unhide what is hidden."""
    if view is None:
        return Offered()
    approvable = view.publish and view.decision != ReviewDecision.APPROVED and view.released and not view.cancelled
    reasons = []
    if view.decision == ReviewDecision.REJECTED:
        reasons.append("it was rejected" + (f" ({view.reason})" if view.reason else ""))
    if view.likely_copy:
        copied = view.likely_copy
        reasons.append(f"it is marked as a likely copy of {copied.get('model')} ({copied.get('of')})")
    return Offered(
        approve=approvable,
        reject=view.decision != ReviewDecision.REJECTED,
        hide=not view.hidden,
        unhide=view.hidden,
        contested=" and ".join(reasons) or None,
    )


def approve_question(view: SubmissionView) -> str:
    """The confirmation shown before approving a contested entry: what will happen, and despite what."""
    why = offered(view).contested or "it is contested"
    return (
        f"Approve {who(view)} ({view.submission_id})? It goes on the public board and into the CSV "
        f"although {why}. The audit log records who approved it."
    )


def declared_html(declared: Declarations | None, view: SubmissionView | None) -> str:
    """One line of the submitter's answers, above the decision buttons."""
    if view is None:
        return ""
    if declared is None:
        text = (
            "Declarations: none (a private score, a validation file, or sent before they were asked)."
            if not (view.publish and view.split == "test")
            else "Declarations: none given (sent before they were asked)."
        )
        return f'<p id="{DECLARED_ID}" class="nt-declared-line">{esc(text)}</p>'
    runs = "a single run" if declared.best_of == 1 else f"the best of {declared.best_of} runs"
    code = link(declared.code_link, declared.code_link) if declared.code_link else "no code link given"
    parts = [
        f"trained or tuned on NaviTrace data: <strong>{esc(TRAINED.get(declared.trained_on, declared.trained_on))}"
        "</strong>",
        f"test images used beyond inference: <strong>{'yes' if declared.test_images_beyond_inference else 'no'}"
        "</strong>",
        f"runs: <strong>{esc(runs)}</strong>",
        f"code: {code}",
    ]
    return f'<p id="{DECLARED_ID}" class="nt-declared-line">Declared by the submitter: {" · ".join(parts)}</p>'


def flag_note(flag: Flag | None) -> str:
    """The picked entry's flag; its evidence is a link only when it is a plain http(s) address."""
    if flag is None:
        return ""
    evidence = ""
    if flag.link:
        shown = link(flag.link, flag.link) if safe_url(flag.link) else esc(flag.link)
        evidence = f" · evidence: {shown}"
    text = f"Flagged ({esc(flag.kind)}) by {esc(flag.flagged_by)} on {esc(flag.flagged_at[:10])}: {esc(flag.reason)}"
    return f'<div class="nt-note nt-note-warn" id="maint-flag">{text}{evidence}</div>'


def facts_html(view: SubmissionView | None) -> str:
    """The entry in full, with the facts a decision rests on (the contact e-mail stays on the desk)."""
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
    report: Mapping[str, object] = view.report or {}
    intake = (
        f"<p class='nt-small'>Intake report: {esc(report.get('n_valid'))} valid, "
        f"{esc(report.get('n_invalid'))} invalid, "
        f"{esc(report.get('n_missing'))} missing of {esc(report.get('n_expected'))}.</p>"
        if report
        else ""
    )
    return f"{views.detail_html(view)}<table class='nt-table nt-compact nt-facts'>{rows}</table>{intake}"


def pending_table(waiting: Sequence[SubmissionView]) -> str:
    """The entries awaiting a decision in the page's width: long text wraps, nothing runs off the right.

    An empty queue is a sentence, not a table: a lone empty row spread over eight columns is off a phone's screen.
    """
    if not waiting:
        return f'<p id="{PENDING_TABLE_ID}" class="nt-note nt-note-info" role="status">{esc(NOTHING_PENDING)}</p>'
    headers = ["Submitted (UTC)", "Model · user", "Contact", "Split", "Score", "Coverage", "Decision", "Description"]
    rows = []
    for v in waiting:
        m, s = v.metadata, v.summary
        model = link(m.get("model"), m.get("model_link"))
        rows.append(
            [
                esc(v.created_at[:16].replace("T", " ")),
                f"{model} · {esc(v.user)}<br><code class='nt-small'>{esc(v.submission_id)}</code>",
                esc(m.get("contact_email") or "—"),
                esc(v.split),
                f"<strong>{number(s.score if s else None)}</strong>",
                percent(s.coverage if s else None),
                esc(decision_text(v.decision, v.publish) + (" · hidden" if v.hidden else "")),
                esc((m.get("description") or "")[:200]),
            ]
        )
    numeric = [False, False, False, False, True, True, False, False]
    return table(
        headers,
        rows,
        css="nt-table nt-pending",
        numeric=numeric,
        element_id=PENDING_TABLE_ID,
    )


def next_pending(waiting_ids: Sequence[str], decided: str) -> str | None:
    """The entry to pick once ``decided`` is decided: the one after it in the pending list, else the one before.

    >>> next_pending(["a", "b", "c"], "b"), next_pending(["a", "b"], "b"), next_pending(["a"], "a")
    ('c', 'a', None)
    """
    if decided not in waiting_ids:
        return waiting_ids[0] if waiting_ids else None
    at = list(waiting_ids).index(decided)
    rest = [*waiting_ids[at + 1 :], *reversed(waiting_ids[:at])]
    return rest[0] if rest else None
