"""The Submit tab's handlers: module-level functions over a ``SubmitState``, callable without a page.

Each takes the state first, then the event's inputs, then the caller's ``gr.OAuthProfile``; ``bound`` gives
Gradio a function without the state that it reads as it read the handler (its name, which is its API name,
and its annotations, by which Gradio injects the profile).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import gradio as gr

from leaderboard import Rejected
from leaderboard.jobs import Quota, Receipt
from leaderboard.records import Split
from space.site import views
from space.site import words as about
from space.submit import declarations as submit_declarations
from space.submit import messages
from space.submit.messages import FIELDS, NO_MODEL, REFUSED_GONE
from space.submit.uploads import Uploads, path_of
from space.web.limits import RateLimit
from space.web.services import Services
from space.workspace.errors import describe, shown
from space.workspace.handlers import OnServices

FILE_LABEL = "Predictions TSV"
# The metadata form's fields, in the order the page shows them and the handlers receive them.
METADATA = (
    "model",
    "organization",
    "model_link",
    "paper_link",
    "contact_email",
    "description",
    "open_weights",
    "parameters_b",
)
Outputs = tuple[Any, ...]  # one value or ``gr.update`` per output component, in the listener's order


class CheckTurns:
    """Each user's checks: ``per_minute`` of them, and one at a time (a check reads the whole file into memory)."""

    def __init__(self, per_minute: int) -> None:
        self.per_minute = per_minute
        self._limit = RateLimit(per_minute, 60)
        self._checking: set[str] = set()
        self._lock = threading.Lock()

    def start(self, user: str) -> int | None:
        """``None`` when ``user``'s check starts now (``end`` it after); else the seconds to wait, at least 1."""
        with self._lock:
            wait = None if user in self._checking else self._limit.take(user)
            if user in self._checking or wait is not None:
                return wait or 1
            self._checking.add(user)
            return None

    def end(self, user: str) -> None:
        with self._lock:
            self._checking.discard(user)


@dataclass(frozen=True)
class SubmitState(OnServices):
    """What the Submit tab's handlers share: the services, the uploads users hold, the check turns."""

    services: Services
    uploads: Uploads
    turns: CheckTurns
    hub: bool  # the Hub benchmark is configured: the Hub opt-in is offered (and sent) only then

    @classmethod
    def create(cls, services: Services, uploads: Uploads | None = None) -> SubmitState:
        hub = services.leaderboard.settings.hub_benchmark_dataset is not None
        return cls(services, uploads or Uploads(), CheckTurns(services.space.checks_per_minute), hub)

    @property
    def limit(self) -> int:
        """Test submissions a user may make a day."""
        return self.service.settings.test_submissions_per_day


def with_budget(state: SubmitState, text: str) -> str:
    """The quota line, and a line when the Hub's hourly commit limit holds scoring back."""
    budget = state.service.commit_budget().message
    return f"{text}\n\n{budget}" if budget else text


def show_quota(state: SubmitState, profile: gr.OAuthProfile | None) -> Outputs:
    """The quota, and the file input usable only when signed in (the server refuses anonymous uploads)."""
    user = state.auth.user(profile)
    with shown():
        quota = state.service.quota(user) if user else None
        text = with_budget(state, about.quota_text(quota, state.limit, state.service.clock()))
    label = FILE_LABEL if user else f"{FILE_LABEL}: sign in at the top to upload"
    return text, gr.update(interactive=user is not None, label=label), gr.update(interactive=user is not None)


def open_form(state: SubmitState, split_: str, profile: gr.OAuthProfile | None) -> Outputs:
    """The metadata form: open when signed in, closed (and saying why) when not, before anything is typed."""
    user = state.auth.user(profile)
    fields = [gr.update(interactive=user is not None) for _ in METADATA]
    publish_ = gr.update(interactive=user is not None and split_ == Split.TEST)
    hint = views.note(about.NOT_CHECKED if user else about.SIGNED_OUT_SUBMIT, "info")
    return (*fields, publish_, hint, split_note(state, user, split_))


