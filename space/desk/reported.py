"""What the maintainers' desk says about reported rows (figures published elsewhere), and reads from its boxes
(no gradio here; ``space/desk/reported_section.py`` places the form)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def choices(table: Sequence[Mapping[str, object]]) -> list[tuple[str, str]]:
    """The reported rows of the public table as ``(label, id)`` for the remove picker."""
    return [(row_label(r), str(r["submission_id"])) for r in table if r.get("kind") == "reported"]


def figure(text: object) -> str | None:
    """What a figure box holds: ``None`` when it is empty (unknown), else the text for the service to check.

    >>> figure(""), figure("  "), figure(None), figure(" 0.93 ")
    (None, None, None, '0.93')
    """
    stripped = str(text or "").strip()
    return stripped or None


def row_label(row: Mapping[str, object]) -> str:
    """``Paper-VLM (test, 41.5)``: how the picker and the confirmation name a reported row."""
    return f"{row.get('model')} ({row.get('split')}, {row.get('score')})"
