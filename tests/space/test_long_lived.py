"""The app's long-lived objects are kept out of full garbage collections, and only in the app's process."""

from __future__ import annotations

import gc

import pytest

from space.web import long_lived


@pytest.fixture
def enabled(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(long_lived, "_enabled", True)
    yield
    gc.unfreeze()  # the test session's objects go back to the collector


def test_nothing_is_frozen_outside_the_app_process():
    before = gc.get_freeze_count()
    assert long_lived.freeze_long_lived("a test") == 0
    assert gc.get_freeze_count() == before


def test_what_is_alive_is_frozen_and_garbage_is_collected_first(enabled):
    class Node:
        pass

    kept = Node()
    garbage = Node()
    garbage.me = garbage  # a cycle: only the collector frees it
    del garbage
    frozen = long_lived.freeze_long_lived("a test")
    # Frozen objects that other threads drop are freed all the same, so the count may only shrink after the call.
    assert 0 < gc.get_freeze_count() <= frozen
    assert not any(type(o) is Node and o is not kept for o in gc.get_objects())  # the cycle went before the freeze
    assert all(o is not kept for o in gc.get_objects())  # kept is frozen: no collection walks it any more
