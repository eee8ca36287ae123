"""``python -m leaderboard``: the command names, flags, exit codes and outputs other checks rely on."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from leaderboard.cli.parser import main
from leaderboard.config import Settings
from leaderboard.service import Leaderboard
from scoring import score_submission
from scoring.examples import write_example
from tests.service_fixtures import MAINTAINER, kept_summary, submit

ROOT = Path(__file__).resolve().parents[2]


def run(environ: dict[str, str], *args: object) -> subprocess.CompletedProcess[str]:
    """The real command in a new process, as a maintainer or a check script runs it."""
    env = {**os.environ, **environ}
    command = [sys.executable, "-m", "leaderboard", *map(str, args)]
    return subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_submit_work_status_approve_and_the_public_row_from_the_command_line(environ, files, test_key):
    submitted = run(
        environ, "submit", files["test-noisy"], "--split", "test", "--model", "Navigator-7B", "--user", "alice",
        "--organization", "ETH", "--link", "https://example.org/navigator", "--publish",
        "--trained-on", "none", "--test-images-beyond-inference", "no", "--best-of", "1",
    )  # fmt: skip
    assert submitted.returncode == 0, submitted.stderr
    submission_id = submitted.stdout.strip().splitlines()[-1]
    assert "rows read" in submitted.stdout

    status = json.loads(run(environ, "status", submission_id).stdout)
    assert status["status"] == "PENDING" and "summary" not in status
    worked = run(environ, "work", "--once")
    assert worked.returncode == 0, worked.stderr

    expected = kept_summary(score_submission(files["test-noisy"], test_key))
    status = json.loads(run(environ, "status", submission_id).stdout)
    assert status["status"] == "FINISHED" and set(status["summary"]) == set(expected.to_dict())
    assert status["summary"] == expected.to_dict()  # the same keys as ever, the scorer's numbers exactly

    assert run(environ, "leaderboard", "--json").stdout.count(submission_id) == 0  # not approved yet
    approved = run(environ, "approve", submission_id, "--by", MAINTAINER)
    assert approved.returncode == 0, approved.stderr
    rows = json.loads(run(environ, "leaderboard", "--json").stdout)
    (row,) = [r for r in rows if r["submission_id"] == submission_id]
    assert (row["model"], row["organization"], row["score"]) == ("Navigator-7B", "ETH", expected.score)
    assert any(r["kind"] == "baseline" and r["score"] == 0 for r in rows)


def cli(capsys, environ: dict[str, str], *args: object) -> tuple[int, str, str]:
    """``main`` in this process (fast): exit status, stdout, stderr."""
    code = main([str(a) for a in args], environ)
    out, err = capsys.readouterr()
    return code, out, err


def test_a_rejected_file_exits_2_with_one_line(capsys, environ, tmp_path):
    bad = tmp_path / "bad.tsv"
    bad.write_text("sample_id,embodiment,prediction\nval_0000,Human,[]\n")
    code, out, err = cli(capsys, environ, "submit", bad, "--split", "validation", "--model", "M", "--user", "alice")
    assert (code, out) == (2, "")
    assert err.startswith("rejected: ") and "tab" in err and err.count("\n") == 1


def test_an_exceeded_quota_exits_2_and_says_limit(capsys, environ, files):
    environ = {**environ, "TEST_SUBMISSIONS_PER_DAY": "1"}
    args = ("--split", "test", "--model", "M", "--user", "alice")
    assert cli(capsys, environ, "submit", files["test-noisy1"], *args)[0] == 0
    code, out, err = cli(capsys, environ, "submit", files["test-noisy2"], *args[:3], "Renamed", *args[4:])
    assert code == 2 and "limit" in err and err.count("\n") == 1


def test_a_repeated_file_prints_the_same_id(capsys, environ, files):
    args = ("submit", files["test-noisy"], "--split", "test", "--model", "M", "--user", "alice")
    first, again = cli(capsys, environ, *args)[1], cli(capsys, environ, *args)[1]
    assert first.splitlines()[-1] == again.splitlines()[-1] and "same file" in again


@pytest.mark.parametrize(
    "command",
    [
        ["approve", "{id}"],
        ["reject", "{id}", "--reason", "no"],
        ["hide", "{id}"],
        ["unhide", "{id}"],
        ["edit", "{id}", "--model", "X"],
        ["rescore"],
        ["add-reported", "--model", "X", "--score", "1", "--source", "https://example.org"],
        ["pending"],
        ["audit"],
    ],
)
def test_maintainer_commands_exit_2_for_anyone_else(capsys, environ, settings, files, command):
    submission_id = submit(Leaderboard(settings), files["test-noisy"], publish=True).submission_id
    args = [a.replace("{id}", submission_id) for a in command]
    code, out, err = cli(capsys, environ, *args, "--by", "mallory")
    assert (code, out) == (2, "") and "not a maintainer" in err
    assert cli(capsys, environ, *args, "--by", MAINTAINER)[0] == 0


def test_moderation_commands_report_what_they_did(capsys, environ, settings, files):
    service = Leaderboard(settings)
    submission_id = submit(service, files["test-noisy"], publish=True).submission_id
    service.worker.drain()
    assert cli(capsys, environ, "hide", submission_id, "--by", MAINTAINER)[1] == f"{submission_id}: pending, hidden\n"
    code, out, _ = cli(capsys, environ, "reject", submission_id, "--by", MAINTAINER, "--reason", "late")
    assert out == f"{submission_id}: rejected (late)\n"
    assert "1 submission(s) queued" in cli(capsys, environ, "rescore", "--by", MAINTAINER)[1]
    audit = [json.loads(line) for line in cli(capsys, environ, "audit", "--by", MAINTAINER)[1].splitlines()]
    assert [e["action"] for e in audit] == ["submit", "finished", "hide", "reject", "rescore"]


def test_unknown_ids_and_bad_settings_exit_1(capsys, environ):
    code, _, err = cli(capsys, environ, "status", "20250101-000000-deadbeef")
    assert code == 1 and "no submission" in err
    code, _, err = cli(capsys, {**environ, "TEST_SUBMISSIONS_PER_DAY": "three"}, "leaderboard")
    assert code == 1 and "TEST_SUBMISSIONS_PER_DAY='three': expected a whole number" in err


def test_the_text_table_shows_the_baseline_and_reported_rows(capsys, environ):
    reported = ["add-reported", "--by", MAINTAINER, "--model", "Gemini 2.5 Pro", "--score", "34.38"]
    code, out, _ = cli(capsys, environ, *reported, "--source", "https://arxiv.org/abs/2510.26909")
    assert code == 0 and out.startswith("reported-")
    table = cli(capsys, environ, "leaderboard")[1].splitlines()
    assert "Gemini 2.5 Pro" in table[1] and "[reported]" in table[1] and "34.38" in table[1]
    assert "Straight forward (baseline)" in table[2] and "0.00" in table[2]


def test_the_embedded_default_generates_its_datasets_once_on_first_start(tmp_path):
    """No dataset configured: a synthetic one is made under home, once, and scores like the scorer says."""
    settings = dataclasses.replace(Settings.from_env({"LEADERBOARD_HOME": str(tmp_path)}), demo_size=(96, 72))
    settings = dataclasses.replace(settings, demo_samples=6)
    services = [Leaderboard(settings), Leaderboard(settings)]
    threads = [threading.Thread(target=s.keys.datasets) for s in services]  # two processes starting at once
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(p.name for p in (tmp_path / "demo").iterdir()) == ["navitrace", "navitrace-public"]
    assert not services[0].keys.public("test").has_ground_truth and services[0].keys.private("test").has_ground_truth
    answers, noisy = services[0].keys.private("test"), tmp_path / "noisy.tsv"
    write_example(answers, "noisy", noisy)
    receipt = submit(services[0], noisy)
    services[0].worker.drain()
    expected = kept_summary(score_submission(noisy, answers, baseline_raw=services[0].settings.baseline_raw))
    assert services[0].status(receipt.submission_id).summary.score == expected.score


def test_example_writes_a_file_the_service_accepts_and_needs_public_truth_for_noisy(capsys, environ, tmp_path):
    out = tmp_path / "straight.tsv"
    code, printed, _ = cli(capsys, environ, "example", out, "--split", "test", "--kind", "straight")
    assert code == 0 and printed.startswith("wrote ") and out.is_file()
    code, printed, _ = cli(capsys, environ, "validate", out, "--split", "test")
    assert code == 0 and " 0 invalid" in printed
    code, _, err = cli(capsys, environ, "example", tmp_path / "noisy.tsv", "--split", "test", "--kind", "noisy")
    assert code == 1 and "needs ground truth" in err and not (tmp_path / "noisy.tsv").exists()
