"""Kinds of copies of another user's entry, and independent honest files, for ``bench_copies.py``'s rates.

A file is a list of ``(sample_id, embodiment, trace)`` rows. Copies are made from an honest file (its
traces the ground truth plus Gaussian noise, as ``scoring.examples``'s ``noisy`` kind makes them), each
kind with its own random draws; honest files are other models on the same scenes: the example kinds
(``straight``, ``perfect``, ``noisy``) and noisy files at other noise levels, each with its own seed.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from leaderboard.statistics.copies_curves import resampled

Row = tuple[str, str, list]  # sample_id, embodiment, the trace
Kind = Callable[[list[Row], np.random.Generator, list[Row]], list[Row]]  # (original, draws, another model's file)


def noisy(rows: list[Row], sigma: float, rng: np.random.Generator) -> list[Row]:
    """A model's traces: ``rows``' (the ground truth) with Gaussian noise of ``sigma`` px, as whole pixels
    (the notebook's ``int(x * width)``)."""
    out = []
    for s, e, trace in rows:
        points = np.asarray(trace, dtype=np.float64) + rng.normal(0.0, sigma, size=(len(trace), 2))
        out.append((s, e, [[int(x), int(y)] for x, y in points]))
    return out


def _each(change: Callable[[np.ndarray, np.random.Generator], np.ndarray]) -> Kind:
    def kind(rows: list[Row], rng: np.random.Generator, other: list[Row]) -> list[Row]:
        return [(s, e, change(np.asarray(t, dtype=np.float64), rng).tolist()) for s, e, t in rows]

    return kind


def _shifted(px: int) -> Kind:
    """Every trace moved by ``px`` in x and in y, each way at random per row."""
    return _each(lambda t, rng: t + rng.choice((-px, px), size=2))


def _jittered(px: int) -> Kind:
    """Every coordinate moved by a whole number of pixels in [-px, px]."""
    return _each(lambda t, rng: t + rng.integers(-px, px + 1, size=t.shape))


def _resampled(t: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The same path through other points: resampled by arc length to one point fewer up to three times as
    many, rounded (fewer still drops the path's corners: another path, not the same one through other points)."""
    return np.round(resampled(t, max(2, int(rng.integers(len(t) - 1, 3 * len(t) + 1)))))


def _extra_point(offset: float) -> Callable[[np.ndarray, np.random.Generator], np.ndarray]:
    """One point more in each trace: inside a random segment, ``offset`` px off it."""

    def change(t: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        at = int(rng.integers(0, len(t) - 1))
        point = t[at] + rng.uniform(0.2, 0.8) * (t[at + 1] - t[at]) + offset * _unit(rng)
        return np.insert(t, at + 1, np.round(point), axis=0)

    return change


def _unit(rng: np.random.Generator) -> np.ndarray:
    angle = rng.uniform(0.0, 2 * np.pi)
    return np.array([np.cos(angle), np.sin(angle)])


def _rows_changed(share: float) -> Kind:
    """``share`` of the rows (rounded up) replaced by another model's traces."""

    def kind(rows: list[Row], rng: np.random.Generator, other: list[Row]) -> list[Row]:
        changed = set(rng.choice(len(rows), size=int(np.ceil(share * len(rows))), replace=False).tolist())
        return [other[i] if i in changed else row for i, row in enumerate(rows)]

    return kind


def _all_at_once(rows: list[Row], rng: np.random.Generator, other: list[Row]) -> list[Row]:
    """Resampled, then shifted 2 px and jittered 2 px, then 6% of rows changed."""
    made = _each(_resampled)(rows, rng, other)
    made = _shifted(2)(made, rng, other)
    made = _jittered(2)(made, rng, other)
    return _rows_changed(0.06)(made, rng, other)


COPIES: dict[str, Kind] = {
    "exact": lambda rows, rng, other: list(rows),
    "jittered 1 px": _jittered(1),
    "shifted 2 px": _shifted(2),
    "shifted 3 px": _shifted(3),
    "jittered 3 px": _jittered(3),
    "resampled (other points)": _each(_resampled),
    "one extra point per trace": _each(_extra_point(2.0)),
    "one extra point, 30 px off": _each(_extra_point(30.0)),
    "6% of rows changed": _rows_changed(0.06),
    "all of the above at once": _all_at_once,
}

# Independent models on the same scenes: (kind of the new file, kind of the earlier entry), each drawn anew.
HONEST = (
    ("noisy 12 px", "noisy 12 px"),
    ("noisy 6 px", "noisy 6 px"),
    ("noisy 4 px", "noisy 4 px"),  # two models both within a few pixels of the expert everywhere
    ("noisy 24 px", "noisy 24 px"),
    ("noisy 6 px", "noisy 24 px"),
    ("noisy 12 px", "perfect"),
    ("noisy 12 px", "straight"),
    ("perfect", "straight"),
)


def honest(kind: str, truth: list[Row], straight: list[Row], rng: np.random.Generator) -> list[Row]:
    """An honest file of ``kind``: "perfect" (the ground truth), "straight" (the baseline), "noisy N px"."""
    if kind == "perfect":
        return list(truth)
    if kind == "straight":
        return list(straight)
    return noisy(truth, float(kind.split()[1]), rng)
