"""Hypothesis strategies for hostile input: prediction cells, notebook-style TSV files, and their mutations.

Also the oracle for prediction cells: docs/METRIC.md's validity rule written plainly, listing every
defect a cell has (the parser reports one of them).
"""

from __future__ import annotations

import csv
import io
import json
import math
from dataclasses import dataclass

from hypothesis import strategies as st

from scoring.prediction import MAX_ABS_COORDINATE, MAX_POINTS, MIN_POINTS, Reason

# -- prediction cells ---------------------------------------------------------------------------

EDGE_NUMBERS = [0, -0.0, 1, 0.5, 100_000, -100_000, 100_000.0, 100_000.000001, -100_001, 1e308, 5e-324, 10**30]
NUMBERS = st.one_of(
    st.integers(-150_000, 150_000),
    st.floats(allow_nan=True, allow_infinity=True),
    st.floats(-2000, 2000),
    st.sampled_from(EDGE_NUMBERS),
)
SCALARS = st.one_of(st.none(), st.booleans(), NUMBERS, st.text(max_size=4))
JSON_VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=10,
)
GOOD_POINT = st.tuples(st.floats(-2000, 2000) | st.integers(-2000, 2000), st.integers(-2000, 2000)).map(list)
POINT = st.one_of(GOOD_POINT, GOOD_POINT, st.tuples(NUMBERS, NUMBERS).map(list), JSON_VALUES)
POINT_LISTS = st.one_of(
    st.lists(GOOD_POINT, min_size=0, max_size=8),
    st.lists(POINT, max_size=6),
    # Around the 2000-point limit: one point repeated (Hypothesis would take long to draw 2000).
    st.builds(lambda p, n: [p] * n, GOOD_POINT, st.sampled_from([MAX_POINTS - 1, MAX_POINTS, MAX_POINTS + 1])),
)


@st.composite
def dumped(draw: st.DrawFn, values: st.SearchStrategy) -> str:
    """A JSON text of a drawn value, in one of the layouts models and notebooks produce."""
    value = draw(values)
    indent = draw(st.sampled_from([None, None, 0, 2]))
    separators = draw(st.sampled_from([None, (",", ":"), (", ", ": ")]))
    text = json.dumps(value, allow_nan=True, indent=indent, separators=separators)
    pad = draw(st.sampled_from(["", " ", "\n", "\t", "\r\n", "\x0c", "\u00a0"]))
    return pad + text + pad


@st.composite
def mutated(draw: st.DrawFn, texts: st.SearchStrategy) -> str:
    """A text with a few characters inserted, deleted or replaced: near-valid JSON, the hard case."""
    text = draw(texts)
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(text)))
        junk = draw(st.text(alphabet="[],.-+eE0123456789 \"'nN{}:\x00\t", max_size=3))
        cut = draw(st.integers(0, 3))
        text = text[:at] + junk + text[at + cut :]
    return text


PREDICTION_CELLS = st.one_of(
    dumped(POINT_LISTS),
    dumped(POINT_LISTS),
    dumped(JSON_VALUES),
    mutated(dumped(POINT_LISTS)),
    st.text(max_size=40),
    st.sampled_from(["", "[]", "[[", "[[1, 2], [3, 4]", "I cannot see a path.", "```json\n[[1, 2], [3, 4]]\n```"]),
)


def is_number(value: object) -> bool:
    return type(value) in (int, float)  # bool is a subclass of int, and not a number here


def defects(cell: str) -> set[str]:
    """Every reason why ``cell`` is not a valid prediction (docs/METRIC.md); empty when it is valid."""
    try:
        value = json.loads(cell)
    except (ValueError, RecursionError):
        return {Reason.NOT_JSON}
    if not isinstance(value, list):
        return {Reason.NOT_POINT_LIST}
    found = set()
    if len(value) > MAX_POINTS:
        found.add(Reason.TOO_MANY)
    if len(value) < MIN_POINTS:
        found.add(Reason.TOO_FEW)
    for point in value:
        if not (isinstance(point, list) and len(point) == 2):
            found.add(Reason.NOT_POINT_LIST)
            continue
        for coordinate in point:
            if not is_number(coordinate):
                found.add(Reason.NOT_NUMBER)
            elif isinstance(coordinate, float) and not math.isfinite(coordinate):
                found.add(Reason.NON_FINITE)
            elif abs(coordinate) > MAX_ABS_COORDINATE:
                found.add(Reason.OUT_OF_RANGE)
    return found


# -- submission files ---------------------------------------------------------------------------