def full(state: SubmitState, user: str | None, split_: str) -> Quota | None:
    """The user's quota when the test split is picked and none is left today, else ``None``."""
    if user is None or split_ != Split.TEST:
        return None
    with shown():
        left = state.service.quota(user)
    return left if left.left == 0 else None


def split_note(state: SubmitState, user: str | None, split_: str) -> str:
    """Said under the split, before any upload: the test split is closed for today."""
    full_ = full(state, user, split_)
    return views.note(about.no_test_left(full_, state.service.clock()), "error") if full_ else ""


def run_check(state: SubmitState, value: object, split_: str, profile: gr.OAuthProfile | None) -> Outputs:
    """The report (never an exception: a bad file is an answer, shown where the user looks).

    Only for signed-in users, ``CHECKS_PER_MINUTE`` each and one at a time. A refused file is deleted and
    leaves the file box; its reason stays under the button until another file is checked.
    """
    closed_, path = gr.update(interactive=False), path_of(value)
    user = state.auth.user(profile)
    if not path:  # no file (refused, submitted or removed): what was said about the last one stays
        why_ = views.note(about.NOT_CHECKED if user else about.SIGNED_OUT_SUBMIT, "info")
        return gr.skip(), closed_, gr.skip(), why_, gr.skip()
    if user is None:  # the door refuses anonymous uploads: this path is nobody's to delete
        note = views.note(about.CHECK_SIGNED_OUT, "error")
        return note, closed_, "", views.note(about.SIGNED_OUT_SUBMIT), gr.skip()
    held = state.uploads.own(user, path)  # the user's copy once claimed, else the upload itself
    if not held or not Path(held).is_file():  # refused or submitted before: said before any check is spent
        return _check_gone()
    wait = state.turns.start(user)
    if wait is not None:
        busy = views.note(about.checks_text(state.turns.per_minute, wait), "warn")
        return busy, gr.skip(), gr.skip(), gr.skip(), gr.skip()
    try:
        return _checked(state, user, path, split_)
    finally:
        state.turns.end(user)


def _check_gone() -> Outputs:
    """The file left the form before its check (refused or submitted): said, and the file box emptied."""
    return views.note(about.CHECK_GONE, "warn"), gr.update(interactive=False), "", views.note(about.NOT_CHECKED), None


def _checked(state: SubmitState, user: str, path: str, split_: str) -> Outputs:
    """The check itself, on the user's own copy of the upload: the report, or why there is none."""
    closed_ = gr.update(interactive=False)
    try:
        try:
            own = state.uploads.claim(user, path)  # the user's own copy: another user's refusal cannot delete it
        except FileNotFoundError:
            return _check_gone()
        state.services.warmup.wait()
        checked = state.services.validate(own, split_)  # in a checking process: pages keep their interpreter
        full_ = full(state, user, split_)  # a file that passed, but no test submission left today
        if full_ is None:
            ready = views.note(about.READY, "ok")
            return views.report_html(checked), gr.update(interactive=True), "", ready, gr.skip()
        report_ = views.report_html(checked, ready=False) + views.note(about.PASSED_BUT_FULL, "warn")
        hint = views.note(about.submit_off_full(full_, state.service.clock()), "error")
        return report_, closed_, "", hint, gr.skip()
    except Rejected as error:
        state.uploads.release(user, path)
        refused = views.rejected_html(str(error), error.report) + views.note(REFUSED_GONE, "info")
        return refused, closed_, "", views.note(about.NOT_CHECKED), None
    except Exception as error:
        return views.note(describe(error), "error"), closed_, "", views.note(about.NOT_CHECKED), gr.skip()


def cleared(state: SubmitState, profile: gr.OAuthProfile | None) -> Outputs:
    """The user removed the file: its report goes, and the file too (it will not be submitted)."""
    user = state.auth.user(profile)
    if user is not None:
        state.uploads.drop(user)
    return "", gr.update(interactive=False), views.note(about.NOT_CHECKED if user else about.SIGNED_OUT_SUBMIT)


