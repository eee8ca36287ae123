"""How many tries stand behind an entry: the board's ``submissions_model`` and ``submissions_total``.

"The Leaderboard Illusion" (arXiv 2504.20879) showed that private best-of-N testing, with the freedom
to choose what becomes public, inflates rankings. A submitter here may test privately and choose which
entry is public, so every entry says how many test-split submissions its submitter made:

- ``submissions_model``: for this model (names compared by ``release_names.model_key``, so "Navigator-7B",
  "navigator‑7b" and "Nаvigator-7B" with a Cyrillic "а" are one model);
- ``submissions_total``: in all, any model.

Counted: every acknowledged test submission except those cancelled before scoring (they never produced
a number). A re-send of the same file is the same submission (intake dedupes it), so it counts once;
withdrawing an entry or choosing another as the public one changes no count, and neither does a
failure (the submitter may still have learnt something from it).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from leaderboard.records import Split, model_key
from leaderboard.storage import Entry


@dataclass(frozen=True)
class Tries:
    model: int  # test submissions of this submitter for this model
    total: int  # test submissions of this submitter in all


def counted(entry: Entry) -> bool:
    """Whether ``entry`` is one of its submitter's tries on the test split."""
    return entry.request.split == Split.TEST and not entry.cancelled


def tries(entries: Iterable[Entry]) -> dict[str, Tries]:
    """The counts of every entry's submitter, by submission id (validation entries too: they read their
    submitter's test tries, though the board shows the counts for test rows only)."""
    entries = list(entries)
    per_model: Counter[tuple[str, str]] = Counter()
    per_user: Counter[str] = Counter()
    for entry in entries:
        if counted(entry):
            user = entry.user.casefold()
            per_model[user, model_key(entry.metadata.model)] += 1
            per_user[user] += 1

    def of(e: Entry) -> Tries:
        user = e.user.casefold()
        return Tries(per_model[user, model_key(e.metadata.model)], per_user[user])

    return {e.submission_id: of(e) for e in entries}


def tries_text(model: object, total: object) -> str | None:
    """The entry page's sentence; None for rows without counts (reported, baseline, Hub rows).

    >>> tries_text(3, 5), tries_text(1, 1), tries_text(None, None)
    ('3 test submissions for this model, 5 in all', '1 test submission for this model, 1 in all', None)
    """
    if not isinstance(model, int) or not isinstance(total, int):
        return None
    return f"{model} test submission{'s' if model != 1 else ''} for this model, {total} in all"
