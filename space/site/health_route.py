"""``GET /api/health`` (and ``HEAD``): the service's health as JSON, for uptime checks and for people.

200 when ``status`` is ``ok`` or ``degraded``, 503 when it is ``down`` (scoring stopped or silent, the Hub
unreachable), so a plain uptime check alerts on the code alone. The body is
``leaderboard.runtime.health.Health.public``: counts, times and fixed words, nothing private. It is assessed from
memory per request (the facts are read every ``REFRESH_S`` by the scheduler,
``leaderboard/runtime/health_monitor.py``): no store read, no Hub call, no body parsed. Callers are limited as the
other anonymous calls are, ``ANONYMOUS_CALLS_PER_MINUTE`` per address.
"""

from __future__ import annotations

import json

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from leaderboard.runtime import HealthMonitor, Status
from space.web.limits import RateLimit
from space.web.services import Services

PATH = "/api/health"
HEADERS = {"Cache-Control": "no-store"}  # a cached "ok" would hide an outage
RETRY_DOWN_S = 60  # Retry-After of a 503


def routes(services: Services) -> list[BaseRoute]:
    """The health route (Starlette answers ``HEAD`` with the ``GET`` handler, without the body)."""
    return [Route(PATH, HealthRoute(services).answer, methods=["GET"])]


class HealthRoute:
    def __init__(self, services: Services) -> None:
        self.monitor = services.health or HealthMonitor(services.leaderboard)
        self.limit = RateLimit(services.space.anonymous_calls_per_minute, 60)
        self.per_minute = services.space.anonymous_calls_per_minute

    async def answer(self, request: Request) -> Response:
        client = str(getattr(request.state, "client", None) or (request.client.host if request.client else "?"))
        wait = self.limit.take(client)
        if wait is not None:
            text = {"error": f"too many health checks from your address: {self.per_minute} a minute"}
            return _json(text, 429, {"Retry-After": str(wait)})
        # From memory; only the first call of a process without the scheduler reads the store (in a thread).
        health = self.monitor.health() if self.monitor.ready() else await run_in_threadpool(self.monitor.health)
        down = health.status is Status.DOWN
        return _json(health.public(), 503 if down else 200, {"Retry-After": str(RETRY_DOWN_S)} if down else {})


def _json(value: object, status: int, headers: dict[str, str]) -> Response:
    body = json.dumps(value, separators=(",", ":"), allow_nan=False).encode()
    return Response(body, status_code=status, media_type="application/json", headers={**HEADERS, **headers})
