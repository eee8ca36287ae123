"""What each ``python -m leaderboard`` command does: a thin layer over ``Leaderboard``, printing results.

Each function takes the service and the parsed arguments and returns the exit status; domain
errors propagate to ``cli.main``, which turns them into one line on stderr and an exit status.
"""

from __future__ import annotations

import argparse
import json
import logging
import signal
import sys
import threading

from leaderboard.records import NotAuthorised, is_hidden_character
from leaderboard.service import Leaderboard
from leaderboard.statistics import copy_line
from scoring.examples import write_example
from scoring.report import number

log = logging.getLogger(__name__)

# ``edit`` flags and the metadata fields they set (``submit`` names some differently: see parser.py).
EDIT_FLAGS = {
    "model": "model",
    "organization": "organization",
    "model-link": "model_link",
    "paper-link": "paper_link",
    "email": "contact_email",
    "description": "description",
    "open-weights": "open_weights",
    "parameters": "parameters_b",
}


def submit(service: Leaderboard, args: argparse.Namespace) -> int:
    metadata = {
        "model": args.model,
        "organization": args.organization,
        "model_link": args.link,
        "paper_link": args.paper_link,
        "contact_email": args.email,
        "description": args.description,
        "open_weights": args.open_weights,
        "parameters_b": args.parameters,
    }
    receipt = service.submit(
        args.file,
        split=args.split,
        user=args.user,
        metadata=metadata,
        publish=args.publish,
        declarations=declarations(args),
    )
    for line in receipt.report.lines():
        print(line)
    if receipt.duplicate:
        print(f"the same file was submitted at {receipt.created_at}: this is that submission, not a new one")
    if receipt.quota_left is not None:
        print(f"test submissions left in the rolling 24 hours: {receipt.quota_left}")
    print(receipt.submission_id)
    return 0


# ``submit``'s declaration flags and the fields they set (``submit-remote`` sends them as form fields).
DECLARATION_FLAGS = {
    "trained_on": "trained_on",
    "test_images_beyond_inference": "test_images_beyond_inference",
    "code_link": "code_link",
    "best_of": "best_of",
}


def declarations(args: argparse.Namespace) -> dict[str, object]:
    """The declarations given on the command line (missing ones are named by the service when required)."""
    given: dict[str, object] = {
        field: getattr(args, flag) for flag, field in DECLARATION_FLAGS.items() if getattr(args, flag) is not None
    }
    if args.share_on_hub:
        given["share_on_hub"] = True
    return given


def example(service: Leaderboard, args: argparse.Namespace) -> int:
    # From the public key: "perfect" is then only possible on validation, whose ground truth is public.
    rows = write_example(service.keys.public(args.split), args.kind, args.out)
    print(f"wrote {rows} rows ({args.kind}, {args.split} split) to {args.out}")
    return 0


def validate(service: Leaderboard, args: argparse.Namespace) -> int:
    for line in service.validate(args.file, args.split).lines():
        print(line)
    return 0


def work(service: Leaderboard, args: argparse.Namespace) -> int:
    if args.once:
        log.info("scored %d submission(s)", service.worker.drain())
        return 0
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    service.worker.run_forever(stop)
    return 0


def status(service: Leaderboard, args: argparse.Namespace) -> int:
    view = service.status(args.submission_id).as_dict()
    view["metadata"].pop("contact_email", None)  # printed output may be pasted anywhere
    if view["summary"] is None:
        del view["summary"]
    print(json.dumps(view, indent=2))
    _copy_notes([view])
    return 0


def rows(service: Leaderboard, args: argparse.Namespace) -> int:
    rows = service.rows(args.submission_id)
    if rows:
        print("\t".join(rows[0]))
        for row in rows:
            print("\t".join(terminal_safe(value) for value in row.values()))
    return 0


def moderate(service: Leaderboard, args: argparse.Namespace) -> int:
    review = getattr(service, args.action)(args.submission_id, by=args.by)
    print(f"{args.submission_id}: {review.decision}{', hidden' if review.hidden else ''}")
    return 0


def reject(service: Leaderboard, args: argparse.Namespace) -> int:
    review = service.reject(args.submission_id, by=args.by, reason=args.reason)
    print(f"{args.submission_id}: {review.decision} ({terminal_safe(review.reason or '')})")
    return 0


def flag(service: Leaderboard, args: argparse.Namespace) -> int:
    flagged = service.flag(args.submission_id, by=args.by, kind=args.kind, reason=args.reason, link=args.link)
    print(f"{args.submission_id}: flagged {flagged.kind} ({terminal_safe(flagged.reason)})")
    return 0


