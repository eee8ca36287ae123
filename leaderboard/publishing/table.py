"""The public leaderboard table and its copy in the results store.

Rows: every approved, unhidden submission that asked to be published and has a result (each
its own row), the maintainers' *reported* rows (a published figure with its source link), and
always the straight-forward baseline (score 0 by definition of the score, coverage 1). Only
aggregates are published; contact e-mails and per-row scores are not columns of this table.

The results store holds ``data/leaderboard.jsonl`` (one row a line, ``COLUMNS`` in every row)
and a dataset card, so ``datasets.load_dataset`` reads it and it renders on the Hub without
the service. The table is derived from the requests store: ``Publisher.sync`` rewrites it when
it differs, so a publish lost in a crash is redone by the next sync.
"""

from __future__ import annotations

import json
import logging

from leaderboard.publishing.editions import FIRST, INDEX_PATH, index_bytes, name_for, stored
from leaderboard.publishing.hub_eval import pr_urls
from leaderboard.publishing.hub_eval_board import hub_rows
from leaderboard.publishing.score_release import is_released
from leaderboard.records import FAILED, SPLITS, Reported, Split, model_key
from leaderboard.statistics import CI_COLUMNS, SIGNIFICANCE_COLUMN, TotalsCache, Tries, tries
from leaderboard.storage import Entry, Flag, Registry, Storage, read_flags, read_summary
from scoring.summary import SUMMARY_FIELDS, Summary

log = logging.getLogger(__name__)

TABLE_PATH = "data/leaderboard.jsonl"
CARD_PATH = "README.md"
BASELINE_MODEL = "Straight forward (baseline)"
# The summary's fields the table shows: every aggregate (``baseline_raw`` is the same B for all rows).
SUMMARY_COLUMNS = tuple(name for name in SUMMARY_FIELDS if name != "baseline_raw")
COLUMNS = (
    "submission_id",
    "kind",  # "submission", "reported", "baseline" or "hub" (reported on the Hub, not scored here)
    "model",
    "organization",
    "model_link",
    "paper_link",
    "description",
    "open_weights",
    "parameters_b",
    "split",
    *SUMMARY_COLUMNS,
    "submitted_at",
    "source",  # where a reported figure was published
    *CI_COLUMNS,  # 95% scene-bootstrap intervals, rank range (leaderboard/statistics/uncertainty.py); None without rows
    # Disclosure: the tries behind an entry (leaderboard/statistics/disclosure_counts.py), a maintainer's flag with its
    # evidence (leaderboard/storage/flags.py), the submitter's declarations (without the share_on_hub permission).
    "submissions_model",
    "submissions_total",
    "flag",
    "declarations",
    "hub_pr_url",  # the eval-results pull request opened on the model's Hub repo (leaderboard/publishing/hub_eval.py)
    # One submitter's entries of one model (the board's "best entry per model"), and the
    # rows significantly better than this one (leaderboard/statistics/uncertainty_table.py), whence every rank range.
    "model_group",
    SIGNIFICANCE_COLUMN,
    "release",  # the release the row's figures belong to (leaderboard/publishing/editions.py), e.g. "v2"
)


def _row(**values: object) -> dict[str, object]:
    unknown = set(values) - set(COLUMNS)
    assert not unknown, f"not a public column: {unknown}"
    return {column: values.get(column) for column in COLUMNS}


def baseline_row(split: str) -> dict[str, object]:
    return _row(
        submission_id=f"baseline-{split}",
        kind="baseline",
        model=BASELINE_MODEL,
        description="A vertical line up the image centre; the score is 0 for it by definition.",
        split=split,
        score=0.0,
        score_valid_only=0.0,
        coverage=1.0,
    )


def reported_row(reported: Reported) -> dict[str, object]:
    return _row(
        submission_id=f"reported-{reported.row_id}",
        kind="reported",
        model=reported.model,
        organization=reported.organization,
        model_link=reported.model_link,
        split=reported.split,
        score=reported.score,
        score_valid_only=reported.score_valid_only,
        coverage=reported.coverage,
        submitted_at=(reported.added_at or "")[:10] or None,
        source=reported.source,
    )


def submission_row(
    entry: Entry, summary: Summary, counts: Tries | None = None, flag: Flag | None = None
) -> dict[str, object]:
    metadata = entry.metadata.public()
    declared = entry.request.declarations
    test = entry.request.split == Split.TEST
    return _row(
        submission_id=entry.submission_id,
        kind="submission",
        split=entry.request.split,
        submitted_at=entry.request.created_at[:10],
        **metadata,
        **{k: v for k, v in summary.to_dict().items() if k in SUMMARY_COLUMNS},
        submissions_model=counts.model if counts and test else None,
        submissions_total=counts.total if counts and test else None,
        flag=flag.public() if flag else None,
        declarations={k: v for k, v in declared.to_dict().items() if k != "share_on_hub"} if declared else None,
    )


