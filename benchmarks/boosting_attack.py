"""Blum & Hardt's boosting attack on the hidden test split, through the real service, under each release policy.

    .venv/bin/python benchmarks/boosting_attack.py                      # 400 scenes a split, k = 40, 3 repeats
    .venv/bin/python benchmarks/boosting_attack.py --scenes 200 --k 20 --repeat 1

The attack ("The Ladder: A Reliable Leaderboard for Machine Learning Competitions", Blum & Hardt,
ICML 2015, section 3.1), adapted to traces, with the daily quota lifted: the attacker knows nothing of
the scenes and starts from the straight-forward baseline (a vertical line up the image centre).
Perturbation ``i`` moves that line ``--shift`` pixels left or right on every row, by a fair coin per
row. The attacker submits ``k`` perturbations, keeps those whose displayed score beat the first one's
(under ``ladder``: those released, as a released figure is above the submitter's best), combines them
row by row (each row moves the way most kept perturbations moved it) and submits the combination.

Every submission goes through ``Leaderboard.submit`` and the worker on a synthetic dataset made here
(``synthetic.write_demo_dataset``, ``--scenes`` samples a split, ~2.5 rows a sample as the real split),
one service (local stores) per policy; what the attacker reads is the submitter's view
(``Leaderboard.status(id, user)``): the score, or nothing and the "not a significant improvement" note.

Three attackers: the plain one under ``exact`` and under ``ladder``, and under ``ladder`` a *renaming*
one that sends every submission under a new model name ("Booster", then "Booster‐1" with U+2010
HYPHEN, "Booster‐2", …), so that a ladder keeping its reference best per model name would show each
as a first figure.

- displayed gain: the attacker's best displayed score at the end minus their first displayed score;
- true gain: the same procedure (the same kept set and the same combination rule) applied to the
  validation split, which the attacker never sees and whose scenes the perturbations know nothing
  of, scored with the same scorer: zero in expectation by construction (the coins of a held-out row
  are independent of what was kept), printed with its paired 95% interval as the noise of one draw;
- half-width: half the 95% scene-bootstrap interval of the displayed entry's score, as on the board.

Target: under ``ladder``, displayed - true <= half-width for both attackers; under ``exact`` the figures
show how far repeated submission climbs on a test set whose scenes it never learnt.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from leaderboard.config import Settings  # noqa: E402
from leaderboard.records.policies import ReleasePolicy  # noqa: E402
from leaderboard.service import Leaderboard  # noqa: E402
from leaderboard.statistics.uncertainty import interval, resample, scene_totals  # noqa: E402
from scoring import AnswerKey, load_answer_key, score_submission  # noqa: E402
from scoring.calibrate import straight_forward_mean_raw  # noqa: E402
from scoring.examples import NOTEBOOK_COLUMNS, example_rows  # noqa: E402
from synthetic import write_demo_dataset  # noqa: E402
from synthetic.public_copy import write_public_copy  # noqa: E402

SIZE = (96, 72)  # small images: the attack is about rows and scenes, not pixels
ATTACKS = ((ReleasePolicy.EXACT, "plain"), (ReleasePolicy.LADDER, "plain"), (ReleasePolicy.LADDER, "renaming"))
ATTACKER = "booster"
Signs = np.ndarray  # (rows,) of -1 / +1: how each row's line is moved


@dataclasses.dataclass(frozen=True)
class Outcome:
    policy: str
    attacker: str  # "plain", or "renaming": a new model name for every submission
    first: float  # the first displayed score
    best: float  # the best displayed score at the end
    true_gain: float  # the same procedure on the held-out split
    true_half: float  # half-width of the held-out gain's paired 95% interval (one draw's noise)
    half_width: float  # half-width of the displayed best's 95% interval
    kept: int  # perturbations kept (exact: scored above the first; ladder: released)
    released: int  # submissions whose figure the attacker saw

    @property
    def displayed_gain(self) -> float:
        return self.best - self.first


def predictions(key: AnswerKey, signs: Signs, shift: float) -> bytes:
    """A submission TSV in the notebook's format: the straight line moved ``signs * shift`` pixels."""
    rows = example_rows(key, "straight")
    for row, sign, (sample, _) in zip(rows, signs, key.expected_rows()):
        x = float(np.clip(sample.width / 2 + sign * shift, 0, sample.width - 1))
        row["prediction"] = json.dumps([[x, sample.height - 1], [x, 0.0]])
        row["raw_response"] = row["prediction"]
    return pd.DataFrame(rows, columns=list(NOTEBOOK_COLUMNS)).to_csv(sep="\t", index=False).encode()


