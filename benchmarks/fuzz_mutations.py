"""Seeded generators of hostile input for ``fuzz_input.py``: damaged files, fresh notebook files, prediction cells.

The same ideas as the Hypothesis strategies of ``tests/hardening/input``, drawn from one
``random.Random`` so a campaign of 100,000 inputs is fast and repeatable by its seed.
"""

from __future__ import annotations

import collections
import csv
import io
import json
import random
from collections.abc import Callable

from scoring import AnswerKey
from scoring.examples import NOTEBOOK_COLUMNS, example_rows
from tests.hardening.input.input_strategies import unquoted_last_cell_ending_in_cr

EDGE_NUMBERS = [0, -0.0, 0.5, 1, 100_000, -100_000, 100_000.000001, -100_001, 1e308, 5e-324, 10**30, 10**4000]
SPECIAL_TEXT = ["\t", "\n", "\r", "\r\n", '"', "'", ",", ";", "\x00", "\u2028", "\x85", "\ufeff", "\u200b", "=", " "]
PROSE = ["I cannot see a path.", "N/A", "", "[]", "None", "Go straight, then left.", "```json\n[[1, 2]]\n```"]
EXTRA_COLUMNS = ["category", "raw_response", "reasoning", "model", ""]
Row = tuple[int, str, str, str]


def cell_maker(rng: random.Random) -> Callable[[], str]:
    """A function drawing one prediction cell: mostly near-valid JSON, the hard part of the input space."""

    def number() -> object:
        pick = rng.random()
        if pick < 0.6:
            return rng.randint(-50, 2000) if rng.random() < 0.5 else round(rng.uniform(-50, 2000), rng.randint(0, 6))
        if pick < 0.8:
            return rng.choice(EDGE_NUMBERS)
        return rng.choice([float("nan"), float("inf"), float("-inf"), True, False, None, "12", [1], {"x": 1}])

    def point() -> object:
        if rng.random() < 0.9:
            return [number(), number()] if rng.random() < 0.3 else [rng.randint(0, 1440), rng.randint(0, 1080)]
        return rng.choice([[1], [1, 2, 3], [], [[1, 2]], "1,2", None, {"x": 1, "y": 2}])

    def points() -> list:
        count = rng.choice([0, 1, 2, 3, 5, 8, 20, 1999, 2000, 2001]) if rng.random() < 0.2 else rng.randint(2, 12)
        if count > 100:
            first = [rng.randint(0, 1440), rng.randint(0, 1080)]
            return [first] * count
        return [point() for _ in range(count)]

    def dumped(value: object) -> str:
        text = json.dumps(value, allow_nan=True, indent=rng.choice([None, None, 0, 2]))
        return rng.choice(["", " ", "\n", "\t", "\r\n"]) + text + rng.choice(["", " ", "\n"])

    def mutated(text: str) -> str:
        for _ in range(rng.randint(1, 3)):
            at = rng.randint(0, len(text))
            junk = "".join(rng.choice('[],.-+eE0123456789 "nN{}:\x00\t') for _ in range(rng.randint(0, 3)))
            text = text[:at] + junk + text[at + rng.randint(0, 3) :]
        return text

    def make() -> str:
        pick = rng.random()
        if pick < 0.45:
            return dumped(points())
        if pick < 0.75:
            return mutated(dumped(points()))
        if pick < 0.85:
            return dumped(rng.choice([{"points": points()}, points()[:1], "path", 42, None, [points()]]))
        if pick < 0.95:
            return rng.choice(PROSE)
        return "".join(rng.choice(SPECIAL_TEXT + ["a", "[", "]", "1", ","]) for _ in range(rng.randint(0, 30)))

    return make