def model_groups(entries: list[Entry]) -> dict[str, str]:
    """Each entry's ``model_group``: the id of the oldest entry its submitter made of the same model on the same
    split (names compared by ``model_key``, as ``submissions_model`` counts them). Opaque on purpose: the
    table says which public entries one account published under one model name, and nothing about the account.

    ``entries``: the published ones only, oldest first (``Registry.entries``), so a group is always named by
    a public id, never by a private entry's.
    """
    first: dict[tuple[str, str, str], str] = {}
    out = {}
    for entry in entries:
        key = (entry.user.casefold(), str(entry.request.split), model_key(entry.metadata.model))
        out[entry.submission_id] = first.setdefault(key, entry.submission_id)
    return out


def public_rows(registry: Registry, totals: TotalsCache | None = None) -> list[dict[str, object]]:
    """The public table, best score first within each split (test first), with the uncertainty
    columns computed from the submissions' per-row scores (``totals`` keeps them between rebuilds)."""
    totals = totals or TotalsCache(registry.store)
    rows, scene_totals = [], {}
    pull_requests = pr_urls(registry.store)
    entries = registry.entries()
    counts, flags = tries(entries), read_flags(registry.store)
    editions = stored(registry.store)
    published: list[Entry] = []
    for entry in entries:
        if not entry.public or entry.job.status == FAILED:
            continue
        if not is_released(registry.store, entry.submission_id):  # withheld under the ladder policy (score_release.py)
            continue
        summary = read_summary(registry.store, entry.submission_id)
        if summary is not None:
            row = submission_row(entry, summary, counts[entry.submission_id], flags.get(entry.submission_id))
            release = name_for(editions, entry.job.generation)  # scored before the last opening: the old release
            rows.append(row | {"hub_pr_url": pull_requests.get(entry.submission_id), "release": release})
            published.append(entry)
            version = (entry.job.generation, entry.job.finished_at, summary)  # a rescore makes a new one
            found = totals.get(entry.submission_id, version)
            if found is not None:
                scene_totals[entry.submission_id] = found
    totals.forget_except(set(scene_totals))
    groups = model_groups(published)
    for row in rows:
        row["model_group"] = groups[str(row["submission_id"])]
    rows += [reported_row(r) for r in registry.reported()]
    rows += [_row(**values) for values in hub_rows(registry.store)]  # the scheduler's copy: no Hub call here
    splits = {Split.TEST.value} | {str(r["split"]) for r in rows}
    rows += [baseline_row(split) for split in splits]
    current = editions[-1].name if editions else FIRST
    for row in rows:  # reported, Hub and baseline figures stand as they are in every release: the current one
        row["release"] = row["release"] or current
    order = {split: i for i, split in enumerate(reversed(SPLITS))}

    def rank(row: dict[str, object]) -> tuple:
        score = row["score"]
        value = float(score) if isinstance(score, int | float) else 0.0
        return (order.get(str(row["split"]), 9), score is None, -value, row["submitted_at"] or "")

    return totals.annotated(sorted(rows, key=rank), scene_totals)


def table_bytes(rows: list[dict[str, object]]) -> bytes:
    return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows).encode()


class Publisher:
    """Keeps the results store equal to the table derived from the requests store."""

    def __init__(self, registry: Registry, results: Storage) -> None:
        self.registry = registry
        self.results = results
        self.totals = TotalsCache(registry.store)  # per-row scores read once per result, not once per rebuild

    def rows(self) -> list[dict[str, object]]:
        return public_rows(self.registry, self.totals)

    def read(self) -> list[dict[str, object]]:
        """The table as published (what the app shows without recomputing)."""
        data = self.results.read(TABLE_PATH)
        return [json.loads(line) for line in data.decode().splitlines() if line] if data else []

    def sync(self) -> bool:
        """Rewrite the published table when it differs; True when a commit was made."""
        table = table_bytes(self.rows())
        card = CARD.encode()
        editions = stored(self.registry.store)  # the public list of releases, once one was opened
        files = [(TABLE_PATH, table), (CARD_PATH, card)] + ([(INDEX_PATH, index_bytes(editions))] if editions else [])
        puts = {p: d for p, d in files if self.results.read(p) != d}
        if not puts:
            return False
        self.results.commit(puts, message="update the leaderboard table")
        log.info("published the leaderboard table (%d rows)", table.count(b"\n"))
        return True


