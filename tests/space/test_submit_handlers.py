"""The Submit tab's handlers called as functions, over a real service and no page (``space/submit/handlers.py``).

Each handler answers one value per output of its listener, in the order ``space/submit/tab.py`` wires them:
a check ``(report, submit button, receipt, why, file box)``, a submission ``(receipt, why, quota, submit button,
file box, report)``, the quota on load ``(quota, file box, check button)``.
"""

from __future__ import annotations

import dataclasses
import inspect
import shutil
from collections.abc import Iterator
from html import unescape
from pathlib import Path

import gradio as gr
import pytest
from gradio.helpers import special_args
from gradio.utils import get_type_hints
from starlette.requests import Request

from leaderboard import Leaderboard, Settings
from space.site import words
from space.submit import handlers as submit_handlers
from space.submit.handlers import SubmitState, cleared, on_split, open_form, run_check, run_submit, show_quota
from space.submit.uploads import Uploads
from space.web.services import Services
from space.web.settings import SpaceSettings
from space.workspace.handlers import bound

BAD = "sample_id\tembodiment\tprediction\nval_0000\tHuman\tnot json\n"


@pytest.fixture
def services(settings: Settings, service: Leaderboard, tmp_path: Path) -> Iterator[Services]:
    """The Space's services over the test's service, checking files in this process (no checking children)."""
    checker = service.intake.checker
    made = Services.create(settings, SpaceSettings(), leaderboard=service, examples=tmp_path / "examples")
    service.intake.checker = checker
    made.warmup.run()  # the public keys, here rather than in a thread
    yield dataclasses.replace(made, checks=None, drawings=None)
    shutil.rmtree(made.scratch, ignore_errors=True)


@pytest.fixture
def state(services: Services, tmp_path: Path) -> SubmitState:
    return SubmitState.create(services, Uploads(tmp_path / "uploads"))


def signed_in(user: str = "ann") -> gr.OAuthProfile:
    return gr.OAuthProfile({"preferred_username": user, "name": user, "profile": "", "picture": ""})


def uploaded(state: SubmitState, source: Path | str, name: str = "preds.tsv") -> dict[str, str]:
    """A file as Gradio's upload route leaves it, and the value the page sends for it (``FileData``)."""
    target = state.uploads.folder / f"upload-{len(list(state.uploads.folder.glob('*')))}" / name
    target.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(source, Path):
        shutil.copyfile(source, target)
    else:
        target.write_text(source, "utf-8")
    return {"path": str(target)}


def no_metadata() -> list[object]:
    """The form left as it opens, from the model name to the last declaration (``run_submit``'s order)."""
    return ["", "", "", "", "", "", "", "", False, None, None, "", "", False]


def sent(state: SubmitState, file: dict[str, str], split: str, model: str, profile: gr.OAuthProfile | None):
    """``run_submit`` with the model name typed and nothing else."""
    form = no_metadata()
    form[0] = model
    return run_submit(state, file, split, *form, profile)


@pytest.mark.parametrize(
    ("handler", "inputs"),
    [
        (show_quota, []),
        (open_form, ["split_"]),
        (run_check, ["value", "split_"]),
        (cleared, []),
        (on_split, ["split_"]),
        (run_submit, list(inspect.signature(run_submit).parameters)[1:-1]),
    ],
)
def test_gradio_reads_a_bound_handler_as_the_handler_and_injects_the_signed_in_profile(state, handler, inputs):
    """Gradio finds the profile by ``typing.get_type_hints`` of the function it is given, which of a
    ``functools.partial`` or a lambda is empty: the handler would always see the user signed out."""
    fn = bound(handler, state)
    assert fn.__name__ == handler.__name__  # the endpoint's name when none is given (``show_quota``, ``open_form``)
    assert list(inspect.signature(fn).parameters) == [*inputs, "profile"]
    assert get_type_hints(fn)["profile"] == gr.OAuthProfile | None
    session = {"oauth_info": {"userinfo": {"preferred_username": "ann", "name": "ann", "profile": "", "picture": ""}}}
    request = Request({"type": "http", "session": session})
    args, *_ = special_args(fn, [None] * len(inputs), request)
    assert len(args) == len(inputs) + 1 and args[-1].username == "ann"
    args, *_ = special_args(fn, [None] * len(inputs), None)  # nobody signed in: None, and no warning
    assert args == [None] * (len(inputs) + 1)


def test_the_quota_on_load_says_sign_in_until_signed_in_then_what_is_left(state: SubmitState, files, service):
    text, upload, check = show_quota(state, None)
    assert text.startswith("**Sign in at the top to upload, check and submit a file**")
    assert upload == gr.update(interactive=False, label="Predictions TSV: sign in at the top to upload")
    assert check == gr.update(interactive=False)
    limit = state.limit
    text, upload, check = show_quota(state, signed_in())
    assert text.startswith(f"Test submissions left today: **{limit} of {limit}**")
    assert upload == gr.update(interactive=True, label="Predictions TSV") and check == gr.update(interactive=True)
    service.submit(files["test-noisy"], split="test", user="ann", metadata={"model": "M"})
    text, _, _ = show_quota(state, signed_in())
    assert text.startswith(f"Test submissions left today: **{limit - 1} of {limit}**")


