"""Who a Hugging Face token belongs to: the Hub's ``whoami``, asked sparingly.

A scripted submission proves who sends it with the submitter's own token; the user name comes
from the Hub's answer, never from the request. Answers are kept for ``ttl_s`` (a bounded cache,
keyed by the token's SHA-256, so no token is held in memory), refusals too, so a script that
repeats a call, or a bad token, does not make the Space ask the Hub again; a client that sends
many *different* tokens is held to ``lookups_per_minute`` calls to the Hub. The price: a token
revoked on the Hub still works here for up to ``ttl_s`` seconds (``TOKEN_CACHE_S``, default 60).
"""

from __future__ import annotations

import hashlib
import logging
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable

from leaderboard import Rejected
from leaderboard.intake import check_user
from space.limits import Clock, RateLimit

log = logging.getLogger(__name__)

TOKEN_SHAPE = re.compile(r"^[A-Za-z0-9_-]{8,256}$")  # a Hub token: "hf_" and letters; anything else is not asked
MAX_CACHED = 4096


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
    space.tokens.TokenRefused: this is not a Hugging Face token (expected hf_ followed by letters and digits)
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

    def user(self, token: str, client: str) -> str:
        """The token's user; ``TokenRefused``, ``TooManyLookups`` or ``HubUnavailable`` otherwise."""
        if not TOKEN_SHAPE.match(token):
            raise TokenRefused("this is not a Hugging Face token (expected hf_ followed by letters and digits)")
        digest = hashlib.sha256(token.encode()).hexdigest()
        now = self.clock()
        with self._lock:
            found = self._known.get(digest)
            if found is not None and found[0] > now:
                return _answer(found)
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
