"""The Explorer (validation split only): a sample, or a row of my validation submission, drawn and explained."""

from __future__ import annotations

from typing import Any

import gradio as gr

from leaderboard.records import JobStatus, Split
from scoring import AnswerKey
from space.errors import shown
from space.pages import about, explorer, explorer_legend, views
from space.pages.html import esc
from space.services import Services
from space.tabs import workspace_a11y

LAYERS = ("Expert traces", "Predicted trace", "Penalty region edges", "Penalty regions filled (by cost)")
DEFAULT_LAYERS = list(LAYERS[:3])  # filled, the penalty regions tint most of a street scene: one click away
NONE = ("none: ground truth only", "")


def _layers(chosen: list[str] | None) -> explorer.Layers:
    picked = set(chosen or ())
    return explorer.Layers(LAYERS[0] in picked, LAYERS[1] in picked, LAYERS[3] in picked, LAYERS[2] in picked)


def build(services: Services, demo: gr.Blocks) -> gr.Tab:
    service, auth = services.leaderboard, services.auth
    with gr.Tab("Explorer", id="explorer", elem_id="tab-explorer") as tab:
        workspace_a11y.install(demo)
        gr.Markdown(about.EXPLORER_HELP, elem_classes="nt-help")
        with gr.Row():
            with gr.Column(scale=1, min_width=300):
                submission = gr.Dropdown(
                    [NONE], value="", label="Your validation submission (optional)", elem_id="explorer-submission"
                )
                # ``allow_custom_value``: an event sent just before another one changed these lists (a layer ticked
                # while a row was being picked) carries a value the new list lacks; Gradio would refuse the whole
                # event with a bare "Error". ``draw`` checks the values itself and falls back to the sample's first.
                row = gr.Dropdown(
                    [],
                    label="Row of that submission (worst first)",
                    visible=False,
                    elem_id="explorer-row",
                    allow_custom_value=True,
                )
                sample = gr.Dropdown([], label="Sample", elem_id="explorer-sample", allow_custom_value=True)
                embodiment = gr.Dropdown([], label="Embodiment", elem_id="explorer-embodiment", allow_custom_value=True)
                layers = gr.CheckboxGroup(list(LAYERS), value=DEFAULT_LAYERS, label="Show", elem_id="explorer-layers")
                task = gr.HTML(elem_id="explorer-task")
            with gr.Column(scale=2):
                # The figures first: beside the controls, above the picture, inside the first screen at 1440x900.
                breakdown = gr.HTML(elem_id="explorer-breakdown")
                legend = gr.HTML(explorer_legend.legend_html(_layers(DEFAULT_LAYERS)), elem_id="explorer-legend-box")
                image = gr.Image(label="Validation image", type="pil", interactive=False, elem_id="explorer-image")

    def key() -> AnswerKey:
        services.warmup.wait()
        return service.keys.public(Split.VALIDATION)

    def draw_picture(
        k: AnswerKey, sample_id: str, embodiment_: str, trace, layers: explorer.Layers
    ) -> explorer.Picture:  # noqa: ANN001
        """Drawn in the drawing process (seconds of CPU for a worst-case row), off the pages' interpreter."""
        raw = service.settings.baseline_raw
        if services.drawings is None:
            return explorer.picture(k, sample_id, embodiment_, trace, layers, raw)
        return services.drawings.picture(sample_id, embodiment_, trace, layers, raw, save_in=image.GRADIO_CACHE)

    def draw(submission_id, sample_id, embodiment_, layers_, profile: gr.OAuthProfile | None):
        with shown():
            k = key()
            shown_layers = _layers(layers_)
            if not sample_id or sample_id not in k:
                return gr.update(value=None, alt_text=None), "", "", explorer_legend.legend_html(shown_layers)
            embodiments = list(k.sample(sample_id).embodiments)
            if embodiment_ not in embodiments:  # a stale or typed value: the sample's first, never an error
                embodiment_ = embodiments[0]
            trace, why = None, None
            if submission_id:
                user = auth.require_user(profile, "explore your submission")
                trace, why = services.traces.trace(submission_id, user, k, sample_id, embodiment_)
            pic = draw_picture(k, sample_id, embodiment_, trace, shown_layers)
            text = views.row_breakdown(
                pic.score,
                service.settings.baseline_raw,
                pic.n_truths,
                pic.truth_index,
                pic.charged_share,
                pic.notes,
                why,
            )
            alt = explorer_legend.alt_text(pic, k.sample(sample_id).task, shown_layers)
            return (
                gr.update(value=pic.image, alt_text=alt),
                text,
                _task(k, sample_id),
                explorer_legend.legend_html(shown_layers),
            )

    def open_tab(submission_id, sample_id, embodiment_, layers_, profile: gr.OAuthProfile | None):
        with shown():
            k = key()
            user = auth.user(profile)
            mine = [NONE]
            if user:
                finished = [
                    v
                    for v in service.my_submissions(user)
                    if v.split == Split.VALIDATION and v.status == JobStatus.FINISHED
                ]
                mine += [(_label(v), v.submission_id) for v in finished]
            if submission_id not in [value for _, value in mine]:
                submission_id = ""
            if sample_id not in k:
                sample_id = k.samples[0].sample_id
            embodiments = list(k.sample(sample_id).embodiments)
            if embodiment_ not in embodiments:
                embodiment_ = embodiments[0]
            samples = [(f"{s.sample_id} · {s.task[:70]}", s.sample_id) for s in k.samples]
            drawn = draw(submission_id, sample_id, embodiment_, layers_, profile)
            return (
                gr.update(choices=mine, value=submission_id),
                gr.update(choices=samples, value=sample_id),
                gr.update(choices=embodiments, value=embodiment_),
                *drawn,
            )

    def pick_sample(submission_id, sample_id, layers_, profile: gr.OAuthProfile | None):
        with shown():
            embodiments = list(key().sample(sample_id).embodiments) if sample_id else []
        first = embodiments[0] if embodiments else None
        return gr.update(choices=embodiments, value=first), *draw(submission_id, sample_id, first, layers_, profile)

    def pick_submission(submission_id, sample_id, embodiment_, layers_, profile: gr.OAuthProfile | None):
        with shown():
            if not submission_id:
                return gr.update(visible=False, choices=[], value=None), *draw(
                    "", sample_id, embodiment_, layers_, profile
                )
            user = auth.require_user(profile, "explore your submission")
            rows = service.rows(submission_id, user=user)
            choices = [(_row_label(r), f"{r['sample_id']}|{r['embodiment']}") for r in _worst_first(rows)]
            return gr.update(visible=True, choices=choices, value=None), *draw(
                submission_id, sample_id, embodiment_, layers_, profile
            )

    def pick_row(submission_id, picked, layers_, profile: gr.OAuthProfile | None):
        if not picked or "|" not in picked:
            return (gr.skip(),) * 6
        sample_id, embodiment_ = picked.split("|", 1)
        with shown():
            embodiments = list(key().sample(sample_id).embodiments) if sample_id in key() else []
        return (
            gr.update(value=sample_id),
            gr.update(choices=embodiments, value=embodiment_),
            *draw(submission_id, sample_id, embodiment_, layers_, profile),
        )

    drawn = [image, breakdown, task, legend]
    quiet: dict[str, Any] = {"api_visibility": "undocumented"}
    tab.select(open_tab, [submission, sample, embodiment, layers], [submission, sample, embodiment, *drawn], **quiet)
    sample.input(pick_sample, [submission, sample, layers], [embodiment, *drawn], **quiet)
    embodiment.input(draw, [submission, sample, embodiment, layers], drawn, api_name="explore", **quiet)
    layers.input(draw, [submission, sample, embodiment, layers], drawn, **quiet)
    submission.input(pick_submission, [submission, sample, embodiment, layers], [row, *drawn], **quiet)
    row.input(pick_row, [submission, row, layers], [sample, embodiment, *drawn], **quiet)
    return tab


def _task(key: AnswerKey, sample_id: str) -> str:
    s = key.sample(sample_id)
    meta = " · ".join(f"{esc(k.replace('_', ' '))}: {esc(v)}" for k, v in sorted(s.metadata.items()) if v)
    return (
        f"<div class='nt-task'><p><strong>Task:</strong> {esc(s.task)}</p>"
        f"<p><strong>Categories:</strong> {esc(', '.join(s.category) or '—')} · "
        f"<strong>size:</strong> {s.width}×{s.height} px</p><p class='nt-small'>{meta}</p></div>"
    )


def _label(view) -> str:
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
