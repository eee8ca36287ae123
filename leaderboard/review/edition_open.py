"""Opening a release: freeze the current release's board, then rescore every entry under the new one.

``Editions.open(note, by)`` (a maintainer only, checked here on the server; audited), in this order:

1. refuse while the current release is still being rescored (an entry scored under an older generation
   waits for the worker): a board is frozen whole, never halfway through a rescore;
2. load the answer key as the rescore will (its revision is the new release's ``dataset_revision``);
3. **freeze** the current release, before any figure changes: the published table is brought up to date
   and copied to ``releases/{name}/leaderboard.jsonl`` (with ``release.json``) in the results store, and
   the results store is tagged ``{name}`` (a Hub tag: ``datasets.load_dataset(repo, revision="v1")``
   reads the old board); the tag is read back and must hold the frozen bytes;
4. one commit to the requests store: the release list (``control/releases.json``), the rescore request
   (``Moderation.rescore_files``, the same as a plain rescore) and both audit entries;
5. the published table is synced: the public list of releases appears, and the rows without figures of
   their own (reported, baseline, Hub) move to the new release; each entry moves as the worker rescores it.

A crash between 3 and 4 leaves a frozen copy and a tag, and the release list unchanged: opening again
freezes again (the board may have changed meanwhile) and moves the tag.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from leaderboard.config import Settings
from leaderboard.publishing import (
    RELEASES_PATH,
    TABLE_PATH,
    Edition,
    Publisher,
    check_name,
    check_note,
    first_edition,
    next_name,
    stored,
    stored_bytes,
)
from leaderboard.records import FAILED, FINISHED, InvalidAction, Split, dump, iso
from leaderboard.review.moderation import Moderation
from leaderboard.storage import AnswerKeys, Registry, Storage, StorageError, audit_entry, process_lock, read_summary
from scoring.version import __version__ as SCORER_VERSION

log = logging.getLogger(__name__)

KEPT_FROZEN = 16  # frozen boards kept in memory (each a few hundred KB at most; they never change)


def frozen_path(name: str) -> str:
    return f"releases/{check_name(name)}/leaderboard.jsonl"


def frozen_record_path(name: str) -> str:
    return f"releases/{check_name(name)}/release.json"


@dataclass(frozen=True)
class Opened:
    edition: Edition  # the release opened
    closed: Edition  # the one frozen
    queued: int  # entries queued to be rescored under it


class Editions:
    def __init__(
        self,
        settings: Settings,
        registry: Registry,
        publisher: Publisher,
        keys: AnswerKeys,
        moderation: Moderation,
        policy: Callable[[], str],
        clock: Callable[[], float],
    ) -> None:
        self.settings, self.registry, self.publisher, self.keys = settings, registry, publisher, keys
        self.moderation, self.policy, self.clock = moderation, policy, clock
        self.store, self.results = registry.store, publisher.results
        self._frozen: dict[str, list[dict[str, object]]] = {}
        self._lock = threading.Lock()

    def history(self) -> list[Edition]:
        """Every release, oldest first; the last is the current one (an old store: its implicit v1 alone)."""
        return stored(self.store) or [first_edition(self.settings.baseline_raw, self.policy())]

    def frozen_table(self, name: str) -> list[dict[str, object]] | None:
        """The frozen board of a closed release (its rows as published when the next one opened); ``None`` for
        the current release, or a name never opened. Read once: a frozen board never changes."""
        check_name(name)
        with self._lock:
            if name in self._frozen:
                return self._frozen[name]
        if not any(e.name == name and e.frozen_at for e in self.history()):
            return None
        data = self.results.read(frozen_path(name))
        if data is None:
            raise StorageError(f"the frozen board of release {name} is missing from the results store")
        rows = [json.loads(line) for line in data.decode().splitlines() if line]
        with self._lock:
            if len(self._frozen) >= KEPT_FROZEN:
                self._frozen.pop(next(iter(self._frozen)))
            self._frozen[name] = rows
        return rows

    def open(self, note: str | None, by: str | None) -> Opened:
        who = self.moderation.require_maintainer(by)
        text = check_note(note)
        self._check_finished()
        self.keys.refresh()  # the rescore scores with the answer key as it is now: name that revision
        revision = self.keys.private(Split.TEST).revision
        with process_lock(self.settings.locks_folder, "moderation"):
            before = self.store.read(RELEASES_PATH)
            history = self.history()
            current = history[-1]
            entries = self._check_finished()
            now = self.clock()
            closed = self._freeze(current, now)
            generation, files = self.moderation.rescore_files(who, f"release {next_name(current.name)}: {text}", now)
            opened = Edition(
                next_name(current.name), text, generation, iso(now), who, revision, SCORER_VERSION,
                self.settings.baseline_raw, self.policy(),
            )  # fmt: skip
            path, entry = audit_entry(who, "release-open", opened.name, now, closed.to_dict(), opened.to_dict())
            files.update({RELEASES_PATH: stored_bytes([*history[:-1], closed, opened]), path: entry})
            self.store.commit(files, message=f"open release {opened.name}", expect={RELEASES_PATH: before})
        self.keys.refresh()
        self.publisher.sync()
        queued = sum(1 for e in entries if e.job.status in (FINISHED, FAILED) and not e.cancelled)
        log.info("%s opened release %s (%d entries to rescore): %s", who, opened.name, queued, text)
        return Opened(opened, closed, queued)

    def _check_finished(self) -> list:
        entries = self.registry.entries()
        waiting = sum(1 for e in entries if e.stale)
        if waiting:
            count = "1 entry waits" if waiting == 1 else f"{waiting} entries wait"
            raise InvalidAction(
                f"the current release is still being rescored ({count} for the worker): open the next release once "
                "every entry is scored under this one"
            )
        return entries

    def _freeze(self, edition: Edition, now: float) -> Edition:
        """Copy the published board of ``edition`` into ``releases/{name}/`` and tag the results store with its
        name; the record as closed (``frozen_at``, and an implicit v1's revisions as its entries record them)."""
        self.publisher.sync()
        table = self.results.read(TABLE_PATH)
        if table is None:
            raise StorageError("the results store has no published table to freeze")
        rows = [json.loads(line) for line in table.decode().splitlines() if line]
        closed = replace(edition, frozen_at=iso(now), **_recorded(edition, rows, self.store))
        puts = {frozen_path(edition.name): table, frozen_record_path(edition.name): dump(closed.public())}
        self.results.commit(puts, message=f"freeze release {edition.name}")
        self.results.tag(edition.name, f"{edition.label()}: the board as frozen when the next release opened")
        if self.results.read_tagged(edition.name, TABLE_PATH) != table:
            raise StorageError(
                f"the results changed while release {edition.name} was being frozen: nothing was opened; "
                "please open the release again"
            )
        log.info("froze release %s (%d rows) and tagged the results store %s", edition.name, len(rows), edition.name)
        return closed


def _recorded(edition: Edition, rows: list[dict[str, object]], store: Storage) -> dict[str, Any]:
    """For an implicit v1 (nothing was recorded when it began): the scorer version, answer-key revision and
    baseline B its test entries were scored with (their rows, their summaries), where they all agree; else
    what ``first_edition`` assumed (the deployment's settings when the release opens)."""
    if edition.opened_at is not None:
        return {}
    entries = [r for r in rows if r.get("kind") == "submission" and r.get("split") == "test"]
    found: dict[str, Any] = {}
    for column in ("scorer_version", "dataset_revision"):
        values = {r.get(column) for r in entries}
        if len(values) == 1 and None not in values:
            found[column] = values.pop()
    summaries = (read_summary(store, str(r["submission_id"])) for r in entries)
    baselines = {s.baseline_raw for s in summaries if s is not None}
    if len(baselines) == 1:
        found["baseline_raw"] = baselines.pop()
    return found
