"""The score release policy: under ``ladder`` a test figure within noise of the submitter's
best, whatever the model name, reaches the maintainers only; a significantly better one, or the first, is released."""

from __future__ import annotations

import dataclasses
import json

import pytest

from leaderboard.cli.parser import main
from leaderboard.config import Settings, SettingsError
from leaderboard.publishing.score_release import Release, compare, read_release, release_path
from leaderboard.publishing.table import TABLE_PATH
from leaderboard.records.errors import InvalidAction, NotAuthorised
from leaderboard.records.policies import ReleasePolicy
from leaderboard.service import Leaderboard
from leaderboard.statistics.disclosure_counts import tries
from leaderboard.statistics.uncertainty import scene_totals
from tests.service_fixtures import MAINTAINER, submit

WAIT = 601  # past the dedupe window: the same file again is a new submission


@pytest.fixture
def ladder(settings: Settings, clock) -> Leaderboard:
    """The service under the ladder policy, set in the environment, with room for a few test submissions."""
    return Leaderboard(
        dataclasses.replace(settings, release_policy=ReleasePolicy.LADDER, test_submissions_per_day=20), clock=clock
    )


def _scored(service: Leaderboard, path, clock, **kwargs) -> str:
    submission_id = submit(service, path, **kwargs).submission_id
    service.worker.drain()
    clock.advance(WAIT)
    return submission_id


def _public_ids(service: Leaderboard) -> set[str]:
    return {str(r["submission_id"]) for r in service.public_table()}


def test_a_resubmission_within_noise_releases_nothing_new(ladder: Leaderboard, files, clock):
    first = _scored(ladder, files["test-noisy1"], clock, model="Navigator", publish=True)
    ladder.approve(first, MAINTAINER)
    again = submit(ladder, files["test-noisy1"], model="navigator", publish=True).submission_id  # a look-alike name
    ladder.approve(again, MAINTAINER)  # approved before it was scored: only the table's filter keeps it off
    ladder.worker.drain()

    best = ladder.status(first, "alice").summary
    assert best is not None and ladder.status(first, "alice").released
    row = next(r for r in ladder.public_table() if r["submission_id"] == first)
    release = read_release(ladder.requests, again)
    # The same rows again: new - best is 0 in every paired resample, so its 5% quantile is not above 0.
    assert release == Release(ReleasePolicy.LADDER, False, first, best.score, row["score_ci"], [0.0, 0.0])

    mine = ladder.status(again, "alice")
    assert mine.summary is None and not mine.released and not mine.public
    lo, hi = row["score_ci"]  # type: ignore[misc]
    assert mine.release_note == f"not a significant improvement over your best ({best.score:.2f} [{lo:.2f}, {hi:.2f}])"
    listed = next(v for v in ladder.my_submissions("alice") if v.submission_id == again)
    assert listed.summary is None and listed.as_dict()["summary"] is None and listed.release_note == mine.release_note

    seen = ladder.status(again, MAINTAINER)  # the exact figure stays with the maintainers, with the decision
    assert seen.summary == best and not seen.released
    assert seen.release_note is not None and seen.release_note.startswith("withheld from its submitter (ladder)")
    assert ladder.status(again, "alice").decision == "approved"

    with pytest.raises(InvalidAction, match="not a significant improvement over your best"):
        ladder.choose_public(again, "alice")
    with pytest.raises(InvalidAction, match="withheld under the ladder release policy"):
        ladder.approve(again, MAINTAINER)
    assert again not in _public_ids(ladder) and first in _public_ids(ladder)
    assert again not in ladder.results.read(TABLE_PATH).decode()  # the published table (the CSV's source)