def combine(signs: Signs, kept: Sequence[int]) -> Signs:
    """Row by row, the way most kept perturbations moved the row (a tie: the first kept one's way)."""
    total = signs[list(kept)].sum(axis=0)
    return np.where(total == 0, signs[kept[0]], np.sign(total)).astype(np.int8)


class Attacker:
    """Submits through the service and reads what the submitter is shown."""

    def __init__(self, service: Leaderboard, key: AnswerKey, shift: float, renaming: bool = False) -> None:
        self.service, self.key, self.shift, self.renaming = service, key, shift, renaming
        self.ids: list[str] = []

    def name(self) -> str:
        """The model name of the next submission: always "Booster", or a new one each time when renaming."""
        return f"Booster\u2010{len(self.ids)}" if self.renaming and self.ids else "Booster"

    def submit(self, signs: Signs) -> float | None:
        data = predictions(self.key, signs, self.shift)
        receipt = self.service.submit(
            data, split="test", user=ATTACKER, metadata={"model": self.name()}, filename="booster.tsv"
        )
        self.service.worker.drain()
        self.ids.append(receipt.submission_id)
        view = self.service.status(receipt.submission_id, ATTACKER)  # what the submitter sees
        if view.status != "FINISHED":
            raise RuntimeError(f"{receipt.submission_id} is {view.status}: {view.message}")
        return view.summary.score if view.summary else None

    def half_width(self, index: int) -> float:
        """Half the 95% scene-bootstrap interval of submission ``index`` (from its per-row scores)."""
        totals = scene_totals(self.service.rows(self.ids[index]))  # a maintainer's read
        low, high = interval(resample({"a": totals}).column("a")) or (float("nan"), float("nan"))
        return (high - low) / 2


def attack(attacker: Attacker, signs: Signs) -> tuple[list[int], int, float, float, int]:
    """``(kept, index of the best displayed recipe (k = the combination), first, best, figures seen)``."""
    shown = [attacker.submit(s) for s in signs]
    first = shown[0]
    assert first is not None, "a submitter's first figure is always released"
    kept = [i for i in range(1, len(signs)) if shown[i] is not None and shown[i] > first]  # type: ignore[operator]
    if kept:
        shown.append(attacker.submit(combine(signs, kept)))
    best = max(range(len(shown)), key=lambda i: -np.inf if shown[i] is None else shown[i])  # type: ignore[arg-type,return-value]
    seen = sum(value is not None for value in shown)
    return kept, best, first, float(shown[best]), seen  # type: ignore[arg-type]


def recipe(signs: Signs, kept: list[int], index: int) -> Signs:
    return combine(signs, kept) if index == len(signs) else signs[index]


def held_out_gain(
    key: AnswerKey, signs: Signs, kept: list[int], index: int, shift: float, b: float
) -> tuple[float, float]:
    """The gain of recipe ``index`` over the first on the held-out split, and its paired interval's half-width."""
    first = score_submission(predictions(key, signs[0], shift), key, baseline_raw=b)
    final = score_submission(predictions(key, recipe(signs, kept, index), shift), key, baseline_raw=b)
    totals = {}
    for name, evaluation in (("first", first), ("final", final)):
        rows = [r.as_record() for r in evaluation.rows]
        totals[name] = scene_totals({k: "" if v is None else str(v) for k, v in r.items()} for r in rows)
    resampled = resample(totals)
    gap = interval(resampled.column("final") - resampled.column("first"))  # type: ignore[operator]
    half = (gap[1] - gap[0]) / 2 if gap else float("nan")
    return float(final.summary.score) - float(first.summary.score), half  # type: ignore[arg-type]


