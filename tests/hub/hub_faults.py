"""Faults the local Hub can serve, and the record of every request it answered.

Each request has a *kind* (``KINDS``). A test schedules faults per kind (``plan.add("commit",
Http(503), Lost())``: one per matching request, in order) or draws them at random
(``plan.chaos(seed, {"commit": 0.2, ...}, pick)``):

- ``Http(status, retry_after)``: refused before anything happens (429, 500, 502, 503…);
- ``Reset()``: the connection is reset before anything happens (the client sees a dropped connection);
- ``Lost(status)``: the request is processed (a commit lands), then its answer is lost: a 5xx
  (``status``), or the connection is reset (``status=None``);
- ``Slow(seconds)``: the request is processed and answered ``seconds`` late (past a client timeout, a read
  timeout with the outcome unknown);
- ``Race(puts, deletes)``: another writer commits just before the request is processed (a commit
  with a ``parent_commit`` then gets 412).
"""

from __future__ import annotations

import random
import threading
from collections import Counter, deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

KINDS = (
    "create_repo",
    "repo_info",
    "whoami",
    "agent_harnesses",  # the client's telemetry: which AI agent runs it
    "validate_yaml",
    "preupload",
    "commit",
    "paths_info",
    "tree",
    "resolve",  # HEAD or GET of /datasets/{id}/resolve/{revision}/{path}
    "lfs_batch",
    "lfs_upload",
    "lfs_verify",
    "cdn",  # the signed LFS object download a resolve redirects to
    "discussions",  # a repo's pull requests (get_repo_discussions)
    "leaderboard",  # a benchmark dataset's leaderboard (get_dataset_leaderboard)
)


@dataclass(frozen=True)
class Http:
    status: int
    retry_after: int | None = None


@dataclass(frozen=True)
class Reset:
    pass


@dataclass(frozen=True)
class Lost:
    status: int | None = 502  # None: the connection is reset after processing


@dataclass(frozen=True)
class Slow:
    seconds: float


@dataclass(frozen=True)
class Race:
    puts: Mapping[str, bytes] = field(default_factory=lambda: {"other/writer.txt": b"another writer"})
    deletes: tuple[str, ...] = ()


Fault = Http | Reset | Lost | Slow | Race


@dataclass
class Call:
    """One request as the Hub saw it."""

    kind: str
    method: str
    path: str
    query: str
    repo: str | None
    user: str | None  # the token's user; None when anonymous or refused
    token_sent: bool
    status: int | None = None  # None: no answer (reset)
    fault: str | None = None
    detail: dict = field(default_factory=dict)  # kind-specific: commit message and parent, payload keys…


@dataclass
class _Scheduled:
    faults: deque[Fault]
    repo: str | None
    match: Callable[[Call], bool] | None


class FaultPlan:
    """Which fault (if any) the next request of each kind gets."""

    def __init__(self) -> None:
        self._scheduled: dict[str, list[_Scheduled]] = {}
        self._chaos: tuple[random.Random, dict[str, float], Callable[[random.Random, str], Fault]] | None = None
        self._lock = threading.Lock()
        self.served: Counter[tuple[str, str]] = Counter()  # (kind, fault type) -> count

    def add(
        self, kind: str, *faults: Fault, repo: str | None = None, match: Callable[[Call], bool] | None = None
    ) -> None:
        """Serve ``faults`` to the next requests of ``kind`` (on ``repo``, passing ``match``), one each."""
        assert kind in KINDS, f"unknown kind {kind!r}: expected one of {KINDS}"
        with self._lock:
            self._scheduled.setdefault(kind, []).append(_Scheduled(deque(faults), repo, match))

    def chaos(self, seed: int, rates: Mapping[str, float], pick: Callable[[random.Random, str], Fault]) -> None:
        """Random faults: a request of kind ``k`` gets ``pick(rng, k)`` with chance ``rates[k]``."""
        unknown = set(rates) - set(KINDS)
        assert not unknown, f"unknown kinds {unknown}"
        with self._lock:
            self._chaos = (random.Random(seed), dict(rates), pick)

    def clear(self) -> None:
        with self._lock:
            self._scheduled.clear()
            self._chaos = None

    def pending(self, kind: str | None = None) -> int:
        with self._lock:
            kinds: Sequence[str] = [kind] if kind else list(self._scheduled)
            return sum(len(s.faults) for k in kinds for s in self._scheduled.get(k, []))

    def next(self, call: Call) -> Fault | None:
        with self._lock:
            for scheduled in self._scheduled.get(call.kind, []):
                if not scheduled.faults or (scheduled.repo and scheduled.repo != call.repo):
                    continue
                if scheduled.match is not None and not scheduled.match(call):
                    continue
                return self._serve(call, scheduled.faults.popleft())
            if self._chaos is not None:
                rng, rates, pick = self._chaos
                if call.kind in rates and rng.random() < rates[call.kind]:
                    return self._serve(call, pick(rng, call.kind))
        return None

    def _serve(self, call: Call, fault: Fault) -> Fault:
        self.served[(call.kind, type(fault).__name__)] += 1
        call.fault = repr(fault)
        return fault


class Recorder:
    """Every request, in arrival order."""

    def __init__(self) -> None:
        self._calls: list[Call] = []
        self._lock = threading.Lock()

    def add(self, call: Call) -> Call:
        with self._lock:
            self._calls.append(call)
        return call

    def __call__(self, kind: str | None = None, repo: str | None = None) -> list[Call]:
        with self._lock:
            return [c for c in self._calls if (kind is None or c.kind == kind) and (repo is None or c.repo == repo)]

    def clear(self) -> None:
        with self._lock:
            self._calls.clear()
