"""Expert-like ground-truth traces: least-cost paths on the label mask, drawn by hand.

The cost of a cell is what the benchmark charges the embodiment for its label (the
penalty table x 0.8, the same numbers that score a prediction), plus a little for being
near a costly cell (people keep off edges), plus slow noise (no two experts agree exactly).
Stairs are cheap to climb on legs and all but impassable on wheels. A path found with
``skimage.graph.MCP_Geometric`` on a coarse grid is then simplified and re-clicked the way
an annotator draws a polyline: 6 to 40 points, slightly off the ideal line.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray
from scipy.ndimage import distance_transform_edt, zoom
from skimage.graph import MCP_Geometric
from skimage.measure import approximate_polygon

import synthetic.labels as L
from scoring.penalty_table import penalty_lookup
from synthetic.scene import STAIR_KINDS, Scene

Trace = NDArray[np.float64]
GRID_COLUMNS = 160  # cells across the image: fine enough for curbs, fast to search
WEIGHT = 0.5  # one unit of table penalty costs as much as this many metres of detour
FAR_DEPTH = 80.0  # metres: the planning grid ends here, goals beyond are pulled in
# Per-metre cost of steps. The grid reads every pixel as flat ground, which stretches a
# flight of steps (tall in the image, short on the ground) several times: hence below 1.
STAIRS = {"Human": 0.35, "Legged Robot": 0.45, "Wheeled Robot": 1000.0, "Bicycle": 1000.0}
MIN_POINTS, MAX_POINTS = 6, 40


class Planner:
    """Plans traces for every embodiment on one scene (the grid is built once).

    The grid samples the image at its columns and at depths spaced evenly in log depth,
    ``Z_k = Z_0 * exp(k * du)`` with ``du`` the angular width of a column. On the ground
    plane a cell is then about ``Z_k * du`` metres in both directions, so a path's cost is
    its length in metres (times the penalties), as an annotator would judge it, not pixels:
    in the image a metre near the camera spans far more pixels than one near the horizon.
    """

    def __init__(self, scene: Scene) -> None:
        camera = self.camera = scene.camera
        self.step = max(1.0, camera.width / GRID_COLUMNS)
        self.du = self.step / camera.focal
        self.z_near = float(camera.ground_depth_of_row(np.array([camera.height - 0.5]))[0])
        z_far = max(FAR_DEPTH, self.z_near * 2.0)
        depths = self.z_near * np.exp(np.arange(int(np.log(z_far / self.z_near) / self.du) + 1) * self.du)
        self.rows_y = camera.horizon + camera.focal * camera.eye_height / depths
        rows = np.clip(self.rows_y.astype(np.int64), 0, camera.height - 1)
        cols = np.clip(
            ((np.arange(int(camera.width / self.step)) + 0.5) * self.step).astype(np.int64), 0, camera.width - 1
        )
        self.labels = scene.labels[rows[:, None], cols[None, :]]
        self.stairs = scene.mask_of_kinds(STAIR_KINDS)[rows[:, None], cols[None, :]]
        self.painted = np.isin(self.labels, (L.LANE_MARKING, L.MANHOLE))
        self.metres = depths * self.du

    def costs(self, embodiment: str) -> NDArray[np.float64]:
        """Cost per metre of each cell: 1 + weighted penalty, plus a margin near costly cells."""
        penalty = penalty_lookup()[embodiment][self.labels]
        # Paint and manholes cost nothing in the table, but nobody walks along a lane line.
        penalty[self.painted] = penalty_lookup()[embodiment][L.ROAD]
        cost = 1.0 + WEIGHT * penalty
        cost[self.stairs] = STAIRS[embodiment]
        # Keep a margin from anything costly, as people walk mid-sidewalk, not along its edge.
        distance = distance_transform_edt(cost <= 1.0)
        cost += 1.5 * np.exp(-distance / 2.0) * (cost <= 1.0)
        return cost

    def traces(self, embodiment: str, goal: tuple[float, float], count: int, rng: np.random.Generator) -> list[Trace]:
        """``count`` traces from the bottom centre of the image to ``goal`` (pixels)."""
        cost = self.costs(embodiment)
        shape = cost.shape
        coarse = rng.standard_normal((shape[0] // 16 + 2, shape[1] // 12 + 2))
        field = zoom(coarse, (shape[0] / coarse.shape[0], shape[1] / coarse.shape[1]), order=1)[: shape[0], : shape[1]]
        # Slow noise: no two experts agree exactly.
        search = MCP_Geometric(cost * np.exp(0.12 * field) * self.metres[:, None], fully_connected=True)
        search.find_costs([self._snap(cost, self._cells(np.array([goal]))[0])])
        traces = []
        for _ in range(count):
            start = np.array(
                [
                    self.camera.width / 2 + rng.normal(0, 0.012) * self.camera.width,
                    self.camera.height * (1 - rng.uniform(0.0, 0.02)),
                ]
            )
            path = np.asarray(search.traceback(tuple(self._cells(start[None, :])[0])), dtype=np.float64)[::-1]
            rows_y = np.interp(path[:, 0], np.arange(len(self.rows_y)), self.rows_y)
            points = np.column_stack(((path[:, 1] + 0.5) * self.step, rows_y))
            points[0] = start
            traces.append(self._draw(self._pull(points, cost), rng))
        return traces

    def _cells(self, points: Trace) -> NDArray[np.int64]:
        """Grid cells ``[row, col]`` of image points (points beyond the grid go to its edge)."""
        rows, cols = self.labels.shape
        camera = self.camera
        below = np.maximum(points[:, 1] - camera.horizon, 1e-6)
        depth = np.maximum(camera.focal * camera.eye_height / below, self.z_near)
        row = np.clip(np.round(np.log(depth / self.z_near) / self.du), 0, rows - 1)
        col = np.clip(points[:, 0] // self.step, 0, cols - 1)
        return np.column_stack((row, col)).astype(np.int64)

    def _snap(self, cost: NDArray[np.float64], cell: NDArray[np.int64]) -> tuple[int, int]:
        """Move a goal off a costly cell to the nearest free one within a few cells."""
        free = cost < 3.0
        row, col = int(cell[0]), int(cell[1])
        if free[row, col] or not free.any():
            return row, col
        distance, (rows, cols) = distance_transform_edt(~free, return_indices=True)
        if distance[row, col] > 12:
            return row, col
        return int(rows[row, col]), int(cols[row, col])

    def _pull(self, points: Trace, cost: NDArray[np.float64]) -> Trace:
        """Replace the grid path by straight strokes wherever that costs no more.

        A line in the image is a line on the ground, so this gives the any-angle path an
        annotator draws; the grid path itself zigzags between axis and diagonal moves. A
        stroke is accepted if its cost (per-metre cost x metres on the ground) is within
        2 % of the stretch of path it replaces.
        """
        spent = np.concatenate(([0.0], np.cumsum(self._stroke_costs(points, cost))))
        keep, i, n = [0], 0, len(points)

        def clear(a: int, b: int) -> bool:
            length = float(np.hypot(*(points[b] - points[a])))
            t = np.linspace(0.0, 1.0, max(2, int(length / self.step * 3)))
            line = points[a] + t[:, None] * (points[b] - points[a])
            return float(self._stroke_costs(line, cost).sum()) <= (spent[b] - spent[a]) * 1.02 + 1e-9

        while i < n - 1:
            good, probe = i + 1, 2
            while i + probe < n and clear(i, i + probe):
                good, probe = i + probe, probe * 2
            bad = min(i + probe, n)
            while bad - good > 1:
                middle = (good + bad) // 2
                if clear(i, middle):
                    good = middle
                else:
                    bad = middle
            keep.append(good)
            i = good
        return points[keep]

    def _stroke_costs(self, points: Trace, cost: NDArray[np.float64]) -> NDArray[np.float64]:
        """Cost of each step of a polyline: ground metres x the mean per-metre cost at its ends."""
        camera = self.camera
        depth = np.minimum(
            camera.focal * camera.eye_height / np.maximum(points[:, 1] - camera.horizon, 1e-6), FAR_DEPTH
        )
        ground = np.column_stack(((points[:, 0] - camera.cx) * depth / camera.focal, depth))
        metres = np.hypot(*np.diff(ground, axis=0).T)
        cells = self._cells(points)
        per_metre = cost[cells[:, 0], cells[:, 1]]
        return metres * (per_metre[:-1] + per_metre[1:]) / 2.0

    def _draw(self, points: Trace, rng: np.random.Generator) -> Trace:
        """Simplify a dense path, then re-click it like an annotator: every so often, a bit off."""
        width, height = self.camera.width, self.camera.height
        scale = float(np.hypot(width, height))
        points = approximate_polygon(points, tolerance=rng.uniform(0.002, 0.006) * scale)
        points = _densify(points, rng.uniform(0.04, 0.08) * scale)
        inner = slice(1, len(points) - 1)
        points[inner] += rng.normal(0.0, 0.0025 * scale, points[inner].shape)
        goal_shift = rng.normal(0.0, 0.006 * scale, 2)
        weights = np.clip(np.linspace(-1.0, 1.0, len(points)), 0.0, 1.0)
        points += weights[:, None] * goal_shift  # annotators disagree most about the end point
        if len(points) < MIN_POINTS:
            points = _resample(points, MIN_POINTS)
        elif len(points) > MAX_POINTS:
            points = _resample(points, MAX_POINTS)
        points[:, 0] = np.clip(points[:, 0], 0.0, width - 1.0)
        points[:, 1] = np.clip(points[:, 1], 0.0, height - 1.0)
        return np.round(points, 2)


def _densify(points: Trace, longest: float) -> Trace:
    """Insert evenly spaced points so no segment is longer than ``longest``."""
    pieces = [points[:1]]
    for a, b in zip(points[:-1], points[1:]):
        n = max(1, int(np.ceil(np.hypot(*(b - a)) / longest)))
        pieces.append(a + (b - a) * (np.arange(1, n + 1) / n)[:, None])
    return np.concatenate(pieces)


def _resample(points: Trace, count: int) -> Trace:
    """``count`` points equally spaced along the polyline."""
    steps = np.hypot(*np.diff(points, axis=0).T)
    where = np.concatenate(([0.0], np.cumsum(steps)))
    at = np.linspace(0.0, where[-1], count)
    return np.column_stack((np.interp(at, where, points[:, 0]), np.interp(at, where, points[:, 1])))
