"""Sliding-window limits per caller (a user name or a client address) and the server-side sessions.

Both are bounded: a limit forgets the callers it has not seen for a window and keeps at most
``max_keys`` of them; the session book keeps at most ``capacity`` sessions and signs out the
oldest past it. Both live in the web process's memory: a restart forgets them (everyone signs in
again, every window starts empty).
"""

from __future__ import annotations

import math
import secrets
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable

Clock = Callable[[], float]


class RateLimit:
    """At most ``amount`` units (calls, bytes) per key in any ``window_s`` seconds.

    >>> now = [0.0]
    >>> uploads = RateLimit(2, 60, clock=lambda: now[0])
    >>> uploads.take("alice"), uploads.take("alice"), uploads.take("alice")
    (None, None, 60)
    >>> now[0] = 61.0
    >>> uploads.take("alice") is None
    True
    """

    def __init__(self, amount: int, window_s: float, max_keys: int = 50_000, clock: Clock = time.monotonic) -> None:
        self.amount, self.window_s, self.max_keys, self.clock = amount, window_s, max_keys, clock
        self._spent: OrderedDict[str, _Window] = OrderedDict()
        self._lock = threading.Lock()  # the middleware runs on the event loop, the tabs' handlers in threads

    def take(self, key: str, units: int = 1) -> int | None:
        """Spend ``units`` for ``key``; ``None`` if allowed, else the seconds until it would be."""
        now = self.clock()
        with self._lock:
            spent = self._spent.pop(key, None) or _Window()
            spent.forget_before(now - self.window_s)
            self._spent[key] = spent  # most recently seen last
            if spent.total + units > self.amount:
                if units > self.amount or not spent.times:
                    return math.ceil(self.window_s)
                return max(1, math.ceil(spent.times[0][0] + self.window_s - now))
            spent.add(now, units)
            while len(self._spent) > self.max_keys:
                self._spent.popitem(last=False)
            return None


class _Window:
    """One caller's spending in the window: ``(when, units)`` oldest first, and their sum kept as it changes
    (summed on each call, a caller allowed many calls a minute made every call cost as many steps)."""

    __slots__ = ("times", "total")

    def __init__(self) -> None:
        self.times: deque[tuple[float, int]] = deque()
        self.total = 0

    def forget_before(self, moment: float) -> None:
        while self.times and self.times[0][0] <= moment:
            self.total -= self.times.popleft()[1]

    def add(self, now: float, units: int) -> None:
        self.times.append((now, units))
        self.total += units


class SessionBook:
    """The signed-in sessions the server knows: a session cookie is worth something only while its id is here.

    Sign-out closes the id, so a copy of the cookie made before is worth nothing after. One user holds at
    most ``per_user`` sessions: signing in again past it closes that user's own oldest, so one account that
    signs in again and again cannot push anybody else out of the book.

    >>> now = [0.0]
    >>> book = SessionBook(capacity=3, per_user=2, clock=lambda: now[0])
    >>> a = book.open("alice", expires_at=100)
    >>> book.user(a), book.user("forged")
    ('alice', None)
    >>> book.close(a); book.user(a) is None
    True
    >>> b, c, d = (book.open(u, 100) for u in "bcd")
    >>> e = book.open("e", 100)  # past capacity, the oldest is signed out
    >>> book.user(b) is None, book.user(e)
    (True, 'e')
    >>> m1, m2, m3 = (book.open("mallory", 100) for _ in range(3))
    >>> book.user(m1) is None, book.user(m3), book.user(e)  # mallory's third closes her first, nobody else's
    (True, 'mallory', 'e')
    >>> now[0] = 100.0; book.user(e) is None
    True
    """

    def __init__(self, capacity: int, per_user: int = 10, clock: Clock = time.time) -> None:
        self.capacity, self.per_user, self.clock = capacity, per_user, clock
        self._open: OrderedDict[str, tuple[str, float]] = OrderedDict()  # id -> (user, expires at), oldest first
        self._of: dict[str, OrderedDict[str, None]] = {}  # user -> their ids, oldest first
        self._lock = threading.Lock()

    def open(self, user: str, expires_at: float) -> str:
        sid = secrets.token_urlsafe(24)
        with self._lock:
            mine = self._of.setdefault(user, OrderedDict())
            while len(mine) >= self.per_user:
                self._drop(next(iter(mine)))
            if len(self._open) >= self.capacity:
                now = self.clock()
                for old in [k for k, (_, end) in self._open.items() if end <= now]:
                    self._drop(old)
            while len(self._open) >= self.capacity:
                self._drop(next(iter(self._open)))
            self._open[sid] = (user, expires_at)
            self._of.setdefault(user, OrderedDict())[sid] = None
        return sid

    def user(self, sid: object) -> str | None:
        """Whose session ``sid`` is, while it is open and not expired."""
        if not isinstance(sid, str):
            return None
        with self._lock:
            found = self._open.get(sid)
            if found is None:
                return None
            if found[1] <= self.clock():
                self._drop(sid)
                return None
            return found[0]

    def close(self, sid: object) -> None:
        if isinstance(sid, str):
            with self._lock:
                self._drop(sid)

    def _drop(self, sid: str) -> None:
        """Forget ``sid`` (the lock held)."""
        found = self._open.pop(sid, None)
        if found is None:
            return
        mine = self._of.get(found[0])
        if mine is not None:
            mine.pop(sid, None)
            if not mine:
                del self._of[found[0]]

    def __len__(self) -> int:
        return len(self._open)
