"""An event's outputs postprocessed in its handler's thread, not one worker-thread hop per output.

For each output of an event, Gradio runs the component's ``postprocess`` in a worker thread of its own
(``anyio.to_thread.run_sync``, ``Blocks.postprocess_data``), one after the other, each a round trip
between the event loop and a thread. The board's first event has 18 outputs (the view from the address
and the board itself): measured under 50 viewers (``benchmarks/load_test.py`` with its step probe,
2026-11-27), Gradio's postprocessing took 15 ms of the event's 19 ms idle, and 32-49 ms while files were
uploaded and scored, against 2-4 ms for the handler itself; each hop waits for a busier loop.

``in_handler(outputs, fn)`` makes ``fn`` return what Gradio's postprocessing would have made, computed by
the same components' ``postprocess`` in the thread the handler already runs in, and the event is declared
with ``postprocess=False`` (``NO_POSTPROCESS``): Gradio then stores and sends the values as they are.
``gr.update(...)`` and ``gr.skip()`` keep their meaning: an update's ``value`` is postprocessed likewise.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from gradio.data_classes import GradioModel, GradioRootModel

NO_POSTPROCESS = {"postprocess": False}  # the event's keywords that go with ``in_handler``


def in_handler(outputs: Sequence[Any], fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` whose results are postprocessed by ``outputs`` (the event's output components, in order)."""

    @functools.wraps(fn)  # the signature stays fn's: Gradio still passes gr.Request, gr.OAuthProfile...
    def postprocessed(*args: Any, **kwargs: Any) -> Any:
        results = fn(*args, **kwargs)
        if len(outputs) == 1:
            return _postprocess(outputs[0], results)
        results = list(results)
        if len(results) != len(outputs):
            raise ValueError(f"{fn.__name__} returned {len(results)} values for {len(outputs)} outputs")
        return tuple(_postprocess(component, value) for component, value in zip(outputs, results, strict=True))

    return postprocessed


def _postprocess(component: Any, value: Any) -> Any:
    if isinstance(value, dict) and value.get("__type__") == "update":  # gr.update(...), gr.skip()
        return {**value, "value": _plain(component.postprocess(value["value"]))} if "value" in value else value
    return _plain(component.postprocess(value))


def _plain(value: Any) -> Any:
    """What Gradio sends for a postprocessed value (``Blocks.postprocess_data`` dumps models likewise)."""
    return value.model_dump() if isinstance(value, (GradioModel, GradioRootModel)) else value
