"""What one page visit costs the server, and what visits leave behind: components, config, per-visit state.

    .venv/bin/python benchmarks/bench_visits.py                  # this checkout
    .venv/bin/python benchmarks/bench_visits.py --root /tmp/old  # another checkout (e.g. ``git archive`` of main)

Gradio serves every visit the page's config (``GET /``, ``/config``: a deep copy of the page's
part) and builds, for every visit that fires an event, a ``SessionState`` holding a copy of every
component's config (``gradio/state_holder.py``); it keeps up to 10,000 of those unless told
otherwise. So the cost of a visit grows with the number of components, and steady viewing grows
the server by one state a visit (issue 14, attack 11).

Prints, in-process (no server): the components of the public page and of the maintainers' desk
(a page of its own since this change), the size of each page's config, the time and memory of one
visit's ``SessionState``, and then, on a served app with ``MAX_VISITS=--bound``, how many states
are kept after ``--visits`` visits (Gradio's default would keep them all).
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path


def measure(root: Path, visits: int, bound: int) -> None:
    sys.path.insert(0, str(root))
    import gradio as gr
    import gradio.state_holder
    import httpx
    import orjson
    from gradio.state_holder import SessionState

    import app
    from leaderboard import Settings
    from space.services import Services
    from space.settings import SpaceSettings

    home = Path(tempfile.mkdtemp(prefix="navitrace-visits-"))
    settings = Settings.from_env({"LEADERBOARD_HOME": str(home / "home"), "MAINTAINERS": "boss"})
    bounded = {"max_visits": bound} if "max_visits" in SpaceSettings.__dataclass_fields__ else {}
    space = SpaceSettings(server_port=_free_port(), **bounded)
    services = Services.create(settings, space)
    pages = {"public page": app.build_demo(settings, services)}
    if hasattr(app, "build_desk"):
        pages["maintainers' desk"] = app.build_desk(services)
    print(f"checkout {root} ({'desk on its own page' if len(pages) == 2 else 'desk inside the public page'})")
    kinds = {"Gradio's": SessionState}
    if (root / "space" / "visit_cost.py").exists():  # the app's own, made on demand (issue 11)
        from space.visit_cost import cheap_visits

        cheap_visits()
        kinds["the app's"] = gradio.state_holder.SessionState
    for name, blocks in pages.items():
        components = sum(isinstance(b, gr.components.Component) for b in blocks.blocks.values())
        config = len(orjson.dumps(blocks.get_config_file(), default=str))
        print(f"  {name:18} {len(blocks.blocks):4} blocks ({components} components), config {config / 1024:6.1f} kB")
        for kind, state in kinds.items():
            build = _repeat(lambda b=blocks, s=state: s(b), 30)
            tracemalloc.start()
            kept = [state(blocks) for _ in range(20)]
            size = tracemalloc.get_traced_memory()[0] / len(kept) / 1024
            tracemalloc.stop()
            took = 1000 * statistics.median(build)
            print(f"    a visit's state, {kind:9}: {took:5.1f} ms to build, {size:6.1f} kB kept")
    if not hasattr(app, "build_desk"):
        return
    from space.server import launch

    demo = pages["public page"]
    launch(demo, settings, space, desk=pages["maintainers' desk"], prevent_thread_lock=True, quiet=True)
    url = f"http://127.0.0.1:{space.server_port}"
    try:
        with httpx.Client(base_url=url, timeout=60) as client:
            served = len(client.get("/config").content), len(client.get("/maintainers/config").content)
            page = _repeat(lambda: client.get("/").raise_for_status(), 20)
            print(f"  served config: public page {served[0] / 1024:.1f} kB, desk {served[1] / 1024:.1f} kB")
            print(f"  GET / (this process, sequential): p50 {1000 * statistics.median(page):.0f} ms")
            load = next(d for d in client.get("/config").json()["dependencies"] if d.get("api_name") == "who")
            for i in range(visits):
                posted = client.post("/gradio_api/call/who", json={"data": [], "session_hash": f"visit{i}"})
                client.get(f"/gradio_api/call/who/{posted.json()['event_id']}")
        kept = len(demo.state_holder.session_data)
        print(
            f"  after {visits} visits (each firing the page's load event {load['api_name']!r}): {kept} states kept "
            f"(MAX_VISITS={bound}; Gradio's own default keeps up to 10,000)"
        )
    finally:
        demo.close()


def _repeat(fn, n: int) -> list[float]:
    times = []
    for _ in range(n):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return times


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--root", type=Path, default=Path(__file__).resolve().parents[1], help="the checkout to measure"
    )
    parser.add_argument("--visits", type=int, default=300, help="visits to the served page (default 300)")
    parser.add_argument("--bound", type=int, default=100, help="MAX_VISITS of the served page (default 100)")
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} cores, load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    os.chdir(args.root)
    measure(args.root.resolve(), args.visits, args.bound)


if __name__ == "__main__":
    main()
