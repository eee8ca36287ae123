"""The simulated viewers, in a process of their own, on one event loop: what they time is the app.

Fifty viewer threads in the benchmark's own interpreter timed mostly that interpreter: each answer
waited for the GIL behind the other threads (and behind the uploaders' or attackers' clients in the
same process). Measured on 2026-11-27 beside ``load_test.py``'s 50 viewer threads, a lone viewer in
another process saw a page + board load in p50 10 ms idle and 12 ms while the files scored, where
the threads saw 140 ms and 260 ms. Real viewers are other machines; here they are ``count`` asyncio
tasks (one connection each, as one browser tab) in a child process that does nothing else, so the
other load of a benchmark (uploads, attacks) never shares their interpreter. Each pause between a
viewer's loads is drawn at random around ``think_s`` (``THINK_SPREAD``), as people's pauses vary.

    viewers = start_viewers(url, events, 50, 1.0, stop, result)   # result.page fills as loads finish
    stop.set(); [t.join() for t in viewers]

The child prints one JSON line per page load (``[start, GET / s, board events s]``, ``start`` on the
system-wide monotonic clock, comparable with the parent's ``time.monotonic()``) or per error
(``{"error": ...}``), and stops when its standard input closes.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import secrets
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Protocol

import httpx

ROOT = Path(__file__).resolve().parents[1]
# A viewer's pause between loads is drawn from this range of ``think_s`` (mean ``think_s``). With the same
# pause for everyone, viewers delayed together by one slow answer stayed together: they fell into convoys
# that arrived as one burst and queued behind each other. Measured 2026-11-27 (50 viewers, idle app):
# page + board p50 76-103 ms with a fixed 1 s pause, 9.3-9.6 ms with pauses spread over 0.5-1.5 s, and the
# convoys re-formed at random, so a run's ratios measured them more than the app. People's pauses vary.
THINK_SPREAD = (0.5, 1.5)


class Samples(Protocol):
    """What the viewers fill (``load_test.Result``)."""

    page: list[tuple[float, float, float]]
    started: float
    lock: threading.Lock

    def error(self, text: str) -> None: ...


def start_viewers(
    url: str, events: list[tuple[str, list]], count: int, think_s: float, stop: threading.Event, result: Samples
) -> list[threading.Thread]:
    """``count`` viewers arriving spread over one pause; ``result.started`` marks when they set off.

    Returns two threads to join: the one that collects their loads into ``result`` and the one that,
    once ``stop`` is set, closes the viewers' input so that their process ends."""
    child = subprocess.Popen(
        [sys.executable, "-m", "benchmarks.viewer_process", url, str(count), str(think_s)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write(json.dumps(events) + "\n")
    child.stdin.flush()
    result.started = time.monotonic()
    collector = threading.Thread(target=_collect, args=(child, result), name="viewers-collect", daemon=True)
    stopper = threading.Thread(target=_stop_on, args=(child, stop), name="viewers-stop", daemon=True)
    collector.start()
    stopper.start()
    return [collector, stopper]


def _collect(child: subprocess.Popen[str], result: Samples) -> None:
    assert child.stdout is not None
    for line in child.stdout:
        sample = json.loads(line)
        if isinstance(sample, dict) and "lag" in sample:  # the viewers' own event loop was late: not the app
            with result.lock:
                getattr(result, "viewer_lag", []).append(tuple(sample["lag"]))
            continue
        if isinstance(sample, dict):
            result.error(f"viewer: {sample['error']}")
            continue
        with result.lock:
            result.page.append(tuple(sample))  # type: ignore[arg-type]
    child.wait()


def _stop_on(child: subprocess.Popen[str], stop: threading.Event) -> None:
    stop.wait()
    assert child.stdin is not None
    try:
        child.stdin.close()  # the child finishes the loads in flight and ends
    except OSError:
        pass
    try:
        child.wait(30)
    except subprocess.TimeoutExpired:
        child.kill()


# -- the child -------------------------------------------------------------------------------------


async def _call(client: httpx.AsyncClient, api_name: str, data: list, session: str) -> None:
    posted = await client.post(f"/gradio_api/call/{api_name}", json={"data": data, "session_hash": session})
    posted.raise_for_status()
    stream = (await client.get(f"/gradio_api/call/{api_name}/{posted.json()['event_id']}")).text
    if "event: complete" not in stream:
        raise RuntimeError(f"{api_name}: {stream[:200]}")


async def _viewer(url: str, events: list[Any], think_s: float, delay_s: float, stop: asyncio.Event) -> None:
    try:
        await asyncio.wait_for(stop.wait(), delay_s)  # viewers arrive spread over one pause
        return
    except TimeoutError:
        pass
    async with httpx.AsyncClient(base_url=url, timeout=60) as client:
        while not stop.is_set():
            start = time.monotonic()
            try:
                page = await client.get("/")
                page.raise_for_status()
                loaded = time.monotonic()
                session = secrets.token_hex(6)  # a page's events share its session, as in a browser
                for api_name, data in events:
                    await _call(client, api_name, data, session)
                print(json.dumps([start, loaded - start, time.monotonic() - loaded]), flush=True)
            except Exception as error:  # counted by the parent; the viewer carries on like a reloading person
                print(json.dumps({"error": repr(error)[:300]}), flush=True)
            try:
                await asyncio.wait_for(stop.wait(), think_s * random.uniform(*THINK_SPREAD))
            except TimeoutError:
                pass


async def _watch_lag(stop: asyncio.Event, every_s: float = 0.01, late_s: float = 0.005) -> None:
    """Report each moment this process's event loop woke more than ``late_s`` late: time the viewers would
    count as the app's (``{"lag": [when, seconds late]}``)."""
    while not stop.is_set():
        due = time.monotonic() + every_s
        await asyncio.sleep(every_s)
        late = time.monotonic() - due
        if late > late_s:
            print(json.dumps({"lag": [due, late]}), flush=True)


async def _main(url: str, count: int, think_s: float) -> None:
    events = json.loads(sys.stdin.readline())
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    # End of standard input (the parent's stop, or its death) ends the viewers.
    waiting = loop.run_in_executor(None, sys.stdin.read)
    waiting.add_done_callback(lambda _: stop.set())
    await asyncio.gather(
        _watch_lag(stop), *(_viewer(url, events, think_s, think_s * i / count, stop) for i in range(count))
    )


if __name__ == "__main__":
    asyncio.run(_main(sys.argv[1], int(sys.argv[2]), float(sys.argv[3])))
    os._exit(0)  # the stdin reader thread may still sit in its read: no interpreter shutdown beside it
