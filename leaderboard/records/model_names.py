"""When two model names are one model: what the counts, the model groups and the desk compare.

``metadata.look_alike_key`` folds width, case and invisible characters (NFKC, case folding, Cc/Cf
removed), but not look-alikes from other blocks: "Ladder‐A" with U+2010 HYPHEN, or "Nаvigator" with a
Cyrillic "а", stayed a new model. ``model_key`` adds the confusable skeleton of Unicode Technical
Standard #39 (section 4, "Confusable Detection"), as ``disarm.skeleton_key`` maintains it against
Unicode's ``confusables.txt``. Case is folded first, so "ALICE" and "alice" stay one name (a capital
"I" is then an "i", not the "l" it looks like); digits are never merged with letters, so
"Navigator-7B" and "Navigator-70B" stay two models.

The ladder does not depend on names at all (``release_decision``: the reference best is the
submitter's, whatever the model); this key keeps the public counts honest.
"""

from __future__ import annotations

from disarm import skeleton_key

from leaderboard.records.metadata import look_alike_key


def model_key(name: str) -> str:
    """What two model names that look the same share.

    >>> model_key("Ladder\\u2010A") == model_key("ladder-a") == model_key("LADDER\\u2212A")
    True
    >>> model_key("N\\u0430vigator") == model_key("Navigator"), model_key("Navigator-7B") == model_key("Navigator-70B")
    (True, False)
    """
    folded = look_alike_key(name)
    return skeleton_key(folded) or folded  # a name of characters the skeleton drops keeps its own key
