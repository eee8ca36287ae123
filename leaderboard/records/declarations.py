"""What a submitter declares about how a public test entry was obtained.

SWE-bench entries declare a checklist; we ask four questions at submit time for every test
submission that asks to be published, and show the answers on the entry page and as board filters:

- ``trained_on``: NaviTrace data the model was trained or tuned on: ``none``, ``validation``, ``test``
  (the benchmark ships these two splits; ``test`` means its images, since its answers are hidden);
- ``test_images_beyond_inference``: whether the test images were used in any way beyond running the
  model on them (prompt tuning on them, looking at them to pick settings, …);
- ``code_link``: a link to the prompt or inference code;
- ``best_of``: 1 for a single run, n when the submitted file is the best of n runs.

``share_on_hub`` is the submitter's opt-in for the Space to open a pull request on the model's Hub
repository with the result (``.eval_results/navitrace.yaml``) once the entry is approved. It is asked
in the same form, but it is a permission, not a declaration.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields

from leaderboard.records.errors import Rejected
from leaderboard.records.metadata import checked_link, quoted, yes_no

TRAINED_ON = ("none", "validation", "test")
MAX_BEST_OF = 1_000_000


@dataclass(frozen=True)
class Declarations:
    trained_on: str = "none"
    test_images_beyond_inference: bool = False
    code_link: str | None = None
    best_of: int = 1
    share_on_hub: bool = False

    @classmethod
    def parse(cls, values: Mapping[str, object]) -> Declarations:
        """Check user input; ``Rejected`` names the field and what was expected."""
        known = {f.name for f in fields(cls)}
        unknown = set(values) - known
        if unknown:
            raise Rejected(f"unknown declaration {sorted(unknown)[0]!r}; expected {', '.join(sorted(known))}")
        trained_on = str(values.get("trained_on") or "none").strip().lower()
        if trained_on not in TRAINED_ON:
            raise Rejected(f"trained_on={quoted(trained_on)}: expected one of {', '.join(TRAINED_ON)}")
        return cls(
            trained_on=trained_on,
            test_images_beyond_inference=_flag(
                "test_images_beyond_inference", values.get("test_images_beyond_inference")
            ),
            code_link=checked_link("code_link", values.get("code_link")),
            best_of=_best_of(values.get("best_of")),
            share_on_hub=_flag("share_on_hub", values.get("share_on_hub")),
        )

    def to_dict(self) -> dict[str, object]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Declarations:
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})  # type: ignore[arg-type]  # stored by parse()


def _flag(name: str, value: object) -> bool:
    return bool(yes_no(name, value))  # not answered: no


def _best_of(value: object) -> int:
    if value is None or value == "":
        return 1
    try:
        number = int(str(value).strip()) if not isinstance(value, bool) else -1
    except ValueError:
        number = -1
    if not 1 <= number <= MAX_BEST_OF:
        raise Rejected(f"best_of={quoted(value)}: expected a whole number of runs from 1 (a single run) up")
    return number
