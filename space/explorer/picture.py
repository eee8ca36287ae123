"""The explorer's picture: a validation image with the expert traces, a predicted trace, and the
penalty regions of one embodiment drawn over it, plus the row's score components.

Validation only, and only from the *public* answer key: the caller passes
``keys.public("validation")``, whose test split has no ground truth to draw. No gradio here.
"""

from __future__ import annotations

import io
import threading
from collections import OrderedDict
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray
from PIL import Image, ImageDraw
from scipy.ndimage import binary_dilation, binary_erosion

from leaderboard.records import InvalidAction, NotAuthorised, NotFound, Split
from leaderboard.service import Leaderboard
from scoring import (
    AnswerKey,
    GroundTruth,
    RowScore,
    Sample,
    SubmissionError,
    parse_prediction,
    read_submission,
    score_row,
)
from scoring.field import penalty_field
from scoring.geometry import line_pixels
from scoring.row import prediction_as_compared

TRUTH = (34, 197, 94)  # green: the expert traces
TRUTH_OTHER = (134, 239, 172)
PREDICTION = (37, 99, 235)  # blue: the predicted trace
CHARGED = (249, 115, 22)  # orange: predicted pixels that paid a penalty
PENALTY = (220, 38, 38)  # red: where a trace would be charged
OUTLINE = (255, 255, 255)
# The filled penalty layer in three steps of the per-pixel cost (the table's costs run 80-800), each an
# opacity of PENALTY, so the legend can show every shade drawn: a smooth ramp tinted a street scene in
# many reds, and the road's dark band (the highest cost) was in no legend.
PENALTY_BANDS = (
    (160.0, 50, "low cost (80–160)"),
    (400.0, 95, "medium (240–400)"),
    (float("inf"), 145, "high (480–800)"),
)


@dataclass(frozen=True)
class Layers:
    """What is drawn. By default the penalty regions are only outlined: filled, they tint most of a street
    scene red (everything that is not the embodiment's own ground), hiding the photo; the fill is one click away."""

    truths: bool = True
    prediction: bool = True
    penalty: bool = False  # the penalty regions filled, in PENALTY_BANDS
    outline: bool = True  # the penalty regions' edges only


@dataclass(frozen=True)
class Picture:
    """What the explorer shows for one row."""

    # The drawing; or, drawn in a child process (``space.web.offload``), the WebP file it was saved to in Gradio's
    # cache: encoding it is ~150 ms of CPU that Gradio would otherwise spend on the pages' event loop.
    image: Image.Image | str
    sample_id: str
    embodiment: str
    n_truths: int
    truth_index: int | None  # the expert trace whose penalty regions are drawn (the best one when scored)
    score: RowScore | None = None  # the prediction's score, when there is a prediction
    prediction_points: int | None = None
    charged_share: float | None = None  # share of the predicted line's pixels that paid a penalty
    notes: list[str] = field(default_factory=list)
    size: tuple[int, int] = (0, 0)  # the drawing's width and height, in pixels


def picture(
    key: AnswerKey,
    sample_id: str,
    embodiment: str,
    prediction: NDArray[np.float64] | None = None,
    layers: Layers = Layers(),
    baseline_raw: float | None = None,
    truth_index: int | None = None,
) -> Picture:
    """Draw one (sample, embodiment) row of the validation split; score ``prediction`` when given."""
    sample = _drawable(key, sample_id, embodiment)
    truths = key.truths(sample_id, embodiment)
    labels = key.mask(sample_id)
    score = None
    if prediction is not None:
        kwargs = {} if baseline_raw is None else {"baseline_raw": baseline_raw}
        score = score_row(prediction, truths, labels, embodiment, **kwargs)
    chosen = _chosen(truths, score, truth_index)
    image = _photo(key, sample)
    field_ = penalty_field(labels, truths[chosen].pixels, embodiment) if chosen is not None else None
    width = max(2, round(min(sample.width, sample.height) / 160))
    image = _regions(image, field_, layers, width)
    draw = ImageDraw.Draw(image)
    if layers.truths:
        _truths(draw, truths, chosen, width)
    charged_share = None
    if prediction is not None and len(prediction):
        image, charged_share = _prediction(image, draw, prediction, truths, chosen, field_, layers.prediction, width)
    notes = _notes(prediction, sample.width, sample.height)
    return Picture(
        image,
        sample_id,
        embodiment,
        len(truths),
        chosen,
        score,
        None if prediction is None else len(prediction),
        charged_share,
        notes,
        image.size,
    )


