"""``python -m leaderboard submit-remote``: send a predictions TSV to a running Space with your own token.

    HF_TOKEN=hf_… python -m leaderboard submit-remote pred.tsv --space https://org-navitrace.hf.space \\
        --split test --model "My VLM" --publish

One ``POST {space}/script-api/submit`` (multipart: the file and the form), authorised by
``Authorization: Bearer <token>``; the Space asks the Hub whose token it is (``space/web/script_api.py``).
The token is read from ``HF_TOKEN``, never from the command line,
where other users of the machine could see it in the process list. Exit status as ``submit``'s:
0 submitted (the id is the last line), 2 refused by the Space (its message on stderr), 1 could not ask.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from leaderboard.cli.commands import declarations
from leaderboard.records import LeaderboardError, Rejected

PATH = "/script-api/submit"  # space.web.guard.SCRIPT_SUBMIT: the contract between this client and the Space
TIMEOUT_S = 300.0  # a 64 MB upload on a slow line, and the Space's check of it
FIELDS = {  # flag -> form field, the names of ``submit``'s flags
    "model": "model",
    "organization": "organization",
    "link": "model_link",
    "paper_link": "paper_link",
    "email": "contact_email",
    "description": "description",
    "open_weights": "open_weights",
    "parameters": "parameters_b",
}


class RemoteError(LeaderboardError):
    """The Space could not be asked, or answered something that is not its API."""


def submit_remote(args: argparse.Namespace, token: str | None) -> int:
    """``token``: the caller's ``HF_TOKEN`` (``cli.main`` reads it, there only)."""
    import httpx

    token = (token or "").strip()
    if not token:
        raise Rejected("no Hugging Face token: set HF_TOKEN to one of your tokens (a read token is enough)")
    path = Path(args.file)
    if not path.is_file():
        raise Rejected(f"{path}: no such file")
    form = {"split": args.split, "publish": "true" if args.publish else "false"}
    form |= {field: str(getattr(args, flag)) for flag, field in FIELDS.items() if getattr(args, flag) is not None}
    # The declarations, under the same names as form fields (a yes/no as "yes", as the Space reads it).
    form |= {field: "yes" if value is True else str(value) for field, value in declarations(args).items()}
    url = args.space.rstrip("/") + PATH
    try:
        with path.open("rb") as body:
            answer = httpx.post(
                url,
                headers={"Authorization": f"Bearer {token}"},
                data=form,
                files={"file": (path.name, body, "text/tab-separated-values")},
                timeout=TIMEOUT_S,
            )
    except httpx.HTTPError as error:
        raise RemoteError(f"cannot reach {url}: {error}") from None
    try:
        reply = answer.json()
    except json.JSONDecodeError:
        raise RemoteError(f"{url} answered HTTP {answer.status_code} with no JSON: {answer.text[:200]!r}") from None
    if answer.status_code != 200:
        for line in _report_lines(reply.get("report")):
            print(line)
        raise Rejected(f"HTTP {answer.status_code}: {reply.get('error') or answer.text[:200]}")
    for line in _report_lines(reply.get("report")):
        print(line)
    for note in reply.get("notes") or []:
        print(f"note: {note}")
    print(reply.get("message", ""))
    if reply.get("quota_left") is not None:
        print(f"test submissions left in the rolling 24 hours: {reply['quota_left']}")
    print(reply["submission_id"])
    return 0


def _report_lines(report: object) -> list[str]:
    if not isinstance(report, dict):
        return []
    from leaderboard.records import Report

    try:
        return Report.from_dict(report).lines()
    except (KeyError, TypeError, ValueError):
        return []
