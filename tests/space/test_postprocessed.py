"""Outputs postprocessed in the handler's thread are what Gradio's own postprocessing would have sent."""

from __future__ import annotations

import gradio as gr
import pytest

from space.postprocessed import in_handler


def test_each_value_is_what_its_component_would_have_made():
    with gr.Blocks():
        note = gr.Markdown()
        count = gr.Number(precision=0)
        picks = gr.CheckboxGroup(["a", "b"])
        flag = gr.Checkbox()
    outputs = [note, count, picks, flag]
    values = ("\n    Indented *text*\n    ", 2.7, ("a",), 1)
    handler = in_handler(outputs, lambda: values)
    assert handler() == tuple(c.postprocess(v) for c, v in zip(outputs, values, strict=True))
    assert handler()[:2] == ("Indented *text*", 3)  # Markdown's dedent and Number's rounding: done here


def test_updates_and_skips_keep_their_meaning():
    with gr.Blocks():
        count, note = gr.Number(precision=0), gr.Markdown()
    handler = in_handler([count, note], lambda: (gr.update(value=4.4, visible=False), gr.skip()))
    updated, skipped = handler()
    assert updated == {"__type__": "update", "value": 4, "visible": False} and skipped == gr.skip()


def test_one_output_and_a_wrong_count():
    with gr.Blocks():
        note = gr.Markdown()
    assert in_handler([note], lambda: "  x  ")() == note.postprocess("  x  ") != "  x  "
    with pytest.raises(ValueError, match="returned 1 values for 2 outputs"):
        in_handler([note, note], lambda: ("x",))()


def test_the_handler_keeps_its_name_and_signature_for_gradio():
    def opened(request: gr.Request):
        return "x"

    wrapped = in_handler([gr.Markdown(render=False)], opened)
    assert wrapped.__name__ == "opened"  # the API name Gradio derives from it
    import inspect

    assert list(inspect.signature(wrapped).parameters) == ["request"]  # Gradio still passes the request
