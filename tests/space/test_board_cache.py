"""The board is read and drawn once per change of the results, however many visitors ask."""

from __future__ import annotations

import threading
from pathlib import Path

from leaderboard.publishing.table import baseline_row
from space.board.cache import BoardCache


class Store:
    """The published rows, counting reads; ``rows`` is what the next read returns."""

    def __init__(self) -> None:
        self.rows = [baseline_row("test")]
        self.reads = 0
        self.gate: threading.Event | None = None  # set: reads wait for it

    def load(self) -> list[dict[str, object]]:
        self.reads += 1
        if self.gate is not None:
            assert self.gate.wait(10)
        return [dict(r) for r in self.rows]


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def entry(model: str, score: float) -> dict[str, object]:
    row = baseline_row("test")
    row.update(submission_id=model, kind="submission", model=model, score=score)
    return row


def test_many_requests_within_the_max_age_read_the_store_once(tmp_path: Path):
    store, clock = Store(), Clock()
    cache = BoardCache(store.load, tmp_path, max_age_s=1.0, clock=clock)
    versions = {cache.snapshot().version for _ in range(50)}
    assert versions == {1} and store.reads == 1
    clock.now = 5.0  # older than max_age_s: read again; the same rows keep their version
    assert cache.snapshot().version == 1 and store.reads == 2


def test_new_rows_give_a_new_version(tmp_path: Path):
    store, clock = Store(), Clock()
    cache = BoardCache(store.load, tmp_path, max_age_s=1.0, clock=clock)
    first = cache.snapshot()
    store.rows = [entry("Model-A", 42.5), baseline_row("test")]
    assert cache.snapshot() is first  # within max_age_s: not read yet
    cache.invalidate()  # the worker reported an outcome
    second = cache.snapshot()
    assert second.version == first.version + 1 and store.reads == 2
    assert any(r.get("model") == "Model-A" for r in second.rows)


def test_the_csv_is_written_once_per_version_and_split(tmp_path: Path):
    store, clock = Store(), Clock()
    store.rows = [entry("Model-A", 42.5), baseline_row("test")]
    cache = BoardCache(store.load, tmp_path, max_age_s=1.0, clock=clock)
    made = cache.csv_file("test")
    stamp = made.path.stat().st_mtime_ns
    assert cache.csv_file("test") is made and made.path.stat().st_mtime_ns == stamp
    assert b"baseline-test" in made.path.read_bytes()
    store.rows = [entry("Model-B", 12.5), baseline_row("test")]
    cache.invalidate()
    again = cache.csv_file("test")
    assert again.version == made.version + 1 and b"Model-B" in again.path.read_bytes()


def test_visitors_are_served_the_rows_in_hand_while_one_of_them_reads_the_store(tmp_path: Path):
    store, clock = Store(), Clock()
    cache = BoardCache(store.load, tmp_path, max_age_s=1.0, clock=clock)
    first = cache.snapshot()
    clock.now = 5.0
    store.gate = threading.Event()
    reader = threading.Thread(target=cache.snapshot)
    reader.start()
    while store.reads < 2:  # the reader is inside the (slow) store read
        threading.Event().wait(0.001)
    assert cache.snapshot() is first  # not queued behind the store
    store.gate.set()
    reader.join()
    assert store.reads == 2


def test_a_failed_read_keeps_the_rows_already_shown(tmp_path: Path):
    store, clock = Store(), Clock()
    cache = BoardCache(store.load, tmp_path, max_age_s=1.0, clock=clock)
    first = cache.snapshot()

    def broken() -> list[dict[str, object]]:
        raise OSError("the Hub is down")

    cache._load = broken
    clock.now = 5.0
    assert cache.snapshot() is first


def test_new_rows_are_drawn_for_before_readers_are_given_them(tmp_path: Path):
    """While files are scored each result is a new version: readers keep the one in hand until it is drawn."""
    store, clock = Store(), Clock()
    cache = BoardCache(store.load, tmp_path, max_age_s=1.0, clock=clock)
    first = cache.snapshot()
    seen: list[tuple[int, int]] = []  # (the version drawn for, the version readers held meanwhile)
    cache.on_change(lambda fresh: seen.append((fresh.version, cache.snapshot().version)))
    store.rows = [entry("Model-A", 42.5), baseline_row("test")]
    cache.refresh()  # the worker reported an outcome: read now, in the reporting thread
    assert seen == [(first.version + 1, first.version)]
    assert cache.snapshot().version == first.version + 1 and store.reads == 2
    cache.refresh()  # the same rows: no new version, nothing drawn
    assert seen == [(first.version + 1, first.version)] and store.reads == 3


def test_once_kept_fresh_readers_never_read_the_store(tmp_path: Path):
    store = Store()
    cache = BoardCache(store.load, tmp_path, max_age_s=3600.0)
    changed = threading.Event()
    cache.on_change(lambda fresh: changed.set() if fresh.version > 1 else None)
    cache.keep_fresh()
    try:
        first = cache.snapshot()
        reads = store.reads
        store.gate = threading.Event()  # a read from now on waits: a reader that read would hang here
        cache.invalidate()  # wakes the thread, which reads (and waits at the gate) instead of the next reader
        assert all(cache.snapshot() is first for _ in range(50))
        store.rows = [entry("Model-A", 42.5), baseline_row("test")]
        store.gate.set()
        assert changed.wait(10), "the thread never read the new rows"
        assert cache.snapshot().version == first.version + 1 and store.reads >= reads + 1
    finally:
        cache.close()
    assert not cache._reader.is_alive()  # type: ignore[union-attr]


def test_rows_are_in_hand_only_while_a_thread_keeps_them_fresh(tmp_path: Path):
    cache = BoardCache(Store().load, tmp_path, max_age_s=3600.0)
    assert cache.in_hand() is None  # nobody keeps them fresh: a request must ask (and maybe read)
    cache.keep_fresh()
    first = cache.snapshot()
    assert cache.in_hand() is first
    cache.close()
