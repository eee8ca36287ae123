"""Who a Hugging Face token belongs to: the Hub's ``whoami``, asked sparingly.

A scripted submission proves who sends it with the submitter's own token; the user name comes
from the Hub's answer, never from the request. Answers are kept for ``ttl_s`` (a bounded cache,
keyed by the token's SHA-256, so no token is held in memory), refusals too, so a script that
repeats a call, or a bad token, does not make the Space ask the Hub again; a client that sends
many *different* tokens is held to ``lookups_per_minute`` calls to the Hub. The price: a token
revoked on the Hub still works here for up to ``ttl_s`` seconds (``TOKEN_CACHE_S``, default 60).

The lookups themselves run in ``HubCalls``: on threads of their own, at most ``TOKEN_LOOKUPS_AT_ONCE``, each
awaited for at most ``LOOKUP_DEADLINE_S``, so a slow Hub costs a scripted submission a 503, never a thread
of the pool that serves pages and static files.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

from leaderboard import Rejected
from leaderboard.jobs import check_user
from space.web.limits import Clock, RateLimit

log = logging.getLogger(__name__)

TOKEN_SHAPE = re.compile(r"^[A-Za-z0-9_-]{8,256}$")  # a Hub token: "hf_" and letters; anything else is not asked
MAX_CACHED = 4096
LOOKUP_DEADLINE_S = 10.0  # huggingface_hub's client has no timeout of its own: a hung whoami must not hold a caller
T = TypeVar("T")


class TokenRefused(Exception):
    """The token names nobody the Hub knows (invalid, revoked, or not a user's): a 401."""


class TooManyLookups(Exception):
    """This client made the Space ask the Hub too often: a 429 after ``retry_after`` seconds."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class HubUnavailable(Exception):
    """The Hub did not answer the question (down, slow, rate-limiting us): a 503, try again later."""


Lookup = Callable[[str], str]  # token -> user name; raises TokenRefused or HubUnavailable


def hub_lookup(endpoint: str | None = None) -> Lookup:
    """``whoami`` on the Hub at ``endpoint`` (default: ``HF_ENDPOINT``, read by ``huggingface_hub``)."""
    from huggingface_hub import HfApi
    from huggingface_hub.errors import HfHubHTTPError

    api = HfApi(endpoint=endpoint)

    def lookup(token: str) -> str:
        try:
            info = api.whoami(token=token)
        except HfHubHTTPError as error:
            status = error.response.status_code if error.response is not None else None
            if status == 401:
                raise TokenRefused("the Hugging Face Hub does not know this token (invalid or revoked)") from None
            log.warning("whoami failed with HTTP %s: %s", status, str(error)[:200])
            raise HubUnavailable(f"the Hugging Face Hub did not say who this token is (HTTP {status})") from None
        except OSError as error:  # httpx's transport errors are OSErrors underneath; timeouts too
            log.warning("whoami failed: %s", error)
            raise HubUnavailable("the Hugging Face Hub could not be reached to check the token") from None
        except Exception as error:  # httpx.HTTPError is not an OSError: any other failure to get an answer
            log.warning("whoami failed: %r", error)
            raise HubUnavailable("the Hugging Face Hub could not be reached to check the token") from None
        if info.get("type") != "user":
            raise TokenRefused(f"this token belongs to a {info.get('type') or 'non-user'} account, not to a user")
        try:
            return check_user(str(info.get("name") or ""))
        except Rejected as error:
            raise TokenRefused(f"the Hub's name for this token is not usable here: {error}") from None

    return lookup


class WhoAmI:
    """Token -> user name, with a bounded, short-lived cache and a per-client limit on Hub calls.

    >>> asked = []
    >>> def lookup(token):
    ...     asked.append(token)
    ...     if token == "hf_alice_token":
    ...         return "alice"
    ...     raise TokenRefused("unknown")
    >>> who = WhoAmI(lookup, ttl_s=60, lookups_per_minute=5, clock=lambda: 0.0)
    >>> who.user("hf_alice_token", "1.2.3.4"), who.user("hf_alice_token", "1.2.3.4"), len(asked)
    ('alice', 'alice', 1)
    >>> who.user("not a token!", "1.2.3.4")
    Traceback (most recent call last):
    ...
    space.web.tokens.TokenRefused: this is not a Hugging Face token (expected hf_ followed by letters and digits)
    """

    def __init__(
        self,
        lookup: Lookup,
        ttl_s: float,
        lookups_per_minute: int,
        max_cached: int = MAX_CACHED,
        clock: Clock = time.monotonic,
    ) -> None:
        self.lookup, self.ttl_s, self.max_cached, self.clock = lookup, ttl_s, max_cached, clock
        self.lookups = RateLimit(lookups_per_minute, 60, clock=clock)
        self._known: OrderedDict[str, tuple[float, str | None, str]] = OrderedDict()  # digest -> (until, user, why)
        self._lock = threading.Lock()

    def known(self, token: str) -> str | None:
        """The token's user if the answer is kept (``TokenRefused`` if it was a refusal), else ``None``: no I/O."""
        if not TOKEN_SHAPE.match(token):
            raise TokenRefused("this is not a Hugging Face token (expected hf_ followed by letters and digits)")
        digest = hashlib.sha256(token.encode()).hexdigest()
        with self._lock:
            found = self._known.get(digest)
            if found is not None and found[0] > self.clock():
                return _answer(found)
        return None

    def user(self, token: str, client: str) -> str:
        """The token's user; ``TokenRefused``, ``TooManyLookups`` or ``HubUnavailable`` otherwise."""
        found = self.known(token)
        if found is not None:
            return found
        digest = hashlib.sha256(token.encode()).hexdigest()
        now = self.clock()
        wait = self.lookups.take(client)
        if wait is not None:
            raise TooManyLookups(f"Too many token checks from this address: {self.lookups.amount} a minute.", wait)
        try:
            user, why = self.lookup(token), ""
        except TokenRefused as error:
            user, why = None, str(error)
        # HubUnavailable is not kept: the next call asks again (within this client's lookups)
        with self._lock:
            self._known[digest] = (now + self.ttl_s, user, why)
            self._known.move_to_end(digest)
            while len(self._known) > self.max_cached:
                self._known.popitem(last=False)
        return _answer((0.0, user, why))


def _answer(found: tuple[float, str | None, str]) -> str:
    _, user, why = found
    if user is None:
        raise TokenRefused(why)
    return user


class HubCalls:
    """Blocking calls to the Hub, each on a daemon thread of its own, at most ``at_once`` running.

    A caller past that is refused at once (``HubUnavailable``) rather than queued, and one whose call takes
    longer than ``deadline_s`` gets ``HubUnavailable`` while the call finishes in the background (still
    counted): a Hub that hangs holds at most ``at_once`` threads, none of the server's pool, and no call
    can keep the process from stopping.
    """

    def __init__(self, at_once: int, deadline_s: float = LOOKUP_DEADLINE_S) -> None:
        self.at_once, self.deadline_s = at_once, deadline_s
        self._busy = 0
        self._lock = threading.Lock()

    @property
    def busy(self) -> int:
        return self._busy

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        with self._lock:
            if self._busy >= self.at_once:
                busy = self._busy
                raise HubUnavailable(f"the Hugging Face Hub is slow to answer ({busy} checks already wait for it)")
            self._busy += 1
        loop = asyncio.get_running_loop()
        done: asyncio.Future[T] = loop.create_future()

        def call() -> None:
            try:
                outcome: tuple[Any, BaseException | None] = (fn(*args), None)
            except BaseException as error:  # handed to the awaiting caller, who decides
                outcome = (None, error)
            finally:
                with self._lock:
                    self._busy -= 1
            try:
                loop.call_soon_threadsafe(_settle, done, *outcome)
            except RuntimeError:  # the loop has closed: nobody waits any more
                pass

        threading.Thread(target=call, name="hub-call", daemon=True).start()
        try:
            return await asyncio.wait_for(asyncio.shield(done), self.deadline_s)
        except TimeoutError:
            raise HubUnavailable(f"the Hugging Face Hub did not answer within {self.deadline_s:.0f} s") from None


def _settle(done: asyncio.Future, result: Any, error: BaseException | None) -> None:
    if done.done():
        return
    if error is not None:
        done.set_exception(error)
    else:
        done.set_result(result)
