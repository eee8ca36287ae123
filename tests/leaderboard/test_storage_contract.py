"""The storage contract: what every backend (``conftest.STORE_OPENERS``) must do, tested the same way.

``store`` is a fresh handle; ``open_store()`` opens another handle on the same backing store,
which is how a restart looks to the service.
"""

from __future__ import annotations

import threading

import pytest

from leaderboard.storage import Conflict, Storage


def test_a_missing_file_reads_as_none(store: Storage):
    assert store.read("requests/nope.json") is None
    assert store.read("requests/nope.json") is None
    assert store.list() == []
    assert store.list("requests") == []


def test_a_commit_is_read_back_byte_for_byte(store: Storage):
    data = bytes(range(256)) * 3 + b"\x00\r\n\t"
    store.commit({"uploads/a.tsv": data, "empty.txt": b""}, message="two files")
    assert store.read("uploads/a.tsv") == data
    assert store.read("empty.txt") == b""
    assert store.read("uploads/a.tsv") is not None


def test_a_commit_replaces_a_file(store: Storage):
    store.commit({"jobs/x.json": b"1"})
    store.commit({"jobs/x.json": b"22"})
    assert store.read("jobs/x.json") == b"22"


def test_list_is_sorted_and_limited_to_the_folder(store: Storage):
    store.commit({"requests/b.json": b"b", "requests/a.json": b"a", "requests-old/c.json": b"c", "req.json": b"r"})
    store.commit({"audit/2025-11/2.json": b"2", "audit/2025-10/1.json": b"1"})
    assert store.list("requests") == ["requests/a.json", "requests/b.json"]
    assert store.list("requests/") == ["requests/a.json", "requests/b.json"]
    assert store.list("req") == []  # a folder, not a string prefix
    assert store.list("audit") == ["audit/2025-10/1.json", "audit/2025-11/2.json"]
    assert store.list("audit/2025-11") == ["audit/2025-11/2.json"]
    everything = store.list()
    assert everything == sorted(everything)
    assert set(everything) == {
        "requests/a.json",
        "requests/b.json",
        "requests-old/c.json",
        "req.json",
        "audit/2025-10/1.json",
        "audit/2025-11/2.json",
    }


def test_one_commit_writes_and_deletes_together(store: Storage):
    store.commit({"reported/a.json": b"a", "reported/b.json": b"b"})
    store.commit({"audit/x.json": b"removed a"}, deletes=["reported/a.json"], message="remove a")
    assert store.read("reported/a.json") is None
    assert store.read("reported/b.json") == b"b"
    assert store.read("audit/x.json") == b"removed a"
    assert store.list("reported") == ["reported/b.json"]


def test_an_empty_commit_changes_nothing(store: Storage):
    store.commit({"a.json": b"a"})
    store.commit({})
    assert store.list() == ["a.json"]


def test_a_new_handle_sees_every_committed_file(store: Storage, open_store):
    store.commit({"requests/x.json": b"{}", "uploads/x.tsv": b"sample_id\n"})
    again = open_store()
    assert again.read("requests/x.json") == b"{}"
    assert again.read("uploads/x.tsv") == b"sample_id\n"
    assert again.list() == ["requests/x.json", "uploads/x.tsv"]


def test_handles_see_each_others_commits(store: Storage, open_store):
    other = open_store()
    other.commit({"jobs/a.json": b"from other"})
    assert store.read("jobs/a.json") == b"from other"
    store.commit({"jobs/a.json": b"from store"})
    assert other.read("jobs/a.json") == b"from store"


@pytest.mark.parametrize("path", ["../escape.json", "/absolute.json", "a//b.json", "a/./b.json", "", "a\\b.json"])
def test_paths_outside_the_namespace_are_refused(store: Storage, path: str):
    with pytest.raises(ValueError, match="path"):
        store.commit({path: b"x"})
    with pytest.raises(ValueError, match="path"):
        store.read(path)


