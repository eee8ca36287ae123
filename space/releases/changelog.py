"""The releases as readers meet them: the changelog page (``/changelog``) and the release notes of the board.

The changelog lists each release, newest first: what changed and why (its note), when, what its figures
depend on, where its board stays readable, and how ranks moved from the release before (``space.releases.moves``).
On the board, ``board_notes`` says which release is shown: one line normally; while a release is new (some
entries still wait to be rescored, or for ``TRANSITION_DAYS`` after it opened) a note linking to the changes;
on a closed release's frozen board (``?release=v1``) that it is frozen, and the way to the current one. With
``?since=v1`` the changes since that release follow, always on the test split (the ranked one).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from urllib.parse import quote

from leaderboard.publishing import Edition, days_since
from space.releases.moves import Move, release_name
from space.site.html import esc, number

Row = Mapping[str, object]
TRANSITION_DAYS = 14  # the board points at the changes this long after a release opens (and while it rescores)
CHANGELOG = "/changelog"


def day(stamp: str | None) -> str:
    """``28 Nov 2026`` of an ISO time or date.

    >>> day("2026-11-28T10:00:00.000000Z")
    '28 Nov 2026'
    """
    when = date.fromisoformat(str(stamp)[:10])
    return f"{when.day} {when:%b %Y}"


def _time(stamp: str | None) -> str:
    return f'<time datetime="{esc(str(stamp)[:10])}">{esc(day(stamp))}</time>'


def _opened(edition: Edition) -> str:
    """``opened 28 Nov 2026``; an implicit v1 began with the board itself."""
    return f"opened {_time(edition.opened_at)}" if edition.opened_at else "since the board began"


def waiting(rows: Sequence[Row], current: Edition) -> tuple[int, int]:
    """``(rescored, entries)``: the board's entries, and those already scored under ``current``."""
    entries = [r for r in rows if r.get("kind") == "submission"]
    return sum(1 for r in entries if release_name(r) == current.name), len(entries)


def board_notes(
    history: Sequence[Edition],
    shown: Edition,
    rows: Sequence[Row],
    since: tuple[Edition, Sequence[Move]] | None,
    today: date,
) -> str:
    """What the board says of its release (``rows``: the board shown) and, with ``since``, the changes table."""
    current, at = history[-1], [e.name for e in history].index(shown.name)
    before = history[at - 1] if at > 0 else None
    changes_link = f'<a href="/?since={before.name}">Changes since {before.name}</a> · ' if before else ""
    if shown.name != current.name:
        text = (
            f"<strong>You are reading the board of release {esc(shown.name)}</strong> ({_opened(shown)}), "
            f"frozen when release {esc(current.name)} opened: its figures and ranks stay as they were. "
            f'<a href="/">The current board</a> · <a href="/?since={esc(shown.name)}">Changes since '
            f'{esc(shown.name)}</a> · <a href="{CHANGELOG}">Changelog</a>'
        )
        notes = f'<p class="nt-note nt-note-warn" id="board-release" role="note">{text}</p>'
    elif before is not None and _in_transition(shown, rows, today):
        done, total = waiting(rows, shown)
        progress = (
            f"{done} of {total} entries are rescored so far; the others still show their {esc(before.name)} figures."
            if done < total
            else "Every entry is rescored under it."
        )
        text = (
            f"<strong>Release {esc(shown.name)}</strong> {_opened(shown)}: {esc(shown.note)} {progress} "
            f'{changes_link}<a href="{CHANGELOG}">Changelog</a>'
        )
        notes = f'<p class="nt-note nt-note-info" id="board-release" role="note">{text}</p>'
    else:
        notes = (
            f'<p class="nt-small nt-release-line" id="board-release">{esc(shown.label())} · '
            f'<a href="{CHANGELOG}">What changed between releases</a></p>'
        )
    if since is not None:
        old, found = since
        title = f"Changes since {esc(old.name)} (test split)"
        notes += (
            f'<section id="release-changes" aria-labelledby="release-changes-title"><h2 id="release-changes-title">'
            f"{title}</h2>{moves_table(found, old.name, shown.name, 'release-changes-table')}</section>"
        )
    return notes


def _in_transition(current: Edition, rows: Sequence[Row], today: date) -> bool:
    done, total = waiting(rows, current)
    days = days_since(current, today)
    return done < total or (days is not None and days < TRANSITION_DAYS)


def moves_table(found: Sequence[Move], old: str, new: str, ident: str) -> str:
    """The entries of two boards: old and new rank, the change, old and new score (entries waiting: marked)."""
    if not found:
        return f'<p class="nt-small" id="{esc(ident)}-empty">No ranked entry on either board.</p>'
    head = ["Entry", f"Rank in {old}", f"Rank in {new}", "Change", f"Score in {old}", f"Score in {new}"]
    numeric = (False, True, True, True, True, True)
    cells = "".join(f'<th scope="col"{_num(n)}>{esc(h)}</th>' for h, n in zip(head, numeric))
    body = []
    for move in found:
        name = esc(move.model)
        if move.kind == "submission" and move.new_rank is not None:
            name = f'<a href="/entry/{esc(quote(move.submission_id, safe=""))}">{name}</a>'
        elif move.kind == "reported":
            name += ' <span class="nt-small">(reported)</span>'
        change = f'<span class="nt-move nt-move-{_direction(move)}">{esc(move.change_text())}</span>'
        new_score = "waiting to be rescored" if move.waiting else number(move.new_score)
        values = [name, _rank(move.old_rank), _rank(move.new_rank), change, number(move.old_score), new_score]
        row = "".join(f"<td{_num(n)}>{v}</td>" for v, n in zip(values, numeric))
        body.append(f'<tr data-id="{esc(move.submission_id)}">{row}</tr>')
    return (
        f'<div class="nt-table-wrap" role="region" tabindex="0" aria-label="Rank moves from {esc(old)} to {esc(new)}">'
        f'<table class="nt-table nt-moves" id="{esc(ident)}"><thead><tr>{cells}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table></div>"
    )


