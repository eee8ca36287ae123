"""The Explorer's events called as functions, on a real service, with no page built; and handed to Gradio by
``bound``, which must keep what Gradio reads of a handler (its name, and the profile it injects by type)."""

from __future__ import annotations

import dataclasses
import inspect
from pathlib import Path
from types import SimpleNamespace

import gradio as gr
import pytest
from gradio.helpers import special_args

from space.board.cache import BoardCache
from space.explorer.handlers import (
    DEFAULT_LAYERS,
    LAYERS,
    NONE,
    Explorer,
    draw,
    open_tab,
    pick_row,
    pick_sample,
    pick_submission,
)
from space.explorer.picture import SubmissionTraces
from space.web.auth import Auth
from space.web.offload import Offload
from space.web.services import Services
from space.web.settings import SpaceSettings
from space.web.warmup import Warmup
from space.workspace.handlers import bound
from tests.service_fixtures import submit

HANDLERS = (open_tab, pick_sample, draw, pick_submission, pick_row)


def profile(user: str) -> gr.OAuthProfile:
    return gr.OAuthProfile({"preferred_username": user, "name": user, "profile": "", "picture": ""})


ALICE, MALLORY = profile("alice"), profile("mallory")


@pytest.fixture
def state(service, tmp_path: Path) -> Explorer:
    """The Explorer's state over the service, drawing in this process (``Services.drawings`` is ``None``)."""
    warmup = Warmup(service.keys, tmp_path / "examples")
    warmup.run()
    board = BoardCache(service.public_table, tmp_path / "board")
    services = Services(service, Auth(service, SpaceSettings()), warmup, SubmissionTraces(service),
                        SpaceSettings(), tmp_path, board)  # fmt: skip
    return Explorer(services, str(tmp_path / "gradio-cache"))


@pytest.fixture
def validation_id(service, files) -> str:
    """alice's scored validation submission."""
    submission_id = submit(service, files["validation-noisy"], split="validation").submission_id
    service.worker.drain()
    assert service.status(submission_id).status == "FINISHED"
    return submission_id


def test_a_visitor_opening_the_tab_gets_the_first_sample_drawn_without_a_submission(state, validation_key):
    first = validation_key.samples[0]
    mine, samples, embodiments, image, breakdown, task, legend = open_tab(state, None, None, None, DEFAULT_LAYERS, None)
    assert mine["choices"] == [NONE] and mine["value"] == ""
    assert samples["value"] == first.sample_id and len(samples["choices"]) == len(validation_key.samples)
    assert embodiments == gr.update(choices=list(first.embodiments), value=first.embodiments[0])
    assert image["value"].size == (first.width, first.height)
    assert image["alt_text"].startswith(f"Validation image {first.sample_id} ")
    assert "Row score" not in breakdown and "Task:" in task and "expert" in legend


def test_the_tab_lists_only_its_callers_finished_validation_submissions(state, service, files, validation_id):
    submit(service, files["test-noisy"])  # alice's test submission: never in the Explorer
    submit(service, files["validation-perfect"], split="validation", user="bob")
    mine = open_tab(state, "stale-id", None, None, DEFAULT_LAYERS, ALICE)[0]
    assert [value for _, value in mine["choices"]] == ["", validation_id] and mine["value"] == ""
    kept = open_tab(state, validation_id, None, None, DEFAULT_LAYERS, ALICE)[0]
    assert kept["value"] == validation_id and kept["choices"][1][0].startswith(f"{validation_id} · Model · score ")


def test_a_sample_picked_is_drawn_for_its_first_embodiment(state, validation_key):
    sample = validation_key.samples[1]
    embodiments, image, *_ = pick_sample(state, "", sample.sample_id, DEFAULT_LAYERS, None)
    assert embodiments == gr.update(choices=list(sample.embodiments), value=sample.embodiments[0])
    assert f"for a {sample.embodiments[0]}:" in image["alt_text"]


def test_draw_falls_back_to_the_samples_first_embodiment_and_draws_nothing_for_no_sample(state, validation_key):
    sample = validation_key.samples[0]
    image = draw(state, "", sample.sample_id, "a stale value", DEFAULT_LAYERS, None)[0]
    assert f"for a {sample.embodiments[0]}:" in image["alt_text"]
    empty = draw(state, "", "no-such-sample", None, [LAYERS[3]], None)
    assert empty[:3] == (gr.update(value=None, alt_text=None), "", "") and "high (480–800)" in empty[3]


