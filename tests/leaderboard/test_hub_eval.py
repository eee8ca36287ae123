"""Results that travel to the Hub, without the Hub: which links are model repos, the kept copy, the settings."""

from __future__ import annotations

import json
import math

import pytest
from apscheduler.schedulers.background import BackgroundScheduler

from leaderboard.config import Settings, SettingsError
from leaderboard.publishing.hub_eval import HubRecord, model_repo
from leaderboard.publishing.hub_eval_board import MAX_ROWS, checked
from leaderboard.runtime.scheduler import HUB_BOARD_JOB_ID, HUB_PR_JOB_ID, start_hub_jobs
from leaderboard.service import Leaderboard

SPACE = "https://org-navitrace.hf.space"


@pytest.mark.parametrize(
    ("link", "expected"),
    [
        ("https://huggingface.co/acme/navigator", "acme/navigator"),
        ("https://huggingface.co/acme/navigator/", "acme/navigator"),
        ("https://hf.co/acme/navigator/tree/main?x=1#y", "acme/navigator"),
        ("https://www.huggingface.co/Acme-Lab/Nav_1.5", "Acme-Lab/Nav_1.5"),
        ("https://huggingface.co/datasets/acme/navigator", None),
        ("https://huggingface.co/spaces/acme/navigator", None),
        ("https://huggingface.co/papers/2510.26909", None),
        ("https://huggingface.co/acme", None),  # a user or an organisation, no repository
        ("http://huggingface.co/acme/navigator", None),  # not https
        ("https://huggingface.co.evil.example/acme/navigator", None),
        ("https://github.com/acme/navigator", None),
        ("https://huggingface.co/acme/..", None),
        (None, None),
    ],
)
def test_only_a_hub_model_repository_link_names_a_repo(link, expected):
    assert model_repo(link) == expected


def test_the_kept_copy_drops_malformed_results_our_own_and_is_bounded():
    answer = [
        {
            "model_id": "zeta/one",
            "value": 50.0,
            "filename": ".eval_results/a.yaml",
            "source": {"url": "https://z.example"},
        },
        {"model_id": "zeta/ours", "value": 90.0, "source": {"url": f"{SPACE}/?entry=abc"}},  # scored here already
        {"model_id": "not a repo", "value": 60.0},
        {"model_id": "zeta/nan", "value": math.nan},
        {"model_id": "zeta/text", "value": "70"},
        {"model_id": "zeta/bool", "value": True},
        {"model_id": "zeta/pr", "value": 55.0, "pull_request": 3, "source": {"url": "javascript:alert(1)"}},
    ]
    kept = checked(answer, SPACE, {("zeta/one", ".eval_results/a.yaml", 50.0): "2026-01-02"}, "2026-11-25")
    assert [(r["model_id"], r["value"], r["first_seen"]) for r in kept] == [
        ("zeta/pr", 55.0, "2026-11-25"),
        ("zeta/one", 50.0, "2026-01-02"),
    ]
    assert kept[0]["source_url"] is None and kept[0]["pull_request"] == 3  # only https sources are kept
    many = [{"model_id": f"zeta/m{i}", "value": float(i)} for i in range(MAX_ROWS + 100)]
    bounded = checked(many, SPACE, {}, "2026-11-25")
    assert len(bounded) == MAX_ROWS and bounded[0]["value"] == MAX_ROWS + 99.0  # the best are kept


def test_a_record_keeps_the_contract_keys():
    opened = HubRecord("acme/navigator", pr_url="https://huggingface.co/acme/navigator/discussions/1", opened_at="t")
    assert set(json.loads(opened.to_bytes())) == {"pr_url", "repo_id", "opened_at"}
    assert HubRecord.from_bytes(opened.to_bytes()) == opened
    refused = HubRecord("acme/gone", refused="no such repository", refused_at="t")
    assert HubRecord.from_bytes(refused.to_bytes()) == refused and b'"pr_url": null' in refused.to_bytes()


def test_the_hub_settings_are_read_and_checked():
    base = {"HF_TOKEN": "hf_x", "HUB_BENCHMARK_DATASET": "leggedrobotics/navitrace"}
    settings = Settings.from_env({**base, "SPACE_HOST": "org-navitrace.hf.space,other.example"})
    assert (settings.hub_benchmark_dataset, settings.hub_task_id, settings.hub_space_url) == (
        "leggedrobotics/navitrace",
        "score",
        "https://org-navitrace.hf.space",
    )
    assert (settings.hub_pr_interval_s, settings.hub_refresh_s) == (300.0, 3600.0)
    given = Settings.from_env({**base, "HUB_SPACE_URL": "https://example.org/board/", "HUB_TASK_ID": "test_score"})
    assert (given.hub_space_url, given.hub_task_id) == ("https://example.org/board", "test_score")
    assert Settings.from_env({}).hub_benchmark_dataset is None
    with pytest.raises(SettingsError, match="HUB_SPACE_URL"):
        Settings.from_env(base)  # nowhere to link back to
    with pytest.raises(SettingsError, match="HF_TOKEN"):
        Settings.from_env({"HUB_BENCHMARK_DATASET": "org/x", "HUB_SPACE_URL": SPACE})
    with pytest.raises(SettingsError, match="HUB_TASK_ID='a b'"):
        Settings.from_env({**base, "HUB_SPACE_URL": SPACE, "HUB_TASK_ID": "a b"})
    with pytest.raises(SettingsError, match="HUB_SPACE_URL='javascript:x'"):
        Settings.from_env({**base, "HUB_SPACE_URL": "javascript:x"})
    with pytest.raises(SettingsError, match="HUB_REFRESH_S"):
        Settings.from_env({**base, "HUB_SPACE_URL": SPACE, "HUB_REFRESH_S": "0"})


def test_the_hub_jobs_are_scheduled_only_with_a_benchmark_dataset(settings, tmp_path):
    import dataclasses

    scheduler = BackgroundScheduler()  # never started: nothing runs, nothing calls the Hub
    assert start_hub_jobs(scheduler, Leaderboard(settings)) is False and scheduler.get_jobs() == []
    hub = dataclasses.replace(settings, hub_benchmark_dataset="org/bench", hub_space_url=SPACE, hf_token="hf_x")
    assert start_hub_jobs(scheduler, Leaderboard(hub)) is True
    assert sorted(j.id for j in scheduler.get_jobs()) == sorted([HUB_PR_JOB_ID, HUB_BOARD_JOB_ID])


def test_the_pull_request_text_holds_no_submitter_text_no_mention_and_no_link_but_the_entry_page():
    from leaderboard.publishing.hub_eval import EvalResult

    result = EvalResult("acme/m", "abc", "org/bench", "score", 41.0, "t", f"{SPACE}/?entry=abc")
    text = result.title + "\n" + result.description
    assert result.title.endswith("entry abc") and "41.00" in text and "@" not in text
    assert "](http" in text and text.count("http") == 1  # one link: the entry page
    assert "@" not in EvalResult("acme/m", "a@b", "org/bench", "score", 1.0, "t", SPACE).description
