"""The Explorer's events: each a function of an ``Explorer`` state and the event's inputs, callable without a page.

``space.workspace.handlers.bound`` hands one to Gradio with its state filled in. Gradio reads a handler's name (its
default API name) and its parameters' types (a ``gr.OAuthProfile`` parameter receives the signed-in
profile): ``functools.partial`` and lambdas hide both, and the profile would arrive as ``None``. So the
parameter names and types below are what Gradio sees, and their annotations must resolve at run time here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeVar

import gradio as gr
import numpy as np
from numpy.typing import NDArray

from leaderboard.records import JobStatus, Split
from scoring import AnswerKey
from space.explorer import legend as explorer_legend
from space.explorer import picture
from space.site import views
from space.site.html import esc
from space.web.services import Services
from space.workspace.errors import shown

LAYERS = ("Expert traces", "Predicted trace", "Penalty region edges", "Penalty regions filled (by cost)")
DEFAULT_LAYERS = list(LAYERS[:3])  # filled, the penalty regions tint most of a street scene: one click away
NONE = ("none: ground truth only", "")

Result = TypeVar("Result")


@dataclass(frozen=True)
class Explorer:
    """What the Explorer's events work with."""

    services: Services
    save_in: str  # the picture's cache folder (Gradio's), where the drawing process saves the drawing


def layers_shown(chosen: list[str] | None) -> picture.Layers:
    """The layers ticked in the "Show" boxes."""
    picked = set(chosen or ())
    return picture.Layers(LAYERS[0] in picked, LAYERS[1] in picked, LAYERS[3] in picked, LAYERS[2] in picked)


def open_tab(
    state: Explorer,
    submission_id: str | None,
    sample_id: str | None,
    embodiment_: str | None,
    layers_: list[str] | None,
    profile: gr.OAuthProfile | None,
) -> tuple[Any, ...]:
    """The pickers filled for the caller (their finished validation submissions), and the chosen row drawn."""
    with shown():
        key = _key(state)
        mine = _submission_choices(state, profile)
        if submission_id not in [value for _, value in mine]:
            submission_id = ""
        if sample_id is None or sample_id not in key:
            sample_id = key.samples[0].sample_id
        embodiments = list(key.sample(sample_id).embodiments)
        if embodiment_ not in embodiments:
            embodiment_ = embodiments[0]
        samples = [(f"{s.sample_id} · {s.task[:70]}", s.sample_id) for s in key.samples]
        drawn = draw(state, submission_id, sample_id, embodiment_, layers_, profile)
        return (
            gr.update(choices=mine, value=submission_id),
            gr.update(choices=samples, value=sample_id),
            gr.update(choices=embodiments, value=embodiment_),
            *drawn,
        )


def pick_sample(
    state: Explorer,
    submission_id: str | None,
    sample_id: str | None,
    layers_: list[str] | None,
    profile: gr.OAuthProfile | None,
) -> tuple[Any, ...]:
    """A sample picked: its embodiments offered, its first one drawn."""
    with shown():
        embodiments = list(_key(state).sample(sample_id).embodiments) if sample_id else []
    first = embodiments[0] if embodiments else None
    return gr.update(choices=embodiments, value=first), *draw(state, submission_id, sample_id, first, layers_, profile)


def draw(
    state: Explorer,
    submission_id: str | None,
    sample_id: str | None,
    embodiment_: str | None,
    layers_: list[str] | None,
    profile: gr.OAuthProfile | None,
) -> tuple[Any, ...]:
    """The picture, the row's figures, the task and the legend; the submission's trace drawn when one is chosen
    (its owner's only)."""
    with shown():
        key = _key(state)
        shown_layers = layers_shown(layers_)
        if not sample_id or sample_id not in key:
            return gr.update(value=None, alt_text=None), "", "", explorer_legend.legend_html(shown_layers)
        embodiments = list(key.sample(sample_id).embodiments)
        if embodiment_ not in embodiments:  # a stale or typed value: the sample's first, never an error
            embodiment_ = embodiments[0]
        trace, why = None, None
        if submission_id:
            user = state.services.auth.require_user(profile, "explore your submission")
            trace, why = state.services.traces.trace(submission_id, user, key, sample_id, embodiment_)
        pic = _picture(state, key, sample_id, embodiment_, trace, shown_layers)
        return _shown(state, key, sample_id, pic, why, shown_layers)


