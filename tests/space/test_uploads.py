"""The Submit tab's uploads: each user's own copy, deleted once refused or stored, never another user's file."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from space.submit.uploads import Uploads, path_of


def gradio_upload(folder: Path, data: bytes, name: str = "preds.tsv") -> str:
    """As Gradio's upload route stores a file: in a folder named by its content's hash (a rename over the name)."""
    target = folder / hashlib.sha256(data).hexdigest() / name
    target.parent.mkdir(parents=True, exist_ok=True)
    staged = folder / f"tmp{os.getpid()}"
    staged.write_bytes(data)
    os.replace(staged, target)
    return str(target)


@pytest.fixture
def uploads(tmp_path: Path) -> Uploads:
    return Uploads(tmp_path)


def test_a_refusal_of_bobs_upload_leaves_alices_checked_copy(uploads: Uploads, tmp_path: Path):
    alice_path = gradio_upload(tmp_path, b"same bytes")
    alice_copy = uploads.claim("alice", alice_path)  # alice's check passed
    bob_path = gradio_upload(tmp_path, b"same bytes")  # bob uploads the same file: the same path
    assert bob_path == alice_path
    uploads.claim("bob", bob_path)
    uploads.release("bob", bob_path)  # bob's check refused it (another split, say)
    assert Path(alice_copy).read_bytes() == b"same bytes"
    assert uploads.own("alice", alice_path) == alice_copy  # alice's submit reads her own copy
    assert not Path(bob_path).exists(), "bob's refused upload stayed"
    uploads.release("alice", alice_path)  # stored by the service
    assert not Path(alice_copy).exists()
    assert [p for p in tmp_path.rglob("*") if p.is_file()] == []


def test_releasing_leaves_a_newer_upload_of_the_same_file(uploads: Uploads, tmp_path: Path):
    path = gradio_upload(tmp_path, b"x")
    uploads.claim("alice", path)
    gradio_upload(tmp_path, b"x")  # carol uploads the same file and has not checked it yet
    uploads.release("alice", path)
    assert Path(path).read_bytes() == b"x", "carol's upload was deleted by alice's submission"


def test_a_refused_file_is_deleted_with_its_folders(uploads: Uploads, tmp_path: Path):
    path = gradio_upload(tmp_path, b"bad")
    copy = uploads.claim("dora", path)
    uploads.release("dora", path)
    assert not Path(path).exists() and not Path(copy).exists()
    assert list(tmp_path.iterdir()) == []


def test_a_gone_upload_cannot_be_claimed_and_other_paths_are_never_touched(uploads: Uploads, tmp_path: Path):
    with pytest.raises(FileNotFoundError):
        uploads.claim("erin", str(tmp_path / "nohash" / "gone.tsv"))
    outside = tmp_path.parent / "outside.tsv"
    outside.write_bytes(b"keep")
    assert uploads.claim("erin", str(outside)) == str(outside)
    uploads.release("erin", str(outside))
    assert outside.read_bytes() == b"keep"


def test_checking_another_file_or_removing_it_deletes_the_one_held(uploads: Uploads, tmp_path: Path):
    first = gradio_upload(tmp_path, b"one")
    first_copy = uploads.claim("finn", first)
    second = gradio_upload(tmp_path, b"two")
    uploads.claim("finn", second)
    assert not Path(first).exists() and not Path(first_copy).exists()
    uploads.drop("finn")
    assert [p for p in tmp_path.rglob("*") if p.is_file()] == []


def test_the_path_of_a_file_input_is_read_without_gradios_preprocessing():
    assert path_of({"path": "/tmp/gradio/ab/preds.tsv", "orig_name": "preds.tsv"}) == "/tmp/gradio/ab/preds.tsv"
    assert path_of("/tmp/gradio/ab/preds.tsv") == "/tmp/gradio/ab/preds.tsv"
    assert path_of(None) is None and path_of({}) is None and path_of("") is None