def test_a_worse_figure_is_withheld_and_never_reaches_the_table(ladder: Leaderboard, files, clock):
    first = _scored(ladder, files["test-noisy1"], clock, publish=True)
    worse = _scored(ladder, files["test-straight"], clock, publish=True)
    assert worse not in {v.submission_id for v in ladder.pending(MAINTAINER)}  # nothing to decide
    exact = ladder.status(worse, MAINTAINER).summary
    assert exact is not None and exact.score is not None
    assert ladder.status(worse, "alice").summary is None
    release = read_release(ladder.requests, worse)
    assert release is not None and not release.released and release.compared_to == first
    assert release.difference_ci is not None and release.difference_ci[1] < 0  # clearly worse
    ladder.approve(first, MAINTAINER)
    ladder.publish()
    published = ladder.results.read(TABLE_PATH).decode()
    assert worse not in published and first in published


def test_the_first_figure_and_a_significantly_better_one_are_released(ladder: Leaderboard, files, clock):
    first = _scored(ladder, files["test-noisy1"], clock, publish=True)
    assert read_release(ladder.requests, first) == Release(ReleasePolicy.LADDER, True)  # nothing to compare with
    better = _scored(ladder, files["test-perfect"], clock, publish=True)
    release = read_release(ladder.requests, better)
    assert release is not None and release.released and release.compared_to == first
    assert release.difference_ci is not None and release.difference_ci[0] > 0
    view = ladder.status(better, "alice")
    assert view.released and view.release_note is None and view.summary is not None
    ladder.approve(better, MAINTAINER)
    assert better in _public_ids(ladder)


def test_the_best_is_per_submitter_whatever_the_model_name(ladder: Leaderboard, files, clock):
    """Renaming climbed the ladder: the same file again as "Ladder‐A" (U+2010) was a new model with a first figure."""
    first = _scored(ladder, files["test-noisy1"], clock, model="Ladder-A")
    renamed = [
        _scored(ladder, files["test-noisy1"], clock, model=name) for name in ("Ladder\u2010A", "L\u0430dder-A", "B")
    ]
    other_user = _scored(ladder, files["test-noisy1"], clock, model="Ladder-A", user="bob")
    for submission_id in renamed:  # compared with alice's best, whatever the name
        release = read_release(ladder.requests, submission_id)
        assert release is not None and not release.released and release.compared_to == first
        assert ladder.status(submission_id, "alice").summary is None
    assert ladder.status(other_user, "bob").released  # bob's first


def test_look_alike_names_are_one_model_in_the_counts(ladder: Leaderboard, files, clock):
    names = ("Ladder-A", "Ladder\u2010A", "LADDER\u2212A", "L\u0430dder-A", "Ladder-A2")
    ids = [_scored(ladder, files[f"test-noisy{i + 1}"], clock, model=name) for i, name in enumerate(names)]
    counts = tries(ladder.registry.entries())
    assert [counts[i].model for i in ids] == [4, 4, 4, 4, 1] and {counts[i].total for i in ids} == {5}


def test_validation_figures_are_always_released(ladder: Leaderboard, files, clock):
    for _ in range(2):
        submission_id = _scored(ladder, files["validation-noisy"], clock, split="validation")
        assert ladder.status(submission_id, "alice").summary is not None
        assert ladder.requests.read(release_path(submission_id)) is None


def test_the_exact_policy_releases_every_figure(service: Leaderboard, files, clock):
    assert service.release_policy() == ReleasePolicy.EXACT  # the default
    ids = [_scored(service, files["test-noisy1"], clock, publish=True) for _ in range(2)]
    for submission_id in ids:
        assert read_release(service.requests, submission_id) == Release(ReleasePolicy.EXACT, True)
        view = service.status(submission_id, "alice")
        assert view.released and view.summary is not None and view.release_note is None
        service.approve(submission_id, MAINTAINER)
    assert set(ids) <= _public_ids(service)


