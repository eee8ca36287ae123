"""Whose Gradio visits are whose, and how many events each caller holds on the signed-in pages.

A Gradio visit is named by a ``session_hash`` the page makes up and sends with every event and stream.
Gradio trusts it: anyone who presents a visit's hash reads that visit's results. Here a visit belongs to
the caller who first used it (a signed-in session, or an address without one); an event, a stream, a
cancel or a heartbeat that names another caller's visit is refused, so a private result reaches only the
session that asked for it.

Each caller (a signed-in user across all their sessions, or an address without one) holds at most
``cap`` events at a time: waiting in the queue, running, or done but unread (Gradio keeps an unread
result, and the visit's mailbox, until its stream reads it). Counted from Gradio's own pending set of
each visit (``gradio_internals.pending_counter``) plus the joins still on their way in, and over at most
``VISITS_PER_CALLER`` visits a caller keeps at once: a stranger cannot fill the queue, nor one account the
memory. A visit with events pending ``UNREAD_S`` after its last join and no stream reading them is a page
that left mid-event: its events are forgotten and no longer count (a dropped connection must not lock a
caller, or everyone behind their address, out).
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

Visit = tuple[str, str]  # (the mount's path, the session hash)
Pending = Callable[[str], int]  # session hash -> its events pending in that mount's queue
Forget = Callable[[str], bool]  # session hash -> its unread events forgotten (False: a stream still reads them)

VISITS_PER_CALLER = 32  # pages one caller keeps open at once with events in flight (tabs, reloads)
MAX_VISITS_KNOWN = 50_000  # visits remembered in all; the least recently used is forgotten past it
UNREAD_S = 60.0  # a visit whose events nobody has read for this long, with no stream open, left: forgotten


@dataclass(frozen=True)
class Caller:
    """Who calls: ``owner`` owns visits (a session id, or an address); ``key`` is held to the cap (a user's
    name, or the same address), so one user's many sessions share one allowance."""

    owner: str
    key: str
    signed_in: bool
    former: str | None = None  # the owner it was while its session lasted (an ended sign-in's page)

    def owns(self, owner: str) -> bool:
        return owner in (self.owner, self.former)


class EventBook:
    def __init__(
        self,
        max_known: int = MAX_VISITS_KNOWN,
        per_caller: int = VISITS_PER_CALLER,
        unread_s: float = UNREAD_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.max_known, self.per_caller, self.unread_s, self.clock = max_known, per_caller, unread_s, clock
        self._pending: dict[str, tuple[Pending, Forget | None]] = {}
        self._joined: dict[Visit, float] = {}  # a visit's last join
        self._owner: OrderedDict[Visit, Caller] = OrderedDict()
        self._visits: dict[str, OrderedDict[Visit, None]] = {}  # caller key -> their visits, oldest first
        self._joining: dict[str, int] = {}  # caller key -> joins admitted whose answer has not left yet
        self._lock = threading.Lock()

    def attach(self, mount: str, pending: Pending, forget: Forget | None = None) -> None:
        """Count the events of the Gradio app mounted at ``mount`` with ``pending``; ``forget`` the unread."""
        self._pending[mount] = (pending, forget)

    def whose(self, mount: str, session_hash: str, caller: Caller) -> str | None:
        """Why ``caller`` may not use this visit (it is another caller's), or ``None``."""
        with self._lock:
            found = self._owner.get((mount, session_hash))
        if found is not None and not caller.owns(found.owner):
            return "This page's session belongs to another sign-in: reload the page."
        return None

    def join(self, mount: str, session_hash: str, caller: Caller, cap: int) -> str | None:
        """Admit one event of ``caller`` on this visit (``done`` must follow), or why not."""
        visit = (mount, session_hash)
        with self._lock:
            found = self._owner.get(visit)
            if found is not None and not caller.owns(found.owner):
                return "This page's session belongs to another sign-in: reload the page."
            visits = self._visits.setdefault(caller.key, OrderedDict())
            if visit not in visits:
                if len(visits) >= self.per_caller and not self._drop_idle(visits):
                    return (
                        f"You have {len(visits)} pages open with actions still running or unread: "
                        "wait for them, or close a page."
                    )
                visits[visit] = None
                self._remember(visit, caller)
            else:
                self._owner.move_to_end(visit)
            held = self._joining.get(caller.key, 0) + sum(self._count(v) for v in visits)
            self._joined[visit] = self.clock()
            if held >= cap:
                return (
                    f"You already have {held} actions waiting, running or not yet shown (at most {cap} at once): "
                    "wait for them to finish."
                )
            self._joining[caller.key] = self._joining.get(caller.key, 0) + 1
        return None

    def done(self, caller: Caller) -> None:
        """A join admitted by ``join`` has been answered: Gradio's pending set now holds its event, or nothing."""
        with self._lock:
            left = self._joining.get(caller.key, 0) - 1
            if left > 0:
                self._joining[caller.key] = left
            else:
                self._joining.pop(caller.key, None)

    def held(self, key: str) -> int:
        with self._lock:
            return self._joining.get(key, 0) + sum(self._count(v) for v in self._visits.get(key, ()))

    def _count(self, visit: Visit) -> int:
        """The visit's events pending; a visit that left them unread long ago has them forgotten (the lock held)."""
        found = self._pending.get(visit[0])
        if found is None:
            return 0
        pending, forget = found
        count = pending(visit[1])
        stale = self.clock() - self._joined.get(visit, self.clock()) > self.unread_s
        if count and stale and forget is not None and forget(visit[1]):
            return 0
        return count

    def _drop_idle(self, visits: OrderedDict[Visit, None]) -> bool:
        """Forget the oldest of ``visits`` with nothing pending (the lock held); whether there was one."""
        for visit in visits:
            if self._count(visit) == 0:
                del visits[visit]
                self._owner.pop(visit, None)
                self._joined.pop(visit, None)
                return True
        return False

    def _remember(self, visit: Visit, caller: Caller) -> None:
        self._owner[visit] = caller
        while len(self._owner) > self.max_known:
            old, who = self._owner.popitem(last=False)
            self._joined.pop(old, None)
            theirs = self._visits.get(who.key)
            if theirs is not None:
                theirs.pop(old, None)
                if not theirs:
                    del self._visits[who.key]
