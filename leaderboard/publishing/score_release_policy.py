"""The score release policy in force: ``LEADERBOARD_RELEASE_POLICY`` (Settings), unless the maintainers set one.

The maintainers' setting lives in ``control/release.json`` (``{"policy", "set_by", "set_at"}``) so
that every worker and every app sharing the requests store follows one policy, read afresh for each
finished test job, and a switch needs no restart. Setting it is a maintainer's action: checked here
on the server and written with its audit entry (action ``release-policy``) in one commit. A switch
applies to the jobs that finish afterwards: decisions already taken (``release.json``) stand.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable

from leaderboard.config import Settings
from leaderboard.publishing.score_release import RELEASE_POLICY_PATH
from leaderboard.records import InvalidAction, ReleasePolicy, dump, iso, parse_policy, quoted
from leaderboard.storage import Storage, audit_entry

log = logging.getLogger(__name__)


class ReleaseSetting:
    def __init__(
        self,
        settings: Settings,
        store: Storage,
        clock: Callable[[], float],
        require_maintainer: Callable[[str | None], str],
    ) -> None:
        self.settings = settings
        self.store = store
        self.clock = clock
        self.require_maintainer = require_maintainer

    def current(self) -> ReleasePolicy:
        return policy_in_force(self.store, self.settings.release_policy)

    def set(self, policy: str, by: str | None) -> ReleasePolicy:
        """Set the policy (maintainers only). Nothing is written when it already is the maintainers' setting;
        choosing the deployment's default pins it, so a later change of the variable does not switch it."""
        who = self.require_maintainer(by)
        try:
            chosen = parse_policy(policy)
        except ValueError as error:
            raise InvalidAction(f"release policy {quoted(policy)}: {error}") from None
        before = self.current()
        if chosen == before and self.store.read(RELEASE_POLICY_PATH) is not None:
            return chosen
        now = self.clock()
        record = {"policy": chosen.value, "set_by": who, "set_at": iso(now)}
        path, entry = audit_entry(who, "release-policy", None, now, {"policy": before.value}, record)
        self.store.commit({RELEASE_POLICY_PATH: dump(record), path: entry}, message=f"release policy {chosen}")
        log.info("%s set the score release policy to %s (was %s)", who, chosen, before)
        return chosen


def policy_in_force(store: Storage, default: ReleasePolicy) -> ReleasePolicy:
    """The maintainers' setting, else ``default`` (the deployment's, from Settings)."""
    data = store.read(RELEASE_POLICY_PATH)
    if data:
        try:
            return ReleasePolicy(json.loads(data)["policy"])
        except (ValueError, KeyError, TypeError) as error:  # a damaged file must not stop scoring
            log.error("%s is unreadable (%r): using LEADERBOARD_RELEASE_POLICY", RELEASE_POLICY_PATH, error)
    return default
