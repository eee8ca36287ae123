"""All the words on the Space's pages, in one place (the HF leaderboard template's idea, without its I/O).

Plain strings and small functions that fill in numbers; no gradio, no I/O at import time.
"""

from __future__ import annotations

from leaderboard.jobs import Quota, when_words
from scoring.prediction import MAX_ABS_COORDINATE, MAX_POINTS, MIN_POINTS
from scoring.row import NAVITRACE_BASELINE_RAW, NEAR_DISTANCE

TITLE = "NaviTrace Leaderboard"
PAPER = "https://arxiv.org/abs/2510.26909"
DATASET = "https://huggingface.co/datasets/leggedrobotics/navitrace"
WEBPAGE = "https://leggedrobotics.github.io/navitrace_webpage/"

INTRO = (
    "Vision-language models draw a **2D navigation trace** into a first-person photo for an embodiment "
    "(Human, Legged Robot, Wheeled Robot, Bicycle). Upload your model's traces for the **test split** "
    "(ground truth hidden) to be scored here; maintainers approve entries onto the board. "
    f"[Paper]({PAPER}) · [Dataset]({DATASET})"
)

BOARD_HELP = (
    "**Score**: 100 is a perfect trace, **0 is the straight-forward baseline** (a vertical line up the image centre), "
    "negative is worse than that; invalid or missing rows count as 0. **Coverage**: share of rows with a valid trace. "
    "**Valid-only**: the mean over valid rows only, the figure the authors' notebook prints. "
    "Rows marked *reported* are published figures with their source, not scored here."
)

SUBMIT_HELP = """\
1. **Sign in**, pick the split and upload your predictions TSV (one row per sample and embodiment, the
   format of the published inference notebook; see *About* for examples).
2. **Check the file**: the report counts valid, invalid and missing rows and lists the first problems
   with their line numbers. Nothing is stored or counted yet.
3. **Submit**: you get a submission id; scoring runs in the background and *My submissions* updates by itself.

**Validation** submissions are scored privately with row-by-row feedback (and the *Explorer* shows every
row). **Test** submissions are scored against the hidden ground truth, count against the daily limit, and
reach the public board only if you tick *publish* and a maintainer approves.
"""

MY_HELP = (
    "Your submissions, newest first; the status updates by itself (PENDING → RUNNING → FINISHED, or FAILED with "
    "the reason). Click a row (or pick it below) for its details and what you can do with it."
)

MY_MORE = (
    "Scores of test submissions are aggregates only; validation submissions also give per-row scores to download "
    "and to open in the Explorer. With a submission picked you can download the file you sent, cancel it while it "
    "waits (a cancelled test submission gives its place in the daily quota back), choose which of your scored test "
    "entries is your public one (your others leave the board), or withdraw it from the board (the maintainers' "
    "audit log keeps it)."
)

SIGNED_OUT_SUBMIT = "Submit is off: sign in at the top first (the form opens once you are signed in)."
NOT_CHECKED = "Submit is off until your file has passed the check (step 1)."
READY = "Ready: check the details above, then submit."

EXPLORER_HELP = (
    "See why a trace scores what it scores, on the **validation split** (its ground truth is public; the test "
    "split's never leaves the server). Pick a sample and an embodiment, or one row of your own validation "
    "submission: its DTW, FDE and penalty come first, then the picture. A trace pays the embodiment's semantic "
    f"penalty inside the red edges (more than {NEAR_DISTANCE:g} px from the compared expert trace); tick "
    "*Penalty regions filled* to see them shaded by cost. The legend names every colour drawn."
)

MAINTAINERS_HELP = (
    "Entries waiting for a decision, oldest first. Every action here is checked again on the server against "
    "MAINTAINERS and lands in the audit log (who, what, when, before and after)."
)

LOCAL_SIGN_IN = (
    "**Local development sign-in.** This Space is not running on Hugging Face, so there is no Hugging Face "
    "login: type any user name to act as that user. Names listed in MAINTAINERS get the maintainers' page."
)

FORMULA = (
    r"$$\text{score} = \frac{B - \min_j \left(\mathrm{DTW}(P, G_j) + \mathrm{FDE}(P, G_j)"
    r" + \mathrm{Penalty}(P, G_j)\right)}{B} \times 100$$"
)

