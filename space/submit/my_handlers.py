"""My submissions' reads: module-level functions over a ``MineState``, callable without a page.

Each takes the state first, then the event's inputs, then the caller's ``gr.OAuthProfile``, and answers
``READ_OUTPUTS`` values, one per output of its listener; it reads only the caller's own submissions. The actions
on a submission (``my_actions``) answer the same, and say what they did.
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass, replace
from typing import Any

import gradio as gr

from leaderboard import Leaderboard, SubmissionView
from leaderboard.publishing import shareable
from leaderboard.records import APPROVAL_PENDING, JobStatus, ReviewDecision, Split
from leaderboard.storage import rows_download_tsv
from space.entry import standing
from space.entry import view as entry
from space.releases.book import ReleaseBook
from space.site import views
from space.web.services import Services
from space.workspace.errors import shown
from space.workspace.handlers import OnServices

log = logging.getLogger(__name__)

POLL_S = 0.5  # while something of the visitor's is waiting: how soon an outcome shows
FULL_S = 3.0  # and how often the page reads the store anyway (RUNNING, a decision, another process's change)
WAITING = ("PENDING", "RUNNING")
# A read's outputs: the table, the picker, the details, the per-row download, what is shown (``seen``), what
# was waiting (``Checked``), the timer; then the buttons: the file sent, choose, withdraw, cancel, share on the
# Hub and the confirmation, last (``act`` shows it).
BUTTONS = 6
READ_OUTPUTS = 7 + BUTTONS
Outputs = tuple[Any, ...]  # one value or ``gr.update`` per output component, in the listener's order
Checked = tuple[int, float, list[str]]  # (outcome count, monotonic time, ids waiting) at the last read of the store


@dataclass(frozen=True)
class MineState(OnServices):
    """What My submissions' handlers share: the services, and the releases' boards the rescore notes compare."""

    services: Services
    book: ReleaseBook  # "Rescored under v2: 41.20 → 40.80 (rank 3 → 4)"

    @classmethod
    def create(cls, services: Services) -> MineState:
        return cls(services, ReleaseBook(services.leaderboard))


def skipped() -> Outputs:
    """A read that changes nothing on the page."""
    return (gr.skip(),) * READ_OUTPUTS


def hidden() -> Outputs:
    """Every button hidden: nothing picked, or nobody signed in."""
    return tuple(gr.update(visible=False) for _ in range(BUTTONS))


# The read handlers keep the docstrings they had (none for ``refresh``): Gradio reads a handler's docstring.
def refresh(state: MineState, picked: str | None, shown_: str, profile: gr.OAuthProfile | None) -> Outputs:
    user = state.auth.user(profile)
    if user is None:
        return _signed_out(shown_)
    count = state.services.outcomes.count  # before the read: an outcome landing during it is not missed
    mine = _read(state, user)
    pending = [v.submission_id for v in mine if v.status in WAITING]
    undecided = any(v.publish and v.decision == APPROVAL_PENDING and v.status != "FAILED" for v in mine)
    checked = (count, time.monotonic(), pending) if pending or undecided else None
    chosen = _follow(picked, [v.submission_id for v in mine], shown_)
    fingerprint = _fingerprint(mine, chosen)
    if fingerprint == shown_:
        same = skipped()
        return (*same[:5], checked, *same[6:])  # the timer's state follows the statuses: unchanged too
    drawn, timer = _drawn(state, mine, chosen, user), _timer(bool(pending), undecided)
    return *drawn, fingerprint, checked, timer, *_actions(state, mine, chosen, user)


def on_row(state: MineState, shown_: str, evt: gr.SelectData, profile: gr.OAuthProfile | None) -> Outputs:
    """A click (or Enter) on a row of the table: its details, and the row marked as picked."""
    picked = str(getattr(evt, "value", "") or "")  # an id not the caller's shows their newest (refresh)
    return refresh(state, picked, "", profile)  # "": redraw, even when the same row is clicked again


def tick(
    state: MineState, picked: str | None, shown_: str, checked: Checked | None, profile: gr.OAuthProfile | None
) -> Outputs:
    """A timer tick: a read of the store only when an outcome of the visitor's came in, or now and then."""
    if checked is not None:
        count, when, pending = checked  # pending empty: only a decision is awaited, and ticks are FULL_S apart
        if pending and time.monotonic() - when < FULL_S and not state.services.outcomes.any_since(count, pending):
            return skipped()
    return refresh(state, picked, shown_, profile)


def _signed_out(shown_: str) -> Outputs:
    """Nobody signed in: a prompt, and the timer off (once: an anonymous page redraws nothing after)."""
    if shown_ == "anonymous":
        return skipped()
    prompt = views.note("Sign in to see your submissions.", "info")
    empty = gr.update(choices=[], value=None)
    return prompt, empty, "", gr.update(visible=False), "anonymous", None, gr.Timer(active=False), *hidden()


def _read(state: MineState, user: str) -> list[SubmissionView]:
    """``user``'s submissions, each with its release and rescore notes in its message."""
    with shown():
        moved = _rescored(state.book, state.services)
        return [_with_rescore_note(_with_release_note(v), moved) for v in state.service.my_submissions(user)]


def _fingerprint(mine: list[SubmissionView], chosen: str | None) -> str:
    """What the page shows, in a string: an unchanged one redraws nothing."""
    shown_ = [
        [v.submission_id, v.status, v.decision, v.hidden, v.message, v.publish, v.queue and v.queue.position]
        for v in mine
    ]
    return json.dumps([*shown_, chosen])


