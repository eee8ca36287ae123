"""Releases of the board (the user-facing word; "edition" in the code, apart from the score *release policy*
of ``score_release.py``): what every figure depends on, named ``v1``, ``v2``, ...

A release names the answer key's dataset revision (of the test split), the scorer version, the baseline B
(``baseline_raw``, the straight-forward mean raw score that anchors 0) and the score release policy, with
when it was opened, by whom and why (``note``). A figure belongs to the release in force when it was
scored: the newest release whose rescore ``generation`` is at most the job's (``name_for``). Opening a
release (``edition_open.py``) freezes the old release's board and rescores every entry under the new one.

``control/releases.json`` in the requests store holds the list, oldest first (written by maintainers only,
with an audit entry, in the same commit as the rescore it starts). A store without the file (every store
made before releases existed) is in release ``v1``, implicitly: ``first_edition`` describes it from the
deployment's settings, and opening ``v2`` writes ``v1`` down. The results store carries a public copy of
the list (``releases/index.json``, without who opened each) and each closed release's frozen board
(``releases/{name}/leaderboard.jsonl``), also tagged ``{name}`` on the results dataset.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass
from datetime import date

from leaderboard.records import InvalidAction, dump, quoted
from leaderboard.storage import Storage

RELEASES_PATH = "control/releases.json"  # requests store: the list, with who opened each
INDEX_PATH = "releases/index.json"  # results store: the public list
FIRST = "v1"
NAME = re.compile(r"v[1-9][0-9]{0,5}")  # v1 ... v999999: a name is short and means its number
MAX_NAME = 7
MAX_NOTE = 2000  # characters of a release's note (what changed and why)
FIRST_NOTE = "The board as it stood before releases were recorded."


@dataclass(frozen=True)
class Edition:
    """One release of the board: what its figures depend on, and when and why it was opened."""

    name: str
    note: str
    generation: int  # the rescore generation its figures are scored in (0: never rescored)
    opened_at: str | None  # ``records.iso``; None for the implicit v1 of an old store
    by: str | None  # the maintainer who opened it (not published)
    dataset_revision: str | None  # the test split's answer-key revision; None: as each entry records it
    scorer_version: str | None
    baseline_raw: float
    policy: str  # the score release policy in force when it opened (``release.ReleasePolicy``)
    frozen_at: str | None = None  # when its board was frozen (the next release opened); None while current

    @property
    def number(self) -> int:
        return int(self.name[1:])

    @property
    def date(self) -> str | None:
        """``2026-11-28``: the day it opened (``None`` for an implicit v1)."""
        return self.opened_at[:10] if self.opened_at else None

    def label(self) -> str:
        """``Release v2 (2026-11-28)``, the words every page uses.

        >>> Edition("v2", "", 1, "2026-11-28T10:00:00.000000Z", None, None, "1.0.0", 3300.0, "exact").label()
        'Release v2 (2026-11-28)'
        """
        return f"Release {self.name}" + (f" ({self.date})" if self.date else "")

    def to_dict(self) -> dict[str, object]:
        return asdict(self)

    def public(self) -> dict[str, object]:
        """What the results dataset and the pages say of it: everything but who opened it."""
        return {k: v for k, v in asdict(self).items() if k != "by"}

    @classmethod
    def from_dict(cls, raw: dict) -> Edition:
        known = {k: raw.get(k) for k in cls.__dataclass_fields__}
        known["name"] = check_name(str(known["name"]))
        known["generation"] = int(known["generation"] or 0)
        known["baseline_raw"] = float(known["baseline_raw"])  # type: ignore[arg-type]
        known["note"] = str(known["note"] or "")
        return cls(**known)  # type: ignore[arg-type]


def is_name(text: object) -> bool:
    """Whether ``text`` is a release name: ``v`` and a number from 1, at most ``MAX_NAME`` characters.

    >>> is_name("v1"), is_name("v12"), is_name("v0"), is_name("V1"), is_name("v1.0"), is_name("v" + "9" * 7)
    (True, True, False, False, False, False)
    """
    return isinstance(text, str) and len(text) <= MAX_NAME and NAME.fullmatch(text) is not None


def check_name(text: str) -> str:
    if not is_name(text):
        raise InvalidAction(f"release {quoted(text[:40])}: expected v and a number, such as v2 (at most {MAX_NAME})")
    return text


def next_name(name: str) -> str:
    """>>> next_name("v9")
    'v10'"""
    return f"v{int(check_name(name)[1:]) + 1}"


def check_note(note: str | None) -> str:
    """A release's note: what changed and why, one to ``MAX_NOTE`` characters (every reader sees it)."""
    if len(note or "") > 4 * MAX_NOTE:  # before any work on it
        raise InvalidAction(f"the release note has {len(note or '')} characters: at most {MAX_NOTE}")
    text = " ".join((note or "").split())
    if not text:
        raise InvalidAction("a release needs a note: what changed and why (the changelog shows it to everyone)")
    if len(text) > MAX_NOTE:
        raise InvalidAction(f"the release note has {len(text)} characters: at most {MAX_NOTE}")
    return text


