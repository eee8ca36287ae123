"""A probe of Python's garbage collections, loaded into a benchmarked app through ``PYTHONPATH``.

``load_test.py --gc-probe FILE`` puts this folder first on the app's ``PYTHONPATH`` and names ``FILE``
in ``GC_PROBE_OUT``: every collection of generation 1 or 2 then appends one line to ``FILE``,
``<monotonic start> <generation> <seconds> <objects collected>``. The clock is the machine's monotonic
one, the same in every process, so the benchmark can lay the pauses beside its page loads. Nothing is
changed in the app: the probe only listens (``gc.callbacks``), and without ``GC_PROBE_OUT`` it does nothing.
"""

import gc
import os
import time

_OUT = os.environ.get("GC_PROBE_OUT")

if _OUT:
    _file = open(_OUT, "a", buffering=1)  # a line each: the app may end by SIGTERM before any flush
    _started: list[float] = []

    def _record(phase: str, info: dict) -> None:
        if info["generation"] == 0:  # young collections: many a second, each well under a millisecond
            return
        if phase == "start":
            _started[:] = [time.monotonic()]
        elif _started:
            begun = _started.pop()
            _file.write(f"{begun:.6f} {info['generation']} {time.monotonic() - begun:.6f} {info['collected']}\n")

    gc.callbacks.append(_record)