class FileMaker:
    """Draws files: the notebook example damaged, fresh notebook files (to read back exactly), random bytes."""

    def __init__(self, key: AnswerKey, rng: random.Random) -> None:
        self.rng = rng
        self.cell = cell_maker(rng)
        self.expected = [(sample.sample_id, embodiment) for sample, embodiment in key.expected_rows()]
        self.bases = [_notebook_bytes(example_rows(key, kind)) for kind in ("straight", "noisy")]
        self.kinds: collections.Counter[str] = collections.Counter()
        self.damages = [
            self._insert,
            self._insert,
            self._cut,
            self._lines,
            self._replace,
            self._reencode,
            self._hostile_cell,
            self._hostile_key,
        ]

    def next(self) -> tuple[str, bytes, list[Row] | None]:
        """``(kind, bytes, rows it must read back as or None)``."""
        pick = self.rng.random()
        if pick < 0.6:
            kind, data, rows = "damaged example", self._damaged(), None
        elif pick < 0.9:
            kind = "fresh notebook file"
            data, rows = self._notebook()
        else:
            kind, data, rows = "random bytes", self.rng.randbytes(self.rng.randint(0, 3000)), None
        self.kinds[kind] += 1
        return kind, data, rows

    def _damaged(self) -> bytes:
        data = self.rng.choice(self.bases)
        for _ in range(self.rng.randint(1, 4)):
            data = self.rng.choice(self.damages)(data)
        return data

    def _notebook(self) -> tuple[bytes, list[Row]]:
        keys = self.rng.sample(self.expected, self.rng.randint(1, len(self.expected)))
        columns = ["sample_id", "embodiment", "prediction", *self.rng.sample(EXTRA_COLUMNS, self.rng.randint(0, 3))]
        self.rng.shuffle(columns)
        terminator = self.rng.choice(["\n", "\r\n"])
        out = io.StringIO(newline="")
        writer = csv.writer(out, delimiter="\t", lineterminator=terminator)  # pandas' to_csv dialect
        writer.writerow(columns)
        rows = []
        for sample_id, embodiment in keys:
            cells = {"sample_id": sample_id, "embodiment": embodiment, "prediction": self.cell()}
            line = out.getvalue().count("\n") + 1
            writer.writerow([cells.get(c) if c in cells else self._free_text() for c in columns])
            prediction = cells["prediction"]
            if unquoted_last_cell_ending_in_cr(prediction, columns[-1] == "prediction", terminator):
                prediction = prediction[:-1]
            rows.append((line, sample_id, embodiment, prediction))
        return out.getvalue().encode("utf-8"), rows

    def _free_text(self) -> str:
        return "".join(
            self.rng.choice(SPECIAL_TEXT) if self.rng.random() < 0.3 else chr(self.rng.randint(0x20, 0x2FFF))
            for _ in range(self.rng.randint(0, 40))
        ).replace("\ud800", "")

    # -- damages --------------------------------------------------------------------------------

    def _insert(self, data: bytes) -> bytes:
        at = self.rng.randint(0, len(data))
        junk = self.rng.choice([b"\t", b"\n", b"\r", b'"', b"\x00", b"\xff", b"\xc3", self.rng.randbytes(3)])
        return data[:at] + junk + data[at:]

    def _cut(self, data: bytes) -> bytes:
        at = self.rng.randint(0, len(data))
        return data[:at] + data[at + self.rng.randint(1, 60) :]

    def _lines(self, data: bytes) -> bytes:
        lines = data.split(b"\n")
        i, j = self.rng.randrange(len(lines)), self.rng.randrange(len(lines))
        if self.rng.random() < 0.5:
            lines.insert(j, lines[i])
        else:
            lines[i], lines[j] = lines[j], lines[i]
        return b"\n".join(lines)

    def _replace(self, data: bytes) -> bytes:
        old, new = self.rng.choice([(b"\t", b","), (b"\t", b"    "), (b"\n", b"\r\n"), (b"\n", b"\r"), (b'"', b"")])
        return data.replace(old, new, self.rng.randint(1, 6))

    def _reencode(self, data: bytes) -> bytes:
        how = self.rng.choice(["utf-16", "utf-16-le", "utf-32", "latin-1", "bom", "truncate"])
        if how == "bom":
            return b"\xef\xbb\xbf" + data
        if how == "truncate":
            return data[: self.rng.randint(0, len(data))]
        return data.decode("utf-8", "replace").encode(how, "replace")

    def _hostile_cell(self, data: bytes) -> bytes:
        """One prediction replaced by a drawn cell, as a program would write it (quoted when needed)."""
        text = data.decode("utf-8", "replace")
        first = text.find("[[")
        if first < 0:
            return data
        end = text.find("]]", first)
        cell = self.cell()
        if any(c in cell for c in '\t\n\r"'):
            cell = '"' + cell.replace('"', '""') + '"'
        return (text[:first] + cell + text[end + 2 :]).encode("utf-8", "surrogatepass")

    def _hostile_key(self, data: bytes) -> bytes:
        old = self.rng.choice([b"val_0000", b"val_0003", b"Human", b"Bicycle", b"sample_id", b"prediction"])
        new = self.rng.choice(
            [b"val_9999", b"test_0000", b"human", b"val_0000\xe2\x80\x8b", b"", b"=HYPERLINK(1)", b"x" * 500]
        )
        return data.replace(old, new, self.rng.randint(1, 3))


def _notebook_bytes(rows: list[dict[str, str]]) -> bytes:
    import pandas as pd

    return pd.DataFrame(rows, columns=list(NOTEBOOK_COLUMNS)).to_csv(sep="\t", index=False).encode("utf-8")
