"""What the maintainers' desk's handlers share: a ``DeskState``, the desk as a refresh draws it, and how an action
answers.

Every answer fills its listener's outputs in the desk's order: the note under the control that asked, the
confirmations an answer closes (``CLOSES``), then the ``page`` a refresh redraws (``load``). A refused or failed
action says why in its note and skips the rest, so what was typed stays.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import gradio as gr

from leaderboard import Leaderboard
from leaderboard.publishing import approval_note
from leaderboard.records import Split
from leaderboard.review import ProbeFinder, decision_text, finished_tests
from leaderboard.service import SubmissionView
from leaderboard.storage import read_flags
from space.desk import copies, detail, health_section, score_release_section
from space.desk.activity import activity_table
from space.desk.confirm import say
from space.desk.probes import probe_section
from space.desk.reported import choices as reported_choices
from space.site import views
from space.site.html import esc
from space.web.services import Services
from space.workspace.errors import describe, shown
from space.workspace.handlers import OnServices

CLOSES = 2  # the confirmations an answer closes, if open: approving a contested entry, removing a reported row
Choices = list[tuple[str, str]]


@dataclass(frozen=True)
class DeskState(OnServices):
    """What the desk's handlers work with."""

    services: Services
    probes: ProbeFinder  # close pairs of a user's test submissions, each submission's rows read once
    health: Callable[[str], list]  # the service status section, drawn for a maintainer
    page: int  # how many outputs a refresh redraws after the answer and the confirmations: ``load``'s

    @classmethod
    def create(cls, services: Services, page: int, health: Callable[[str], list] | None = None) -> DeskState:
        """``health``: the status section's refresh, as ``health_section.build`` gave it (default: a new one)."""
        service = services.leaderboard
        # Reads each finished test submission's rows once (cached), only after ``service.submissions(by)``
        # has checked that ``by`` is a maintainer.
        probes = ProbeFinder(lambda submission_id: service.rows(submission_id))
        return cls(services, probes, health or health_section.refresher(services), page)


def load(state: DeskState, picked: str | None, by: str) -> list:
    """The page for the maintainer ``by``, on the entry ``picked`` (the first one when it is gone)."""
    service = state.service
    waiting, all_ = service.pending(by), service.submissions(by)
    choices = _choices(waiting, all_)
    ids = [value for _, value in choices]
    chosen = picked if picked in ids else (ids[0] if ids else None)
    view = next((v for v in all_ if v.submission_id == chosen), None)
    flag = read_flags(service.requests).get(chosen) if chosen else None
    declarations = service.registry.request(chosen).declarations if view is not None and chosen else None
    can = detail.offered(view)
    return [
        detail.pending_table(waiting) + copies.pending_marks(waiting),
        gr.update(choices=choices, value=chosen),
        gr.update(value=(mark := copies.mark(view)), visible=bool(mark)),  # no empty gap without one
        detail.declared_html(declarations, view) + _hub_note(service, view, chosen),
        # Approve is the big default only when nothing about the entry is contested.
        gr.update(visible=can.approve, variant="secondary" if can.contested else "primary"),
        gr.update(visible=can.hide),
        gr.update(visible=can.unhide),
        gr.update(visible=can.reject),
        detail.flag_note(flag) + detail.facts_html(view),
        views.maintainer_table(all_, "all-table", "No submission yet."),
        activity_table(all_, service.clock()) + probe_section(state.probes.pairs(finished_tests(all_))),
        views.audit_table(service.audit_log(by, limit=100)),
        gr.update(choices=reported_choices(service.public_table()), value=None),
        *_metadata(view),
        gr.update(visible=flag is not None),  # nothing to remove on an entry without a flag
        *score_release_section.show(service, by, all_),
        *state.health(by),
    ]


def _choices(waiting: list[SubmissionView], all_: list[SubmissionView]) -> Choices:
    """The picker's ``(label, id)``: the entries awaiting a decision first, then every other one."""
    waiting_ids = {v.submission_id for v in waiting}
    choices = [(f"awaiting · {_label(v)}", v.submission_id) for v in waiting]
    choices += [
        (f"{decision_text(v.decision, v.publish)}{' · hidden' if v.hidden else ''} · {_label(v)}", v.submission_id)
        for v in all_
        if v.submission_id not in waiting_ids
    ]
    return choices


def _metadata(view: SubmissionView | None) -> list[str]:
    """The edit form's boxes, in ``EDITABLE``'s order, filled with the entry's metadata."""
    meta = view.metadata if view else {}
    return [
        meta.get("model") or "",
        meta.get("organization") or "",
        meta.get("model_link") or "",
        meta.get("paper_link") or "",
        meta.get("description") or "",
        {True: "yes", False: "no"}.get(meta.get("open_weights"), ""),  # type: ignore[arg-type]
        "" if meta.get("parameters_b") is None else str(meta.get("parameters_b")),
    ]


def _label(view: SubmissionView) -> str:
    score = view.summary.score if view.summary else None
    value = f"{score:.2f}" if isinstance(score, int | float) else view.status
    return f"{view.metadata.get('model')} · {view.user} · {view.split} · {value} · {view.submission_id}"


def _hub_note(service: Leaderboard, view: SubmissionView | None, chosen: str | None) -> str:
    """What approving the entry does on the Hub (a pull request, where, or why none), beside its declarations."""
    if view is None or not chosen or view.split != Split.TEST:
        return ""
    sharing = bool(service.settings.hub_benchmark_dataset)
    text = approval_note(service.registry.entry(chosen), sharing)
    return f'<p class="nt-help" id="desk-hub-pr">{esc(text)}</p>'


def drawn(state: DeskState, note: str, picked: str | None, by: str) -> list:
    """``note`` under the control, the confirmations closed, and the page drawn again."""
    with shown():
        return [note, *(gr.update(visible=False) for _ in range(CLOSES)), *load(state, picked, by)]


def untouched(state: DeskState) -> list:
    """The page's outputs left as they are."""
    return [gr.skip() for _ in range(state.page)]


def unchanged(state: DeskState, text: str, kind: str = "error") -> list:
    """A refused or failed action: its note, and nothing else on the page touched (typed input stays)."""
    return [say(text, kind), *(gr.skip() for _ in range(CLOSES)), *untouched(state)]


def report(
    state: DeskState, by: str, picked: str | None, failed: str, action: Callable[[], str], then: str | None = None
) -> list:
    """Run one maintainer action: its success note and the page (picking ``then`` when given), or what
    went wrong (as the page says it) with the page left as it was."""
    board = state.services.board
    try:
        done = say(action(), "ok")
    except Exception as error:
        board.refresh()  # a store write of unknown outcome may have landed all the same
        return unchanged(state, f"{failed}: {describe(error)}")
    board.refresh()  # the action may have changed the public table: the next view shows it
    return drawn(state, done, then or picked, by)


def named(state: DeskState, picked: str, by: str) -> tuple[Any, str]:
    """``(the view or None, "Carl-Nav by carl")`` for messages; the id alone when it is unknown."""
    try:
        view = state.service.status(picked, by)
    except Exception:  # an unknown id: the action itself says so
        return None, picked
    return view, detail.who(view)
