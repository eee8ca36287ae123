"""My submissions: statuses that update by themselves, failure messages, scores, per-row downloads.

While one of the visitor's submissions is waiting or running, a timer ticks every ``POLL_S``; a tick
costs nothing unless the worker reported an outcome for one of them (``Services.outcomes``: then
the page redraws at once, so FINISHED shows within about ``POLL_S`` of the worker's commit) or
``FULL_S`` have passed (a claim, or a change made by another process). While only a maintainer's
decision is awaited, it ticks every ``FULL_S``. When nothing of the visitor's is awaited, the timer
is off: no polling at all.
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import replace
from typing import Any

import gradio as gr

from leaderboard import hub_eval
from leaderboard.records import APPROVAL_PENDING, JobStatus, ReviewDecision, Split
from leaderboard.results import rows_download_tsv
from space.errors import describe, shown
from space.pages import about, entry, standing, views
from space.pages.release_book import ReleaseBook
from space.services import Services
from space.tabs import workspace_a11y
from space.tabs.workspace_a11y import FOCUS_ANSWER

log = logging.getLogger(__name__)

POLL_S = 0.5  # while something of the visitor's is waiting: how soon an outcome shows
FULL_S = 3.0  # and how often the page reads the store anyway (RUNNING, a decision, another process's change)
WAITING = ("PENDING", "RUNNING")
# A click on a row, or Enter / Space on a focused row, picks it (the dropdown below does the same).
ROW_PICKING = """
const pick = (row) => {
  if (!row || !row.dataset.id) return;
  trigger('select', {index: Number(row.dataset.index), value: row.dataset.id, selected: true});
};
element.addEventListener('click', (e) => {
  if (!e.target.closest('a, button')) pick(e.target.closest('tr[data-id]'));
});
element.addEventListener('keydown', (e) => {
  const row = e.target.closest('tr[data-id]');
  if (row && (e.key === 'Enter' || e.key === ' ')) { e.preventDefault(); pick(row); }
});
"""
ACTIONS = ("choose", "withdraw", "cancel")
# The table: rows are picked by click or keyboard; on a phone the
# first columns (model, status, score) stay on the screen.
MINE_CSS = """
tr[data-id] { cursor: pointer; }
tr[data-id]:focus-visible { outline: 3px solid var(--color-accent); outline-offset: -3px; }
tr.nt-picked td { background: var(--color-accent-soft); }
tr.nt-picked td:first-child { box-shadow: inset 4px 0 0 var(--color-accent); }
td.nt-model { min-width: 7rem; max-width: 12rem; overflow-wrap: break-word; }
.nt-row-tag { display: none; }
@media (max-width: 640px) {
  td.nt-model { min-width: 6.5rem; max-width: 8rem; } th, td { padding: 5px 4px; }
  .nt-row-tag { display: block; font-size: 0.8em; font-weight: 400; margin-top: 2px; }
}
"""


def build(services: Services, demo: gr.Blocks) -> gr.Tab:
    service, auth = services.leaderboard, services.auth
    book = ReleaseBook(service)  # "Rescored under v2: 41.20 → 40.80 (rank 3 → 4)" (issue 27)
    with gr.Tab("My submissions", id="mine", elem_id="tab-mine") as tab:
        workspace_a11y.install(demo)
        gr.Markdown(about.MY_HELP, elem_classes="nt-help")
        table = gr.HTML(elem_id="my-submissions", js_on_load=ROW_PICKING, css_template=MINE_CSS)
        with gr.Row(equal_height=True):
            pick = gr.Dropdown(label="Details of", choices=[], elem_id="my-pick", scale=3)
            rows_file = gr.DownloadButton(
                "Download per-row scores (TSV)", visible=False, elem_id="my-rows-download", variant="secondary", scale=1
            )
        with gr.Row(elem_id="my-actions"):
            sent_file = gr.DownloadButton("Download the file I sent", visible=False, elem_id="my-sent-download")
            choose = gr.Button("Make this my public entry", visible=False, elem_id="my-choose", variant="primary")
            withdraw = gr.Button("Withdraw from the leaderboard", visible=False, elem_id="my-withdraw")
            cancel = gr.Button("Cancel: do not score it", visible=False, elem_id="my-cancel", variant="stop")
            # The result on the model's Hub page, proposed under the submitter's own account (their OAuth token).
            share = gr.Button("Propose it on my model's Hub page", visible=False, elem_id="my-share")
        done = gr.HTML(elem_id="my-action-note")  # what an action did (or why not), under its button
        # Choosing a public entry withdraws the submitter's others: said first, done on this second click.
        confirm = gr.Button("Yes: make it public, withdraw the others", visible=False, elem_id="my-choose-confirm")
        asked = gr.State(None)  # (id, ids that would leave) the warning named, so the confirmation does just that
        detail = gr.HTML(elem_id="my-detail")
        gr.Markdown(about.MY_MORE, elem_classes="nt-help")
        seen = gr.State("")  # what the page shows now, so an unchanged poll redraws nothing
        waiting = gr.State(None)  # (outcome count, monotonic time, ids waiting) at the last read of the store
        timer = gr.Timer(POLL_S, active=False)  # on only while something of the visitor's is waiting

    buttons = [sent_file, choose, withdraw, cancel, share, confirm]  # the confirmation last: ``act`` shows it
    skipped = (gr.skip(),) * (7 + len(buttons))
    hidden = tuple(gr.update(visible=False) for _ in buttons)

    def refresh(picked: str | None, shown_: str, profile: gr.OAuthProfile | None):
        user = auth.user(profile)
        if user is None:
            prompt = views.note("Sign in to see your submissions.", "info")
            if shown_ == "anonymous":
                return skipped
            off = gr.Timer(active=False)
            return (
                prompt,
                gr.update(choices=[], value=None),
                "",
                gr.update(visible=False),
                "anonymous",
                None,
                off,
                *hidden,
            )
        count = services.outcomes.count  # before the read: an outcome landing during it is not missed
        with shown():
            moved = _rescored(book, services)
            mine = [_with_rescore_note(_with_release_note(v), moved) for v in service.my_submissions(user)]
        pending = [v.submission_id for v in mine if v.status in WAITING]
        undecided = any(v.publish and v.decision == APPROVAL_PENDING and v.status != "FAILED" for v in mine)
        checked = (count, time.monotonic(), pending) if pending or undecided else None
        ids = [v.submission_id for v in mine]
        chosen = _follow(picked, ids, shown_)
        fingerprint = json.dumps(
            [
                [v.submission_id, v.status, v.decision, v.hidden, v.message, v.publish, v.queue and v.queue.position]
                for v in mine
            ]
            + [chosen]
        )
        if fingerprint == shown_:
            return (*skipped[:5], checked, *skipped[6:])  # the timer's state follows the statuses: unchanged too
        choices = [
            (f"{v.submission_id} · {v.split} · {v.metadata.get('model')} · {_status(v)}", v.submission_id) for v in mine
        ]
        view = next((v for v in mine if v.submission_id == chosen), None)
        detail_html = views.detail_html(view) if view else ""
        if view is not None and view.public:  # where it landed: significantly better than, tied with
            landed = entry.find(services.board.snapshot().rows, view.submission_id)
            detail_html += standing.landed_html(landed) if landed else ""
        download = _download(services, view, user)
        picker, timer_on = gr.update(choices=choices, value=chosen), _timer(bool(pending), undecided)
        table_html = views.my_table(mine, chosen)
        return table_html, picker, detail_html, download, fingerprint, checked, timer_on, *_actions(view, mine, user)

    def _actions(view, mine, user: str) -> tuple:
        """The buttons that can work on the picked submission (the service checks the owner and the state again)."""
        if view is None:
            return hidden
        return (
            _sent(services, view.submission_id, user),
            gr.update(visible=choosable(view, mine)),
            gr.update(visible=view.publish and view.released and not view.cancelled),
            gr.update(visible=view.status == JobStatus.PENDING and not view.cancelled),
            gr.update(visible=_shareable(service, view)),
            gr.update(visible=False),
        )

    def on_row(shown_: str, evt: gr.SelectData, profile: gr.OAuthProfile | None):
        """A click (or Enter) on a row of the table: its details, and the row marked as picked."""
        picked = str(getattr(evt, "value", "") or "")  # an id not the caller's shows their newest (refresh)
        return refresh(picked, "", profile)  # "": redraw, even when the same row is clicked again

    def tick(picked: str | None, shown_: str, checked, profile: gr.OAuthProfile | None):
        """A timer tick: a read of the store only when an outcome of the visitor's came in, or now and then."""
        if checked is not None:
            count, when, pending = checked  # pending empty: only a decision is awaited, and ticks are FULL_S apart
            if pending and time.monotonic() - when < FULL_S and not services.outcomes.any_since(count, pending):
                return skipped
        return refresh(picked, shown_, profile)

    def act(action: str, picked: str | None, asked_, profile: gr.OAuthProfile | None):
        """One of the submitter's actions on the picked submission; the service checks that it is theirs."""
        user = auth.require_user(profile, "change your submissions")
        if not picked:
            return (*refresh(picked, "", profile), views.note("Pick a submission first.", "warn"), None)
        try:
            if action in ("choose", "confirm"):
                leaving = _leaving(service, picked, user)
                ask = [picked, [v.submission_id for v in leaving]]
                if leaving and (action == "choose" or asked_ != ask):  # said first; done on the confirmation
                    warning = views.note(leaving_text(picked, leaving), "warn")
                    return (*refresh(picked, "", profile)[:-1], gr.update(visible=True), warning, ask)
            text, kind = _perform(service, action, picked, user), "ok"
        except Exception as error:  # a refusal (not yours, not in that state) or the store: said under the button
            text, kind = f"Not done: {describe(error)}", "error"
        return (*refresh(picked, "", profile), views.note(text, kind), None)

    def acting(action: str):
        def run(picked: str | None, shown_: str, profile: gr.OAuthProfile | None):
            return act(action, picked, None, profile)

        return run

    def confirmed(picked: str | None, shown_: str, asked_, profile: gr.OAuthProfile | None):
        return act("confirm", picked, asked_, profile)

    def share_(picked: str | None, shown_: str, profile: gr.OAuthProfile | None, token: gr.OAuthToken | None):
        """The pull request on the model's Hub repo, opened with the submitter's own token: the Hub then decides
        whether they may, and they are its author (the Space opens one itself only on repos they control)."""
        user = auth.require_user(profile, "propose your result on the Hub")
        if not picked:
            return (*refresh(picked, "", profile), views.note("Pick a submission first.", "warn"), None)
        if token is None or not token.token:
            why = "Sign in with Hugging Face to propose it under your own account (this sign-in has no Hub token)."
            return (*refresh(picked, "", profile), views.note(why, "warn"), None)
        try:
            url = service.ownership.open_pull_request(picked, user, token.token)
            text, kind = f"Proposed on the Hub under your account: {url}", "ok"
        except Exception as error:  # refused by the Hub or the service: said under the button
            text, kind = f"Not done: {describe(error)}", "error"
        return (*refresh(picked, "", profile), views.note(text, kind), None)

    outputs = [table, pick, detail, rows_file, seen, waiting, timer, *buttons]
    quiet: dict[str, Any] = {"show_progress": "hidden", "api_visibility": "undocumented"}
    reads: dict[str, Any] = {**quiet, "concurrency_limit": None}  # reads of the visitor's own rows: no queue
    demo.load(refresh, [pick, seen], outputs, **reads)
    tab.select(refresh, [pick, seen], outputs, **reads)
    timer.tick(tick, [pick, seen, waiting], outputs, **reads)
    pick.input(refresh, [pick, seen], outputs, api_name="my_submission", **reads)
    table.select(on_row, [seen], outputs, api_name="my_submission_row", **reads)
    focus: dict[str, Any] = {"js": FOCUS_ANSWER % "my-action-note", "show_progress": "hidden"}
    for button, action, name in zip((choose, withdraw, cancel), ACTIONS, ("choose_public", "withdraw", "cancel")):
        button.click(
            acting(action), [pick, seen], [*outputs, done, asked], api_name=name, concurrency_limit=2, **quiet
        ).then(None, api_visibility="private", **focus)
    share.click(
        share_, [pick, seen], [*outputs, done, asked], api_name="share_on_hub", concurrency_limit=2, **quiet
    ).then(None, api_visibility="private", **focus)
    confirm.click(
        confirmed,
        [pick, seen, asked],
        [*outputs, done, asked],
        api_name="choose_public_confirmed",
        concurrency_limit=2,
        **quiet,
    ).then(None, api_visibility="private", **focus)
    return tab