def changelog_body(
    history: Sequence[Edition], moved: Mapping[str, Sequence[Move]], rows: Sequence[Row], results_repo: str | None
) -> str:
    """Each release, newest first; ``moved[name]``: the moves from the release before to ``name``'s board
    (the live ``rows`` for the current release)."""
    current = history[-1]
    parts = []
    for at in range(len(history) - 1, -1, -1):
        edition = history[at]
        before = history[at - 1] if at else None
        parts.append(
            _release_html(edition, before, edition is current, moved.get(edition.name, ()), rows, results_repo)
        )
    intro = (
        "<h1>Changelog</h1><p>Every figure on the board belongs to a <strong>release</strong>: the answer key's "
        "revision, the scorer version, the baseline B (the straight-forward mean raw score that anchors 0) and the "
        "score release policy. When the maintainers change one of them they open a new release: every entry is "
        "scored again under it, and the old release's board stays readable as it was, at its own address (cite "
        "it as <code>/?release=v1</code>) and as a tag of the results dataset.</p>"
    )
    return f'<div id="changelog-page">{intro}{"".join(parts)}</div>'


def _release_html(
    edition: Edition,
    before: Edition | None,
    current: bool,
    found: Sequence[Move],
    rows: Sequence[Row],
    results_repo: str | None,
) -> str:
    state = "current" if current else f"frozen {_time(edition.frozen_at)}" if edition.frozen_at else "frozen"
    facts = [
        ("Answer key (test split revision)", edition.dataset_revision or "as each entry records it"),
        ("Scorer version", edition.scorer_version or "as each entry records it"),
        ("Baseline B", f"{edition.baseline_raw:g}"),
        ("Score release policy", edition.policy),
    ]
    listed = "".join(f"<dt>{esc(k)}</dt><dd><code>{esc(v)}</code></dd>" for k, v in facts)
    address = f"/?release={edition.name}"
    ways = [f'<a href="{esc(address)}">Its board</a> (<code>{esc(address)}</code>)']
    if not current and results_repo:
        snippet = f'datasets.load_dataset("{results_repo}", revision="{edition.name}")'
        ways.append(f"its frozen dataset: <code>{esc(snippet)}</code>")
    moves = ""
    if before is not None:
        progress = ""
        if current:
            done, total = waiting(rows, edition)
            progress = f" ({done} of {total} entries rescored so far)" if done < total else ""
        moves = (
            f"<h3>How ranks moved from {esc(before.name)} to {esc(edition.name)}{progress}</h3>"
            f"{moves_table(found, before.name, edition.name, f'moves-{edition.name}')}"
        )
    return (
        f'<section class="nt-release" id="release-{esc(edition.name)}" aria-labelledby="release-{esc(edition.name)}-h">'
        f'<h2 id="release-{esc(edition.name)}-h">Release {esc(edition.name)} '
        f'<span class="nt-small">{_opened(edition)} · {state}</span></h2>'
        f'<p class="nt-release-note">{esc(edition.note)}</p><dl class="nt-release-facts">{listed}</dl>'
        f'<p class="nt-small">{" · ".join(ways)}</p>{moves}</section>'
    )


def entry_release(row: Row, history: Sequence[Edition]) -> str:
    """The entry page's line: the release of its figures (and that it waits to be rescored when it is an old one)."""
    name = release_name(row)
    edition = next((e for e in history if e.name == name), None)
    label = edition.label() if edition else f"Release {name}"
    current = history[-1] if history else None
    waiting_note = (
        f" · waiting to be rescored under {esc(current.name)}"
        if current is not None and current.name != name and row.get("kind") == "submission"
        else ""
    )
    return _entry_line(f"{esc(label)}{waiting_note}", name)


def frozen_entry_release(row: Row, edition: Edition) -> str:
    """The line of an entry as closed release ``edition`` showed it: frozen, and the way to its current figures."""
    ident = quote(str(row.get("submission_id") or ""), safe="")
    closed = (
        f"{esc(edition.label())}, closed: the figures as they stood then (the groups without intervals) · "
        f'<a href="/entry/{esc(ident)}">Current figures</a>'
    )
    return _entry_line(closed, edition.name)


def _entry_line(html: str, name: str) -> str:
    """The line under an entry's title: ``html`` (escaped already), then the way to its release in the changelog."""
    return (
        f'<p class="nt-small nt-release-line" id="entry-release">{html} · '
        f'<a href="{CHANGELOG}#release-{esc(name)}">Changelog</a></p>'
    )


def _rank(value: int | None) -> str:
    return "—" if value is None else str(value)


def _num(numeric: bool) -> str:
    return ' class="nt-num"' if numeric else ""


def _direction(move: Move) -> str:
    change = move.change
    return "same" if not change else "up" if change > 0 else "down"