def on_split(state: SubmitState, split_: str, profile: gr.OAuthProfile | None) -> Outputs:
    """Publishing is for test submissions: validation scores stay private. The test quota, said at once."""
    publish_ = gr.update(interactive=True) if split_ == Split.TEST else gr.update(interactive=False, value=False)
    return publish_, split_note(state, state.auth.user(profile), split_)


# No docstring, as before the move: Gradio shows a handler's docstring as its endpoint's description.
def run_submit(
    state: SubmitState,
    value,
    split_,
    model_,
    org,
    link_,
    paper,
    email_,
    description_,
    open_,
    params,
    publish_,
    trained_on_,
    beyond_,
    code_link_,
    best_of_,
    share_on_hub_,
    profile: gr.OAuthProfile | None,
) -> Outputs:
    user, path = state.auth.require_user(profile, "submit"), path_of(value)
    if not path:
        raise gr.Error("Upload a predictions TSV first.")
    own = state.uploads.own(user, path)  # the copy claimed at the check: the user's own
    if not own or not Path(own).is_file():
        gone, hint = views.note(about.CHECK_GONE, "warn"), views.note(about.NOT_CHECKED)
        return gone, hint, gr.skip(), gr.update(interactive=False), None, gr.skip()
    metadata = dict(zip(METADATA, (model_, org, link_, paper, email_, description_, open_ or None, params)))
    publish_ = bool(publish_) and split_ == Split.TEST
    answers = submit_declarations.answers(
        split_, publish_, trained_on_, beyond_, code_link_, best_of_, share_on_hub_, hub=state.hub
    )
    # Nothing said above the Submit button contradicts the refusal under it: "Ready" goes.
    refused: tuple = ("", *(gr.skip(),) * 4)
    unsendable = _unsendable(model_, answers)
    if unsendable:
        return unsendable, *refused
    try:
        receipt_ = state.service.submit(
            own, split=split_, user=user, metadata=metadata, publish=publish_, declarations=answers
        )
    except Rejected as error:  # the metadata, mostly (the file passed its check): kept, to fix and send again
        return messages.refusal(str(error), FIELDS, error.report), *refused
    except Exception as error:  # the quota, the store: said where the user looks
        return views.note(f"Not submitted: {describe(error)}", "error"), *refused
    state.uploads.release(user, path)  # the service keeps its own copy
    state.services.wakeup()  # score it now, not at the next interval
    return _receipt(state, receipt_, user, str(model_ or ""), publish_)


def _unsendable(model_: object, answers: dict[str, object] | None) -> str | None:
    """Why the form cannot be sent, said before the service's answer in the words on screen; else ``None``."""
    if not str(model_ or "").strip():
        return messages.refusal(NO_MODEL, FIELDS)
    unanswered = submit_declarations.unanswered(answers)
    return messages.unanswered(unanswered) if unanswered else None


def _receipt(state: SubmitState, receipt_: Receipt, user: str, typed: str, publish_: bool) -> Outputs:
    """A stored submission: its receipt, the quota left, and the file box emptied for the next file."""
    service = state.service
    with shown():
        now, left = service.clock(), service.quota(user)
        renamed = _renamed(state, receipt_.submission_id, user, typed) if receipt_.duplicate else None
        words = about.quota_words(left, now) if receipt_.split == Split.TEST else None
        window = round(service.settings.dedupe_window_s / 60)
        html = views.receipt_html(
            receipt_.submission_id, receipt_.split, receipt_.duplicate, words, publish_, renamed, window
        )
        hint = views.note(about.NOT_CHECKED, "info")
        # The file input and its report are emptied (the service has its copy): the next file can come at once.
        quota_ = with_budget(state, about.quota_text(left, state.limit, now))
        return html, hint, quota_, gr.update(interactive=False), None, ""


def _renamed(state: SubmitState, submission_id: str, user: str, typed: str) -> tuple[str, str] | None:
    """(kept, typed) when a re-sent file's submission keeps the name sent the first time."""
    kept = str(state.service.status(submission_id, user).metadata.get("model") or "")
    return (kept, typed.strip()) if typed.strip() and typed.strip() != kept else None
