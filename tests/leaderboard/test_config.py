"""Settings: the contract's variable names, their defaults, and loud failures naming key and value."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from leaderboard.config import Settings, SettingsError


def test_an_empty_environment_is_the_embedded_default():
    s = Settings.from_env({})
    assert s.home == Path("local")
    assert (s.answer_key_dataset, s.public_dataset, s.requests_repo, s.results_repo) == (None, None, None, None)
    assert s.hf_token is None
    assert s.maintainers == frozenset()
    assert s.test_submissions_per_day == 3
    assert s.baseline_raw == 3300.35898049  # the embedded default's own B (DEMO_BASELINE_RAW), not 3234.75
    assert s.score_interval_s == 60
    assert s.requests_folder == Path("local/requests") and s.results_folder == Path("local/results")


def test_every_contract_variable_is_read():
    s = Settings.from_env(
        {
            "LEADERBOARD_HOME": "/srv/lb",
            "ANSWER_KEY_DATASET": "org/navitrace-private",
            "PUBLIC_DATASET": "leggedrobotics/navitrace",
            "REQUESTS_REPO": "org/requests",
            "RESULTS_REPO": "org/results",
            "HF_TOKEN": "hf_secret",
            "MAINTAINERS": " Alice, bob ,,",
            "TEST_SUBMISSIONS_PER_DAY": "5",
            "BASELINE_RAW": "1000.5",
            "SCORE_INTERVAL_S": "2.5",
        }
    )
    assert s.home == Path("/srv/lb")
    assert (s.answer_key_dataset, s.public_dataset) == ("org/navitrace-private", "leggedrobotics/navitrace")
    assert (s.requests_repo, s.results_repo, s.hf_token) == ("org/requests", "org/results", "hf_secret")
    assert s.maintainers == {"alice", "bob"}
    assert s.is_maintainer("ALICE") and s.is_maintainer(" bob ") and not s.is_maintainer("eve")
    assert not s.is_maintainer(None) and not s.is_maintainer("")
    assert (s.test_submissions_per_day, s.baseline_raw, s.score_interval_s) == (5, 1000.5, 2.5)
    assert "hf_secret" not in repr(s)


def test_settings_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        Settings.from_env({}).test_submissions_per_day = 9  # type: ignore[misc]


@pytest.mark.parametrize(
    ("name", "value", "expected"),
    [
        ("TEST_SUBMISSIONS_PER_DAY", "three", "TEST_SUBMISSIONS_PER_DAY='three': expected a whole number"),
        ("TEST_SUBMISSIONS_PER_DAY", "-1", "TEST_SUBMISSIONS_PER_DAY='-1': expected a whole number"),
        ("BASELINE_RAW", "0", "BASELINE_RAW='0': expected a number above 0"),
        ("BASELINE_RAW", "nan", "BASELINE_RAW='nan': expected a finite number"),
        ("SCORE_INTERVAL_S", "soon", "SCORE_INTERVAL_S='soon': expected a number"),
        ("REQUESTS_REPO", "requests", "REQUESTS_REPO='requests': expected a Hub dataset id like 'org/name'"),
        ("MAINTAINERS", "alice bob", "MAINTAINERS='alice bob': expected comma-separated Hugging Face user names"),
        ("LEADERBOARD_MAX_ATTEMPTS", "0", "LEADERBOARD_MAX_ATTEMPTS='0': expected a whole number of at least 1"),
    ],
)
def test_a_bad_value_names_the_variable_and_the_value(name: str, value: str, expected: str):
    environ = {"HF_TOKEN": "t", "RESULTS_REPO": "org/results", name: value}
    with pytest.raises(SettingsError) as caught:
        Settings.from_env(environ)
    assert str(caught.value).startswith(expected)


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({"ANSWER_KEY_DATASET": "org/private"}, "PUBLIC_DATASET is empty"),
        ({"PUBLIC_DATASET": "leggedrobotics/navitrace"}, "ANSWER_KEY_DATASET is empty"),
        ({"REQUESTS_REPO": "org/x", "RESULTS_REPO": "org/x", "HF_TOKEN": "t"}, "must not be the public results repo"),
        ({"RESULTS_REPO": "org/results"}, "HF_TOKEN is empty"),
    ],
)
def test_combinations_that_cannot_work_fail_at_start_up(environ: dict[str, str], expected: str):
    with pytest.raises(SettingsError, match=expected):
        Settings.from_env(environ)


def test_blank_values_mean_the_default():
    s = Settings.from_env({"TEST_SUBMISSIONS_PER_DAY": " ", "REQUESTS_REPO": "", "LEADERBOARD_HOME": ""})
    assert s.test_submissions_per_day == 3 and s.requests_repo is None and s.home == Path("local")


def test_the_embedded_default_scores_with_its_own_calibrated_baseline():
    from leaderboard.config import DEMO_BASELINE_RAW
    from scoring import NAVITRACE_BASELINE_RAW

    assert Settings.from_env({}).baseline_raw == DEMO_BASELINE_RAW
    real = {"ANSWER_KEY_DATASET": "org/navitrace-private", "PUBLIC_DATASET": "org/navitrace"}
    assert Settings.from_env(real).baseline_raw == NAVITRACE_BASELINE_RAW
    assert Settings.from_env({**real, "BASELINE_RAW": "3000"}).baseline_raw == 3000.0


@pytest.mark.slow
def test_the_demo_baseline_is_the_calibration_of_the_embedded_default(tmp_path):
    """DEMO_BASELINE_RAW re-derived: generate the default dataset, calibrate its test split (about 20 s)."""
    from leaderboard.config import DEMO_BASELINE_RAW, DEMO_SAMPLES, DEMO_SIZE
    from leaderboard.storage.answer_keys import ensure_demo_datasets
    from scoring import load_answer_key
    from scoring.calibrate import straight_forward_mean_raw

    private, _ = ensure_demo_datasets(tmp_path / "demo", tmp_path / "locks", DEMO_SAMPLES, DEMO_SIZE)
    value, _rows = straight_forward_mean_raw(load_answer_key(private, "test", tmp_path / "cache"))
    assert value == pytest.approx(DEMO_BASELINE_RAW, abs=1e-6)