def test_the_form_opens_for_a_signed_in_user_and_says_why_it_is_closed_otherwise(state: SubmitState):
    *fields, publish, why, note = open_form(state, "test", None)
    assert len(fields) == len(submit_handlers.METADATA)
    assert all(f == gr.update(interactive=False) for f in fields) and publish == gr.update(interactive=False)
    assert words.SIGNED_OUT_SUBMIT in why and note == ""
    *fields, publish, why, note = open_form(state, "test", signed_in())
    assert all(f == gr.update(interactive=True) for f in fields) and publish == gr.update(interactive=True)
    assert words.NOT_CHECKED in why


def test_a_good_file_passes_its_check_and_opens_submit(state: SubmitState, files):
    file = uploaded(state, files["validation-noisy"])
    report, submit, receipt, why, upload = run_check(state, file, "validation", signed_in())
    assert "expected rows of the validation split are present and valid. You can submit this file." in report
    assert submit == gr.update(interactive=True) and receipt == "" and words.READY in why
    assert upload == gr.skip()  # the file stays on the form, to be submitted


def test_a_bad_file_is_refused_saying_where_what_and_what_was_expected_and_leaves_the_form(state: SubmitState):
    file = uploaded(state, BAD)
    report, submit, receipt, why, upload = run_check(state, file, "validation", signed_in())
    said = unescape(report)
    assert (
        "This file cannot be submitted: no valid prediction in the file (1 invalid, 15 missing of 16 expected" in said
    )
    assert 'line 2 (sample_id "val_0000", embodiment "Human"): prediction is not valid JSON' in said
    assert "The file was taken off the form: fix it and upload it again." in said
    assert submit == gr.update(interactive=False) and words.NOT_CHECKED in why
    assert upload is None and not Path(file["path"]).exists()  # deleted and the file box emptied
    report, *_ = run_check(state, file, "validation", signed_in())  # the page sends the gone file again
    assert words.CHECK_GONE in unescape(report)


def test_a_check_signed_out_is_refused_and_leaves_the_file_alone(state: SubmitState, files):
    file = uploaded(state, files["validation-noisy"])
    report, submit, _, why, _ = run_check(state, file, "validation", None)
    assert words.CHECK_SIGNED_OUT in report and words.SIGNED_OUT_SUBMIT in why
    assert submit == gr.update(interactive=False) and Path(file["path"]).is_file()


def test_a_second_check_while_one_runs_waits_its_turn(state: SubmitState, files):
    file = uploaded(state, files["validation-noisy"])
    assert state.turns.start("ann") is None  # ann's first check is running
    busy, *rest = run_check(state, file, "validation", signed_in())
    assert busy == f'<div class="nt-note nt-note-warn">{words.checks_text(state.turns.per_minute, 1)}</div>'
    assert rest == [gr.skip()] * 4
    state.turns.end("ann")
    report, *_ = run_check(state, file, "validation", signed_in())
    assert "You can submit this file." in report


def test_submit_signed_out_asks_to_sign_in(state: SubmitState, files):
    file = uploaded(state, files["test-noisy"])
    with pytest.raises(gr.Error, match="Sign in .* to submit"):
        sent(state, file, "test", "M", None)


def test_submit_signed_in_stores_it_and_answers_with_its_id_and_the_quota_left(state: SubmitState, files, service):
    file, limit = uploaded(state, files["test-noisy"]), state.limit
    run_check(state, file, "test", signed_in())
    receipt, why, quota, submit, upload, report = sent(state, file, "test", "My model", signed_in())
    (mine,) = service.my_submissions("ann")
    assert f"Submitted: {mine.submission_id} (test split). It is queued for scoring." in receipt
    assert f"Test submissions left today: {limit - 1} of {limit}" in receipt
    assert quota.startswith(f"Test submissions left today: **{limit - 1} of {limit}**")
    assert words.NOT_CHECKED in why and submit == gr.update(interactive=False)
    assert upload is None and report == "" and not Path(file["path"]).exists()  # the service keeps its own copy
    assert service.status(mine.submission_id, "ann").metadata["model"] == "My model"


def test_submit_without_a_model_name_names_and_marks_the_field(state: SubmitState, files, service):
    file = uploaded(state, files["validation-noisy"])
    receipt, *rest = sent(state, file, "validation", "  ", signed_in())
    assert "Not submitted: Model name is required: the name readers will see on the board" in receipt
    assert 'data-field="meta-model"' in receipt
    assert rest == ["", *[gr.skip()] * 4] and service.my_submissions("ann") == []
