"""Probes of a benchmarked app, loaded into it through ``PYTHONPATH``: garbage collections, requests, event steps.

``load_test.py --gc-probe FILE`` puts this folder first on the app's ``PYTHONPATH`` and names ``FILE`` in
``GC_PROBE_OUT``: every collection of generation 1 or 2 appends a line to it,
``<pid> <monotonic start> <generation> <seconds> <objects collected> <objects left in generation 2>`` (0 for
generation 1; counted after the collection, outside its timing). The app's children (scoring, checks,
drawings) inherit the variables and write to the same file: the pid tells them apart.
With ``REQUEST_PROBE_OUT`` (``--request-probe``), every HTTP request appends
``<monotonic start> <seconds to its last byte> <method> <path>``, timed at the app's outermost middleware
(``space.web.guard.Door``), so the benchmark can tell the server's time from the client's.
With ``STEP_PROBE_OUT`` (``--step-probe``), each step of a Gradio event appends
``<monotonic start> <seconds> <step> <api name>``: the whole event (``process_events``), its processing
(``process_api``), and within it ``preprocess_data``, the handler (``call_function``), ``postprocess_data``.

The clock is the machine's monotonic one, the same in every process, so the benchmark can lay these beside
its page loads. Nothing the app answers changes: the GC probe only listens (``gc.callbacks``), the other two
wrap calls and time them; without the variables this does nothing.
"""

import gc
import os
import sys
import threading
import time

_GC_OUT = os.environ.get("GC_PROBE_OUT")
_REQUEST_OUT = os.environ.get("REQUEST_PROBE_OUT")

if _GC_OUT:
    _gc_file = open(_GC_OUT, "a", buffering=1)  # a line each: the app may end by SIGTERM before any flush
    _started: list[float] = []

    def _record(phase: str, info: dict) -> None:
        if info["generation"] == 0:  # young collections: many a second, each well under a millisecond
            return
        if phase == "start":
            _started[:] = [time.monotonic()]
        elif _started:
            begun = _started.pop()
            took = time.monotonic() - begun
            left = gc.get_objects(generation=2) if info["generation"] == 2 else []  # what the next one walks
            line = f"{os.getpid()} {begun:.6f} {info['generation']} {took:.6f} {info['collected']} {len(left)}\n"
            _gc_file.write(line)
            if took > 0.1 and os.environ.get("GC_PROBE_TYPES"):  # a slow one: what it walked, to a side file
                _describe(left, took)

    def _describe(objects: list, took: float) -> None:
        import collections

        kinds = collections.Counter(type(o).__qualname__ for o in objects)
        sizes = sorted(
            ((len(o), type(o).__qualname__) for o in objects if isinstance(o, (list, dict, tuple, set))), reverse=True
        )
        modules = collections.Counter(
            (getattr(o, "__module__", None) or "?").split(".")[0] for o in objects if type(o).__name__ == "function"
        )
        with open(_GC_OUT + ".types", "a") as out:
            out.write(f"pid {os.getpid()}, {took:.3f} s: {kinds.most_common(8)}; largest containers {sizes[:8]}; ")
            out.write(f"functions by package {modules.most_common(12)}\n")

    gc.callbacks.append(_record)

if _REQUEST_OUT:
    _request_file = open(_REQUEST_OUT, "a", buffering=1)

    def _time_requests(door: type) -> None:
        through = door.__call__

        async def __call__(self, scope, receive, send):  # noqa: ANN001, N807
            if scope["type"] != "http":
                return await through(self, scope, receive, send)
            begun = time.monotonic()

            async def sent(message):  # noqa: ANN001
                await send(message)
                if message["type"] == "http.response.body" and not message.get("more_body"):
                    line = f"{begun:.6f} {time.monotonic() - begun:.6f} {scope['method']} {scope['path']}\n"
                    _request_file.write(line)

            return await through(self, scope, receive, sent)

        door.__call__ = __call__

    def _when_imported() -> None:  # the app imports its guard later than this file runs: wait for it
        while "space.web.guard" not in sys.modules or not hasattr(sys.modules["space.web.guard"], "Door"):
            time.sleep(0.05)
        _time_requests(sys.modules["space.web.guard"].Door)

    threading.Thread(target=_when_imported, name="request-probe", daemon=True).start()

_STEPS_OUT = os.environ.get("STEP_PROBE_OUT")

if _STEPS_OUT:  # how long each step of Gradio's event pipeline takes: queue wait, the whole event, the handler
    _steps_file = open(_STEPS_OUT, "a", buffering=1)

    def _timed(owner: type, name: str, label: str) -> None:
        inner = getattr(owner, name)

        async def timed(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
            begun = time.monotonic()
            try:
                return await inner(*args, **kwargs)
            finally:
                _steps_file.write(f"{begun:.6f} {time.monotonic() - begun:.6f} {label} {_api_name(args)}\n")

        setattr(owner, name, timed)

    def _api_name(args: tuple) -> str:
        """The event's API name, from the step's arguments (a ``BlockFunction`` or a list of events)."""
        for arg in args[1:3]:
            fn = getattr(arg, "api_name", None) or getattr(getattr(arg, "fn", None), "api_name", None)
            if fn is None and isinstance(arg, list) and arg:
                fn = getattr(getattr(arg[0], "fn", None), "api_name", None)
            if fn:
                return str(fn)
        return "-"

    def _when_gradio() -> None:
        while "gradio.blocks" not in sys.modules or "gradio.queueing" not in sys.modules:
            time.sleep(0.05)
        time.sleep(0.5)
        blocks, queueing = sys.modules["gradio.blocks"], sys.modules["gradio.queueing"]
        _timed(queueing.Queue, "process_events", "process_events")
        _timed(blocks.Blocks, "process_api", "process_api")
        _timed(blocks.Blocks, "call_function", "call_function")
        _timed(blocks.Blocks, "preprocess_data", "preprocess_data")
        _timed(blocks.Blocks, "postprocess_data", "postprocess_data")

    threading.Thread(target=_when_gradio, name="step-probe", daemon=True).start()
