"""``FakeClock``: monotonic time that moves only when someone sleeps, for ``HubStorage``'s own retries and the
scripted route's token cache (``space.web.tokens.WhoAmI``)."""

from __future__ import annotations


class FakeClock:
    """``now()`` and ``sleep(s)``; the sleeps are recorded, nothing really waits."""

    def __init__(self, start: float = 1000.0) -> None:
        self.t = start
        self.sleeps: list[float] = []

    def now(self) -> float:
        return self.t

    def sleep(self, seconds: float) -> None:
        assert seconds >= 0, seconds
        self.sleeps.append(seconds)
        self.t += seconds