BASELINE_MARK = "@@baseline@@"  # the B of this deployment, filled in by ``about_page``
SITE_MARK = "@@site@@"  # this leaderboard's address, for its citation
ABOUT = f"""\
## What NaviTrace is

NaviTrace ([arXiv:2510.26909]({PAPER}), Robotic Systems Lab, ETH Zürich) is a visual question answering
benchmark for embodied navigation. A model sees a first-person image, a task ("go to the entrance on the
right") and an embodiment (Human, Legged Robot, Wheeled Robot or Bicycle), and answers with a **trace**: a
list of `[x, y]` pixel points from where the camera stands to the goal. About 1,000 scenarios with over
3,000 expert traces, split in half: **validation** (ground truth public, for development) and **test**
(ground truth hidden, for this leaderboard). Dataset: [{DATASET.removeprefix("https://")}]({DATASET}).

## How a trace is scored

Each row (a sample and an embodiment) compares your trace `P` with every expert trace `G_j` of that
embodiment and keeps the best match. For each `G_j`, the shorter of the two traces is first resampled to
the longer one's length (evenly along its arc length), then three costs in pixels are added:

- **DTW**: dynamic time warping, the summed distance along the best alignment of the two traces (does the
  path follow the expert's route?);
- **FDE**: the distance between the two end points (did it reach the goal?);
- **Penalty**: the mean, over the pixels of your trace drawn as lines, of the embodiment's cost for the
  ground under each pixel (a bicycle on a sidewalk, anyone through a building or a car), charged only more
  than {NEAR_DISTANCE:g} px away from the expert trace.

```
raw_j = DTW(P, G_j) + FDE(P, G_j) + Penalty(P, G_j)        raw = min over j of raw_j     (pixels, lower is better)
score = (B − raw) / B × 100                                 B = mean raw score of the straight-forward baseline
```

{FORMULA}

**100** is a perfect trace, **0** the average of the *straight-forward* baseline (a vertical line up the
image centre, `[[W/2, H−1], [W/2, 0]]`), negative worse than that. @@baseline@@

## Invalid and missing rows

The ranking **score** is the mean over **every expected row** of the split; a row that is missing from
your file, or whose prediction is invalid, counts as **0** (the straight-forward level), so answering only
the easy rows does not pay. The **valid-only** score (the mean over valid rows, what the authors' notebook
prints as "Total Score") and the **coverage** (valid rows / expected rows) are shown beside it.

A prediction is invalid when it is not a JSON list of {MIN_POINTS} to {MAX_POINTS} `[x, y]` points, holds a
non-number (`true`, `"12"`) or a non-finite number, has a coordinate beyond ±{MAX_ABS_COORDINATE:,.0f}, or
never enters the image. Coordinates are **pixels of the original image** and are never rescaled: if your
model outputs values in [0, 1], multiply by the image width and height (the check warns you).

## The submission file

A tab-separated file (UTF-8, header row), one row per (sample, embodiment), exactly what the published
inference notebook writes with `pandas.DataFrame.to_csv(sep="\\t", index=False)`:

| column | required | meaning |
|---|---|---|
| `sample_id` | yes | a sample of the chosen split |
| `embodiment` | yes | one of that sample's embodiments |
| `prediction` | yes | JSON list of `[x, y]` pixel points, e.g. `[[720, 1026], [731, 880]]` (`[]`: no answer) |
| `category`, `raw_response`, `reasoning` | no | copied from the dataset / the model's text; ignored for scoring |

The example files below were made with `python -m scoring example-submission` on this Space's public
dataset: *straight* is the baseline (scores 0), *noisy* jitters the first expert trace (validation only),
*perfect* copies it (validation only; scores 100).

## Scoring locally

The scorer of this Space is the `scoring` package of its repository; it gives the same numbers on the
validation split:

```bash
python -m scoring example-submission --dataset leggedrobotics/navitrace --split validation --kind noisy pred.tsv
python -m scoring score pred.tsv --dataset leggedrobotics/navitrace --split validation --rows-out rows.tsv
```

`--dataset` takes a Hub dataset id or a local folder in the Hub layout (`data/validation-*.parquet`).
`--rows-out` writes every row's score with its DTW, FDE and penalty, like the per-row download of
*My submissions*.

## Citation

```bibtex
@article{{windecker2025navitrace,
  title   = {{NaviTrace: Evaluating Embodied Navigation of Vision-Language Models}},
  author  = {{Windecker, Tim and Patel, Manthan and Reuss, Moritz and Schwarzkopf, Richard and
             Cadena, Cesar and Lioutikov, Rudolf and Hutter, Marco and Frey, Jonas}},
  journal = {{arXiv preprint arXiv:2510.26909}},
  year    = {{2025}}
}}
```

To cite figures of this leaderboard, cite it too, with the release you read (the board's figures belong to a
release: the answer key, the scorer and the baseline they were scored with). Each entry's page has a citation of
its own, in BibTeX and plain text, naming the entry, its release and date, its score with the 95% interval and a
permanent address.

```bibtex
@misc{{navitrace_leaderboard,
  title        = {{{{NaviTrace}} Leaderboard}},
  howpublished = {{\\url{{@@site@@}}}},
  note         = {{Release vN (the release of the figures you cite), accessed YYYY-MM-DD}}
}}
```
"""


