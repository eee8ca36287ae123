"""Generate ``tests/scoring/golden/cases.json`` from the literal scorer (``benchmarks/literal_scorer.py``).

Deterministic from ``--seed``: run from the repository root as ::

    .venv/bin/python -m tests.scoring.golden.make_golden --seed 20251031

Each case holds a label mask (as a recipe: shape, dtype, base label and painted rectangles),
the ground-truth traces, the prediction cell exactly as a submission would hold it, and the
literal scorer's result. See README.md beside this file.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

import numpy as np

from benchmarks.literal_scorer import EMBODIMENTS, literal_score_row

OUTPUT = Path(__file__).resolve().parent / "cases.json"
DEFAULT_SEED = 20251031
# Zero-penalty labels for some embodiment (8, 9, 11, 15, 16, 0), penalised ones, and ids the
# table does not hold (65+, and for wide dtypes also beyond 255 and negative).
TABLE_LABELS = [0, 2, 3, 7, 8, 9, 11, 13, 14, 15, 16, 17, 19, 26, 28, 29, 30, 45, 55, 64]
PENALISED = [2, 3, 13, 17, 19, 26, 28, 29, 30, 45, 55, 64]  # for every embodiment
UINT8_EXTRA = [65, 66, 100, 200, 255]
WIDE_EXTRA = [65, 255, 256, 300, 1000, -1, -7]


def build_mask(recipe: dict) -> np.ndarray:
    """The ``H x W`` label mask a recipe describes (used by the tests too)."""
    height, width = recipe["shape"]
    mask = np.full((height, width), recipe["base"], dtype=recipe["dtype"])
    for r0, r1, c0, c1, label in recipe["rects"]:
        mask[r0:r1, c0:c1] = label
    return mask


class Generator:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    # --- scenes ---------------------------------------------------------------------------

    def mask_recipe(self, height: int, width: int, uniform: int | None = None) -> dict:
        rng = self.rng
        dtype = rng.choice(["int64", "int64", "int32", "uint8"])
        labels = TABLE_LABELS + (UINT8_EXTRA if dtype == "uint8" else WIDE_EXTRA)
        if uniform is not None:
            return {"shape": [height, width], "dtype": dtype, "base": uniform, "rects": []}
        rects = []
        for _ in range(rng.randint(2, 10)):
            r0, c0 = rng.randrange(height), rng.randrange(width)
            r1 = min(height, r0 + rng.randint(3, max(4, height // 2)))
            c1 = min(width, c0 + rng.randint(3, max(4, width // 2)))
            rects.append([r0, r1, c0, c1, rng.choice(labels)])
        base = rng.choice(PENALISED if rng.random() < 0.7 else labels)
        return {"shape": [height, width], "dtype": dtype, "base": base, "rects": rects}

    def size(self) -> tuple[int, int]:
        return self.rng.randint(30, 100), self.rng.randint(40, 120)

    def coordinate(self, value: float, style: str) -> float:
        if style == "int":
            return float(int(value))
        if style == "half":
            return round(value) + self.rng.choice([0.5, -0.5, 0.0])
        return round(value, self.rng.choice([1, 2, 6]))

    def walk(self, height: int, width: int, n: int, style: str = "float", spread: float = 1.0) -> list[list[float]]:
        """A bottom-to-top wavy trace of ``n`` points, mostly inside the image."""
        rng = self.rng
        x, y = rng.uniform(0.2, 0.8) * width, rng.uniform(0.75, 1.0) * (height - 1)
        top = rng.uniform(0.0, 0.5) * height
        points = []
        for i in range(n):
            yi = y + (top - y) * i / max(1, n - 1)
            x += rng.gauss(0, width / 12 * spread)
            points.append([self.coordinate(x, style), self.coordinate(yi, style)])
        return points

    def near(self, truth: list[list[float]], n: int, noise: float, style: str) -> list[list[float]]:
        """A prediction of ``n`` points following ``truth`` with Gaussian noise."""
        trace = np.array(truth, dtype=np.float64)
        if len(trace) > 1 and n != len(trace):
            t = np.linspace(0, 1, len(trace))
            at = np.linspace(0, 1, n)
            trace = np.column_stack((np.interp(at, t, trace[:, 0]), np.interp(at, t, trace[:, 1])))
        elif len(trace) == 1:
            trace = np.repeat(trace, n, axis=0)
        return [
            [self.coordinate(x + self.rng.gauss(0, noise), style), self.coordinate(y + self.rng.gauss(0, noise), style)]
            for x, y in trace.tolist()
        ]

    def cell(self, points: list[list[float]]) -> str:
        """A prediction cell: ints written as ints half of the time, like the published notebook."""
        if all(float(v).is_integer() for p in points for v in p) and self.rng.random() < 0.5:
            points = [[int(x), int(y)] for x, y in points]
        return json.dumps(points)

    # --- kinds ----------------------------------------------------------------------------

    def ordinary(self) -> dict:
        rng = self.rng
        height, width = self.size()
        truths = [self.walk(height, width, rng.randint(2, 14)) for _ in range(rng.randint(1, 3))]
        target = rng.choice(truths)
        n = max(2, len(target) + rng.choice([-5, -3, -1, 0, 1, 2, 4, 9, 20]))
        prediction = self.near(target, n, rng.choice([0.5, 2.0, 6.0, 15.0]), rng.choice(["int", "float"]))
        if rng.random() < 0.5:  # off to the roomier side, so part of the line is more than 35 px away
            side = 1 if sum(x for x, _ in prediction) / len(prediction) < width / 2 else -1
            dx, dy = side * rng.uniform(25, 60), rng.uniform(-10, 10)
            prediction = [[round(x + dx, 1), round(y + dy, 1)] for x, y in prediction]
        return self.case("ordinary", height, width, truths, self.cell(prediction))

    def hostile(self, kind: str) -> dict:
        return getattr(self, "hostile_" + kind)()

    def hostile_half(self) -> dict:
        height, width = self.size()
        truths = [self.walk(height, width, self.rng.randint(2, 9), "half") for _ in range(self.rng.randint(1, 3))]
        prediction = self.near(self.rng.choice(truths), self.rng.randint(2, 12), 0.0, "half")
        return self.case("half", height, width, truths, self.cell(prediction))

    def hostile_duplicates(self) -> dict:
        height, width = self.size()
        truths = [_stutter(self.rng, self.walk(height, width, self.rng.randint(2, 8))) for _ in range(2)]
        prediction = _stutter(self.rng, self.near(truths[0], self.rng.randint(2, 10), 3.0, "int"))
        return self.case("duplicates", height, width, truths, self.cell(prediction))

    def hostile_zero_length_prediction(self) -> dict:
        height, width = self.size()
        truths = [self.walk(height, width, self.rng.randint(2, 12)) for _ in range(self.rng.randint(1, 3))]
        x, y = self.rng.uniform(0, width - 1), self.rng.uniform(0, height - 1)
        point = [self.coordinate(x, "float"), self.coordinate(y, "float")]
        return self.case("zero_length_prediction", height, width, truths, self.cell([point] * self.rng.randint(2, 6)))

    def hostile_zero_length_truth(self) -> dict:
        height, width = self.size()
        x, y = self.rng.uniform(0, width - 1), self.rng.uniform(0, height - 1)
        still = [[round(x, 2), round(y, 2)]] * self.rng.randint(2, 5)
        truths = [still, self.walk(height, width, self.rng.randint(2, 8))]
        self.rng.shuffle(truths)
        prediction = self.near(truths[0], self.rng.randint(2, 9), 4.0, "int")
        return self.case("zero_length_truth", height, width, truths, self.cell(prediction))

    def hostile_one_point_truth(self) -> dict:
        height, width = self.size()
        x, y = self.rng.uniform(-5, width + 5), self.rng.uniform(-5, height + 5)
        truths = [[[round(x, 1), round(y, 1)]]]
        if self.rng.random() < 0.5:
            truths.append(self.walk(height, width, self.rng.randint(2, 8)))
        prediction = self.walk(height, width, self.rng.randint(2, 8), "int")
        return self.case("one_point_truth", height, width, truths, self.cell(prediction))

    def hostile_truth_outside(self) -> dict:
        height, width = self.size()
        fully = self.rng.random() < 0.5
        truth = self.walk(height, width, self.rng.randint(2, 8))
        shift = [self.rng.choice([-1, 1]) * (width + 40), 0] if fully else [self.rng.choice([-1, 1]) * width / 2, 0]
        outside = [[x + shift[0], y + shift[1]] for x, y in truth]
        truths = [outside] if self.rng.random() < 0.6 else [outside, self.walk(height, width, 4)]
        prediction = self.near(truth, self.rng.randint(2, 10), 3.0, "int")
        return self.case(
            "truth_outside_fully" if fully else "truth_outside_partly", height, width, truths, self.cell(prediction)
        )

    def hostile_prediction_outside(self) -> dict:
        height, width = self.size()
        fully = self.rng.random() < 0.5
        truths = [self.walk(height, width, self.rng.randint(2, 10)) for _ in range(self.rng.randint(1, 2))]
        prediction = self.near(truths[0], self.rng.randint(2, 12), 2.0, "float")
        dx = self.rng.choice([-1, 1]) * (width + 50 if fully else width * 0.4)
        moved = [[round(x + dx, 3), y] for x, y in prediction]
        return self.case(
            "prediction_outside_fully" if fully else "prediction_outside_partly",
            height,
            width,
            truths,
            self.cell(moved),
        )

    def hostile_huge(self) -> dict:
        rng = self.rng
        height, width = self.size()
        truths = [self.walk(height, width, rng.randint(2, 10)) for _ in range(rng.randint(1, 3))]
        big = rng.choice([100000, 99999.75, 100000.0, 65536, 12345.5])
        shape = rng.choice(["across", "diagonal", "spike", "far"])
        if shape == "across":  # a horizontal line through the image from far left to far right
            y = rng.uniform(0, height - 1)
            prediction = [[-big, round(y, 1)], [big, round(y + rng.uniform(-3, 3), 1)]]
        elif shape == "diagonal":
            prediction = [[-big, -big], [big, big]] if rng.random() < 0.5 else [[big, -big], [-big, big]]
        elif shape == "spike":  # an ordinary trace with one point far away
            prediction = self.near(truths[0], rng.randint(3, 8), 2.0, "int")
            prediction[rng.randrange(len(prediction))] = [rng.choice([-big, big]), rng.choice([-big, big])]
        else:  # entirely far away: no finite score
            prediction = [[big, big], [big - 7, big - 3]]
        return self.case("huge_" + shape, height, width, truths, self.cell(prediction))

    def hostile_long(self) -> dict:
        rng = self.rng
        height, width = self.size()
        truths = [self.walk(height, width, rng.randint(2, 30)) for _ in range(rng.randint(1, 2))]
        n = rng.choice([2000, 1999, 1500])
        if rng.random() < 0.3:  # huge DTW values: long, far from the truth but crossing the image
            start = [rng.uniform(0, width - 1), rng.uniform(0, height - 1)]
            prediction = [[round(start[0], 2), round(start[1], 2)]] + [
                [99000.0 - i * 0.37, -98000.0 + i * 0.55] for i in range(n - 1)
            ]
            kind = "long_huge"
        else:
            prediction = self.near(truths[0], n, 1.5, rng.choice(["int", "float"]))
            kind = "long"
        return self.case(kind, height, width, truths, self.cell(prediction))

    def hostile_normalised(self) -> dict:
        height, width = self.size()
        truths = [self.walk(height, width, self.rng.randint(2, 8)) for _ in range(self.rng.randint(1, 2))]
        scaled = [[round(x / width, 4), round(y / height, 4)] for x, y in self.near(truths[0], 6, 1.0, "float")]
        return self.case("normalised", height, width, truths, self.cell(scaled))

    def hostile_carry_over(self) -> dict:
        """The prediction is shorter than some truths, and the truths differ in length."""
        rng = self.rng
        height, width = self.size()
        lengths = rng.sample(range(3, 16), 3)
        truths = [self.walk(height, width, n) for n in lengths[: rng.randint(2, 3)]]
        prediction = self.near(truths[-1], rng.randint(2, min(lengths) - 1), 3.0, "float")
        return self.case("carry_over", height, width, truths, self.cell(prediction))

    def hostile_threshold(self) -> dict:
        """The prediction is the truth moved about 35 px: pixels on both sides of ``d > 35``."""
        height, width = self.rng.randint(50, 100), self.rng.randint(90, 120)
        truth = self.walk(height, width, self.rng.randint(2, 6), "int", spread=0.3)
        dx, dy = self.rng.choice([(35, 0), (35, 1), (36, 0), (37, 0), (35.5, 2), (0, 37), (21, 28), (28, 22.5)])
        side = 1 if sum(x for x, _ in truth) / len(truth) < width / 2 else -1
        prediction = [[x + side * dx, y - dy] for x, y in truth]
        return self.case("threshold", height, width, [truth], self.cell(prediction))

    def hostile_tie(self) -> dict:
        height, width = self.size()
        truth = self.walk(height, width, self.rng.randint(2, 8))
        truths = [truth, [list(p) for p in truth]] + ([self.walk(height, width, 5)] if self.rng.random() < 0.5 else [])
        self.rng.shuffle(truths)
        prediction = self.near(truth, len(truth), 2.0, "int")
        return self.case("tie", height, width, truths, self.cell(prediction))

    def hostile_first_truth_nan(self) -> dict:
        """The first truth sees the prediction wholly off-image; resampled for the second, it enters.

        ``[[-1, 0], [0, -1]]`` draws pixels (0, -1) and (-1, 0) only; resampled to three points its
        midpoint (-0.5, -0.5) rounds to pixel (0, 0).
        """
        height, width = self.size()
        truths = [self.walk(height, width, 2), self.walk(height, width, 3)]
        return self.case("first_truth_nan", height, width, truths, "[[-1, 0], [0, -1]]")

    def hostile_no_truth(self) -> dict:
        height, width = self.size()
        return self.case("no_truth", height, width, [], "[[10, 10], [12, 3]]")

    def case(self, kind: str, height: int, width: int, truths: list, cell: str, mask: dict | None = None) -> dict:
        return {
            "kind": kind,
            "embodiment": self.rng.choice(EMBODIMENTS),
            "mask": mask or self.mask_recipe(height, width),
            "truths": truths,
            "prediction": cell,
        }

    def invalid(self, cell: str) -> dict:
        height, width = self.size()
        return self.case("invalid", height, width, [self.walk(height, width, 4)], cell)


def _stutter(rng: random.Random, points: list[list[float]]) -> list[list[float]]:
    """Repeat some points in place (duplicate consecutive points)."""
    out = []
    for p in points:
        out.extend([list(p)] * rng.choice([1, 1, 2, 3]))
    return out


def invalid_cells() -> list[str]:
    many = json.dumps([[i % 50, i % 40] for i in range(2001)])
    return [
        "",
        "   ",
        "not json",
        "[[1, 2], [3, 4]",
        "[[1, 2], [3, 4]] trailing",
        "[(1, 2), (3, 4)]",
        "[[1, 2], [3, 4],]",
        "{'x': 1}",
        "None",
        "[[1, 2] [3, 4]]",
        "[" * 100000,
        '{"x": 1, "y": 2}',
        '"[[1, 2], [3, 4]]"',
        "42",
        "null",
        "true",
        "NaN",
        "[1, 2, 3, 4]",
        "[[1, 2, 3], [4, 5, 6]]",
        "[[1], [2]]",
        "[[[1, 2]], [[3, 4]]]",
        "[[1, 2], [3, 4], [5]]",
        "[[1, 2], null]",
        '[[1, 2], {"x": 3, "y": 4}]',
        "[[]]",
        "[[], []]",
        "[" * 500 + "]" * 500,
        "[[true, 2], [3, 4]]",
        "[[1, false], [3, 4]]",
        '[["1", "2"], ["3", "4"]]',
        "[[1, null], [3, 4]]",
        "[]",
        "[[1, 2]]",
        "[[0.5, 0.5]]",
        many,
        json.dumps([[5, 5]] * 2001),
        "[[NaN, 2], [3, 4]]",
        "[[1, Infinity], [3, 4]]",
        "[[1, 2], [-Infinity, 4]]",
        "[[1e400, 2], [3, 4]]",
        "[[100000.5, 2], [3, 4]]",
        "[[1, -100000.5], [3, 4]]",
        "[[100001, 2], [3, 4]]",
        "[[1e6, 2], [3, 4]]",
        "[[123456789012345678901234567890, 1], [2, 3]]",
        "[[1, 2], [3, -1e10]]",
    ]


HOSTILE_KINDS = {  # kind -> how many cases
    "half": 14,
    "duplicates": 12,
    "zero_length_prediction": 8,
    "zero_length_truth": 8,
    "one_point_truth": 12,
    "truth_outside": 16,
    "prediction_outside": 16,
    "huge": 20,
    "long": 7,
    "normalised": 8,
    "carry_over": 16,
    "threshold": 14,
    "tie": 6,
    "first_truth_nan": 3,
    "no_truth": 2,
}
N_ORDINARY = 110
VALID_EDGE_CELLS = [  # unusual but valid spellings
    " [[10, 20],\n [11.5, 3]]\t",
    "[[1.0e1, 2E1], [-0.0, 3]]",
    "[[100000, 5], [-100000, 5]]",
    "[[-100000, -100000], [100000, 100000]]",
    "[[0, 0], [0, 0]]",
    "[[0.5, 0.5], [1.5, 2.5]]",
]


def generate(seed: int) -> list[dict]:
    generator = Generator(seed)
    cases = [generator.ordinary() for _ in range(N_ORDINARY)]
    for kind, count in HOSTILE_KINDS.items():
        cases.extend(generator.hostile(kind) for _ in range(count))
    for cell in VALID_EDGE_CELLS:
        case = generator.invalid(cell)
        case["kind"] = "valid_edge"
        cases.append(case)
    cases.extend(generator.invalid(cell) for cell in invalid_cells())
    for index, case in enumerate(cases):
        case["id"] = index
        expected = literal_score_row(case["prediction"], case["truths"], build_mask(case["mask"]), case["embodiment"])
        case["expected"] = expected
    return cases


def write(cases: list[dict], seed: int, path: Path = OUTPUT) -> None:
    lines = [json.dumps(case, separators=(",", ":"), allow_nan=False) for case in cases]
    header = json.dumps(
        {
            "seed": seed,
            "generator": "tests/scoring/golden/make_golden.py",
            "oracle": "benchmarks/literal_scorer.py",
            "tolerance": 1e-6,
        }
    )
    path.write_text('{"about":' + header + ',"cases":[\n' + ",\n".join(lines) + "\n]}\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--output", type=Path, default=OUTPUT)
    args = parser.parse_args()
    start = time.perf_counter()
    cases = generate(args.seed)
    write(cases, args.seed, args.output)
    kinds: dict[str, int] = {}
    for case in cases:
        kinds[case["kind"]] = kinds.get(case["kind"], 0) + 1
    valid = sum(case["expected"]["status"] == "valid" for case in cases)
    print(f"{len(cases)} cases ({valid} valid) in {time.perf_counter() - start:.0f} s -> {args.output}")
    print(", ".join(f"{kind} {count}" for kind, count in sorted(kinds.items())))


if __name__ == "__main__":
    main()
