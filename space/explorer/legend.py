"""The explorer picture in words: its legend (every colour drawn, nothing else) and its alt text. No gradio here."""

from __future__ import annotations

from space.explorer.picture import CHARGED, PENALTY, PENALTY_BANDS, PREDICTION, TRUTH, TRUTH_OTHER, Layers, Picture
from space.site.html import esc


def _swatch(style: str, label: str) -> str:
    return f'<span role="listitem"><i style="{style}"></i>{esc(label)}</span>'


def _rgb(colour: tuple, alpha: float = 1.0) -> str:
    return f"rgba({colour[0]},{colour[1]},{colour[2]},{alpha:.2f})"


PHOTO_GREY = "#8a8a8a"  # what a band's swatch is drawn over: a photo's mid-tone, so it looks as in the picture


def legend_html(layers: Layers) -> str:
    """Every colour the picture shows with these layers, and nothing it does not show."""
    items = []
    if layers.truths:
        items += [
            _swatch(f"background:{_rgb(TRUTH)}", "expert trace compared (bold)"),
            _swatch(f"background:{_rgb(TRUTH_OTHER)}", "other expert traces"),
        ]
    if layers.prediction:
        items += [
            _swatch(f"background:{_rgb(PREDICTION)}", "predicted trace (white dots: its points)"),
            _swatch(f"background:{_rgb(CHARGED)}", "predicted pixel that paid a penalty"),
        ]
    if layers.outline:
        items.append(
            _swatch(f"background:{PHOTO_GREY};box-shadow:inset 0 0 0 2px {_rgb(PENALTY)}", "penalty region edge")
        )
    if layers.penalty:
        for _, opacity, label in PENALTY_BANDS:
            tint = _rgb(PENALTY, opacity / 255)
            items.append(_swatch(f"background:linear-gradient({tint},{tint}),{PHOTO_GREY}", f"penalty region, {label}"))
        items.append(_swatch(f"background:{PHOTO_GREY}", "no tint: no penalty (or within 35 px of the compared trace)"))
    if layers.truths or layers.prediction:
        items.append('<span role="listitem">hollow dot: start · filled dot: goal</span>')
    if not items:
        items.append('<span role="listitem">the photo alone: tick a layer under Show</span>')
    return f'<div class="nt-legend" id="explorer-legend" role="list">{"".join(items)}</div>'


def alt_text(pic: Picture, task: str, layers: Layers) -> str:
    """What the picture shows, for people who cannot see it (screen readers; the image's ``alt``)."""
    size = f"{pic.size[0]}×{pic.size[1]} px"
    parts = [f"Validation image {pic.sample_id} ({size}) for a {pic.embodiment}: {task.strip().rstrip('.')}."]
    if layers.truths and pic.n_truths:
        which = f", trace {pic.truth_index + 1} compared" if pic.truth_index is not None and pic.n_truths > 1 else ""
        parts.append(f"{pic.n_truths} expert trace{'s' if pic.n_truths > 1 else ''} in green{which}.")
    if layers.prediction and pic.prediction_points:
        paid = f"; {pic.charged_share:.0%} of its pixels paid a penalty (orange)" if pic.charged_share else ""
        parts.append(f"The predicted trace of {pic.prediction_points} points in blue{paid}.")
    if layers.penalty:
        parts.append("Penalty regions filled red, darker where a pixel costs more.")
    elif layers.outline:
        parts.append("Penalty regions outlined in red.")
    return " ".join(parts)
