"""How long a Hub request may take, and which Hub failures are worth trying again.

``huggingface_hub`` sends every request through one shared ``httpx2.Client`` created with no
timeout, and several calls pass ``timeout=None`` explicitly (``repo_info``, ``list_repo_tree``):
a Hub that accepts the connection and never answers would hold a worker forever.
``bound_client_timeouts`` installs a client whose transport gives every request that has no
timeout of its own a bounded one (a request that asks for one, such as a download's HEAD with
``HF_HUB_ETAG_TIMEOUT``, keeps it). A request cut short by it is a read timeout: for a commit, an
answer lost, which ``HubStorage`` checks before trying again.

``storage.hub.is_transient`` tells a failure worth retrying (429, 5xx, a dropped or refused connection, a
timeout) anywhere in an exception's chain of causes, for callers that wrap Hub errors in their own
(``datasets`` and the answer key do).
"""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass

import httpx2
from huggingface_hub.errors import HfHubHTTPError, LocalEntryNotFoundError

_lock = threading.Lock()
_installed: list[float] = []  # the timeout of the client factory installed in this process, if any


class _BoundedTransport(httpx2.BaseTransport):
    """Fills in ``seconds`` for every timeout a request leaves unset."""

    def __init__(self, inner: httpx2.BaseTransport, seconds: float) -> None:
        self.inner = inner
        self.bound = httpx2.Timeout(seconds, connect=min(seconds, 10.0)).as_dict()

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        asked = request.extensions.get("timeout") or {}
        request.extensions = {
            **request.extensions,
            "timeout": {k: asked.get(k) if asked.get(k) is not None else v for k, v in self.bound.items()},
        }
        return self.inner.handle_request(request)

    def close(self) -> None:
        self.inner.close()


def bound_client_timeouts(seconds: float) -> None:
    """Make the Hub client of this process give up on a request after ``seconds`` without an answer.

    Process-wide (the client is shared): the last value set wins. The client is the library's own
    default (its request hook, redirects followed) with a bounding transport underneath.
    """
    from huggingface_hub import close_session, set_client_factory
    from huggingface_hub.utils._http import hf_request_event_hook

    with _lock:
        if _installed == [seconds]:
            return

        def factory() -> httpx2.Client:
            transport = _BoundedTransport(httpx2.HTTPTransport(), seconds)
            hooks = {"request": [hf_request_event_hook]}
            return httpx2.Client(event_hooks=hooks, follow_redirects=True, timeout=None, transport=transport)

        set_client_factory(factory)  # closes the current client; the next request makes a new one
        close_session()
        _installed[:] = [seconds]


_CONFLICT = {409, 412}  # 412: "The branch was updated since you opened this page" (parent_commit mismatch)
_THROTTLED = {429}  # refused before processing: nothing landed
_UNAVAILABLE = {408, 500, 502, 503, 504}  # may have been processed: the outcome is unknown


@dataclass(frozen=True)
class RetryPolicy:
    """How long and how often a Hub call is retried.

    Attempt ``n`` (1-based) after a 429/5xx waits a uniform draw in ``[d/2, d]`` with
    ``d = min(cap_s, base_s * 2**(n-1))`` ("equal jitter"), or at least ``Retry-After`` when the
    Hub sends it. A lost race waits a uniform draw in ``[0, conflict_pause_s)`` and re-bases.
    No retry starts after ``budget_s`` seconds or ``max_attempts`` attempts.
    """

    base_s: float = 1.0
    cap_s: float = 32.0
    budget_s: float = 60.0
    max_attempts: int = 12
    conflict_pause_s: float = 0.5

    def backoff(self, attempt: int, rng: random.Random) -> float:
        ceiling = min(self.cap_s, self.base_s * 2 ** (attempt - 1))
        return ceiling / 2 + rng.uniform(0, ceiling / 2)


def _cause(err: BaseException) -> BaseException:
    # hf_hub_download reports a 5xx or a dropped connection as LocalEntryNotFoundError "from" the real error.
    if isinstance(err, LocalEntryNotFoundError) and err.__cause__ is not None:
        return err.__cause__
    return err


def classify(err: BaseException) -> str | None:
    """``conflict``, ``throttled``, ``unreachable``, ``unavailable`` (the outcome is unknown), ``fatal``,
    or ``None`` for errors that are not the Hub's."""
    err = _cause(err)
    if isinstance(err, HfHubHTTPError):
        status = err.response.status_code
        if status in _CONFLICT:
            return "conflict"
        if status in _THROTTLED:
            return "throttled"
        if status in _UNAVAILABLE:
            return "unavailable"
        return "fatal"
    if isinstance(err, (httpx2.ConnectError, httpx2.ConnectTimeout, httpx2.ProxyError)):
        return "unreachable"  # the request was never sent
    if isinstance(err, (httpx2.TransportError, ConnectionError, TimeoutError, LocalEntryNotFoundError)):
        return "unavailable"
    return None


def is_transient(error: BaseException) -> bool:
    """Whether ``error`` or one of its causes is a Hub failure worth trying again (not a refusal)."""
    seen: set[int] = set()
    cause: BaseException | None = error
    while cause is not None and id(cause) not in seen:
        seen.add(id(cause))
        kind = classify(cause)
        if kind in ("throttled", "unreachable", "unavailable"):
            return True
        if kind in ("fatal", "conflict"):
            return False
        cause = cause.__cause__ or cause.__context__
    return False


def retry_after(err: BaseException) -> float | None:
    """Seconds the Hub asked us to wait: ``Retry-After`` (delay-seconds) or the ``RateLimit`` reset ``t=``."""
    response = getattr(_cause(err), "response", None)
    if response is None:
        return None
    value = (response.headers.get("Retry-After") or "").strip()
    if value.isdigit():
        return float(value)
    for part in (response.headers.get("RateLimit") or "").split(";"):
        key, _, number = part.strip().partition("=")
        if key == "t" and number.isdigit():
            return float(number)
    return None


def brief(err: BaseException) -> str:
    """The error on one line (the client's messages span several)."""
    return " ".join(str(err).split()) or type(err).__name__


def is_commit_quota(err: BaseException) -> bool:
    """Whether a 429 is the per-repository commit quota ("rate limit for repository commits (128 per hour)"),
    whose window is an hour, rather than the API's five-minute request limit."""
    response = getattr(_cause(err), "response", None)
    status = getattr(response, "status_code", None)
    return status == 429 and "repository commits" in str(err)