def test_the_owner_picks_a_submission_and_a_row_and_sees_its_trace_scored(state, validation_key, validation_id):
    sample = validation_key.samples[0]
    row, image, breakdown, *_ = pick_submission(
        state, validation_id, sample.sample_id, sample.embodiments[0], DEFAULT_LAYERS, ALICE
    )
    assert row["visible"] is True and row["value"] is None
    picked = [value for _, value in row["choices"]]
    assert len(picked) == sum(1 for _ in validation_key.expected_rows())  # every row, worst first
    assert "Row score" in breakdown and "predicted trace" in image["alt_text"]
    sample_id, embodiment = picked[0].split("|")
    chosen, embodiments, image, breakdown, *_ = pick_row(state, validation_id, picked[0], DEFAULT_LAYERS, ALICE)
    assert chosen == gr.update(value=sample_id) and embodiments["value"] == embodiment
    assert embodiment in embodiments["choices"] and f"Validation image {sample_id} " in image["alt_text"]
    assert "Row score" in breakdown


def test_none_hides_the_rows_and_a_row_that_is_no_row_changes_nothing(state, validation_key):
    sample = validation_key.samples[0]
    row, *drawn = pick_submission(state, "", sample.sample_id, sample.embodiments[0], DEFAULT_LAYERS, None)
    assert row == gr.update(visible=False, choices=[], value=None) and "Row score" not in drawn[1]
    assert pick_row(state, "", "not a row", DEFAULT_LAYERS, None) == (gr.skip(),) * 6


def test_a_stranger_or_a_visitor_is_refused_a_submissions_traces(state, validation_key, validation_id):
    sample = validation_key.samples[0]
    args = (validation_id, sample.sample_id, sample.embodiments[0], DEFAULT_LAYERS)
    for handler in (draw, pick_submission):
        with pytest.raises(gr.Error, match="belongs to another user"):
            handler(state, *args, MALLORY)
        with pytest.raises(gr.Error, match="Sign in .* to explore your submission"):
            handler(state, *args, None)


def test_a_drawing_in_the_drawing_process_comes_back_as_the_file_saved_in_the_pictures_cache(state, settings):
    drawings = Offload(settings, workers=1)
    served = dataclasses.replace(state, services=dataclasses.replace(state.services, drawings=drawings))
    try:
        sample = state.services.leaderboard.keys.public("validation").samples[0]
        image = draw(served, "", sample.sample_id, sample.embodiments[0], DEFAULT_LAYERS, None)[0]
    finally:
        drawings.close()
    saved = Path(image["value"])
    assert saved.suffix == ".webp" and saved.parent.parent == Path(state.save_in) and saved.is_file()
    assert image["alt_text"].startswith(f"Validation image {sample.sample_id} ")


@pytest.mark.parametrize("handler", HANDLERS, ids=lambda h: h.__name__)
def test_gradio_sees_each_bound_handler_as_it_saw_the_tabs_own(state, handler):
    event = bound(handler, state)
    assert event.__name__ == handler.__name__ and event.__doc__ == handler.__doc__  # its API name and description
    assert gr.utils.get_type_hints(event)["profile"] == gr.OAuthProfile | None  # injected by it; a partial hides it
    inputs = [p.name for p in gr.utils.get_positional_input_parameters(event)]  # the API's parameter names
    assert inputs == list(inspect.signature(handler).parameters)[1:-1]  # the event's inputs: no state, no profile


def test_the_signed_in_profile_reaches_a_bound_handler(state, validation_key, validation_id):
    """As Gradio calls it: the event's inputs, and the profile read from the caller's session."""
    sample = validation_key.samples[0]
    event = bound(pick_submission, state)
    request = SimpleNamespace(session={"oauth_info": {"userinfo": dict(ALICE)}})
    inputs = [validation_id, sample.sample_id, sample.embodiments[0], DEFAULT_LAYERS]
    arguments = special_args(event, inputs, request=request)[0]
    assert arguments[-1].username == "alice"
    row, _, breakdown, *_ = event(*arguments)
    assert row["visible"] is True and "Row score" in breakdown
