"""The board's state in the page address, so a link reproduces the view.

``?split=validation&q=qwen&sort=emb:Human&dir=asc&cols=emb,cat&by=weather_conditions&all=1&open=1&pmin=1&pmax=10&org=ETH``
and ``&flagged=1`` (show flagged entries), ``&hub=1`` (show Hub-reported results),
``&notrained=1`` (only entries declaring no training on NaviTrace), ``&single=1`` (only single runs), and
``&release=v1`` (that release's board, frozen once the next one opened), ``&since=v1`` (beside the
board, how figures and ranks moved since that release's).
Every parameter is optional (a default is left out of the address); a value the board does not know
is ignored, so an old or hand-edited link still opens the board. The page's script writes the
address (``BOARD_SCRIPT`` in ``script.py``); this module reads it on the server.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from leaderboard.publishing import is_name
from space.board.columns import GROUP_CATEGORY, GROUP_DETAILS, GROUP_EMBODIMENT, METADATA_LABELS, sort_key
from space.board.view import LEGACY_SORTS, MAX_ORGANISATION, MAX_QUERY, BoardView, Filters

SPLITS = ("test", "validation")
GROUP_CODES = {"emb": GROUP_EMBODIMENT, "cat": GROUP_CATEGORY, "details": GROUP_DETAILS}
MAX_VALUE = 300  # characters of one parameter read
MAX_PARAMETERS_B = 1e6
YES = ("1", "true", "yes")


@dataclass(frozen=True)
class Controls:
    """The values of the board's controls, in the order the tab lists its inputs."""

    split: str = "test"
    query: str = ""
    sort: str = "score"  # "key" or "key:asc" / "key:desc"
    groups: tuple[str, ...] = (GROUP_EMBODIMENT,)
    breakdown: str = ""
    best_only: bool = True
    open_weights: bool = False
    params_min: float | None = None
    params_max: float | None = None
    organization: str = ""
    hide_flagged: bool = True
    show_hub: bool = False
    not_trained: bool = False
    single_run: bool = False
    # The release whose board is shown ("": the current one, unnamed) and one to compare it with.
    release: str = ""
    since: str = ""


def from_query(params: Mapping[str, str]) -> Controls:
    """The controls a link asks for; unknown or malformed values fall back to the defaults."""

    def get(name: str) -> str:
        return str(params.get(name) or "")[:MAX_VALUE].strip()

    split = get("split") if get("split") in SPLITS else "test"
    key, _ = sort_state(get("sort"))
    direction = get("dir")
    sort = f"{key}:{direction}" if direction in ("asc", "desc") else key
    codes = [c for c in get("cols").split(",") if c in GROUP_CODES] if "cols" in params else ["emb"]
    breakdown = get("by") if get("by") in METADATA_LABELS else ""
    return Controls(
        split=split,
        query=get("q")[:MAX_QUERY],
        sort=sort,
        groups=tuple(GROUP_CODES[c] for c in dict.fromkeys(codes)),
        breakdown=breakdown,
        best_only=get("all") not in ("1", "true", "yes"),
        open_weights=get("open") in ("1", "true", "yes"),
        params_min=_billions(get("pmin")),
        params_max=_billions(get("pmax")),
        organization=get("org")[:MAX_ORGANISATION],
        hide_flagged=get("flagged") not in YES,
        show_hub=get("hub") in YES,
        not_trained=get("notrained") in YES,
        single_run=get("single") in YES,
        release=get("release") if is_name(get("release")) else "",
        since=get("since") if is_name(get("since")) else "",
    )


def sort_state(text: str | None) -> tuple[str, bool | None]:
    """``"emb:Human:asc"`` or ``"date"`` -> (column key, descending or None for the natural order).

    >>> sort_state("emb:Human:asc"), sort_state("date"), sort_state("nonsense:desc")
    (('emb:Human', False), ('date', None), ('score', None))
    """
    text = (text or "").strip()[:MAX_VALUE]
    key, _, direction = text.rpartition(":")
    if direction not in ("asc", "desc"):
        key, direction = text, ""
    key = LEGACY_SORTS.get(key, key)
    if not _known_sort(key):
        return "score", None
    return key, {"asc": False, "desc": True}.get(direction)


def view_of(
    split: str,
    query: str,
    sort: str,
    groups: list[str] | tuple[str, ...],
    breakdown: str,
    best_only: bool = True,
    open_weights: bool = False,
    params_min: float | None = None,
    params_max: float | None = None,
    organization: str = "",
    hide_flagged: bool = True,
    show_hub: bool = False,
    not_trained: bool = False,
    single_run: bool = False,
    release: str = "",
    since: str = "",
) -> BoardView:
    """The view the controls describe (what the table handler receives from the page). ``release`` and ``since``
    choose the rows the view is of (``space/releases/views.py``), not the view: taken and left alone."""
    key, descending = sort_state(sort)
    return BoardView(
        split=split if split in SPLITS else "test",
        query=str(query or "")[:MAX_QUERY],
        sort=key,
        groups=frozenset(g for g in groups or () if g in GROUP_CODES.values()),
        breakdown=breakdown if breakdown in METADATA_LABELS else None,
        descending=descending,
        best_only=bool(best_only),
        filters=Filters(
            bool(open_weights),
            _number(params_min),
            _number(params_max),
            str(organization or ""),
            not_trained=bool(not_trained),
            single_run=bool(single_run),
        ),
        hide_flagged=hide_flagged is not False,  # only an explicit "show them" shows flagged entries
        show_hub=bool(show_hub),
    )


def _known_sort(key: str) -> bool:
    try:
        sort_key(key)
    except ValueError:
        return False
    return True


def _billions(text: str) -> float | None:
    try:
        return _number(float(text)) if text else None
    except ValueError:
        return None


def _number(value: object) -> float | None:
    if not isinstance(value, int | float) or isinstance(value, bool) or not math.isfinite(value):
        return None
    return min(max(float(value), 0.0), MAX_PARAMETERS_B)