CHECK_SIGNED_OUT = "Sign in at the top to check a file: files are taken from signed-in users only."
CHECK_GONE = "This file is no longer on the server (it was refused or submitted): upload it again."


def checks_text(per_minute: int, wait: int) -> str:
    return f"Too many checks: {per_minute} a minute per user. Try again in {wait} s."


def quota_text(quota: Quota | None, limit: int, now: float) -> str:
    """The quota line on the submit page, in local words (no ISO stamps).

    >>> quota_text(Quota(2, 3, 3600.0 * 5 + 300), 3, 3600.0 * 2 - 300)[:87]
    'Test submissions left today: **2 of 3**; the next one frees at 05:05 UTC, in 3 h 10 min'
    >>> quota_text(Quota(3, 3, None), 3, 0.0)
    'Test submissions left today: **3 of 3** (a rolling 24 hours; validation submissions are not limited).'
    """
    if quota is None:
        return (
            f"**Sign in at the top to upload, check and submit a file**: files are taken from signed-in users only "
            f"({limit} test submissions per user and 24 hours). The form opens once you are signed in."
        )
    frees = f"; the next one frees at {when_words(quota.next_free, now)}" if quota.next_free is not None else ""
    return (
        f"Test submissions left today: **{quota.left} of {quota.limit}**{frees} "
        "(a rolling 24 hours; validation submissions are not limited)."
    )


def quota_words(quota: Quota, now: float) -> str:
    """The quota in one plain sentence, for the receipt.

    >>> quota_words(Quota(0, 3, 3600.0 * 5 + 300), 3600.0 * 2 - 300)
    'Test submissions left today: 0 of 3; the next one frees at 05:05 UTC, in 3 h 10 min.'
    """
    frees = f"; the next one frees at {when_words(quota.next_free, now)}" if quota.next_free is not None else ""
    return f"Test submissions left today: {quota.left} of {quota.limit}{frees}."


PASSED_BUT_FULL = (
    "This file is fine, but Submit is off for the test split until one of your test submissions frees (above)."
)


def submit_off_full(quota: Quota, now: float) -> str:
    """Beside the Submit button when the test split is closed for the user today."""
    frees = f"; the next one frees at {when_words(quota.next_free, now)}" if quota.next_free is not None else ""
    return f"Submit is off: no test submissions left today{frees}."


def no_test_left(quota: Quota, now: float) -> str:
    """Why Submit is off for the test split, before anything is uploaded or sent."""
    frees = f" The next one frees at {when_words(quota.next_free, now)}." if quota.next_free is not None else ""
    return (
        f"No test submissions left today (all {quota.limit} used in the last 24 hours): Submit is off for the test "
        f"split.{frees} Validation submissions are not limited."
    )


def about_page(baseline_raw: float, embedded: bool, site: str = WEBPAGE) -> str:
    """The About page with the B this deployment scores with (``BASELINE_RAW``).

    On the embedded synthetic default B is calibrated on its own test split, so that the straight
    example scores 0 there as the straight-forward baseline does on the real test split.
    """
    if embedded:
        sentence = (
            f"Here `B = {baseline_raw:g}`: this Space runs on its embedded synthetic dataset, and B is the "
            "straight-forward mean raw score of that dataset's test split (`python -m scoring calibrate`), "
            f"as `B = {NAVITRACE_BASELINE_RAW:g}` is for the real NaviTrace test split."
        )
    else:
        sentence = f"`B = {baseline_raw:g}` for NaviTrace."
    return ABOUT.replace(BASELINE_MARK, sentence).replace(SITE_MARK, site)
