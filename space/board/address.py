"""The board's address both ways: the controls a query string asks for, and the query string of a view.

The parameter names are the board's (``space/board/controls.py`` reads them). A GET form
sends every field, empty ones and the column groups as repeated ``cols`` included; ``is_noisy`` says
so, and the route then redirects to ``address(...)``, the shortest address of the same view, so the
address bar always says what is shown and a copied link stays short.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from urllib.parse import urlencode

from space.board import controls as board_url
from space.board.controls import GROUP_CODES, Controls
from space.board.view import BoardView

DEFAULT = Controls()
CODE_OF = {label: code for code, label in GROUP_CODES.items()}
MAX_PARAMETERS = 40  # query parameters read (the form sends about 15)


def controls_of(pairs: Iterable[tuple[str, str]]) -> Controls:
    """The controls of a query string's ``(name, value)`` pairs; repeated ``cols`` are joined, any other
    repeated name keeps its last value (unknown names and values are ignored, as ``from_query`` does)."""
    values: dict[str, list[str]] = {}
    for i, (name, value) in enumerate(pairs):
        if i >= MAX_PARAMETERS:
            break
        values.setdefault(name, []).append(value)
    flat = {name: ",".join(found) if name == "cols" else found[-1] for name, found in values.items()}
    return board_url.from_query(flat)


def is_noisy(pairs: Iterable[tuple[str, str]]) -> bool:
    """Whether a query string is a form's (a name twice, or an empty value other than ``cols=``), which the
    board redirects to its short address. ``address`` never makes one, so the redirect cannot loop."""
    seen: set[str] = set()
    for name, value in pairs:
        if name in seen or (not value and name != "cols"):
            return True
        seen.add(name)
    return False


def view_of(controls: Controls) -> BoardView:
    return board_url.view_of(*dataclasses.astuple(controls))


def sort_parts(controls: Controls) -> tuple[str, str]:
    """``("emb:Human", "asc")`` of the controls' sort; the direction is "" for the column's natural order."""
    key, _, direction = controls.sort.rpartition(":")
    return (key, direction) if direction in ("asc", "desc") else (controls.sort, "")


def query(controls: Controls) -> list[tuple[str, str]]:
    """The parameters that differ from the default board, in a fixed order."""
    key, direction = sort_parts(controls)
    # "cols=" (no group) is the one empty value an address may hold: None marks a value left out.
    cols = None if controls.groups == DEFAULT.groups else ",".join(CODE_OF[g] for g in controls.groups)
    pairs: list[tuple[str, str | None]] = [
        ("split", controls.split if controls.split != DEFAULT.split else ""),
        ("q", controls.query.strip()),
        ("sort", key if key != "score" else ""),
        ("dir", direction),
        ("cols", cols),
        ("by", controls.breakdown),
        ("all", "" if controls.best_only else "1"),
        ("open", "1" if controls.open_weights else ""),
        ("pmin", _billions(controls.params_min)),
        ("pmax", _billions(controls.params_max)),
        ("org", controls.organization.strip()),
        ("flagged", "" if controls.hide_flagged else "1"),
        ("hub", "1" if controls.show_hub else ""),
        ("notrained", "1" if controls.not_trained else ""),
        ("single", "1" if controls.single_run else ""),
        ("release", controls.release),
        ("since", controls.since),
    ]
    return [(name, value) for name, value in pairs if value is not None and (value or name == "cols")]


def address(controls: Controls, path: str = "/", **changes: object) -> str:
    """The address of the view ``controls`` with ``changes`` (fields of ``Controls``) applied.

    >>> address(Controls(), split="validation"), address(Controls(query="qwen 7B"), sort="date:asc")
    ('/?split=validation', '/?q=qwen+7B&sort=date&dir=asc')
    """
    wanted = dataclasses.replace(controls, **changes) if changes else controls  # type: ignore[arg-type]
    pairs = query(wanted)
    return f"{path}?{urlencode(pairs)}" if pairs else path


def sorted_by(controls: Controls, key: str, descending_now: bool, current: str) -> str:
    """The sort a header link asks for: the same column again reverses it, another starts in its natural order."""
    if key == current:
        return f"{key}:{'asc' if descending_now else 'desc'}"
    return key


def _billions(value: float | None) -> str:
    return "" if value is None else f"{value:g}"
