"""Score release: whether a finished test submission's figure is shown to its submitter.

Two policies (``ReleasePolicy``), chosen by the maintainers (``release_policy``):

- ``exact``: every figure is released as scored (the board as it always was);
- ``ladder``: Blum & Hardt's Ladder ("The Ladder: A Reliable Leaderboard for Machine Learning
  Competitions", ICML 2015). A test figure is released only when it is the submitter's first, or a
  significant improvement over their best released one, whatever the model names; otherwise the
  submitter reads "not a significant improvement over your best (X [lo, hi])" and learns nothing
  new about the hidden answers, which defeats hill-climbing by repeated submission (their boosting
  attack: ``benchmarks/boosting_attack.py``).

The test (``compare``) is one-sided and paired over scenes at 95%: the scene-clustered bootstrap
of the board's intervals (``leaderboard.statistics.uncertainty``: the same 1,000 resamples of the split's
scenes for both submissions, all rows of a scene drawn together), and the new figure is released
when the 5% quantile of ``new - best`` over the resamples is above 0. Not Blum & Hardt's
parameter-free ``s / sqrt(n)`` step: that threshold is one standard error (a one-sided level of
about 84%, not 95%), and it treats rows as independent draws while the embodiments of one image
share their scene; the bootstrap is the board's own yardstick, so "significant" here means what a
non-overlapping interval on the board means, and the ``[lo, hi]`` the submitter reads is the
board's interval of their best.

``private/{id}/release.json`` (``Release``) records the decision under the policy in force when the
job finished; the worker writes it in the job's result commit (``release_decision``). A finished
submission without one (scored before this existed) counts as released, as it was.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass

import numpy as np

from leaderboard.records import ReleasePolicy, dump
from leaderboard.statistics import DECIMALS, OVERALL, Interval, SceneTotals, interval, resample
from leaderboard.storage import Storage

LEVEL = 0.95  # one-sided: released when the 5% quantile of new - best is above 0
RELEASE_POLICY_PATH = "control/release.json"


def release_path(submission_id: str) -> str:
    return f"private/{submission_id}/release.json"


@dataclass(frozen=True)
class Release:
    """The release decision of one finished test submission (``private/{id}/release.json``)."""

    policy: ReleasePolicy
    released: bool
    compared_to: str | None = None  # the submitter's best released test submission (any model), if any
    best: float | None = None  # its score
    best_ci: Interval | None = None  # its 95% interval (as on the board)
    difference_ci: Interval | None = None  # [5%, 95%] quantiles of new - best: the low end is the test's bound

    def to_bytes(self) -> bytes:
        return dump(asdict(self))

    @classmethod
    def from_bytes(cls, data: bytes) -> Release:
        raw = json.loads(data)
        raw["policy"] = ReleasePolicy(raw["policy"])
        return cls(**raw)


EXACT_RELEASE = Release(ReleasePolicy.EXACT, True)


def read_release(store: Storage, submission_id: str) -> Release | None:
    data = store.read(release_path(submission_id))
    return Release.from_bytes(data) if data else None


def is_released(store: Storage, submission_id: str) -> bool:
    """Whether the submission's figure may be shown to its submitter and reach the board."""
    release = read_release(store, submission_id)
    return release is None or release.released


def compare(new: SceneTotals, best: SceneTotals) -> tuple[bool, Interval | None, Interval | None]:
    """``(significantly better, best's 95% interval, [5%, 95%] of new - best)`` over paired scene resamples."""
    resampled = resample({"new": new, "best": best}, {"new": [OVERALL], "best": [OVERALL]})
    ours, theirs = resampled.column("new"), resampled.column("best")
    if ours is None or theirs is None:
        return False, None, None
    gaps = ours - theirs
    if not np.isfinite(gaps).any():
        return False, interval(theirs), None
    low, high = np.nanquantile(gaps, (1 - LEVEL, LEVEL))
    span = [round(float(low), DECIMALS), round(float(high), DECIMALS)]
    return bool(low > 0), interval(theirs), span


def submitter_note(release: Release) -> str:
    """What the submitter of a withheld figure reads.

    >>> submitter_note(Release(ReleasePolicy.LADDER, False, "ab12", 41.234, [39.0, 43.5], [-1.0, 0.4]))
    'not a significant improvement over your best (41.23 [39.00, 43.50])'
    """
    best = "—" if release.best is None else f"{release.best:.2f}"
    span = "" if release.best_ci is None else f" [{release.best_ci[0]:.2f}, {release.best_ci[1]:.2f}]"
    return f"not a significant improvement over your best ({best}{span})"


def maintainer_note(release: Release) -> str:
    """The decision as maintainers read it: what was compared, and by how much.

    >>> withheld = Release(ReleasePolicy.LADDER, False, "ab12", 41.0, [39, 43.5], [-1, 0.4])
    >>> whom, test = maintainer_note(withheld).split("; ")
    >>> whom
    'withheld from its submitter (ladder): not significantly better than their best 41.00 [39.00, 43.50] (ab12)'
    >>> test
    'new − best 90% interval [-1.00, +0.40], needs a low end above 0'
    """
    best = "—" if release.best is None else f"{release.best:.2f}"
    span = "" if release.best_ci is None else f" [{release.best_ci[0]:.2f}, {release.best_ci[1]:.2f}]"
    gap = release.difference_ci
    tested = "no paired test was possible" if gap is None else f"new − best 90% interval [{gap[0]:+.2f}, {gap[1]:+.2f}]"
    return (
        f"withheld from its submitter ({release.policy}): not significantly better than their best {best}{span} "
        f"({release.compared_to}); {tested}, needs a low end above 0"
    )