def unflag(service: Leaderboard, args: argparse.Namespace) -> int:
    removed = service.unflag(args.submission_id, by=args.by)
    print(f"{args.submission_id}: {'unflagged' if removed else 'had no flag'}")
    return 0


def edit(service: Leaderboard, args: argparse.Namespace) -> int:
    chosen = {field: getattr(args, flag.replace("-", "_")) for flag, field in EDIT_FLAGS.items()}
    changes = {field: value for field, value in chosen.items() if value is not None}
    review = service.edit(args.submission_id, by=args.by, changes=changes)
    print(f"{args.submission_id}: edited {', '.join(sorted(review.edits)) or 'nothing'}")
    return 0


def rescore(service: Leaderboard, args: argparse.Namespace) -> int:
    queued = service.rescore(by=args.by, note=args.note)
    print(f"{queued} submission(s) queued for rescoring; the worker scores them next")
    return 0


def releases(service: Leaderboard, args: argparse.Namespace) -> int:
    print(json.dumps([e.to_dict() for e in service.release_history()], indent=2))
    return 0


def open_release(service: Leaderboard, args: argparse.Namespace) -> int:
    opened = service.open_release(args.note, by=args.by)
    print(
        f"release {opened.edition.name} opened; release {opened.closed.name} is frozen (results: "
        f"releases/{opened.closed.name}/, tag {opened.closed.name}); {opened.queued} submission(s) queued for rescoring"
    )
    return 0


def table(service: Leaderboard, args: argparse.Namespace) -> int:
    rows = service.public_table()
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print(f"{'#':>3}  {'split':<10}  {'score':>8}  {'valid-only':>10}  {'coverage':>8}  {'model':<40}  id")
    for rank, row in enumerate(rows, start=1):
        score, valid_only, coverage = (_float(row[k]) for k in ("score", "score_valid_only", "coverage"))
        shown = "—" if coverage is None else number(100 * coverage, 1) + "%"
        kind = "" if row["kind"] == "submission" else f" [{row['kind']}]"
        print(
            f"{rank:>3}  {row['split']:<10}  {number(score):>8}  {number(valid_only):>10}  "
            f"{shown:>8}  {terminal_safe(str(row['model'])[:40]):<40}  {row['submission_id']}{kind}"
        )
    return 0


def add_reported(service: Leaderboard, args: argparse.Namespace) -> int:
    row = service.add_reported(
        args.by,
        model=args.model,
        score=args.score,
        source=args.source,
        organization=args.organization,
        model_link=args.model_link,
        split=args.split,
        score_valid_only=args.score_valid_only,
        coverage=args.coverage,
    )
    print(f"reported-{row.row_id}")
    return 0


def remove_reported(service: Leaderboard, args: argparse.Namespace) -> int:
    service.remove_reported(args.row_id, by=args.by)
    return 0


def pending(service: Leaderboard, args: argparse.Namespace) -> int:
    views = [v.as_dict() for v in service.pending(args.by)]
    print(json.dumps(views, indent=2))
    _copy_notes(views)
    return 0


def _copy_notes(views: list[dict]) -> None:
    """A likely copy (``likely_copy`` in the JSON) said in words on stderr, where stdout stays JSON."""
    for view in views:
        if view.get("likely_copy"):
            print(f"{view['submission_id']}: {terminal_safe(copy_line(view['likely_copy']))}", file=sys.stderr)


def audit(service: Leaderboard, args: argparse.Namespace) -> int:
    for entry in service.audit_log(args.by, args.target, args.limit):
        print(json.dumps(entry))
    return 0


def release_policy(service: Leaderboard, args: argparse.Namespace) -> int:
    before = service.release_policy()
    if args.policy is None:
        print(before)
        return 0
    if not args.by:
        raise NotAuthorised("setting the release policy needs --by USER, a maintainer (MAINTAINERS)")
    after = service.set_release_policy(args.policy, by=args.by)
    print(f"release policy: {after}" + (f" (was {before})" if after != before else " (unchanged)"))
    return 0


def terminal_safe(text: str) -> str:
    r"""``text`` with control and format characters shown as ``\x1b`` escapes: stored text (written
    before intake refused such characters, or by a hostile dataset) never drives the terminal.

    >>> terminal_safe("M\x1b]0;pwned\x07")
    'M\\x1b]0;pwned\\x07'
    """
    return "".join(c.encode("unicode_escape").decode() if is_hidden_character(c) else c for c in text)


def _float(value: object) -> float | None:
    return float(value) if isinstance(value, int | float) else None
