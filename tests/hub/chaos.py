"""Random Hub faults for the chaos tests: ``hub.faults.chaos(seed, rates(…), pick)``."""

from __future__ import annotations

import itertools
import random

from tests.hub.hub_faults import Fault, Http, Lost, Race, Reset

_others = itertools.count(1)

# What each kind of request may meet. A commit can also lose its answer after landing; any request
# can find that another writer committed just before it.
FAULTS = {
    "throttle": lambda rng: Http(429, retry_after=rng.randint(1, 3)),
    "unavailable": lambda rng: Http(rng.choice([500, 502, 503])),
    "reset": lambda rng: Reset(),
    "lost": lambda rng: Lost(rng.choice([502, 504, None])),
    "race": lambda rng: Race({f"other/{next(_others)}.txt": b"another writer"}),
}


def pick(rng: random.Random, kind: str) -> Fault:
    """One fault for a request of ``kind``, uniformly among those that make sense for it."""
    names = list(FAULTS) if kind in ("commit", "repo_info", "paths_info") else ["throttle", "unavailable", "reset"]
    return FAULTS[rng.choice(names)](rng)


def rates(chance: float, kinds: tuple[str, ...]) -> dict[str, float]:
    return dict.fromkeys(kinds, chance)
