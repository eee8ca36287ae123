"""The errors scoring raises, and how their messages quote what was submitted.

Defined here, below every other scoring module, so that any of them can raise them without
importing another (``answer_key_build`` raised ``AnswerKeyError`` through a deferred import of
``answer_key``, which imports it back). The old homes re-export them.
"""

from __future__ import annotations

MAX_SHOWN_CHARS = 40  # a submitted value quoted in a message is cut here: a refusal stays one short line


class AnswerKeyError(Exception):
    """The dataset cannot be used as an answer key (not found, wrong schema, no ground truth)."""


class SubmissionError(Exception):
    """The file as a whole cannot be scored. ``str(error)`` says what, where and what was expected."""

    def __init__(
        self,
        problem: str,
        *,
        line: int | None = None,
        sample_id: str | None = None,
        embodiment: str | None = None,
        column: str | None = None,
    ) -> None:
        self.problem, self.line, self.sample_id, self.embodiment, self.column = (
            problem,
            line,
            sample_id,
            embodiment,
            column,
        )
        self.where = describe_location(line, sample_id, embodiment, column)
        super().__init__(f"{self.where}: {problem}" if self.where else problem)


def describe_location(
    line: int | None, sample_id: str | None = None, embodiment: str | None = None, column: str | None = None
) -> str:
    """``line 14 (sample_id "test_0042", embodiment "Bicycle"), column "prediction"``."""
    parts = [f"line {line}"] if line is not None else []
    keys = [f"{name} {shown(value)}" for name, value in (("sample_id", sample_id), ("embodiment", embodiment)) if value]
    if keys:
        parts.append(f"({', '.join(keys)})")
    text = " ".join(parts)
    if column:
        text = f"{text}, column {shown(column)}" if text else f"column {shown(column)}"
    return text


def shown(value: str) -> str:
    """A submitted value as a message quotes it: in double quotes, invisible characters escaped, cut short.

    Cells can hold newlines, NULs, zero-width spaces or megabytes; a message must stay one readable line.

    >>> shown("val_0001"), shown("a\\tb\\u200b"), shown("x" * 50)
    ('"val_0001"', '"a\\\\tb\\\\u200b"', '"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…" (50 characters)')
    """
    pieces: list[str] = []
    used = 0
    for character in value:
        piece = character if character.isprintable() else repr(character)[1:-1]
        if used + len(piece) > MAX_SHOWN_CHARS:
            return f'"{"".join(pieces)}…" ({len(value)} characters)'
        pieces.append(piece)
        used += len(piece)
    return f'"{"".join(pieces)}"'
