"""``python -m leaderboard``: the maintainer CLI over ``Leaderboard`` (command names and flags are a contract).

Exit status: 0 done; 2 refused (a rejected file, an exceeded quota, a user not in
``MAINTAINERS``), with one line on stderr; 1 any other error (unknown id, unusable settings,
storage unreachable). ``submit`` prints the submission id as its last line.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Mapping, Sequence

import leaderboard.cli.commands as commands
import leaderboard.cli.remote as remote
from leaderboard.config import Settings, SettingsError
from leaderboard.records import (
    SPLITS,
    TRAINED_ON,
    LeaderboardError,
    NotAuthorised,
    QuotaExceeded,
    Rejected,
    ReleasePolicy,
)
from leaderboard.service import Leaderboard
from leaderboard.storage import KINDS, StorageError
from scoring import AnswerKeyError

EXIT_REFUSED, EXIT_ERROR = 2, 1
RELEASE_POLICIES = tuple(p.value for p in ReleasePolicy)


def main(argv: Sequence[str] | None = None, environ: Mapping[str, str] | None = None) -> int:
    args = parser().parse_args(argv)
    level = logging.INFO if args.command == "work" else logging.WARNING
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    env = os.environ if environ is None else environ
    try:
        if args.command == "submit-remote":  # a client of a running Space: no local service to open
            return remote.submit_remote(args, env.get("HF_TOKEN"))
        service = Leaderboard(Settings.from_env(env))
        return int(args.run(service, args) or 0)
    except (Rejected, QuotaExceeded) as error:
        return _fail(f"rejected: {error}", EXIT_REFUSED)
    except NotAuthorised as error:
        return _fail(f"not allowed: {error}", EXIT_REFUSED)
    except (LeaderboardError, SettingsError, StorageError, AnswerKeyError) as error:
        return _fail(f"error: {error}", EXIT_ERROR)
    except KeyboardInterrupt:
        return _fail("interrupted", 130)
    except BrokenPipeError:  # output piped into head and the like
        return 0


def _fail(message: str, code: int) -> int:
    print(" ".join(message.split()), file=sys.stderr)  # one line, whatever the message held
    return code


def parser() -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(prog="python -m leaderboard", description="The NaviTrace submission service.")
    subparsers = root.add_subparsers(dest="command", required=True, metavar="COMMAND")
    _submitter_commands(subparsers)
    _review_commands(subparsers)
    _table_commands(subparsers)
    return root


def _submitter_commands(subparsers: argparse._SubParsersAction) -> None:
    submit = subparsers.add_parser("submit", help="validate and queue a predictions TSV; prints the id last")
    submit.add_argument("file", metavar="FILE")
    submit.add_argument("--split", required=True, choices=SPLITS)
    submit.add_argument("--model", required=True, metavar="NAME")
    submit.add_argument("--user", required=True, metavar="USER", help="the submitter's Hugging Face user name")
    submit.add_argument("--organization", metavar="ORG")
    submit.add_argument("--link", metavar="URL", help="the model's page")
    submit.add_argument("--paper-link", metavar="URL", help="paper or code")
    submit.add_argument("--email", metavar="ADDRESS", help="contact e-mail (private, never published)")
    submit.add_argument("--description", metavar="TEXT")
    submit.add_argument("--open-weights", choices=("yes", "no"))
    submit.add_argument("--parameters", metavar="COUNT", help="parameter count, e.g. 7B or 500M")
    submit.add_argument("--publish", action="store_true", help="ask for a public row (after a maintainer approves)")
    _declaration_flags(submit)
    submit.set_defaults(run=commands.submit)

    remote_ = subparsers.add_parser(
        "submit-remote", help="send a predictions TSV to a running Space as yourself (HF_TOKEN); prints the id last"
    )
    remote_.add_argument("file", metavar="FILE")
    remote_.add_argument(
        "--space", required=True, metavar="URL", help="the Space's address, e.g. https://org-x.hf.space"
    )
    for action in submit._actions:  # the same flags as submit, but never --user: the token says who you are
        if action.dest not in ("help", "file", "user"):
            remote_._add_action(action)
    remote_.set_defaults(run=None)

    validate = subparsers.add_parser("validate", help="check a predictions TSV without submitting it")
    validate.add_argument("file", metavar="FILE")
    validate.add_argument("--split", required=True, choices=SPLITS)
    validate.set_defaults(run=commands.validate)

    example = subparsers.add_parser(
        "example", help="write an example submission for the public dataset (the embedded default is made if needed)"
    )
    example.add_argument("out", metavar="OUT.tsv")
    example.add_argument("--split", required=True, choices=SPLITS)
    example.add_argument("--kind", default="noisy", choices=("straight", "noisy", "perfect"))
    example.set_defaults(run=commands.example)

    work = subparsers.add_parser("work", help="run the worker (every SCORE_INTERVAL_S seconds)")
    work.add_argument("--once", action="store_true", help="score until the queue is empty, then exit")
    work.set_defaults(run=commands.work)

    for name, help_text in (("status", "status (and summary once finished) as JSON"), ("rows", "per-row scores")):
        command = subparsers.add_parser(name, help=f"a submission's {help_text}")
        command.add_argument("submission_id", metavar="ID")
        command.set_defaults(run=getattr(commands, name))


def _declaration_flags(submit: argparse.ArgumentParser) -> None:
    """What a public test entry declares (records/declarations.py); required with --publish on the test split."""
    group = submit.add_argument_group("declarations (required for a public test submission)")
    group.add_argument(
        "--trained-on", choices=TRAINED_ON, help="NaviTrace data the model was trained or tuned on (none if none)"
    )
    group.add_argument(
        "--test-images-beyond-inference",
        choices=("yes", "no"),
        help="whether the test images were used in any way beyond running the model on them",
    )
    group.add_argument("--code-link", metavar="URL", help="the prompt or inference code")
    group.add_argument("--best-of", metavar="N", help="1 for a single run; n when the file is the best of n runs")
    group.add_argument(
        "--share-on-hub",
        action="store_true",
        help="once approved, open a pull request on the model's Hub repo adding this result",
    )


def _review_commands(subparsers: argparse._SubParsersAction) -> None:
    helps = {"approve": "publish a submission", "hide": "take a row off the table", "unhide": "put it back"}
    for name, help_text in helps.items():
        action = _by(subparsers.add_parser(name, help=help_text))
        action.add_argument("submission_id", metavar="ID")
        action.set_defaults(run=commands.moderate, action=name)

    reject = _by(subparsers.add_parser("reject", help="refuse a submission, with a reason the submitter sees"))
    reject.add_argument("submission_id", metavar="ID")
    reject.add_argument("--reason", required=True, metavar="TEXT")
    reject.set_defaults(run=commands.reject)

    flag_ = _by(subparsers.add_parser("flag", help="flag an entry, with a reason and a link to the evidence"))
    flag_.add_argument("submission_id", metavar="ID")
    flag_.add_argument("--kind", required=True, choices=KINDS)
    flag_.add_argument("--reason", required=True, metavar="TEXT", help="shown on the board and the entry page")
    flag_.add_argument("--link", metavar="URL", help="where the evidence is (a discussion, an issue)")
    flag_.set_defaults(run=commands.flag)
    unflag = _by(subparsers.add_parser("unflag", help="remove an entry's flag"))
    unflag.add_argument("submission_id", metavar="ID")
    unflag.set_defaults(run=commands.unflag)

    edit = _by(subparsers.add_parser("edit", help="change a submission's metadata"))
    edit.add_argument("submission_id", metavar="ID")
    for flag in commands.EDIT_FLAGS:
        edit.add_argument(f"--{flag}", metavar="VALUE")
    edit.set_defaults(run=commands.edit)

    rescore = _by(subparsers.add_parser("rescore", help="score every submission again (new scorer or answer key)"))
    rescore.add_argument("--note", metavar="TEXT", help="why, for the audit log")
    rescore.set_defaults(run=commands.rescore)

    _by(subparsers.add_parser("pending", help="submissions awaiting a decision (JSON)")).set_defaults(
        run=commands.pending
    )
    audit = _by(subparsers.add_parser("audit", help="the audit log (JSON lines, oldest first)"))
    audit.add_argument("--target", metavar="ID", help="only entries about this submission")
    audit.add_argument("--limit", type=int, default=100)
    audit.set_defaults(run=commands.audit)

    _release_commands(subparsers)

    release = subparsers.add_parser("release-policy", help="print the score release policy, or set it (with --by)")
    release.add_argument("policy", nargs="?", choices=RELEASE_POLICIES, metavar="{exact,ladder}")
    release.add_argument("--by", metavar="USER", help="the maintainer setting it (checked on MAINTAINERS)")
    release.set_defaults(run=commands.release_policy)


def _release_commands(subparsers: argparse._SubParsersAction) -> None:
    """``release list`` (JSON) and ``release open --note TEXT --by USER``: the board's versioned releases."""
    release = subparsers.add_parser("release", help="the board's releases: list them, or open the next one")
    actions = release.add_subparsers(dest="release_command", required=True, metavar="ACTION")
    actions.add_parser("list", help="every release, oldest first, as JSON").set_defaults(run=commands.releases)
    opening = _by(
        actions.add_parser("open", help="freeze the current board and rescore every entry under the next release")
    )
    opening.add_argument("--note", required=True, metavar="TEXT", help="what changed and why (the changelog shows it)")
    opening.set_defaults(run=commands.open_release)


