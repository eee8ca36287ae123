"""What lives as long as the app is kept out of Python's full garbage collections.

Each visit leaves cyclic garbage behind (Gradio's per-session state, event objects, responses):
tens of thousands of objects between two full collections. A full collection walks every tracked
object of the heap, and the app's heap is mostly what never dies: modules, the two Blocks and
their configurations, the routes, the public answer keys. Under the load test a ``gc.callbacks``
probe in the app found full collections pausing every request for about a quarter of a second each,
and they alone made the page's p95 (``benchmarks/JOURNAL.md``).

``gc.freeze()`` moves every object alive at that moment to a permanent generation that collections
never walk (CPython's own advice for servers: collect, then freeze, after start-up). It is called
once the server has started and again when the public datasets are loaded; what is frozen is
never freed, so only call it at those moments, when everything alive is meant to stay. For that
reason it acts only in the app's own process (``python app.py`` calls ``enable()``): a test session
that starts many apps in one interpreter would otherwise keep every earlier test's objects forever.

The young generation keeps CPython's threshold (700 allocations). Collecting it every 10,000 instead
was tried: no full collection at all under load and a slightly better p95, but the cyclic garbage waited
longer and the soak's RSS settled far higher (``benchmarks/bench_soak.py``). Not worth it while the page
is this fast.
"""

from __future__ import annotations

import gc
import logging

log = logging.getLogger(__name__)

_enabled = False


def enable() -> None:
    """This process is the app (``app.main``): from now on ``freeze_long_lived`` freezes."""
    global _enabled
    _enabled = True


def freeze_long_lived(moment: str) -> int:
    """Collect what is already garbage, then freeze the rest; returns how many objects are frozen now
    (0, and nothing done, unless ``enable()`` was called)."""
    if not _enabled:
        return 0
    gc.collect()
    gc.freeze()
    frozen = gc.get_freeze_count()
    log.info("%s: %d long-lived objects kept out of garbage collection", moment, frozen)
    return frozen
