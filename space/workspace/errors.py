"""The one place where the service's errors become messages on the page (``gr.Error``)."""

from __future__ import annotations

import errno
import logging
from collections.abc import Iterator
from contextlib import contextmanager

import gradio as gr

from leaderboard import LeaderboardError, SettingsError
from leaderboard.storage import StorageError
from scoring import AnswerKeyError

log = logging.getLogger(__name__)


def describe(error: BaseException) -> str:
    """A one-line message for people (no traceback, nothing private); unexpected errors are logged."""
    if isinstance(error, LeaderboardError | SettingsError | AnswerKeyError):
        text = str(error)
    elif _disk_full(error):
        log.error("the server's disk is full: %s", error)
        text = "the server's disk is full, so nothing was changed; please try again later (the maintainers are told)"
    elif isinstance(error, StorageError) and error.outcome_unknown:
        log.error("a store write whose outcome is unknown: %s", error)
        text = (
            "the server did not get a confirmation from its store; the change may still appear, "
            "so check before trying again"
        )
    elif isinstance(error, StorageError):  # the details (paths, Hub answers) go to the log, not to the page
        log.error("a store write failed: %s", error)
        text = "the server could not store this right now and nothing was changed; please try again in a few minutes"
    else:
        log.error("unexpected error in a page handler", exc_info=error)
        text = "an unexpected error on the server (it is logged); please try again or tell the maintainers"
    text = " ".join(text.split())
    return text[:1].upper() + text[1:]


def refusal(text: str) -> gr.Error:
    """An expected refusal (not signed in, not a maintainer, a missing choice) for the page: the log gets one
    warning line, not a traceback (Gradio prints one for every ``gr.Error`` unless told not to)."""
    log.warning("refused: %s", text[:300])
    return gr.Error(text, print_exception=False)


def _disk_full(error: BaseException) -> bool:
    """ENOSPC on the error or on what caused it (a ``StorageError`` wraps the ``OSError``)."""
    cause: BaseException | None = error
    for _ in range(8):  # a chain is short; the bound guards against a cycle
        if cause is None:
            return False
        if isinstance(cause, OSError) and cause.errno == errno.ENOSPC:
            return True
        cause = cause.__cause__ or cause.__context__
    return False


@contextmanager
def shown() -> Iterator[None]:
    """Turn any error of the block into a ``gr.Error`` with a clear message; log the unexpected ones."""
    try:
        yield
    except gr.Error:
        raise
    except Exception as error:  # describe() has logged an unexpected one with its traceback already
        raise refusal(describe(error)) from None