def _table_commands(subparsers: argparse._SubParsersAction) -> None:
    table = subparsers.add_parser("leaderboard", help="the public rows")
    table.add_argument("--json", action="store_true", help="JSON rows instead of a table")
    table.set_defaults(run=commands.table)

    reported = _by(subparsers.add_parser("add-reported", help="add a published figure as a reported row"))
    reported.add_argument("--model", required=True, metavar="NAME")
    reported.add_argument("--score", required=True, type=float)
    reported.add_argument("--source", required=True, metavar="URL", help="where the figure was published")
    reported.add_argument("--organization", metavar="ORG")
    reported.add_argument("--model-link", metavar="URL")
    reported.add_argument("--split", choices=SPLITS, default="test")
    reported.add_argument("--score-valid-only", type=float)
    reported.add_argument("--coverage", type=float, help="fraction of rows answered, 0 to 1")
    reported.set_defaults(run=commands.add_reported)

    remove = _by(subparsers.add_parser("remove-reported", help="remove a reported row"))
    remove.add_argument("row_id", metavar="ID")
    remove.set_defaults(run=commands.remove_reported)


def _by(command: argparse.ArgumentParser) -> argparse.ArgumentParser:
    command.add_argument("--by", required=True, metavar="USER", help="the maintainer acting (checked on MAINTAINERS)")
    return command