def pick_submission(
    state: Explorer,
    submission_id: str | None,
    sample_id: str | None,
    embodiment_: str | None,
    layers_: list[str] | None,
    profile: gr.OAuthProfile | None,
) -> tuple[Any, ...]:
    """A submission picked: its rows offered, worst first (none and hidden for "none"), and the row redrawn."""
    with shown():
        if not submission_id:
            return gr.update(visible=False, choices=[], value=None), *draw(
                state, "", sample_id, embodiment_, layers_, profile
            )
        user = state.services.auth.require_user(profile, "explore your submission")
        rows = state.services.leaderboard.rows(submission_id, user=user)
        choices = [(_row_label(r), f"{r['sample_id']}|{r['embodiment']}") for r in _worst_first(rows)]
        return gr.update(visible=True, choices=choices, value=None), *draw(
            state, submission_id, sample_id, embodiment_, layers_, profile
        )


def pick_row(
    state: Explorer,
    submission_id: str | None,
    picked: str | None,
    layers_: list[str] | None,
    profile: gr.OAuthProfile | None,
) -> tuple[Any, ...]:
    """A row of the submission picked (``"sample|embodiment"``): the sample and embodiment set to it, drawn."""
    if not picked or "|" not in picked:
        return (gr.skip(),) * 6
    sample_id, embodiment_ = picked.split("|", 1)
    with shown():
        key = _key(state)
        embodiments = list(key.sample(sample_id).embodiments) if sample_id in key else []
    return (
        gr.update(value=sample_id),
        gr.update(choices=embodiments, value=embodiment_),
        *draw(state, submission_id, sample_id, embodiment_, layers_, profile),
    )


def _key(state: Explorer) -> AnswerKey:
    state.services.warmup.wait()
    return state.services.leaderboard.keys.public(Split.VALIDATION)


def _submission_choices(state: Explorer, profile: gr.OAuthProfile | None) -> list[tuple[str, str]]:
    """The submission picker's choices: "none", then the caller's finished validation submissions."""
    user = state.services.auth.user(profile)
    mine = [NONE]
    if user:
        finished = [
            v
            for v in state.services.leaderboard.my_submissions(user)
            if v.split == Split.VALIDATION and v.status == JobStatus.FINISHED
        ]
        mine += [(_label(v), v.submission_id) for v in finished]
    return mine


def _picture(
    state: Explorer,
    key: AnswerKey,
    sample_id: str,
    embodiment: str,
    trace: NDArray[np.float64] | None,
    layers: picture.Layers,
) -> picture.Picture:
    """Drawn in the drawing process (seconds of CPU for a worst-case row), off the pages' interpreter."""
    raw = state.services.leaderboard.settings.baseline_raw
    if state.services.drawings is None:
        return picture.picture(key, sample_id, embodiment, trace, layers, raw)
    return state.services.drawings.picture(sample_id, embodiment, trace, layers, raw, save_in=state.save_in)


def _shown(
    state: Explorer, key: AnswerKey, sample_id: str, pic: picture.Picture, why: str | None, layers: picture.Layers
) -> tuple[Any, ...]:
    """What ``draw`` shows of a drawn row: the picture with its alt text, the figures, the task, the legend."""
    text = views.row_breakdown(
        pic.score,
        state.services.leaderboard.settings.baseline_raw,
        pic.n_truths,
        pic.truth_index,
        pic.charged_share,
        pic.notes,
        why,
    )
    alt = explorer_legend.alt_text(pic, key.sample(sample_id).task, layers)
    return (
        gr.update(value=pic.image, alt_text=alt),
        text,
        _task(key, sample_id),
        explorer_legend.legend_html(layers),
    )


def _task(key: AnswerKey, sample_id: str) -> str:
    s = key.sample(sample_id)
    meta = " · ".join(f"{esc(k.replace('_', ' '))}: {esc(v)}" for k, v in sorted(s.metadata.items()) if v)
    return (
        f"<div class='nt-task'><p><strong>Task:</strong> {esc(s.task)}</p>"
        f"<p><strong>Categories:</strong> {esc(', '.join(s.category) or '—')} · "
        f"<strong>size:</strong> {s.width}×{s.height} px</p><p class='nt-small'>{meta}</p></div>"
    )


def _label(view: Any) -> str:
    score = view.summary.score if view.summary else None
    value = f"{score:.2f}" if isinstance(score, int | float) else "—"
    return f"{view.submission_id} · {view.metadata.get('model')} · score {value}"


def _worst_first(rows: list[dict[str, str]]) -> list[dict[str, str]]:
    """Rows without a score (invalid, missing) first, then the lowest scores: where a model loses most."""
    return sorted(rows, key=lambda r: (1, float(r["score"])) if r.get("score") else (0, 0.0))


def _row_label(r: dict[str, str]) -> str:
    where = f"{r['sample_id']} · {r['embodiment']}"
    if r.get("status") == "valid" and r.get("score"):
        return f"{where} · {float(r['score']):.1f}"
    return f"{where} · {r.get('status')}: {r.get('reason') or ''}".rstrip(": ")