FREE_TEXT = st.text(
    alphabet=st.one_of(
        st.sampled_from(["\t", "\n", "\r", '"', "'", ",", ";", "\x00", "\u2028", "\x85", "\ufeff", "=", " "]),
        st.characters(codec="utf-8"),
    ),
    max_size=30,
)
EXTRA_COLUMNS = ["category", "raw_response", "reasoning", "model", "Unnamed: 0"]


@dataclass(frozen=True)
class WrittenFile:
    """A file as the notebook's pandas writes it, and what the reader must give back."""

    data: bytes
    rows: list[tuple[int, str, str, str]]  # (line, sample_id, embodiment, prediction) in file order


@st.composite
def notebook_files(draw: st.DrawFn, expected: list[tuple[str, str]]) -> WrittenFile:
    """Some expected rows in any order, any extra free-text columns in any order, written by ``csv`` as pandas does."""
    keys = draw(st.lists(st.sampled_from(expected), min_size=1, max_size=len(expected), unique=True))
    extras = draw(st.lists(st.sampled_from(EXTRA_COLUMNS), unique=True, max_size=3))
    columns = draw(st.permutations(["sample_id", "embodiment", "prediction", *extras]))
    terminator = draw(st.sampled_from(["\n", "\r\n"]))
    out = io.StringIO(newline="")
    writer = csv.writer(out, delimiter="\t", lineterminator=terminator)  # pandas' to_csv dialect
    writer.writerow(columns)
    rows = []
    for sample_id, embodiment in keys:
        prediction = draw(PREDICTION_CELLS)
        cells = {"sample_id": sample_id, "embodiment": embodiment, "prediction": prediction}
        line = out.getvalue().count("\n") + 1
        writer.writerow([cells[c] if c in cells else draw(FREE_TEXT) for c in columns])
        if unquoted_last_cell_ending_in_cr(prediction, columns[-1] == "prediction", terminator):
            prediction = prediction[:-1]
        rows.append((line, sample_id, embodiment, prediction))
    return WrittenFile(out.getvalue().encode("utf-8"), rows)


def unquoted_last_cell_ending_in_cr(cell: str, last: bool, terminator: str) -> bool:
    """Whether csv reads ``cell`` back without its final CR: written unquoted (csv quotes a cell holding a tab,
    a quote or a LF, and a CR only when the line terminator has one) at the end of a LF-terminated row,
    its CR and the LF read as one CR LF line end, by any csv reader."""
    return last and terminator == "\n" and cell.endswith("\r") and not any(c in cell for c in '\t"\n')


@st.composite
def hostile_bytes(draw: st.DrawFn, base: bytes) -> bytes:
    """``base`` damaged a few times over: bytes inserted, cut, lines duplicated or swapped, re-encoded."""
    data = base
    for _ in range(draw(st.integers(1, 4))):
        data = draw(st.sampled_from(MUTATIONS))(draw, data)
    return data


def _insert(draw: st.DrawFn, data: bytes) -> bytes:
    at = draw(st.integers(0, len(data)))
    junk = draw(st.one_of(st.binary(max_size=4), st.sampled_from([b"\t", b"\n", b"\r", b'"', b"\x00", b"\xff"])))
    return data[:at] + junk + data[at:]


def _cut(draw: st.DrawFn, data: bytes) -> bytes:
    at = draw(st.integers(0, len(data)))
    return data[:at] + data[at + draw(st.integers(1, 40)) :]


def _line_shuffle(draw: st.DrawFn, data: bytes) -> bytes:
    lines = data.split(b"\n")
    i, j = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
    if draw(st.booleans()):
        lines.insert(j, lines[i])  # a duplicated line
    else:
        lines[i], lines[j] = lines[j], lines[i]
    return b"\n".join(lines)


def _replace(draw: st.DrawFn, data: bytes) -> bytes:
    old, new = draw(st.sampled_from([(b"\t", b","), (b"\t", b"    "), (b"\n", b"\r"), (b'"', b""), (b"[", b"(")]))
    return data.replace(old, new, draw(st.integers(1, 5)))


def _reencode(draw: st.DrawFn, data: bytes) -> bytes:
    how = draw(st.sampled_from(["utf-16", "utf-16-le", "latin-1", "bom", "truncate"]))
    if how == "bom":
        return b"\xef\xbb\xbf" + data
    if how == "truncate":
        return data[: draw(st.integers(0, len(data)))]
    return data.decode("utf-8", "replace").encode(how, "replace")


MUTATIONS = [_insert, _insert, _cut, _line_shuffle, _replace, _reencode]
