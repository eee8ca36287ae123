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

import threading

import httpx2

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