def _drawable(key: AnswerKey, sample_id: str, embodiment: str) -> Sample:
    """The sample of a row the explorer may draw: of the validation split, with traces of ``embodiment``."""
    if key.split != "validation" or not key.has_ground_truth:
        raise NotAuthorised("the explorer shows the validation split only: the test ground truth stays hidden")
    if sample_id not in key:
        raise NotFound(f"no sample {sample_id!r} in the validation split")
    sample = key.sample(sample_id)
    if embodiment not in sample.embodiments:
        raise InvalidAction(
            f"sample {sample_id} has no {embodiment} traces: expected one of {', '.join(sample.embodiments)}"
        )
    return sample


def _photo(key: AnswerKey, sample: Sample) -> Image.Image:
    """The sample's image, in RGB at the size its traces are in."""
    image = Image.open(io.BytesIO(key.image_bytes(sample.sample_id))).convert("RGB")
    if image.size != (sample.width, sample.height):
        image = image.resize((sample.width, sample.height))
    return image


def _regions(image: Image.Image, field_: NDArray[np.float64] | None, layers: Layers, width: int) -> Image.Image:
    """The penalty regions of the chosen expert trace over ``image``: filled by cost, outlined, both or neither."""
    if layers.penalty and field_ is not None:
        image = _shade(image, field_)
    if layers.outline and field_ is not None:
        image = _paint(image, _edge(field_ > 0, width), 0, PENALTY)  # ~4 px where a 1440 px photo is shown ~800 px wide
    return image


def _truths(draw: ImageDraw.ImageDraw, truths: list[GroundTruth], chosen: int | None, width: int) -> None:
    """Every expert trace; the chosen one last (on top), brighter and wider."""
    order = [i for i in range(len(truths)) if i != chosen] + ([chosen] if chosen is not None else [])
    for i in order:
        _trace(draw, truths[i].points, TRUTH if i == chosen else TRUTH_OTHER, width + (1 if i == chosen else 0))