def test_switching_the_policy_is_for_maintainers_and_audited(service: Leaderboard, files, clock):
    with pytest.raises(NotAuthorised, match="not a maintainer"):
        service.set_release_policy("ladder", "alice")
    with pytest.raises(InvalidAction, match="release policy 'strict': expected exact or ladder"):
        service.set_release_policy("strict", MAINTAINER)
    assert service.release_policy() == ReleasePolicy.EXACT and service.audit_log(MAINTAINER) == []

    assert service.set_release_policy("Ladder", MAINTAINER) == ReleasePolicy.LADDER
    assert service.release_policy() == ReleasePolicy.LADDER
    (entry,) = [e for e in service.audit_log(MAINTAINER) if e["action"] == "release-policy"]
    assert entry["who"] == MAINTAINER and entry["before"] == {"policy": "exact"}
    assert entry["after"]["policy"] == "ladder"  # type: ignore[index]
    service.set_release_policy("ladder", MAINTAINER)  # already in force: nothing written
    assert len([e for e in service.audit_log(MAINTAINER) if e["action"] == "release-policy"]) == 1

    first = _scored(service, files["test-noisy1"], clock)  # the worker follows the maintainers' setting
    again = _scored(service, files["test-noisy1"], clock)
    assert read_release(service.requests, first) == Release(ReleasePolicy.LADDER, True)
    assert service.status(again, "alice").summary is None


def test_the_release_policy_command(environ, capsys):
    assert main(["release-policy"], environ) == 0
    assert capsys.readouterr().out.strip() == "exact"
    assert main(["release-policy", "ladder"], environ) == 2
    assert "needs --by USER" in capsys.readouterr().err
    assert main(["release-policy", "ladder", "--by", "alice"], environ) == 2
    assert "not a maintainer" in capsys.readouterr().err
    assert main(["release-policy", "ladder", "--by", MAINTAINER], environ) == 0
    assert capsys.readouterr().out.strip() == "release policy: ladder (was exact)"
    assert main(["release-policy"], environ) == 0
    assert capsys.readouterr().out.strip() == "ladder"
    assert main(["audit", "--by", MAINTAINER], environ) == 0
    (entry,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert (entry["who"], entry["action"], entry["before"]) == (MAINTAINER, "release-policy", {"policy": "exact"})


def test_the_environment_sets_the_default_and_a_bad_value_is_named():
    assert Settings.from_env({}).release_policy == ReleasePolicy.EXACT
    assert Settings.from_env({"LEADERBOARD_RELEASE_POLICY": "LADDER"}).release_policy == ReleasePolicy.LADDER
    with pytest.raises(SettingsError) as caught:
        Settings.from_env({"LEADERBOARD_RELEASE_POLICY": "sometimes"})
    assert str(caught.value) == "LEADERBOARD_RELEASE_POLICY='sometimes': expected exact or ladder"


def _rows(scores: dict[str, list[float]]) -> list[dict[str, str]]:
    return [
        {"sample_id": scene, "embodiment": "Human", "status": "valid", "score": repr(value)}
        for scene, values in scores.items()
        for value in values
    ]


def test_the_paired_test_by_hand():
    base = {"s1": [10.0, 30.0], "s2": [50.0], "s3": [0.0, 20.0, 40.0], "s4": [70.0]}
    best = scene_totals(_rows(base))
    # One point more on every row: new - best is exactly 1 in every resample, whichever scenes it draws.
    plus_one = scene_totals(_rows({s: [v + 1 for v in vs] for s, vs in base.items()}))
    assert compare(plus_one, best)[0] and compare(plus_one, best)[2] == [1.0, 1.0]
    assert compare(best, best)[0] is False and compare(best, best)[2] == [0.0, 0.0]
    # Better on one scene, worse on another: the resamples that draw s4 twice and s1 not at all say "worse".
    mixed = scene_totals(_rows({**base, "s1": [60.0, 60.0], "s4": [0.0]}))
    better, best_ci, gap = compare(mixed, best)
    assert not better and gap is not None and gap[0] < 0 < gap[1]
    assert best_ci is not None and best_ci[0] < 30.0 < best_ci[1]  # the mean of the 7 rows is 220/7 = 31.4
