"""The public table and what must never reach it: contact e-mails and per-row test scores."""

from __future__ import annotations

import json
import re

import pytest

from leaderboard.publishing.table import COLUMNS
from leaderboard.records.errors import NotAuthorised
from leaderboard.service import Leaderboard
from tests.service_fixtures import MAINTAINER, submit

EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+")


def test_an_empty_leaderboard_still_has_the_baseline_row(service: Leaderboard):
    (row,) = service.public_table()
    assert (row["kind"], row["split"], row["score"], row["coverage"]) == ("baseline", "test", 0.0, 1.0)
    assert list(row) == list(COLUMNS)


@pytest.fixture
def published(service: Leaderboard, files, clock) -> dict[str, str]:
    """A published test entry, a published validation entry, a private test entry, one reported row."""
    ids = {
        "test": submit(service, files["test-noisy"], publish=True, model="Navigator").submission_id,
        "validation": submit(service, files["validation-noisy"], split="validation", publish=True).submission_id,
        "private": submit(service, files["test-perfect"], publish=False, user="bob").submission_id,
    }
    clock.advance(1)
    service.worker.drain()
    service.approve(ids["test"], by=MAINTAINER)
    service.approve(ids["validation"], by=MAINTAINER)
    service.add_reported(MAINTAINER, model="Human expert", score=75.4, source="https://arxiv.org/abs/2510.26909")
    return ids


def test_rows_are_ranked_per_split_with_a_baseline_for_each(service: Leaderboard, published):
    table = service.public_table()
    assert [(r["split"], r["kind"]) for r in table] == [
        ("test", "submission"),
        ("test", "reported"),
        ("test", "baseline"),
        ("validation", "submission"),
        ("validation", "baseline"),
    ]
    assert published["private"] not in {r["submission_id"] for r in table}
    assert all(list(r) == list(COLUMNS) for r in table)


def test_the_results_store_loads_with_datasets_and_matches_the_table(service, published, settings, tmp_path):
    import datasets

    assert service.publish() is False  # every action already published its change
    assert service.results.list() == ["README.md", "data/leaderboard.jsonl"]
    loaded = datasets.load_dataset(str(settings.results_folder), split="train", cache_dir=str(tmp_path / "hf"))
    assert loaded["submission_id"] == [r["submission_id"] for r in service.public_table()]
    assert service.published_table() == service.public_table()


def test_no_email_and_no_per_row_score_is_published(service: Leaderboard, published, test_key):
    public_text = "\n".join(
        [json.dumps(service.public_table())]
        + [(service.results.read(p) or b"").decode() for p in service.results.list()]
    )
    assert not EMAIL.findall(public_text)
    row_words = {"dtw", "fde", "best_gt", "penalty", "raw_response", "prediction"}
    assert not {w for w in row_words if re.search(rf"\b{w}\b", public_text)}
    assert not [s.sample_id for s in test_key.samples if s.sample_id in public_text]


def test_submitters_see_their_own_status_without_contacts_and_never_test_rows(service, published):
    mine = service.my_submissions("alice")
    assert {v.submission_id for v in mine} == {published["test"], published["validation"]}
    assert all("contact_email" not in v.metadata for v in mine)
    assert "contact_email" not in service.status(published["test"], user="alice").metadata
    with pytest.raises(NotAuthorised, match="per-row scores of test submissions stay private"):
        service.rows(published["test"], user="alice")
    rows = service.rows(published["validation"], user="alice")
    assert {"sample_id", "embodiment", "score", "dtw", "fde", "penalty", "raw", "best_gt"} <= set(rows[0])
    assert service.rows(published["test"], user=MAINTAINER)  # maintainers may look


def test_nobody_sees_another_users_submission(service: Leaderboard, published):
    with pytest.raises(NotAuthorised, match="another user"):
        service.status(published["test"], user="bob")
    with pytest.raises(NotAuthorised):
        service.rows(published["validation"], user="bob")
    assert [v.submission_id for v in service.my_submissions("bob")] == [published["private"]]
