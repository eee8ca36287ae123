"""``LocalStorage`` beyond the contract: all-or-nothing commits when the writer dies at any point."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from leaderboard.storage import LocalStorage, StorageError
from leaderboard.storage.local import INTERNAL


def test_the_store_keeps_its_lock_and_journal_out_of_the_namespace(tmp_path: Path):
    store = LocalStorage(tmp_path)
    store.commit({"a.json": b"a"})
    assert (tmp_path / INTERNAL).is_dir()
    assert store.list() == ["a.json"]
    with pytest.raises(ValueError, match="reserved"):
        store.commit({f"{INTERNAL}/lock": b"x"})


def test_a_writer_dead_after_the_commit_point_is_completed_by_the_next_reader(tmp_path: Path, monkeypatch):
    store = LocalStorage(tmp_path)
    store.commit({"requests/a.json": b"old"})
    monkeypatch.setattr(LocalStorage, "_apply", lambda self, entry: None)  # dies right after the journal rename
    store.commit({"requests/a.json": b"new", "uploads/a.tsv": b"file"})
    monkeypatch.undo()
    assert (tmp_path / "requests/a.json").read_bytes() == b"old"  # nothing applied yet
    restarted = LocalStorage(tmp_path)
    assert restarted.read("requests/a.json") == b"new"
    assert restarted.read("uploads/a.tsv") == b"file"
    assert not [p for p in (tmp_path / INTERNAL / "journal").iterdir()]


def test_a_writer_dead_before_the_commit_point_leaves_nothing(tmp_path: Path, monkeypatch):
    store = LocalStorage(tmp_path)
    real_rename = os.rename

    def die_at_the_commit_point(source, target):
        raise KeyboardInterrupt  # stands for SIGKILL: no cleanup code runs for BaseException here

    monkeypatch.setattr(os, "rename", die_at_the_commit_point)
    with pytest.raises(KeyboardInterrupt):
        store.commit({"requests/a.json": b"a", "uploads/a.tsv": b"file"})
    monkeypatch.setattr(os, "rename", real_rename)
    restarted = LocalStorage(tmp_path)
    assert restarted.list() == []
    restarted.commit({"other.json": b"x"})  # recovery drops the dead writer's staging folder
    assert [p.name for p in (tmp_path / INTERNAL / "journal").iterdir()] == []


def test_a_half_applied_commit_is_finished_on_restart(tmp_path: Path, monkeypatch):
    store = LocalStorage(tmp_path)
    real_replace = os.replace
    moved = []

    def fail_after_the_first_file(source, target):
        if moved:
            raise OSError(28, "No space left on device")
        moved.append(target)
        real_replace(source, target)

    monkeypatch.setattr(os, "replace", fail_after_the_first_file)
    store.commit({"a.json": b"a", "b.json": b"b"})  # durable at the commit point: it counts, applied later
    with pytest.raises(StorageError, match="durable but not yet applied"):
        store.read("a.json")  # while the disk is full nobody sees the store without the commit
    monkeypatch.setattr(os, "replace", real_replace)
    restarted = LocalStorage(tmp_path)
    assert (restarted.read("a.json"), restarted.read("b.json")) == (b"a", b"b")


def test_a_writer_dead_while_deleting_its_journal_entry_leaves_a_usable_store(tmp_path: Path, monkeypatch):
    """Found by the long crash test: a kill inside the final rmtree must not leave an entry without manifest."""
    store = LocalStorage(tmp_path)

    def die_half_way(folder, *args, **kwargs):
        (Path(folder) / "manifest.json").unlink()  # rmtree deletes the files first, the folder last
        raise KeyboardInterrupt

    monkeypatch.setattr("leaderboard.storage.local.shutil.rmtree", die_half_way)
    with pytest.raises(KeyboardInterrupt):
        store.commit({"a.json": b"a", "b.json": b"b"})
    monkeypatch.undo()
    restarted = LocalStorage(tmp_path)
    assert (restarted.read("a.json"), restarted.read("b.json")) == (b"a", b"b")
    restarted.commit({"c.json": b"c"})
    assert restarted.list() == ["a.json", "b.json", "c.json"]
    assert [p.name for p in (tmp_path / INTERNAL / "journal").iterdir()] == []


WRITER = """
import sys
from leaderboard.storage import LocalStorage
store = LocalStorage(sys.argv[1])
n = 0
print("ready", flush=True)
while True:
    payload = (str(n) * 20000).encode()
    store.commit({f"pairs/{n:06d}-a": payload, f"pairs/{n:06d}-b": payload, "last": str(n).encode()})
    n += 1
"""


def test_sigkill_during_commits_leaves_every_commit_whole(tmp_path: Path):
    """A writer commits pairs of files in a loop and is SIGKILLed at random moments, five times."""
    rng = random.Random(7)
    for _ in range(5):
        writer = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(tmp_path)], stdout=subprocess.PIPE, cwd=Path(__file__).parents[2]
        )
        assert writer.stdout is not None and writer.stdout.readline().strip() == b"ready"
        time.sleep(rng.uniform(0.01, 0.3))
        writer.send_signal(signal.SIGKILL)
        writer.wait()
        store = LocalStorage(tmp_path)
        paths = store.list("pairs")
        pairs = {p.rsplit("-", 1)[0] for p in paths}
        assert paths == sorted(f"{p}-{half}" for p in pairs for half in "ab")  # never one half of a pair
        last = store.read("last")
        assert last is not None and f"pairs/{int(last):06d}-a" in paths
    assert pairs  # the writer got work done between kills (how much depends on the machine's load)
