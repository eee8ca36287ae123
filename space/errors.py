"""The one place where the service's errors become messages on the page (``gr.Error``)."""

from __future__ import annotations

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
    elif isinstance(error, StorageError):
        text = f"the store cannot be reached right now, nothing was changed ({error}); please try again"
    else:
        log.error("unexpected error in a page handler", exc_info=error)
        text = "an unexpected error on the server (it is logged); please try again or tell the maintainers"
    text = " ".join(text.split())
    return text[:1].upper() + text[1:]


@contextmanager
def shown() -> Iterator[None]:
    """Turn any error of the block into a ``gr.Error`` with a clear message; log the unexpected ones."""
    try:
        yield
    except gr.Error:
        raise
    except Exception as error:
        raise gr.Error(describe(error)) from None