def _drawn(state: MineState, mine: list[SubmissionView], chosen: str | None, user: str) -> Outputs:
    """The table, the picker, the details of ``chosen`` (and where a public one landed), its per-row download."""
    choices = [
        (f"{v.submission_id} · {v.split} · {v.metadata.get('model')} · {_status(v)}", v.submission_id) for v in mine
    ]
    view = next((v for v in mine if v.submission_id == chosen), None)
    detail_html = views.detail_html(view) if view else ""
    if view is not None and view.public:  # where it landed: significantly better than, tied with
        landed = entry.find(state.services.board.snapshot().rows, view.submission_id)
        detail_html += standing.landed_html(landed) if landed else ""
    download = _download(state.services, view, user)
    return views.my_table(mine, chosen), gr.update(choices=choices, value=chosen), detail_html, download


def _actions(state: MineState, mine: list[SubmissionView], chosen: str | None, user: str) -> Outputs:
    """The buttons that can work on the picked submission (the service checks the owner and the state again)."""
    view = next((v for v in mine if v.submission_id == chosen), None)
    if view is None:
        return hidden()
    return (
        _sent(state.services, view.submission_id, user),
        gr.update(visible=choosable(view, mine)),
        gr.update(visible=view.publish and view.released and not view.cancelled),
        gr.update(visible=view.status == JobStatus.PENDING and not view.cancelled),
        gr.update(visible=_shareable(state.service, view)),
        gr.update(visible=False),
    )


def _shareable(service: Leaderboard, view: SubmissionView) -> bool:
    """Whether the submitter can propose the picked result on its model's Hub page: sharing is set up here, and
    it is an approved, public, scored test entry whose model link is a Hub model repo."""
    settings = service.settings
    if not (settings.hub_benchmark_dataset and settings.hub_space_url) or view.split != Split.TEST:
        return False
    return shareable(service.registry.entry(view.submission_id)) is not None


def choosable(view: SubmissionView, mine: list[SubmissionView]) -> bool:
    """Whether "Make this my public entry" can work: a scored test entry that may be public (not withheld by the
    ladder policy, rejected or hidden) and is not the only one asking already."""
    if view.split != Split.TEST or view.status != JobStatus.FINISHED or view.cancelled or not view.released:
        return False
    if view.decision == ReviewDecision.REJECTED or view.hidden:
        return False
    others_public = any(v.publish and v.submission_id != view.submission_id for v in mine)
    return not view.publish or others_public


def _follow(picked: str | None, ids: list[str], shown_: str) -> str | None:
    """The submission to detail: the one picked, but the newest when the newest was picked and a newer came in
    (the details never stay behind on an entry the user did not choose)."""
    if picked not in ids:
        return ids[0] if ids else None
    try:
        before = json.loads(shown_) if shown_ and shown_ != "anonymous" else []
    except ValueError:
        before = []
    newest_before = before[0][0] if before and isinstance(before[0], list) else None
    return ids[0] if picked == newest_before and ids[0] != newest_before else picked


def _with_release_note(view: SubmissionView) -> SubmissionView:
    """A withheld figure's note (the ladder release policy) in the message: the table and the details show it."""
    return replace(view, message=view.release_note) if view.release_note and not view.message else view


def _rescored(book: ReleaseBook, services: Services) -> dict[str, str]:
    """Entry id -> how its figure and rank moved when the current release rescored it (public entries only: the
    previous release's frozen board is what it is compared with). Empty when that cannot be read now."""
    try:
        return book.rescored(services.board.snapshot())
    except Exception:  # the store: My submissions shows everything else all the same
        log.warning("could not compare the releases' boards for My submissions", exc_info=True)
        return {}


def _with_rescore_note(view: SubmissionView, moved: dict[str, str]) -> SubmissionView:
    """The figure's move under the current release (``ReleaseBook.rescored``), after any other message."""
    note = moved.get(view.submission_id) if view.status == JobStatus.FINISHED else None
    return replace(view, message=" · ".join(filter(None, (view.message, note)))) if note else view


def _timer(scoring: bool, undecided: bool) -> gr.Timer:
    if scoring:
        return gr.Timer(POLL_S, active=True)
    return gr.Timer(FULL_S, active=undecided)


def _sent(services: Services, submission_id: str, user: str) -> dict[str, Any]:
    """The file exactly as the user sent it (the service checks it is theirs), written once per submission."""
    folder = services.scratch / "sent" / submission_id
    path = folder / f"navitrace_sent_{submission_id}.tsv"
    if not path.exists():
        with shown():
            data = services.leaderboard.uploaded_file(submission_id, user)
        folder.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return gr.update(visible=True, value=str(path))


def _download(services: Services, view: SubmissionView | None, user: str) -> dict[str, Any]:
    """The per-row TSV of a finished *validation* submission of ``user`` (the service refuses the test split)."""
    if view is None or view.split != "validation" or view.status != "FINISHED":
        return gr.update(visible=False, value=None)
    with shown():
        rows = services.leaderboard.rows(view.submission_id, user=user)
    folder = services.scratch / "rows"
    folder.mkdir(exist_ok=True)
    path = folder / f"navitrace_rows_{view.submission_id}.tsv"
    path.write_bytes(rows_download_tsv(rows))  # formula-guarded: spreadsheets open this file
    return gr.update(visible=True, value=str(path))


def _status(view: SubmissionView) -> str:
    return "CANCELLED" if view.cancelled else str(view.status)
