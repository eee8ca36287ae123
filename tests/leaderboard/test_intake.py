"""Intake: the validation report, refusals that store nothing, durable acknowledgement, deduplication."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from leaderboard.records.entries import Reported, reported_path, request_path, upload_path
from leaderboard.records.errors import Rejected
from leaderboard.service import Leaderboard
from leaderboard.storage import LocalStorage, StorageError
from tests.service_fixtures import submit


def _flawed(source: Path, target: Path) -> Path:
    """``source`` with row 1 not JSON, row 2 a single point, and the last row dropped."""
    frame = pd.read_csv(source, sep="\t", dtype=str, keep_default_na=False)
    frame.loc[0, "prediction"] = "[[1, 2], oops"
    frame.loc[1, "prediction"] = "[[10, 20]]"
    frame.iloc[:-1].to_csv(target, sep="\t", index=False)
    return target


def test_the_report_counts_rows_and_names_the_first_problems_by_line(service: Leaderboard, files, tmp_path, test_key):
    report = service.validate(_flawed(files["test-noisy"], tmp_path / "flawed.tsv"), "test")
    expected = len(list(test_key.expected_rows()))
    assert (report.n_expected, report.rows_read) == (expected, expected - 1)
    assert (report.n_valid, report.n_invalid, report.n_missing) == (expected - 3, 2, 1)
    assert sum(report.invalid_by_reason.values()) == 2
    assert report.problems[0].startswith("line 2 (") and "not valid JSON" in report.problems[0]
    # The notebook's raw_response cells hold a newline, so the second row starts on line 4.
    assert report.problems[1].startswith("line 4 (") and "1 point" in report.problems[1]
    text = "\n".join(report.lines())
    assert "2 invalid" in text and "1 of" in text and "line 2" in text


def test_a_clean_file_reports_every_row_valid(service: Leaderboard, files):
    report = service.validate(files["validation-perfect"], "validation")
    assert report.n_valid == report.n_expected == report.rows_read
    assert report.n_invalid == report.n_missing == 0 and report.problems == []


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"", "empty"),
        (b"sample_id\tembodiment\nval_0000\tHuman\n", "line 1"),
        (b"sample_id,embodiment,prediction\n", "not tab-separated"),
    ],
)
def test_a_file_that_cannot_be_scored_is_refused_in_one_line(service: Leaderboard, content: bytes, expected: str):
    with pytest.raises(Rejected) as caught:
        submit(service, content, split="validation")  # type: ignore[arg-type]
    assert expected in str(caught.value) and "\n" not in str(caught.value)
    assert service.requests.list() == []


def test_a_file_for_the_other_split_is_refused(service: Leaderboard, files):
    with pytest.raises(Rejected, match="unknown sample_id.*another split"):
        submit(service, files["validation-noisy"], split="test")


def test_a_file_without_any_valid_prediction_is_refused_with_its_report(service: Leaderboard, files, tmp_path):
    frame = pd.read_csv(files["test-noisy"], sep="\t", dtype=str, keep_default_na=False)
    frame["prediction"] = "[]"
    frame.to_csv(tmp_path / "empty-answers.tsv", sep="\t", index=False)
    with pytest.raises(Rejected, match="no valid prediction") as caught:
        submit(service, tmp_path / "empty-answers.tsv")
    assert caught.value.report is not None and caught.value.report.n_invalid == len(frame)
    assert service.requests.list() == []


@pytest.mark.parametrize(
    ("metadata", "expected"),
    [
        ({"model": "  "}, "model is required"),
        ({"model_link": "javascript:alert(1)"}, "model_link .* expected an http"),
        ({"contact_email": "not-an-address"}, "contact_email"),
        ({"open_weights": "maybe"}, "open_weights"),
        ({"parameters_b": "lots"}, "parameters_b"),
        ({"model": "two\nlines"}, "one line"),
        ({"colour": "red"}, "unknown metadata field 'colour'"),
    ],
)
def test_bad_metadata_is_refused_naming_the_field(service: Leaderboard, files, metadata: dict, expected: str):
    with pytest.raises(Rejected, match=expected):
        submit(service, files["test-noisy"], metadata=metadata)
    assert service.requests.list() == []


def test_a_bad_user_name_or_split_is_refused(service: Leaderboard, files):
    with pytest.raises(Rejected, match="user"):
        submit(service, files["test-noisy"], user="../root")
    with pytest.raises(Rejected, match="split 'train'"):
        submit(service, files["test-noisy"], split="train")


def test_an_acknowledged_submission_is_durable_before_the_id_is_returned(service: Leaderboard, files, settings):
    receipt = submit(service, files["test-noisy"], metadata={"parameters_b": "7B", "open_weights": "yes"})
    restarted = LocalStorage(settings.requests_folder)  # what a process started after a crash sees
    assert restarted.read(upload_path(receipt.submission_id)) == files["test-noisy"].read_bytes()
    stored = restarted.read(request_path(receipt.submission_id))
    assert stored is not None and b'"user": "alice"' in stored and b'"parameters_b": 7.0' in stored
    assert Leaderboard(settings).status(receipt.submission_id).status == "PENDING"
    assert [e["action"] for e in service.audit_log("boss")] == ["submit"]


class _Unreachable(LocalStorage):
    def commit(self, puts, deletes=(), message=""):
        raise StorageError("the Hub did not answer")


def test_when_the_store_fails_nothing_is_acknowledged_and_no_quota_is_used(settings, files, clock):
    broken = Leaderboard(settings, requests_store=_Unreachable(settings.requests_folder), clock=clock)
    with pytest.raises(StorageError):
        submit(broken, files["test-noisy"])
    service = Leaderboard(settings, clock=clock)
    assert service.requests.list("requests") == []
    assert service.quota_left("alice") == settings.test_submissions_per_day


def test_the_same_file_from_the_same_user_is_one_submission(service: Leaderboard, files, clock):
    first = submit(service, files["test-noisy"], model="First name")
    clock.advance(60)
    again = submit(service, files["test-noisy"], model="Renamed")
    assert again.submission_id == first.submission_id and again.duplicate and not first.duplicate
    assert again.quota_left == first.quota_left == 2
    assert len(service.requests.list("requests")) == 1
    assert service.status(first.submission_id).metadata["model"] == "First name"


def test_the_same_file_from_another_user_or_after_the_window_is_a_new_submission(service, files, clock, settings):
    first = submit(service, files["test-noisy"], user="alice")
    other = submit(service, files["test-noisy"], user="bob")
    clock.advance(settings.dedupe_window_s + 1)
    later = submit(service, files["test-noisy"], user="alice")
    assert len({first.submission_id, other.submission_id, later.submission_id}) == 3
    assert not later.duplicate


def test_the_user_name_is_matched_without_case(service: Leaderboard, files):
    first = submit(service, files["test-noisy"], user="Alice")
    assert submit(service, files["test-noisy"], user="alice").submission_id == first.submission_id


def test_a_look_alike_of_another_submitters_model_name_is_refused(service: Leaderboard, files):
    submit(service, files["test-noisy"], user="alice", model="alice-test")
    with pytest.raises(Rejected, match="looks the same as 'alice-test', another submitter's entry"):
        submit(service, files["test-noisy1"], user="mallory", model="ＡＬＩＣＥ-Test")
    for confusable in ("alice\u2010test", "\u0430lice-test"):  # U+2010 HYPHEN, a Cyrillic "а": NFKC folds neither
        with pytest.raises(Rejected, match="looks the same as 'alice-test'"):
            submit(service, files["test-noisy1"], user="mallory", model=confusable)
    # one's own names may vary in case; the exact same spelling is another run of the same model
    submit(service, files["test-noisy3"], user="alice", model="Alice-Test")
    submit(service, files["test-noisy2"], user="bob", model="Alice-Test")


def test_the_cli_table_never_prints_control_characters(service: Leaderboard, files, capsys):
    import argparse

    from leaderboard.cli import commands

    # written before intake refused such characters: stored text is shown escaped, never run
    old = Reported("old", "Old\x1b]0;pwned\x07", 1.0, "https://example.org/p")
    service.requests.commit({reported_path("old"): old.to_bytes()}, message="an old record")
    commands.table(service, argparse.Namespace(json=False))
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out and "Old\\x1b]0;pwned\\x07" in out