def service_for(folder: Path, data: tuple[Path, Path], policy: ReleasePolicy, b: float, cache: Path) -> Leaderboard:
    environ = {
        "LEADERBOARD_HOME": str(folder),
        "ANSWER_KEY_DATASET": str(data[0]),
        "PUBLIC_DATASET": str(data[1]),
        "BASELINE_RAW": repr(b),
        "LEADERBOARD_RELEASE_POLICY": policy.value,
        "TEST_SUBMISSIONS_PER_DAY": "100000",  # the quota lifted
        "LEADERBOARD_QUEUED_PER_USER": "100000",
        "LEADERBOARD_DAILY_POINTS": "1000000000",
    }
    return Leaderboard(dataclasses.replace(Settings.from_env(environ), answer_key_cache=cache))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scenes", type=int, default=400, help="samples per split (the real test split: 500)")
    parser.add_argument("--k", type=int, default=40, help="random perturbations submitted")
    parser.add_argument("--shift", type=float, default=12.0, help="pixels each row's line moves (images are 96x72)")
    parser.add_argument("--repeat", type=int, default=3, help="attacks, each with its own coins")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="boosting-") as tmp:
        root = Path(tmp)
        private = write_demo_dataset(root / "navitrace", samples=args.scenes, size=SIZE, seed=args.seed)
        data = (private, write_public_copy(private, root / "public", args.scenes, SIZE, args.seed))
        cache = root / "cache"
        test_key, held_key = (load_answer_key(data[0], split, cache) for split in ("test", "validation"))
        b = straight_forward_mean_raw(test_key)[0]
        made = time.perf_counter() - started
        rows_test, rows_held = (sum(1 for _ in key.expected_rows()) for key in (test_key, held_key))
        print(
            f"synthetic splits: {args.scenes} scenes each ({rows_test} test rows, {rows_held} held-out rows), "
            f"made in {made:.0f} s; B = {b:.1f}; k = {args.k}, shift {args.shift:g} px, {args.repeat} repeat(s)"
        )
        outcomes: list[Outcome] = []
        for repeat in range(args.repeat):
            rng = np.random.default_rng([args.seed, repeat])
            signs = rng.choice(np.array([-1, 1], dtype=np.int8), size=(args.k, rows_test))
            signs_held = rng.choice(np.array([-1, 1], dtype=np.int8), size=(args.k, rows_held))
            for policy, who in ATTACKS:
                service = service_for(root / f"{policy}-{who}-{repeat}", data, policy, b, cache)
                attacker = Attacker(service, test_key, args.shift, renaming=who == "renaming")
                kept, best, first, top, seen = attack(attacker, signs)
                gain, noise = held_out_gain(held_key, signs_held, kept, best, args.shift, b)
                outcome = Outcome(policy, who, first, top, gain, noise, attacker.half_width(best), len(kept), seen)
                outcomes.append(outcome)
                print(
                    f"  repeat {repeat} {policy:<6} {who:<8} displayed gain {outcome.displayed_gain:+6.2f}  true gain "
                    f"{gain:+6.2f} (±{noise:.2f})  half-width {outcome.half_width:5.2f}  kept {len(kept):>2}, "
                    f"figures seen {seen:>2} of {len(attacker.ids)}"
                )
        print(
            "policy  attacker  displayed gain  true gain  displayed - true  95% half-width  figures seen  "
            "target (ladder: excess <= half)"
        )
        for policy, who in ATTACKS:
            mine = [o for o in outcomes if o.policy == policy and o.attacker == who]
            shown = statistics.mean(o.displayed_gain for o in mine)
            true = statistics.mean(o.true_gain for o in mine)
            half = statistics.mean(o.half_width for o in mine)
            worst = max(o.displayed_gain - o.true_gain - o.half_width for o in mine)
            verdict = ("met" if worst <= 0 else "NOT met") if policy == ReleasePolicy.LADDER else "—"
            seen = ", ".join(str(o.released) for o in mine)
            print(
                f"{policy:<7} {who:<8} {shown:>+15.2f}  {true:>+9.2f}  {shown - true:>+16.2f}  {half:>14.2f}  "
                f"{seen:>12}  {verdict}"
            )
    print(f"(means over {args.repeat} repeat(s); wall time {time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
