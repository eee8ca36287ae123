"""Parsing one ``prediction`` cell into a trace, or a short reason it is invalid.

docs/METRIC.md: a prediction is a JSON list of ``[x, y]`` pairs of numbers (booleans are not
numbers) with 2 to 2000 points, every coordinate finite and within +-100000 pixels.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass

import numpy as np

from scoring.geometry import Trace

MIN_POINTS = 2
MAX_POINTS = 2000
MAX_ABS_COORDINATE = 100_000.0
# Decoding JSON costs up to ~25 bytes of Python objects per input byte ("[]," is a 56-byte list):
# a 57 MB cell of points took 1.4 GB and 7 s. A cell over this size is first checked to have no
# more brackets and commas than 2000 [x, y] points need; one with more is invalid undecoded.
LARGE_CELL_CHARS = 1_000_000
JSON_WHITESPACE = " \t\n\r"


class Reason:
    """The short reasons an invalid row carries (the rows TSV ``reason`` column)."""

    NOT_JSON = "not JSON"
    NOT_POINT_LIST = "not a list of [x, y] points"
    NOT_NUMBER = "coordinate not a number"
    TOO_FEW = "fewer than 2 points"
    TOO_MANY = "more than 2000 points"
    NON_FINITE = "non-finite coordinate"
    OUT_OF_RANGE = "coordinate beyond 100000"
    OFF_IMAGE = "no point of the trace in the image"
    NO_TRUTH = "no ground-truth trace"
    MISSING = "no row in the file"


@dataclass(frozen=True)
class ParsedPrediction:
    trace: Trace | None
    reason: str | None = None  # one of Reason, when trace is None
    detail: str | None = None  # a longer human explanation of the reason
    looks_normalised: bool = False  # every coordinate within [0, 1]: probably not pixels


def _invalid(reason: str, detail: str) -> ParsedPrediction:
    return ParsedPrediction(None, reason, detail)


def _is_number(value: object) -> bool:
    return type(value) is float or (type(value) is int)  # bool is a subclass of int: excluded


def parse_prediction(cell: str) -> ParsedPrediction:
    """Parse a ``prediction`` cell.

    >>> parse_prediction("[[720, 1026], [731, 880]]").trace.tolist()
    [[720.0, 1026.0], [731.0, 880.0]]
    >>> parse_prediction("[[1, 2]]").reason
    'fewer than 2 points'
    """
    if len(cell) > LARGE_CELL_CHARS:
        oversized = _oversized(cell)
        if oversized is not None:
            return oversized
    try:
        value = json.loads(cell)
    except (ValueError, RecursionError) as error:
        return _invalid(Reason.NOT_JSON, f"prediction is not valid JSON ({_short(error)})")
    if not isinstance(value, list):
        return _invalid(Reason.NOT_POINT_LIST, f"prediction is {_kind(value)}, expected a list of [x, y] points")
    if len(value) > MAX_POINTS:
        return _invalid(Reason.TOO_MANY, f"prediction has {len(value)} points, at most {MAX_POINTS} allowed")
    for index, point in enumerate(value):
        if not isinstance(point, list) or len(point) != 2:
            return _invalid(Reason.NOT_POINT_LIST, f"point {index + 1} is {_kind(point)}, expected an [x, y] pair")
        if not (_is_number(point[0]) and _is_number(point[1])):
            culprit = point[1] if _is_number(point[0]) else point[0]
            return _invalid(Reason.NOT_NUMBER, f"point {index + 1} holds {_kind(culprit)}, expected numbers")
    if len(value) < MIN_POINTS:
        return _invalid(
            Reason.TOO_FEW,
            f"prediction has {len(value)} point{'s' if len(value) != 1 else ''}, need at least {MIN_POINTS}",
        )
    for index, point in enumerate(value):
        for coordinate in point:
            if isinstance(coordinate, float) and not math.isfinite(coordinate):
                return _invalid(Reason.NON_FINITE, f"point {index + 1} holds {coordinate}, expected a finite number")
            if abs(coordinate) > MAX_ABS_COORDINATE:
                return _invalid(
                    Reason.OUT_OF_RANGE,
                    f"point {index + 1} holds {_number(coordinate)}, "
                    f"expected at most {MAX_ABS_COORDINATE:g} in absolute value",
                )
    trace = np.asarray(value, dtype=np.float64).reshape(-1, 2)
    normalised = bool(np.all((trace >= 0.0) & (trace <= 1.0)))
    return ParsedPrediction(trace, looks_normalised=normalised)


def _oversized(cell: str) -> ParsedPrediction | None:
    """The verdict on a large list or object cell that cannot hold 2000 points or fewer, without decoding it."""
    start = cell.lstrip(JSON_WHITESPACE)[:1]
    brackets, commas = cell.count("["), cell.count(",")
    if start not in ("[", "{") or (brackets <= MAX_POINTS + 1 and commas <= 2 * MAX_POINTS - 1):
        return None  # decoding builds at most ~6000 values (or fails at once): safe
    detail = (
        f"prediction is {len(cell):,} characters holding {brackets:,} '[' and {commas:,} ','; a list of at most "
        f"{MAX_POINTS} [x, y] points holds at most {MAX_POINTS + 1:,} and {2 * MAX_POINTS - 1:,} (not decoded)"
    )
    return _invalid(Reason.TOO_MANY if start == "[" else Reason.NOT_POINT_LIST, detail)


def _number(value: float) -> str:
    """A coordinate for a message: a 4000-digit integer is not spelled out."""
    text = str(value)
    return text if len(text) <= 24 else f"{text[:10]}… (a {len(text.lstrip('-'))}-digit number)"


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return f"a list of {len(value)}"
    return "a number"


def _short(error: BaseException) -> str:
    text = str(error) or type(error).__name__
    return text if len(text) <= 80 else text[:77] + "..."
