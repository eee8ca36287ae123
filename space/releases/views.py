"""The board of a release, and the changelog, for the plain pages' routes (``routes.Pages``).

``?release=v1`` names the board to show: the live one while ``v1`` is current, its frozen rows once the next
release opened (drawn once and kept: version ``release_book.FROZEN``, in a cache of their own, so no change
of the live results pushes them out); a name no release has is a 404. ``?since=v1`` adds how figures and
ranks moved since that (older) release's board. Every control of the board keeps both in its links.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from datetime import UTC, datetime

from space.board import page as board_page
from space.board.cache import Snapshot
from space.board.controls import Controls
from space.board.drawn import Drawn
from space.releases import changelog
from space.releases.book import FROZEN, ReleaseBook
from space.releases.moves import Move, moves
from space.site.html import esc

FROZEN_BODIES = 256  # frozen board views kept (they never change; a few releases times a few views each)


@dataclass(frozen=True)
class Shown:
    """Where a board view is drawn from: its cache, the version to draw for, the rows, the key."""

    drawn: Drawn[str]
    version: int
    rows: Snapshot
    key: Hashable


class ReleaseViews:
    def __init__(self, book: ReleaseBook, results_repo: str | None) -> None:
        self.book, self.results_repo = book, results_repo
        self.frozen: Drawn[str] = Drawn(FROZEN_BODIES)

    def shown(self, live: Drawn[str], snapshot: Snapshot, controls: Controls) -> Shown | None:
        """The board ``controls`` ask for; ``None`` when ``controls.release`` names no release."""
        if not controls.release:
            return Shown(live, snapshot.version, snapshot, ("board", controls))
        rows = self.book.board_of(snapshot, controls.release)
        if rows is None:
            return None
        if rows is snapshot:  # the current release, named
            return Shown(live, snapshot.version, snapshot, ("board", controls))
        current = self.book.current(snapshot).name  # the frozen board's note names the current release
        return Shown(self.frozen, FROZEN, rows, ("board", current, controls))

    def board_body(self, rows: Snapshot, live: Snapshot, controls: Controls) -> str:
        """The board page of ``rows`` (the live board, or a frozen one) with the notes of its release."""
        history = self.book.history(live)
        shown = self.book.find(live, controls.release) if controls.release else history[-1]
        shown = shown or history[-1]
        since = self._since(live, shown.number, controls.since, rows)
        notes = changelog.board_notes(history, shown, rows.rows, since, datetime.now(UTC).date())
        return board_page.board_body(rows, controls, notes)

    def _since(self, live: Snapshot, shown: int, name: str, rows: Snapshot) -> tuple | None:
        old = self.book.find(live, name) if name else None
        if old is None or old.number >= shown:  # only an older release compares
            return None
        board = self.book.board_of(live, old.name)
        return (old, moves(board.rows, rows.rows)) if board is not None else None

    def changelog_body(self, live: Snapshot) -> str:
        history = self.book.history(live)
        moved: dict[str, list[Move]] = {}
        for before, after in zip(history, history[1:]):
            old, new = self.book.board_of(live, before.name), self.book.board_of(live, after.name)
            if old is not None and new is not None:
                moved[after.name] = moves(old.rows, new.rows)
        return changelog.changelog_body(history, moved, live.rows, self.results_repo)

    def entry_line(self, live: Snapshot, row: dict[str, object]) -> str:
        return changelog.entry_release(row, self.book.history(live))


def missing_body(name: str) -> str:
    return (
        f'<div id="release-missing"><h1>No release {esc(name)}</h1><p class="nt-note nt-note-warn">The board has '
        f'no release named “{esc(name)}”. The <a href="{changelog.CHANGELOG}">changelog</a> lists every release; '
        '<a href="/">the board</a> shows the current one.</p></div>'
    )
