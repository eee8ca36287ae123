"""Found on the Hub: what model repos publish for this benchmark, as rows of kind ``hub`` on the board.

``HubBoard.refresh()`` is a scheduler job (every ``HUB_REFRESH_S``, an hour by default): it reads the
benchmark dataset's leaderboard on the Hub (``get_dataset_leaderboard``) and keeps it, checked and cut
to ``MAX_ROWS``, in the requests store at ``CACHE_PATH``, committed only when it changed, then
republishes the table. A failed read keeps the last good copy. ``hub_rows(store)`` turns the copy into
table rows, so a page request never costs a Hub call.

Left out: this board's own results (their source is one of our entry pages: they are on the board
already, scored here), and anything malformed (a value that is not a finite number, a model id that is
not ``org/name``).
Columns of a Hub row: ``model`` (the repo id), ``model_link`` (its page), ``split`` ``test``, ``score``
(the published value, not checked here), ``source`` (the result's own source link, else its pull request
or file on the Hub), ``submitted_at`` (the day this board first saw that value), ``description``.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import re
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from leaderboard.config import Settings
from leaderboard.publishing.hub_eval import HubUnavailable, Publishes, Refused
from leaderboard.records import dump, iso
from leaderboard.storage import Storage

log = logging.getLogger(__name__)

CACHE_PATH = "cache/hub_leaderboard.json"
MAX_ROWS = 500  # the best-ranked results kept: bounds the file, the table and the board
MAX_TEXT = 300
HUB = "https://huggingface.co"
_MODEL_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,95}/[A-Za-z0-9][A-Za-z0-9._-]{0,95}$")
_FILENAME = re.compile(r"^[A-Za-z0-9._/-]{1,200}$")


class ReadsLeaderboard(Protocol):
    def leaderboard(self, dataset_id: str) -> list[dict[str, Any]]: ...


def checked(
    answer: Sequence[Mapping[str, Any]], own_pages: str | None, seen: Mapping[tuple, str], today: str
) -> list[dict[str, Any]]:
    """The Hub's answer as the cache keeps it: valid results of others, best first, at most ``MAX_ROWS``.

    ``seen``: (model id, filename, value) -> the day first seen, from the previous copy."""
    kept: list[dict[str, Any]] = []
    for item in answer:
        model_id, value = item.get("model_id"), item.get("value")
        if not (isinstance(model_id, str) and _MODEL_ID.match(model_id)):
            continue
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            continue
        source: Mapping[str, Any] = item["source"] if isinstance(item.get("source"), Mapping) else {}
        url: str | None = source["url"] if isinstance(source.get("url"), str) else None
        if own_pages and url and url.startswith(own_pages.rstrip("/") + "/"):
            continue  # one of ours: on the board already, scored here
        filename: str = item["filename"] if isinstance(item.get("filename"), str) else ""
        pull_request = item.get("pull_request")
        key = (model_id, filename, float(value))
        kept.append(
            {
                "model_id": model_id,
                "value": float(value),
                "filename": filename[:MAX_TEXT],
                "source_url": url[:MAX_TEXT] if url and url.startswith("https://") else None,
                "source_name": str(source.get("name") or "")[:MAX_TEXT] or None,
                "pull_request": pull_request if isinstance(pull_request, int) and pull_request > 0 else None,
                "verified": item.get("verified") is True,
                "first_seen": seen.get(key, today),
            }
        )
    kept.sort(key=lambda r: -float(r["value"]))
    return kept[:MAX_ROWS]


def read_cache(store: Storage) -> list[dict]:
    data = store.read(CACHE_PATH)
    if not data:
        return []
    try:
        rows = json.loads(data).get("rows", [])
    except (ValueError, AttributeError):
        log.error("%s is unreadable: no Hub rows until the next refresh", CACHE_PATH)
        return []
    return [r for r in rows if isinstance(r, dict)][:MAX_ROWS]


def _link(cached: Mapping[str, Any]) -> str | None:
    model_id, filename = cached["model_id"], cached.get("filename") or ""
    if cached.get("source_url"):
        return str(cached["source_url"])
    if cached.get("pull_request"):
        return f"{HUB}/{model_id}/discussions/{cached['pull_request']}"
    return f"{HUB}/{model_id}/blob/main/{filename}" if _FILENAME.match(filename) and ".." not in filename else None


def hub_rows(store: Storage) -> list[dict[str, object]]:
    """The cached results as public table values (``table._row`` fills the other columns with None)."""
    rows = []
    for cached in read_cache(store):
        model_id = str(cached.get("model_id") or "")
        if not _MODEL_ID.match(model_id) or not isinstance(cached.get("value"), int | float):
            continue
        row_id = "hub-" + hashlib.sha1(f"{model_id}/{cached.get('filename')}".encode()).hexdigest()[:16]
        where = f"pull request #{cached['pull_request']} (not merged)" if cached.get("pull_request") else "the repo"
        checked_by = "; verified by the Hub" if cached.get("verified") else ""
        rows.append(
            {
                "submission_id": row_id,
                "kind": "hub",
                "model": model_id,
                "organization": model_id.split("/")[0],
                "model_link": f"{HUB}/{model_id}",
                "description": f"Reported on the Hub, not scored here: published in {where}{checked_by}.",
                "split": "test",
                "score": float(cached["value"]),
                "submitted_at": str(cached.get("first_seen") or "")[:10] or None,
                "source": _link(cached),
            }
        )
    return rows


class HubBoard:
    def __init__(
        self,
        settings: Settings,
        store: Storage,
        publisher: Publishes,
        client: ReadsLeaderboard,
        clock: Callable[[], float] = time.time,
    ) -> None:
        assert settings.hub_benchmark_dataset, "HUB_BENCHMARK_DATASET is not set"
        self.settings, self.store, self.publisher, self.client, self.clock = settings, store, publisher, client, clock

    def refresh(self) -> bool:
        """Read the Hub's leaderboard again; True when the kept copy changed (and the table was republished)."""
        dataset_id = str(self.settings.hub_benchmark_dataset)
        try:
            answer = self.client.leaderboard(dataset_id)
        except (Refused, HubUnavailable) as problem:
            log.warning("the Hub's leaderboard of %s was not read (%s): keeping the last copy", dataset_id, problem)
            return False
        old = read_cache(self.store)
        seen = {(r.get("model_id"), r.get("filename") or "", r.get("value")): str(r.get("first_seen")) for r in old}
        rows = checked(answer, self.settings.hub_space_url, seen, iso(self.clock())[:10])
        data = dump({"dataset_id": dataset_id, "rows": rows})
        if self.store.read(CACHE_PATH) == data:
            return False
        self.store.commit({CACHE_PATH: data}, message=f"hub: {len(rows)} result(s) the Hub reports for {dataset_id}")
        log.info("kept %d result(s) the Hub reports for %s", len(rows), dataset_id)
        self.publisher.sync()
        return True
