"""The answer-key cache: built once, keyed by content, rebuilt when damaged, compact."""

from __future__ import annotations

import numpy as np
import pytest

import scoring.answer_key as answer_key_module
from scoring import AnswerKeyError, load_answer_key
from scoring.geometry import rasterise_truth
from tests.dataset_factory import write_dataset

TRACE = [[10.0, 29.0], [12.0, 15.0], [20.0, 2.0]]


def _samples(label: int = 13) -> list[dict]:
    mask = np.full((30, 40), label)
    mask[:, :5] = 2
    return [
        {"sample_id": "s0", "mask": mask, "ground_truth": {"Human": [TRACE], "Bicycle": [TRACE, TRACE[:2]]}},
        {"sample_id": "s1", "mask": mask.T[:30, :30], "ground_truth": {"Wheeled Robot": [TRACE]}},
    ]


def test_key_holds_samples_masks_traces_and_rasters(tmp_path):
    key = load_answer_key(write_dataset(tmp_path / "d", "validation", _samples()), "validation", tmp_path / "c")
    assert [s.sample_id for s in key.samples] == ["s0", "s1"]
    assert key.has_ground_truth and key.revision.startswith("sha256:")
    assert [(s.sample_id, e) for s, e in key.expected_rows()] == [
        ("s0", "Bicycle"),
        ("s0", "Human"),
        ("s1", "Wheeled Robot"),
    ]
    mask = key.mask("s0")
    assert mask.dtype == np.uint8 and mask.shape == (30, 40) and mask[0, 0] == 2 and mask[0, 10] == 13
    truths = key.truths("s0", "Bicycle")
    assert len(truths) == 2 and truths[1].points.tolist() == TRACE[:2]
    assert np.array_equal(truths[0].pixels, rasterise_truth(np.array(TRACE), 30, 40))
    assert (key.sample("s1").width, key.sample("s1").height) == (30, 30)
    assert key.image_bytes("s0")[:4] == b"\x89PNG"


def test_labels_beyond_uint8_are_kept_exactly(tmp_path):
    key = load_answer_key(write_dataset(tmp_path / "d", "test", _samples(label=300)), "test", tmp_path / "c")
    assert key.mask("s0").dtype == np.int32 and key.mask("s0")[0, 10] == 300


def test_second_load_reuses_the_cache(tmp_path, monkeypatch):
    folder = write_dataset(tmp_path / "d", "validation", _samples())
    first = load_answer_key(folder, "validation", tmp_path / "c")
    monkeypatch.setattr(answer_key_module, "build_cache", _fail)
    again = load_answer_key(folder, "validation", tmp_path / "c")
    assert again.folder == first.folder


def test_changed_dataset_gets_a_new_cache(tmp_path):
    folder = write_dataset(tmp_path / "d", "validation", _samples())
    before = load_answer_key(folder, "validation", tmp_path / "c")
    write_dataset(folder, "validation", _samples(label=15))
    after = load_answer_key(folder, "validation", tmp_path / "c")
    assert after.revision != before.revision and after.mask("s0")[0, 10] == 15


@pytest.mark.parametrize("damage", ["truncate index", "delete masks", "wrong format"])
def test_damaged_cache_rebuilds_itself(tmp_path, damage, caplog):
    folder = write_dataset(tmp_path / "d", "validation", _samples())
    key = load_answer_key(folder, "validation", tmp_path / "c")
    if damage == "truncate index":
        (key.folder / "index.json").write_text('{"format": 2, "sampl')
    elif damage == "delete masks":
        (key.folder / "masks.bin").unlink()
    else:
        (key.folder / "index.json").write_text('{"format": 1}')
    rebuilt = load_answer_key(folder, "validation", tmp_path / "c")
    assert rebuilt.mask("s0")[0, 10] == 13 and "rebuilding" in caplog.text


def test_missing_split_and_wrong_schema_are_clear_errors(tmp_path):
    folder = write_dataset(tmp_path / "d", "validation", _samples())
    with pytest.raises(AnswerKeyError, match=r"no data/test-\*\.parquet"):
        load_answer_key(folder, "test", tmp_path / "c")
    import pandas as pd

    (tmp_path / "w" / "data").mkdir(parents=True)
    pd.DataFrame({"sample_id": ["a"]}).to_parquet(tmp_path / "w" / "data" / "test-00000-of-00001.parquet")
    with pytest.raises(AnswerKeyError, match="not the NaviTrace schema"):
        load_answer_key(tmp_path / "w", "test", tmp_path / "c")


def _fail(*args, **kwargs):
    raise AssertionError("the cache was rebuilt although it was valid")
