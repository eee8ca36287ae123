"""A page visit's first event, cheap: Gradio 6.31's per-visit state without the work nobody reads.

A visit's first event makes Gradio create its ``SessionState``, which copies the configuration of
every component of the page (``config_for_block`` of ~120 blocks), and ``Block.get_config`` computes
``inspect.signature`` of the component's class on each call. Under 50 viewers that was a third of the
app's CPU (issue 11: ``py-spy`` of ``benchmarks/load_test.py``). Two changes, both leaving every
answer the same (tests/space/test_visit_cost.py compares them with Gradio's own):

- ``gradio.blocks`` gets an ``inspect`` whose ``signature`` of a plain function is computed once (a
  class's ``__init__`` signature never changes while the app runs);
- the per-visit configuration copy is made on demand: Gradio reads it only to build a *deep link*
  (``SessionState.components``, for ``gr.DeepLinkButton``, which this app does not use) and keeps it
  current when an event replaces a component; ``LazyConfigs`` computes an entry when one is set or
  asked for, and all of them when someone lists them, so a deep link still sees every component.

Both reach into Gradio's internals: ``requirements.txt`` pins Gradio, and the tests fail when a new
version changes what is replaced here (``SessionState.__init__``'s attributes, ``gradio.blocks.inspect``).
"""

from __future__ import annotations

import functools
import inspect
import os
from collections.abc import Iterator
from copy import copy
from typing import Any

import gradio.blocks
import gradio.state_holder
from gradio.state_holder import SessionState


class _RememberedSignatures:
    """``inspect`` as ``gradio.blocks`` uses it, with the signatures of plain functions computed once each."""

    def __getattr__(self, name: str) -> Any:
        return getattr(inspect, name)

    @staticmethod
    @functools.lru_cache(maxsize=1024)  # one per component class's __init__: a few dozen
    def _of(function: Any) -> inspect.Signature:
        return inspect.signature(function)

    def signature(self, obj: Any, *args: Any, **kwargs: Any) -> inspect.Signature:
        if not args and not kwargs and inspect.isfunction(obj):
            return self._of(obj)
        return inspect.signature(obj, *args, **kwargs)


class LazyConfigs(dict):
    """A visit's component configurations, each computed when first needed (see the module's docstring)."""

    def __init__(self, state: SessionState, ids: list[int]) -> None:
        super().__init__()
        self._state, self._ids = state, ids  # the blocks of the page when the visit began

    def _all(self) -> None:
        """Every entry, in Gradio's order: the page's blocks as they were listed, then any added since."""
        if not self._ids:
            return
        config, blocks = self._state.blocks_config, self._state.blocks_config.blocks
        known = dict(super().items())
        super().clear()
        for key in self._ids:
            if key in known:
                dict.__setitem__(self, key, known.pop(key))
            elif key in blocks:
                dict.__setitem__(self, key, config.config_for_block(key, [], blocks[key]))
        super().update(known)
        self._ids = []

    def items(self):  # type: ignore[override]
        self._all()
        return super().items()

    def values(self):  # type: ignore[override]
        self._all()
        return super().values()

    def keys(self):  # type: ignore[override]
        self._all()
        return super().keys()

    def __iter__(self) -> Iterator[int]:
        self._all()
        return super().__iter__()

    def __len__(self) -> int:
        self._all()
        return super().__len__()


class LightSessionState(SessionState):
    """Gradio's ``SessionState`` whose configuration copy is a ``LazyConfigs``; everything else as Gradio's."""

    def __init__(self, blocks: Any) -> None:  # Gradio 6.31's __init__, but the copy made on demand
        self.blocks_config = copy(blocks.default_config)
        self.config_values = LazyConfigs(self, [k for k in self.blocks_config.blocks if k in blocks.blocks])
        self.state_data: dict[int, Any] = {}
        self._state_ttl: dict = {}
        self.is_closed = False
        self.STATE_TTL_WHEN_CLOSED = 1 if os.getenv("GRADIO_IS_E2E_TEST", None) else 3600


def cheap_visits() -> None:
    """Apply both changes (idempotent); before the app serves its first visit."""
    if not isinstance(gradio.blocks.inspect, _RememberedSignatures):
        gradio.blocks.inspect = _RememberedSignatures()  # type: ignore[assignment]
    gradio.state_holder.SessionState = LightSessionState  # type: ignore[misc]  # what StateHolder creates