def _perform(service, action: str, submission_id: str, user: str) -> str:
    """Do ``action``; what it did, in a sentence."""
    if action in ("choose", "confirm"):
        left = service.choose_public(submission_id, user)
        where = views.board_state(service.status(submission_id, user))  # on the leaderboard, or awaiting approval
        gone = f" Off the board now: {', '.join(left)}." if left else ""
        return f"{submission_id} is your public entry ({where}).{gone}"
    if action == "withdraw":
        service.withdraw(submission_id, user)
        return (
            f"{submission_id} is withdrawn: it has left the leaderboard. It stays in your list and in the "
            "maintainers' audit log; choose it again to bring it back."
        )
    service.cancel(submission_id, user)
    test = service.status(submission_id, user).split == Split.TEST
    freed = " Its place in your daily test quota is free again." if test else ""
    return f"{submission_id} is cancelled: it will not be scored.{freed}"


def _shareable(service, view) -> bool:  # noqa: ANN001
    """Whether the submitter can propose the picked result on its model's Hub page: sharing is set up here, and
    it is an approved, public, scored test entry whose model link is a Hub model repo."""
    settings = service.settings
    if not (settings.hub_benchmark_dataset and settings.hub_space_url) or view.split != Split.TEST:
        return False
    return hub_eval.shareable(service.registry.entry(view.submission_id)) is not None