def _prediction(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    prediction: NDArray[np.float64],
    truths: list[GroundTruth],
    chosen: int | None,
    field_: NDArray[np.float64] | None,
    shown: bool,
    width: int,
) -> tuple[Image.Image, float | None]:
    """The predicted trace drawn by ``draw`` and its charged pixels painted (when ``shown``), and the share of
    its line that paid a penalty (whether shown or not): the image to show, and that share."""
    current = prediction_as_compared(prediction, truths, chosen or 0)
    charged, charged_share = _charged(current, field_, image.height, image.width)
    if shown:
        _trace(draw, np.asarray(prediction, dtype=np.float64), PREDICTION, width, dots=True)
        if charged is not None:
            image = _paint(image, charged, max(1, width // 2), CHARGED)
    return image, charged_share


def _chosen(truths: list[GroundTruth], score: RowScore | None, wanted: int | None) -> int | None:
    if not truths:
        return None
    if wanted is not None and 0 <= wanted < len(truths):
        return wanted
    if score is not None and score.best_gt is not None:
        return score.best_gt
    return 0


def _charged(
    current: NDArray[np.float64], field_: NDArray[np.float64] | None, height: int, width: int
) -> tuple[NDArray[np.bool_] | None, float | None]:
    """The predicted line's pixels that paid a penalty (a mask of the image), and their share of the line."""
    if field_ is None or len(current) < 2:
        return None, None
    pixels = line_pixels(current, height, width)
    if len(pixels) == 0:
        return None, None
    paid = field_[pixels[:, 0], pixels[:, 1]] > 0
    mask = np.zeros((height, width), dtype=bool)
    mask[pixels[paid, 0], pixels[paid, 1]] = True
    return mask, float(paid.mean())


def _paint(image: Image.Image, mask: NDArray[np.bool_], radius: int, colour: tuple) -> Image.Image:
    """``mask`` widened to dots of ``radius`` and painted in ``colour``: one array operation for the
    whole image, whatever the number of pixels (one drawing call per pixel took 6-7 s on a
    2,000-point zigzag)."""
    y, x = np.ogrid[-radius : radius + 1, -radius : radius + 1]
    dots = binary_dilation(mask, structure=x * x + y * y <= radius * radius) if radius else mask
    pixels = np.asarray(image).copy()
    pixels[dots] = colour
    return Image.fromarray(pixels)


def _shade(image: Image.Image, field_: NDArray[np.float64]) -> Image.Image:
    """Tint charged pixels red, in the opacity of their ``PENALTY_BANDS`` band (same bands for every embodiment)."""
    alpha = np.zeros(field_.shape, dtype=np.uint8)
    low = 0.0
    for top, opacity, _ in PENALTY_BANDS:
        alpha[(field_ > low) & (field_ <= top)] = opacity
        low = top
    overlay = np.zeros((*field_.shape, 4), dtype=np.uint8)
    overlay[..., :3] = PENALTY
    overlay[..., 3] = alpha
    base = image.convert("RGBA")
    base.alpha_composite(Image.fromarray(overlay, "RGBA"))
    return base.convert("RGB")


def _edge(mask: NDArray[np.bool_], width: int) -> NDArray[np.bool_]:
    """The inner rim of ``mask``, ``width`` pixels thick (the image's border is not an edge)."""
    inner = binary_erosion(mask, iterations=width, border_value=1)
    return mask & ~inner


def _trace(
    draw: ImageDraw.ImageDraw, points: NDArray[np.float64], colour: tuple, width: int, dots: bool = False
) -> None:
    xy = [(float(x), float(y)) for x, y in np.asarray(points, dtype=np.float64).reshape(-1, 2)]
    if not xy:
        return
    if len(xy) > 1:
        draw.line(xy, fill=OUTLINE, width=width + 2, joint="curve")
        draw.line(xy, fill=colour, width=width, joint="curve")
    r = width + 2
    sx, sy = xy[0]
    draw.ellipse((sx - r, sy - r, sx + r, sy + r), fill=OUTLINE, outline=colour, width=max(1, width - 1))  # start
    ex, ey = xy[-1]
    draw.ellipse((ex - r - 1, ey - r - 1, ex + r + 1, ey + r + 1), fill=colour, outline=OUTLINE, width=2)  # goal
    if dots:
        d = max(1, width - 1)
        for x, y in xy[1:-1]:
            draw.ellipse((x - d, y - d, x + d, y + d), fill=OUTLINE)


def _notes(prediction: NDArray[np.float64] | None, width: int, height: int) -> list[str]:
    if prediction is None or not len(prediction):
        return []
    notes = []
    points = np.asarray(prediction, dtype=np.float64)
    outside = ~((points[:, 0] >= 0) & (points[:, 0] < width) & (points[:, 1] >= 0) & (points[:, 1] < height))
    if outside.any():
        notes.append(f"{int(outside.sum())} of {len(points)} predicted points lie outside the {width}x{height} image")
    if np.all((points >= 0) & (points <= 1)):
        notes.append("every coordinate is within [0, 1]: normalised output is scored as pixels, never rescaled")
    return notes


class SubmissionTraces:
    """Predicted traces of validation submissions, for their submitters (a small per-process cache)."""

    def __init__(self, service: Leaderboard, size: int = 8) -> None:
        self.service = service
        self.size = size
        self._cache: OrderedDict[str, dict[tuple[str, str], str]] = OrderedDict()
        self._lock = threading.Lock()

    def trace(
        self, submission_id: str, user: str, key: AnswerKey, sample_id: str, embodiment: str
    ) -> tuple[NDArray[np.float64] | None, str | None]:
        """``(trace, None)`` or ``(None, why there is no usable trace)`` for one row of ``user``'s submission."""
        cells = self._cells(submission_id, user, key)
        cell = cells.get((sample_id, embodiment))
        if cell is None:
            return None, f"submission {submission_id} has no row for {sample_id} / {embodiment} (missing: scores 0)"
        parsed = parse_prediction(cell)
        if parsed.trace is None:
            return None, f"the row's prediction is invalid ({parsed.detail or parsed.reason}): it scores 0"
        return parsed.trace, None

    def _cells(self, submission_id: str, user: str, key: AnswerKey) -> dict[tuple[str, str], str]:
        view = self.service.status(submission_id, user=user)  # the owner check
        if view.split != Split.VALIDATION:
            raise NotAuthorised(
                f"submission {submission_id} is a test submission: the explorer shows validation submissions only"
            )
        with self._lock:
            if submission_id in self._cache:
                self._cache.move_to_end(submission_id)
                return self._cache[submission_id]
        data = self.service.uploaded_file(view.submission_id, user=user)
        try:
            rows = read_submission(data, key).rows
        except SubmissionError as error:
            raise InvalidAction(f"submission {submission_id} cannot be read: {error}") from None
        cells = {(r.sample_id, r.embodiment): r.prediction for r in rows}
        with self._lock:
            self._cache[submission_id] = cells
            while len(self._cache) > self.size:
                self._cache.popitem(last=False)
        return cells