def stored(store: Storage) -> list[Edition]:
    """The releases written down, oldest first; empty for a store still in its implicit v1."""
    data = store.read(RELEASES_PATH)
    if not data:
        return []
    return [Edition.from_dict(raw) for raw in json.loads(data)["releases"]]


def stored_bytes(editions: list[Edition]) -> bytes:
    return dump({"releases": [e.to_dict() for e in editions]})


def index_bytes(editions: list[Edition]) -> bytes:
    """The results store's public list (``INDEX_PATH``)."""
    return dump({"releases": [e.public() for e in editions]})


def read_index(results: Storage) -> list[Edition]:
    """The public list of the results store (``by`` empty); empty when no release was ever opened."""
    data = results.read(INDEX_PATH)
    return [Edition.from_dict(raw) for raw in json.loads(data)["releases"]] if data else []


def first_edition(baseline_raw: float, policy: str) -> Edition:
    """The implicit v1 of a store made before releases: the deployment's B and policy; the revisions are the
    ones each entry records (``scorer_version``, ``dataset_revision`` of its row)."""
    return Edition(FIRST, FIRST_NOTE, 0, None, None, None, None, baseline_raw, policy)


def name_for(editions: list[Edition], generation: int) -> str:
    """The release of a figure scored in rescore ``generation``: the newest one opened at or before it.

    >>> second = Edition("v2", "x", 3, "2026-01-01T00:00:00.0Z", None, None, None, 1.0, "exact")
    >>> eds = [first_edition(1.0, "exact"), second]
    >>> name_for(eds, 0), name_for(eds, 2), name_for(eds, 3), name_for(eds, 4), name_for([], 7)
    ('v1', 'v1', 'v2', 'v2', 'v1')
    """
    found = FIRST
    for edition in editions:
        if edition.generation <= generation:
            found = edition.name
    return found


def release_of(row: dict[str, object] | object, editions: list[Edition]) -> Edition | None:
    """The release a public row's figures belong to (its ``release`` column; a table written before releases
    existed: v1), from ``editions`` (``Leaderboard.release_history()``); ``None`` when it is not among them.

    The helper for anything that names a figure's release, a citation included: ``edition.label()`` says
    ``Release v2 (2026-11-28)``, ``edition.date`` the day.
    """
    name = row.get("release") if isinstance(row, dict) else None
    wanted = name if is_name(name) else FIRST
    return next((e for e in editions if e.name == wanted), None)


def days_since(edition: Edition, today: date) -> int | None:
    """Whole days from the release's opening to ``today`` (``None`` for an implicit v1)."""
    return (today - date.fromisoformat(edition.date)).days if edition.date else None