def choosable(view, mine) -> bool:
    """Whether "Make this my public entry" can work: a scored test entry that may be public (not withheld by the
    ladder policy, rejected or hidden) and is not the only one asking already."""
    if view.split != Split.TEST or view.status != JobStatus.FINISHED or view.cancelled or not view.released:
        return False
    if view.decision == ReviewDecision.REJECTED or view.hidden:
        return False
    others_public = any(v.publish and v.submission_id != view.submission_id for v in mine)
    return not view.publish or others_public


def _leaving(service, submission_id: str, user: str) -> list:
    """The user's other entries asking to be on the board: choosing ``submission_id`` withdraws them
    (``Ownership.choose_public``). The owner is checked by ``status`` (``NotAuthorised`` for another's)."""
    chosen = service.status(submission_id, user)
    return [v for v in service.my_submissions(user) if v.publish and v.submission_id != chosen.submission_id]


def leaving_text(submission_id: str, leaving) -> str:
    """The warning before a choice that takes other entries off the board, naming each of them."""
    named = "; ".join(f"{v.metadata.get('model')} ({v.submission_id}, {views.board_state(v)})" for v in leaving)
    return (
        f"Making {submission_id} your public entry withdraws your other entries asking to be on the board: {named}. "
        "Each submitter has one public entry chosen here (a withdrawn entry can be chosen again later). "
        'Press "Yes: make it public, withdraw the others" to go ahead.'
    )


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


def _with_release_note(view):
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


def _with_rescore_note(view, moved: dict[str, str]):
    """The figure's move under the current release (``ReleaseBook.rescored``), after any other message."""
    note = moved.get(view.submission_id) if view.status == JobStatus.FINISHED else None
    return replace(view, message=" · ".join(filter(None, (view.message, note)))) if note else view


def _timer(scoring: bool, undecided: bool) -> gr.Timer:
    if scoring:
        return gr.Timer(POLL_S, active=True)
    return gr.Timer(FULL_S, active=undecided)


def _sent(services: Services, submission_id: str, user: str):
    """The file exactly as the user sent it (the service checks it is theirs), written once per submission."""
    folder = services.scratch / "sent" / submission_id
    path = folder / f"navitrace_sent_{submission_id}.tsv"
    if not path.exists():
        with shown():
            data = services.leaderboard.uploaded_file(submission_id, user)
        folder.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return gr.update(visible=True, value=str(path))


def _download(services: Services, view, user: str):
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


def _status(view) -> str:
    return "CANCELLED" if view.cancelled else str(view.status)
