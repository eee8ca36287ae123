"""A page visit's first event, cheap: Gradio 6.31's per-visit state without the work nobody reads.

A visit's first event makes Gradio create its ``SessionState``, which copies the configuration of
every component of the page (``config_for_block`` of ~120 blocks), and ``Block.get_config`` computes
``inspect.signature`` of the component's class on each call. Under 50 viewers that was a third of the
app's CPU (issue 11: ``py-spy`` of ``benchmarks/load_test.py``). Two changes, both leaving every
answer the same (tests/space/test_visit_cost.py compares them with Gradio's own):

- ``gradio.blocks`` gets an ``inspect`` whose ``signature`` of a plain function is computed once (a
  class's ``__init__`` signature never changes while the app runs);
- the per-visit configuration copy is made on demand: Gradio reads it only to build a *deep link*
  (``SessionState.components``, for ``gr.DeepLinkButton``, which this app does not use) and rebuilds
  an entry each time an event sets its component; ``LazyConfigs`` builds an entry when someone reads
  it, and all of them when someone lists them, so a deep link still sees every component as Gradio's.

Both reach into Gradio's internals: ``requirements.txt`` pins Gradio, and the tests fail when a new
version changes what is replaced here (``SessionState``'s attributes and methods, ``gradio.blocks.inspect``).
"""

from __future__ import annotations

import datetime
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
    """A visit's component configurations, each built when someone reads it (see the module's docstring).

    Gradio rebuilds a component's entry whenever an event sets that component (``config_for_block``, a
    ``get_config`` of the component: most of a board event's own cost) and then writes the value into it.
    Here the entry is only marked stale and the value remembered; reading the entry builds it from the
    component the visit holds now and applies the value last written, which is what Gradio's entry holds
    at that moment (``tests/space/test_visit_cost.py`` drives both through the same calls)."""

    def __init__(self, config: gradio.blocks.BlocksConfig, ids: list[int]) -> None:
        super().__init__()
        # The visit's BlocksConfig, not the visit's state: a reference back to the state would make every
        # visit a reference cycle that only a full garbage collection frees (~65,000 objects each 5 s under
        # 50 viewers, measured with gc.DEBUG_SAVEALL; each full collection then paused the app 60-100 ms).
        self._config = config
        self._keys: dict[int, None] = dict.fromkeys(ids)  # every entry, in Gradio's order (an ordered set)
        self._values: dict[int, Any] = {}  # a value written into an entry not built yet

    def stale(self, key: int) -> None:
        """Gradio would rebuild ``key``'s entry now: build it when it is read."""
        dict.pop(self, key, None)
        self._values.pop(key, None)
        self._keys.setdefault(key)

    def write_value(self, key: int, value: Any) -> None:
        """``SessionState._update_value_in_config``: the value shown in ``key``'s entry."""
        if dict.__contains__(self, key):
            entry = dict.__getitem__(self, key)
            if "props" in entry:
                entry["props"]["value"] = value
            return
        if key not in self._config.blocks:
            raise KeyError(key)  # as Gradio's, which builds the entry from the component first
        self._keys.setdefault(key)
        self._values[key] = value

    def _build(self, key: int) -> bool:
        """Build ``key``'s entry if it is stale; False when the visit has no such component (then none)."""
        if dict.__contains__(self, key):
            return True
        block = self._config.blocks.get(key)
        if block is None:
            return False
        entry = self._config.config_for_block(key, [], block)
        if key in self._values and "props" in entry:
            entry["props"]["value"] = self._values.pop(key)
        dict.__setitem__(self, key, entry)
        return True

    def _all(self) -> None:
        """Every entry built, in Gradio's order."""
        built = {key: dict.__getitem__(self, key) for key in self._keys if self._build(key)}
        super().clear()
        super().update(built)

    def __getitem__(self, key: int) -> Any:
        if key in self._keys:
            self._build(key)
        return dict.__getitem__(self, key)

    def __setitem__(self, key: int, value: Any) -> None:
        self._values.pop(key, None)
        self._keys.setdefault(key)
        dict.__setitem__(self, key, value)

    def __contains__(self, key: object) -> bool:
        return key in self._keys and self._config.blocks.get(key) is not None  # type: ignore[call-overload]

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

    config_values: LazyConfigs

    def __init__(self, blocks: Any) -> None:  # Gradio 6.31's __init__, but the copy made on demand
        self.blocks_config = copy(blocks.default_config)
        self.config_values = LazyConfigs(
            self.blocks_config, [k for k in self.blocks_config.blocks if k in blocks.blocks]
        )
        self.state_data: dict[int, Any] = {}
        self._state_ttl: dict = {}
        self.is_closed = False
        self.STATE_TTL_WHEN_CLOSED = 1 if os.getenv("GRADIO_IS_E2E_TEST", None) else 3600

    def __setitem__(self, key: int, value: Any) -> None:  # Gradio 6.31's, the entry rebuilt when read
        from gradio.components import State

        block = self.blocks_config.blocks.get(key)
        if isinstance(block, State):
            self._state_ttl[key] = (block.time_to_live, datetime.datetime.now())
            self.state_data[key] = value
        else:
            self.blocks_config.blocks[key] = value
        if block:
            self.config_values.stale(key)

    def _update_config(self, key: int) -> None:
        if self[key] is None:
            return
        if self.blocks_config.blocks[key].stateful:  # Gradio builds a State's entry from its value: kept as is
            self.config_values[key] = self.blocks_config.config_for_block(key, [], self[key])
        else:
            self.config_values.stale(key)

    def _update_value_in_config(self, key: int, value: Any) -> None:
        self.config_values.write_value(key, value)


def cheap_visits() -> None:
    """Apply both changes (idempotent); before the app serves its first visit."""
    if not isinstance(gradio.blocks.inspect, _RememberedSignatures):
        gradio.blocks.inspect = _RememberedSignatures()  # type: ignore[assignment]
    gradio.state_holder.SessionState = LightSessionState  # type: ignore[misc]  # what StateHolder creates