def test_writing_and_deleting_one_path_at_once_is_refused(store: Storage):
    with pytest.raises(ValueError, match="both"):
        store.commit({"a.json": b"a"}, deletes=["a.json"])
    assert store.read("a.json") is None


def test_concurrent_commits_of_different_files_all_land(store: Storage, open_store):
    handles = [store, open_store(), open_store()]
    errors: list[BaseException] = []

    def write(index: int) -> None:
        try:
            for n in range(4):
                handles[index].commit({f"audit/{index}-{n}.json": f"{index}{n}".encode()}, message=f"{index}-{n}")
        except BaseException as error:  # reported below: a thread's failure must fail the test
            errors.append(error)

    threads = [threading.Thread(target=write, args=(i,)) for i in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert open_store().list("audit") == sorted(f"audit/{i}-{n}.json" for i in range(3) for n in range(4))


def test_a_conditional_commit_lands_only_on_what_was_read(store: Storage, open_store):
    store.commit({"jobs/a.json": b"PENDING"})
    read = store.read("jobs/a.json")
    other = open_store()
    other.commit({"jobs/a.json": b"RUNNING (other)"}, expect={"jobs/a.json": other.read("jobs/a.json")})
    with pytest.raises(Conflict):
        store.commit({"jobs/a.json": b"RUNNING (store)", "audit/x.json": b"x"}, expect={"jobs/a.json": read})
    assert store.read("jobs/a.json") == b"RUNNING (other)" and store.read("audit/x.json") is None
    store.commit({"jobs/b.json": b"new"}, expect={"jobs/b.json": None})  # create only if absent
    with pytest.raises(Conflict):
        other.commit({"jobs/b.json": b"again"}, expect={"jobs/b.json": None})
    store.commit({"jobs/a.json": b"FINISHED (store)"}, expect={"jobs/a.json": b"RUNNING (other)"})
    assert open_store().read("jobs/a.json") == b"FINISHED (store)"


def test_concurrent_conditional_claims_let_exactly_one_win(store: Storage, open_store):
    store.commit({"jobs/a.json": b"PENDING"})
    handles = [open_store() for _ in range(3)]
    reads = [h.read("jobs/a.json") for h in handles]
    won: list[int] = []

    def claim(index: int) -> None:
        try:
            handles[index].commit({"jobs/a.json": b"RUNNING %d" % index}, expect={"jobs/a.json": reads[index]})
            won.append(index)
        except Conflict:
            pass

    threads = [threading.Thread(target=claim, args=(i,)) for i in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(won) == 1 and open_store().read("jobs/a.json") == b"RUNNING %d" % won[0]


def test_a_tag_keeps_the_tagged_state_readable_and_can_be_moved(store: Storage, open_store):
    # A closed release's board stays readable by its tag, whatever is committed after.
    store.commit({"data/leaderboard.jsonl": b"old board\n", "README.md": b"card"})
    store.tag("v1", "release v1")
    store.commit({"data/leaderboard.jsonl": b"new board\n"}, deletes=["README.md"])
    other = open_store()  # another handle (a restart) sees the tag too
    for handle in (store, other):
        assert handle.tags() == ["v1"]
        assert handle.read_tagged("v1", "data/leaderboard.jsonl") == b"old board\n"
        assert handle.read_tagged("v1", "README.md") == b"card"
        assert handle.read("data/leaderboard.jsonl") == b"new board\n"
        assert handle.read_tagged("v1", "no/such.file") is None and handle.read_tagged("v9", "README.md") is None
    store.tag("v1")  # tagged again: the tag moves to the state now
    assert other.read_tagged("v1", "data/leaderboard.jsonl") == b"new board\n"
    assert other.read_tagged("v1", "README.md") is None
    for bad in ("", "../x", "a b", ".hidden", "v1.lock"):
        with pytest.raises(ValueError):
            store.tag(bad)
