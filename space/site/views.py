"""How reports, submissions, scores and audit entries read on the pages: escaped HTML, no gradio.

Each function takes the service's plain data (``Report``, ``SubmissionView``, audit dicts) and
returns HTML in which every user-supplied value is escaped.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime

from leaderboard.records import JobStatus, Report, ReviewDecision, Split
from leaderboard.review import decision_text
from leaderboard.service import SubmissionView
from scoring import RowScore
from scoring.penalty_table import EMBODIMENTS
from scoring.summary import Summary
from space.site.html import badge, esc, link, number, parameters, percent, table

STATUS_HELP = {
    JobStatus.PENDING: "queued for scoring",
    JobStatus.RUNNING: "being scored now",
    JobStatus.FINISHED: "scored",
    JobStatus.FAILED: "could not be scored",
}


NO_SUMMARY = Summary(score=None, score_valid_only=None, coverage=None)  # not scored (yet): every figure "—"


def note(text: str, kind: str = "info") -> str:
    """A one-paragraph message box (``info``, ``ok``, ``warn``, ``error``); ``text`` is escaped."""
    return f'<div class="nt-note nt-note-{esc(kind)}">{esc(text)}</div>'


# -- the validation report -------------------------------------------------------------------------


def report_html(report: Report, *, ready: bool = True) -> str:
    """The validation report shown before a submission is confirmed."""
    bad = report.n_invalid + report.n_missing
    if bad:
        headline = (
            f"{report.n_valid} of {report.n_expected} expected rows are valid; {report.n_invalid} invalid and "
            f"{report.n_missing} missing rows will score 0 (the straight-forward level)."
        )
    else:
        headline = f"All {report.n_expected} expected rows of the {report.split} split are present and valid."
    if ready:
        headline += " You can submit this file."
    parts = [note(headline, "warn" if bad else "ok")]
    counts = [
        ("rows read", report.rows_read),
        ("valid", report.n_valid),
        ("invalid", report.n_invalid),
        ("missing", report.n_missing),
        ("expected", report.n_expected),
    ]
    parts.append(
        table(["", "rows"], [[esc(k), esc(v)] for k, v in counts], css="nt-table nt-compact", numeric=[False, True])
    )
    if report.invalid_by_reason:
        rows = [[esc(reason), esc(count)] for reason, count in report.invalid_by_reason.items()]
        parts.append("<h4>Invalid rows by reason</h4>")
        parts.append(table(["reason", "rows"], rows, css="nt-table nt-compact", numeric=[False, True]))
    if report.problems:
        items = "".join(f"<li><code>{esc(p)}</code></li>" for p in report.problems)
        parts.append(f"<h4>First problems</h4><ul class='nt-problems'>{items}</ul>")
    if report.warnings:
        parts.append("".join(note(f"Warning: {w}", "warn") for w in report.warnings))
    return f'<div class="nt-report">{"".join(parts)}</div>'


def rejected_html(message: str, report: Report | None = None, prefix: str = "This file cannot be submitted") -> str:
    """Why a file cannot be submitted (the service's one-line message), with its report when there is one."""
    parts = [note(f"{prefix}: {message}", "error")]
    if report is not None:
        parts.append(report_html(report, ready=False))
    return f'<div class="nt-report">{"".join(parts)}</div>'


def receipt_html(
    submission_id: str,
    split: str,
    duplicate: bool,
    quota: str | None,
    publish: bool,
    renamed: tuple[str, str] | None = None,
    window_min: int = 0,
) -> str:
    """What the user gets after Submit; ``renamed`` = (the name kept, the name typed now) of a re-sent file."""
    if duplicate:
        first = f"You already sent this file for the {split} split a moment ago: it is submission {submission_id}."
    else:
        first = f"Submitted: {submission_id} ({split} split). It is queued for scoring."
    after = " Follow it in My submissions; the status updates by itself."
    if split == Split.TEST:
        after += (
            " Once scored, a maintainer reviews it for the public board."
            if publish
            else " You chose a private score: it will not be published."
        )
    if quota is not None:
        after += f" {quota}"
    kept = ""
    if renamed is not None:
        old, typed = renamed
        kept = note(
            f"The model name stays {old!r}, not {typed!r}: the same file sent again within {window_min} minutes is "
            "taken as the same submission, with the details sent the first time. To change the name, ask a "
            "maintainer (they can edit it), or send the file again later as a new submission.",
            "warn",
        )
    return (
        f'<div class="nt-note nt-note-ok" id="submission-receipt" role="status">{esc(first)}{esc(after)}'
        f"<br>Submission id: <code class='nt-id'>{esc(submission_id)}</code></div>{kept}"
    )


# -- submissions -----------------------------------------------------------------------------------


def status_badge(status: JobStatus) -> str:
    return badge(status, status.lower(), STATUS_HELP.get(status))


def board_state(view: SubmissionView) -> str:
    """Where the submission stands with the public board, in words."""
    if view.cancelled:
        return "cancelled by you"
    if view.withdrawn:
        return "withdrawn by you"
    if not view.publish:
        return "private score"
    if not view.released:
        return "not released (ladder policy): it cannot go on the leaderboard"
    if view.decision == ReviewDecision.REJECTED:
        return f"rejected: {view.reason or 'no reason given'}"
    if view.hidden:
        return "hidden by a maintainer"
    if view.decision == ReviewDecision.APPROVED:
        return "on the leaderboard" if view.public else "approved (shown once scored)"
    return "awaiting approval"


def my_table(views: Sequence[SubmissionView], picked: str | None = None) -> str:
    """The submitter's submissions, newest first; the row ``picked`` marked (its details are shown below)."""
    headers = ["Model", "Status", "Score", "Submitted (UTC)", "Split", "Id", "Coverage", "Valid-only", "Leaderboard"]
    headers.append("Message")
    numeric = [False, False, True, False, False, False, True, True, False, False]
    head = "".join(f'<th scope="col"{" class=nt-num" if r else ""}>{esc(h)}</th>' for h, r in zip(headers, numeric))
    body = []
    for index, v in enumerate(views):
        s = v.summary or NO_SUMMARY
        status = shown_status(v)
        cells = [
            esc(v.metadata.get("model")) + _row_tag(v),
            status,
            f"<strong>{number(s.score)}</strong>",
            esc(v.created_at[:16].replace("T", " ")),
            esc(v.split),
            f"<code>{esc(v.submission_id)}</code>",
            percent(s.coverage),
            number(s.score_valid_only),
            esc(board_state(v)),
            esc(" · ".join(filter(None, (v.message, v.queue.words() if v.queue else None)))),  # place, ETA
        ]
        tds = "".join(
            f"<td{' class=nt-num' if r else (' class=nt-model' if i == 0 else '')}>{c}</td>"
            for i, (c, r) in enumerate(zip(cells, numeric))
        )
        chosen = v.submission_id == picked
        sid = esc(v.submission_id)
        body.append(
            f'<tr data-id="{sid}" data-index="{index}" tabindex="0" aria-selected="{str(chosen).lower()}"'
            f'{" class=nt-picked" if chosen else ""} title="Show the details of {sid}">{tds}</tr>'
        )
    if not body:
        empty = "No submission yet: make one on the Submit tab."
        body.append(f'<tr><td class="nt-empty" colspan="{len(headers)}">{empty}</td></tr>')
    return (
        '<div class="nt-table-wrap"><table class="nt-table nt-mine" id="my-submissions-table">'
        f"<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table></div>"
    )


def _row_tag(view: SubmissionView) -> str:
    """Under the model's name, for a phone (where the table shows only model, status and score): what tells two
    rows of one model apart, the split, when it was sent and the id's start."""
    try:
        when = datetime.fromisoformat(view.created_at[:19]).strftime("%d %b %H:%M")
    except ValueError:
        when = view.created_at[:16].replace("T", " ")
    tag = f"{view.split} · {when} · {view.submission_id[:6]}"
    return f'<span class="nt-row-tag" aria-hidden="true">{esc(tag)}</span>'


def shown_status(view: SubmissionView) -> str:
    """The status badge: CANCELLED for a submission its submitter cancelled (stored as FAILED, never scored)."""
    return badge("CANCELLED", "failed", "cancelled before scoring") if view.cancelled else status_badge(view.status)


def detail_html(view: SubmissionView) -> str:
    """One submission in full: status, message, scores and breakdowns."""
    help_ = "cancelled by you before it was scored" if view.cancelled else STATUS_HELP.get(view.status, "")
    head = (
        f"<h3>{esc(view.metadata.get('model'))} <small><code>{esc(view.submission_id)}</code></small></h3>"
        f"<p>{shown_status(view)} {esc(help_)} · {esc(view.split)} split · "
        f"submitted {esc(view.created_at[:19].replace('T', ' '))} UTC · {esc(board_state(view))}</p>"
    )
    parts = [head]
    if view.message:
        failed = view.status == JobStatus.FAILED and not view.cancelled
        parts.append(note(view.message, "error" if failed else "info"))
    if view.summary:
        parts.append(summary_html(view.summary))
    elif view.status in (JobStatus.PENDING, JobStatus.RUNNING):
        parts.append(note("Scores appear here when scoring has finished.", "info"))
    return "".join(parts)


def summary_html(summary: Summary) -> str:
    """Overall score, coverage and the per-embodiment, per-category and per-metadata breakdowns."""
    top = (
        f"<p class='nt-big'>Score <strong>{number(summary.score)}</strong> · coverage "
        f"{percent(summary.coverage)} · valid-only {number(summary.score_valid_only)}</p>"
        f"<p>{esc(summary.n_valid)} valid, {esc(summary.n_invalid)} invalid, "
        f"{esc(summary.n_missing)} missing of {esc(summary.n_expected)} expected rows "
        f"(invalid and missing rows count as 0). Scorer {esc(summary.scorer_version)}, "
        f"dataset {esc(summary.dataset_revision)}.</p>"
    )
    embodiment = summary.per_embodiment
    rows = [[esc(e), number(embodiment.get(e))] for e in EMBODIMENTS if e in embodiment]
    parts = [top, "<div class='nt-cols'>"]
    parts.append(_mini("Per embodiment", rows))
    category = summary.per_category
    parts.append(_mini("Per category", [[esc(c), number(v)] for c, v in category.items()]))
    for name, groups in summary.per_metadata.items():
        parts.append(
            _mini(name.replace("_", " ").capitalize(), [[esc(k), number(v)] for k, v in _dict(groups).items()])
        )
    parts.append("</div>")
    if summary.withheld:
        shown = ", ".join(summary.withheld[:8]) + (" …" if len(summary.withheld) > 8 else "")
        parts.append(
            note(
                f"{len(summary.withheld)} figure(s) withheld, shown as —: too few valid rows stand behind them, so "
                f"they would tell single rows' test scores ({shown}).",
                "info",
            )
        )
    return "".join(parts)


def _mini(title: str, rows: list[list[str]]) -> str:
    body = table(["", "score"], rows, css="nt-table nt-compact", numeric=[False, True])
    return f"<div><h4>{esc(title)}</h4>{body}</div>"


# -- maintainers -----------------------------------------------------------------------------------


def maintainer_table(views: Sequence[SubmissionView], element_id: str, empty: str) -> str:
    headers = [
        "Submitted (UTC)",
        "Id",
        "User",
        "Model",
        "Organisation",
        "Contact",
        "Open",
        "Params",
        "Split",
        "Status",
        "Score",
        "Coverage",
        "Valid-only",
        "Decision",
        "Description",
    ]
    rows = []
    for v in views:
        m, s = v.metadata, v.summary or NO_SUMMARY
        withdrawn = f"{v.decision} · withdrawn by the submitter"
        decision = withdrawn if v.withdrawn else decision_text(v.decision, v.publish)
        decision += (" · hidden" if v.hidden else "") + (" · cancelled" if v.cancelled else "")
        model = link(m.get("model"), m.get("model_link"))
        if m.get("paper_link"):
            model += " " + link("paper", m.get("paper_link"), "nt-source")
        rows.append(
            [
                esc(v.created_at[:16].replace("T", " ")),
                f"<code>{esc(v.submission_id)}</code>",
                esc(v.user),
                model,
                esc(m.get("organization") or "—"),
                esc(m.get("contact_email") or "—"),
                esc({True: "yes", False: "no"}.get(m.get("open_weights"), "—")),  # type: ignore[arg-type]
                esc(parameters(m.get("parameters_b"))),
                esc(v.split),
                status_badge(v.status),
                f"<strong>{number(s.score)}</strong>",
                percent(s.coverage),
                number(s.score_valid_only),
                esc(decision + (f": {v.reason}" if v.reason else "")),
                esc((m.get("description") or "")[:200]),
            ]
        )
    numeric = [False] * 10 + [True, True, True, False, False]
    return table(headers, rows, css="nt-table nt-maint", numeric=numeric, element_id=element_id, empty=empty)


def audit_table(entries: Iterable[Mapping[str, object]]) -> str:
    rows = [
        [
            esc(str(e.get("at") or "")[:19].replace("T", " ")),
            esc(e.get("who")),
            esc(e.get("action")),
            f"<code>{esc(e.get('target') or '—')}</code>",
            esc(_change(e.get("before"), e.get("after"))),
            esc(e.get("note") or ""),
        ]
        for e in reversed(list(entries))
    ]
    return table(["At (UTC)", "Who", "Action", "Target", "Change", "Note"], rows, element_id="audit-log")


AUDIT_KEYS = ("model", "split", "publish", "status", "score", "decision", "reason", "hidden", "generation", "message")


def _change(before: object, after: object) -> str:
    """What an action changed, in a line: ``key: old → new``, or the main fields of a new record.

    >>> _change({"decision": "pending", "hidden": False}, {"decision": "approved", "hidden": False})
    'decision: pending → approved'
    >>> _change(None, {"split": "test", "metadata": {"model": "M"}, "sha256": "ab"})
    'model: M; split: test'
    """
    if isinstance(before, dict) and isinstance(after, dict):
        keys = [k for k in after if before.get(k) != after.get(k) and k not in ("updated_at", "updated_by")]
        return "; ".join(f"{k}: {_short(before.get(k))} → {_short(after.get(k))}" for k in keys) or "no change"
    record = after if after is not None else before
    if isinstance(record, dict):
        metadata = record.get("metadata")
        flat = {**record, **(metadata if isinstance(metadata, dict) else {})}
        picked = [f"{k}: {_short(flat[k], 60)}" for k in AUDIT_KEYS if flat.get(k) is not None]
        if picked:
            return "; ".join(picked)
    return _short(record, 300)


def _short(value: object, limit: int = 80) -> str:
    if isinstance(value, float):
        return f"{value:.2f}"
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= limit else text[: limit - 1] + "…"


# -- explorer --------------------------------------------------------------------------------------


def row_breakdown(
    score: RowScore | None,
    baseline_raw: float,
    n_truths: int,
    truth_index: int | None,
    charged_share: float | None,
    notes: Sequence[str],
    why_no_trace: str | None = None,
) -> str:
    """The score of one row with its components and the formula filled in."""
    parts = []
    if why_no_trace:
        parts.append(note(why_no_trace, "warn"))
    if score is None:
        compared = f"expert trace {truth_index + 1} of {n_truths}" if truth_index is not None else "no expert trace"
        parts.append(
            note(
                f"Ground truth only: {n_truths} expert trace(s); the penalty regions drawn are those of {compared}.",
                "info",
            )
        )
    elif score.status != "valid":
        parts.append(note(f"This prediction is invalid ({score.reason}): the row scores 0.", "error"))
    else:
        raw = score.raw or 0.0
        parts.append(
            f"<p class='nt-big'>Row score <strong>{number(score.score)}</strong></p>"
            f"<p><code>score = (B − raw) / B × 100 = ({baseline_raw:g} − {raw:.1f}) / {baseline_raw:g} × 100 = "
            f"{number(score.score)}</code></p>"
        )
        comp = [
            ["DTW", number(score.dtw, 1), "summed distance along the best alignment with the expert trace"],
            ["FDE", number(score.fde, 1), "distance between the two end points"],
            ["Penalty", number(score.penalty, 1), "mean semantic cost over the trace's pixels (orange dots)"],
            ["raw", number(score.raw, 1), "DTW + FDE + Penalty (lower is better)"],
        ]
        parts.append(
            table(
                ["component", "pixels", "what it measures"],
                [[esc(a), esc(b), esc(c)] for a, b, c in comp],
                css="nt-table nt-compact",
                numeric=[False, True, False],
                element_id="explorer-components",
            )
        )
        best = (score.best_gt or 0) + 1
        share = f"; {percent(charged_share)} of its pixels paid a penalty" if charged_share is not None else ""
        parts.append(f"<p>Closest expert trace: {best} of {n_truths} (the bold green one){esc(share)}.</p>")
    parts += [note(n, "warn") for n in notes]
    return "".join(parts)


def _dict(value: object) -> dict:
    return value if isinstance(value, dict) else {}