CARD = """---
license: cc-by-4.0
pretty_name: NaviTrace leaderboard
configs:
- config_name: default
  data_files:
  - split: train
    path: data/leaderboard.jsonl
---
# NaviTrace leaderboard: results

The public results of the [NaviTrace](https://arxiv.org/abs/2510.26909) leaderboard, one row per
approved submission, plus reported figures (`kind` = `reported`, with their `source`), the
straight-forward baseline (`kind` = `baseline`, score 0 by definition), and results model repos
publish on the Hub for this benchmark (`kind` = `hub`: reported there, not scored here). Written by the leaderboard
service; do not edit by hand (the next update rewrites it).

- `score`: mean normalised score over every expected row of the split, invalid or missing rows
  counting as 0 (100 is perfect, 0 the straight-forward baseline; higher is better).
- `score_valid_only`: the mean over valid rows only; `coverage`: valid rows / expected rows.
- `per_embodiment`, `per_category`, `per_metadata`: the same coverage-aware mean over subsets.
- `scorer_version`, `dataset_revision`: what produced the numbers.
- `score_ci`: `[low, high]`, the 95% bootstrap confidence interval of `score`: 1,000 resamples of
  the split's scenes (images; all embodiment rows of one image are drawn together), fixed seed, the
  same resamples for every entry. `per_embodiment_ci`: the same for each `per_embodiment` figure.
- `rank_range`: `[best, worst]`, the 2.5-97.5% range of the entry's rank (1 = best) over those
  paired resamples, among the split's entries with per-row scores and the reported rows.
  These three are empty (null) for reported and baseline rows, which have no per-row scores, and
  for any figure withheld: too few valid rows stand behind it, or with the figures shown beside it it
  would determine the scores of fewer rows than that.
- `significantly_better`: the `submission_id`s of the split's rows significantly better than this one:
  a higher score, and higher in more than 95% of the same paired resamples (one-sided 95%). Filled for
  entries with a `score_ci` and for reported rows (compared as fixed figures; two reported rows are never
  compared); empty (null) otherwise, and no row lists an entry whose score is withheld.
  The board's ranks are counted from `score` and this list, over the entries a view ranks: the split's
  submission and reported rows, flagged entries left out unless the reader shows them (Hub-reported
  rows and the baseline are never ranked). `rank` = 1 + the ranked rows with a higher score (ties share
  it); rank range = from 1 + the ranked rows significantly better (the upper-bound rank, as LMArena's
  "Rank (UB)": entries sharing it are statistically tied) to the number of ranked rows minus those
  significantly worse, so the range always contains the rank. One rank per entry wherever no view is
  chosen (entry page, CSV, JSON): among the unflagged entries (a flagged entry: where its score places
  it among them). Best entry per model and the search only hide rows; ranks stay. The range is shown for
  entries with per-row scores only. `rank_range` above (quantiles of the rank over the resamples, among
  every entry, flagged ones too) is kept for readers of this table; the board no longer shows it.
- `model_group`: the `submission_id` of the oldest public entry the same submitter made of the same model
  (names compared as for `submissions_model`) on the same split: "best entry per model" keeps the best of
  each group, so two people's entries of one model both show. Says nothing about the submitter.
- `hub_pr_url`: the pull request that proposed the entry's result to its model repo on the Hub.
- `release`: the release of the board the row's figures belong to (`v1`, `v2`, ...). A release names what
  every figure depends on: the answer key's revision, the scorer version, the baseline B and the score
  release policy; `releases/index.json` lists them with the date each opened and why. When a new release
  opens, every entry is scored again under it: until its turn comes an entry keeps its old figures, and
  its old release. Reported, Hub and baseline rows belong to the current release. Each closed release's
  board is kept as it was: `releases/{name}/leaderboard.jsonl`, and the whole dataset at the tag `{name}`
  (`datasets.load_dataset(repo, revision="v1")`).

- `submissions_model`, `submissions_total`: how many test-split submissions the entry's submitter
  made for this model (names compared case- and look-alike-insensitively) and in all, every submission
  counted except those cancelled before scoring; a re-sent file counts once, and withdrawing an entry or
  choosing another as the public one changes no count. Empty for validation, reported and baseline rows.
- `flag`: empty, or a maintainer's flag: `kind` (contamination, unverified, duplicate, other), `reason`,
  `link` (where the evidence is) and `flagged_at`. A flagged row stays in the table.
- `declarations`: what the submitter declared for a public test entry: `trained_on` (NaviTrace data the
  model was trained or tuned on: none, validation, test), `test_images_beyond_inference`, `code_link`
  (the prompt or inference code), `best_of` (1: a single run; n: the best of n runs).

Only aggregates are published: per-row test scores and contact details stay private.
"""
