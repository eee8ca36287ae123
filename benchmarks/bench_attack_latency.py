"""A viewer's board while someone attacks the CPU: idle, then during each attack, each vs 1.5x idle.

    .venv/bin/python benchmarks/bench_attack_latency.py                     # 5 viewers, 60 s a phase
    .venv/bin/python benchmarks/bench_attack_latency.py --phase-s 30 --samples 50 --size 640x480

Starts the real app (``python app.py``, as ``bench_app.App`` does) on a fresh ``LEADERBOARD_HOME``
and a synthetic dataset. ``--viewers`` viewers load the board as ``load_test``'s do (``viewer_process``:
``GET /``, its files through a browser's cache, now and then ``/api/board``, then ``--think-s``) for the
whole run; their page times are split by phase:

1. **idle**: nothing else happens;
2. **ReDoS**: 4 signed-in callers send the signed-in page's ``/submit`` event (``/submit/gradio_api/...``),
   each every ``--pace-s``, with the parameter count ``"1"*2400 + " "*2400 + "x"`` (attack 1: 50 s of a
   frozen app per call before the fix);
3. **60 MB checks**: 24 checks of a valid ~58 MB file (a long ``raw_response``), 4 at a time, each by one
   of 4 signed-in accounts through ``gradio_client`` on ``/submit/`` (attack 5: board 1.6 s median, RSS
   1.4 GB); the per-user upload limits refuse some, and the figures say how many;
4. **explorer**: 8 draws at once, again and again, of a row of a worst-case validation submission
   (2,000-point zigzags across the image, attack 6: 6-7 s a draw, board 14 s);
5. **fresh views**: the plain routes, which anyone may call without signing in and without a rate limit:
   4 anonymous callers, as fast as they are answered, each asking for what no cache holds: a board view
   never drawn before (a search of its own: the page is drawn on the request), a comparison of two ids
   that do not exist and an entry's JSON of one (``/compare``, ``/api/entry``, both 404);
6. **forged addresses**: every call behind a new forged ``X-Forwarded-For`` (the app trusts one proxy, which
   appends the same real address): unknown tokens on the scripted route and anonymous events;
7. **stranger draws**: bursts of 150 anonymous Explorer draws joined at once and never read;
8. **slow bodies**: 4 scripted submissions with a valid token announcing 200 KB and sending a byte at a time;
9. **slow Hub**: 45 scripted submissions at once whose ``whoami`` hangs (a stand-in Hub,
   ``tests/hardening/web/slow_hub.py``, is the app's ``HF_ENDPOINT``).

For each phase: p50/p95 of a viewer's page, and the ratio to idle (target each <= 1.5x), what
the attack itself got (answers, refusals, seconds per call), and the app's RSS. The machine's core
count and load average are printed: on a shared machine the ratios are what to compare.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import re
import secrets
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.bench_app import App, _scoring_dataset  # noqa: E402
from benchmarks.load_test import Result, percentiles, spread, stop_app  # noqa: E402
from benchmarks.proc_stats import cpu_s, rss_mb  # noqa: E402
from benchmarks.remote_clients import as_other_machines  # noqa: E402
from benchmarks.viewer_process import start_viewers  # noqa: E402
from scoring import load_answer_key  # noqa: E402
from scoring.examples import write_example  # noqa: E402
from tests.hardening.input.input_giants import huge_raw_response, worst_case_traces  # noqa: E402
from tests.hardening.web.slow_hub import SlowHub  # noqa: E402
from tests.hardening.web.trickle import trickle  # noqa: E402

ATTACKS = [
    "ReDoS",
    "60 MB checks",
    "explorer",
    "fresh views",
    "forged addresses",
    "stranger draws",
    "slow bodies",  # before the slow Hub: its hung lookups hold every lookup slot until the run ends
    "slow Hub",
]
WORKSPACE = "/submit"  # the signed-in Gradio page (Submit, My submissions, Explorer): its events are under it
TARGET_RATIO = 1.5  # a viewer's board within 1.5x idle during each CPU attack
REDOS = "1" * 2400 + " " * 2400 + "x"
UNDECLARED = (None, None, "", "", False)  # /submit's declarations: asked of a public test entry only
LAYERS = [
    "Expert traces",
    "Predicted trace",
    "Penalty region edges",
    "Penalty regions filled (by cost)",
]  # space/explorer/tab.LAYERS: every layer drawn


@dataclass
class Attack:
    name: str
    calls: list[float] = field(default_factory=list)  # seconds per attacking call
    outcomes: dict[str, int] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def record(self, seconds: float, outcome: str) -> None:
        with self.lock:
            self.calls.append(seconds)
            self.outcomes[outcome] = self.outcomes.get(outcome, 0) + 1


def signed_in(url: str, user: str):
    """A ``gradio_client.Client`` of the signed-in page, with the local sign-in's session of ``user`` (and the
    page's Origin)."""
    from gradio_client import Client

    cookie = httpx.post(f"{url}/local-auth/sign-in", data={"user": user}, headers={"origin": url}, timeout=60)
    headers = {"Cookie": f"session={cookie.cookies['session']}", "Origin": url}
    return Client(f"{url}{WORKSPACE}/", verbose=False, headers=headers, download_files=False, analytics_enabled=False)


def timed(attack: Attack, call: Callable[[], str]) -> None:
    start = time.monotonic()
    try:
        outcome = call()
    except Exception as error:  # a refusal (429, 403, a gr.Error) is an outcome of the attack, counted
        outcome = f"refused: {str(error)[:90]}"
    attack.record(time.monotonic() - start, outcome)


def redos(url: str, small: Path, until: float, pace_s: float) -> Attack:
    """Attack 1: the parameter count that backtracked for 50 s, sent by 4 callers until ``until``.

    Each caller uploads its file once and sends ``/submit`` with it again and again over raw HTTP, as an
    attacker would (the per-user upload limit is not what should stop this), one call every ``pace_s``:
    the phase measures what the value costs, not how many calls a second the app can refuse.
    """
    attack = Attack("ReDoS parameter count")
    meta = ["ReDoS", "", "", "", "redos@example.org", "", "", REDOS, False, *UNDECLARED]

    def caller(i: int) -> None:
        cookie = httpx.post(f"{url}/local-auth/sign-in", data={"user": f"redos{i}"}, headers={"origin": url})
        headers = {"Cookie": f"session={cookie.cookies['session']}", "Origin": url}
        with httpx.Client(base_url=url, headers=headers, timeout=120) as client, small.open("rb") as handle:
            uploaded = client.post(f"{WORKSPACE}/gradio_api/upload", files={"files": (small.name, handle)})
            uploaded.raise_for_status()
            file = {"path": uploaded.json()[0], "orig_name": small.name, "meta": {"_type": "gradio.FileData"}}
            first = _call(client, "submit", [file, "validation", *meta])
            if "parameters_b has" not in first:  # a call the app could not even read measures nothing
                raise SystemExit(f"the ReDoS call did not reach the parameter count's check: {first[:300]}")
            while time.monotonic() < until:
                timed(attack, lambda: _outcome(_call(client, "submit", [file, "validation", *meta])))
                time.sleep(pace_s)

    with ThreadPoolExecutor(4) as pool:
        list(pool.map(caller, range(4)))
    return attack


def _call(client: httpx.Client, api_name: str, data: list) -> str:
    posted = client.post(f"{WORKSPACE}/gradio_api/call/{api_name}", json={"data": data})
    posted.raise_for_status()
    return client.get(f"{WORKSPACE}/gradio_api/call/{api_name}/{posted.json()['event_id']}").text


def big_checks(url: str, big: Path, until: float, checks: int = 24, at_once: int = 4) -> Attack:
    """Attack 5: 24 checks of a ~58 MB file, 4 at a time, by 4 signed-in accounts."""
    from gradio_client import handle_file

    attack = Attack(f"{checks} checks of a {big.stat().st_size / 2**20:.0f} MB file, {at_once} at a time")
    clients = [signed_in(url, f"bulky{i}") for i in range(at_once)]

    def check(i: int) -> None:
        if time.monotonic() < until:
            client = clients[i % at_once]
            timed(attack, lambda: _outcome(client.predict(handle_file(str(big)), "validation",
                                                          api_name="/check_file")[0]))  # fmt: skip

    with ThreadPoolExecutor(at_once) as pool:
        list(pool.map(check, range(checks)))
    return attack


def explorer_draws(
    url: str, client, submission_id: str, row: tuple[str, str], until: float, at_once: int = 8
) -> Attack:
    """Attack 6: 8 draws at once of one row of a worst-case submission, repeated until ``until``."""
    attack = Attack(f"{at_once} explorer draws at once of a worst-case row")
    client.predict(None, None, None, LAYERS, api_name="/open_tab")  # as the page does: the session's choices

    def draw(_: int) -> None:
        while time.monotonic() < until:
            timed(attack, lambda: _outcome(client.predict(submission_id, *row, LAYERS,
                                                          api_name="/explore")[1]))  # fmt: skip

    with ThreadPoolExecutor(at_once) as pool:
        list(pool.map(draw, range(at_once)))
    return attack


def fresh_views(url: str, until: float, callers: int = 4) -> Attack:
    """The plain routes' worst case: what no cache holds, asked for by anonymous callers as fast as answered."""
    attack = Attack(f"{callers} anonymous callers asking for views no cache holds")
    asks = (  # (what it is, a new address of it each time)
        ("a board view never drawn", lambda: f"/?q={secrets.token_hex(4)}"),  # drawn on the request
        ("compare of unknown ids", lambda: f"/compare?compare={secrets.token_hex(12)},{secrets.token_hex(12)}"),
        ("JSON of an unknown entry", lambda: f"/api/entry/{secrets.token_hex(12)}"),
    )

    def ask(client: httpx.Client, what: str, path: str) -> str:
        return f"{what}: {client.get(path).status_code}"

    def caller(i: int) -> None:
        with httpx.Client(base_url=url, timeout=60) as client:
            n = i
            while time.monotonic() < until:
                what, address = asks[n % len(asks)]
                timed(attack, functools.partial(ask, client, what, address()))
                n += 1

    with ThreadPoolExecutor(callers) as pool:
        list(pool.map(caller, range(callers)))
    return attack


def forged_addresses(url: str, until: float, callers: int = 4) -> Attack:
    """Forged addresses: each call behind a new forged ``X-Forwarded-For`` (the proxy, ``TRUSTED_PROXIES=1``,
    appends the same real address): an unknown token on the scripted route (a ``whoami`` to the Hub each, before)
    and an anonymous event."""
    attack = Attack(f"{callers} callers, a forged address on every call")

    def call(client: httpx.Client, n: int) -> str:
        forged = {"X-Forwarded-For": f"10.{n % 250}.{n // 250 % 250}.7, 203.0.113.99"}
        if n % 2:
            answer = client.post(
                "/script-api/submit",
                headers={"Authorization": f"Bearer hf_unknown{n:06d}", **forged},
                files={"file": ("p.tsv", b"x")},
            )
        else:
            answer = client.post(f"{WORKSPACE}/gradio_api/call/show_quota", json={"data": []}, headers=forged)
        return f"{'token' if n % 2 else 'event'}: {answer.status_code}"

    def caller(i: int) -> None:
        with httpx.Client(base_url=url, timeout=60) as client:
            n = i
            while time.monotonic() < until:
                timed(attack, functools.partial(call, client, n))
                n += callers

    with ThreadPoolExecutor(callers) as pool:
        list(pool.map(caller, range(callers)))
    return attack


def stranger_draws(url: str, until: float, burst: int = 150) -> Attack:
    """Unread draws: bursts of 150 anonymous Explorer draws joined at once and never read (150 queued in
    0.6 s before, and a signed-in user's own drawing then took 59 s)."""
    attack = Attack(f"bursts of {burst} anonymous explorer draws, never read")
    with httpx.Client(base_url=url, timeout=60) as client:
        config = client.get(f"{WORKSPACE}/config").json()
        fn = next(d["id"] for d in config["dependencies"] if d.get("api_name") == "draw")
        samples = [c for c in config["components"] if c["props"].get("elem_id") == "explorer-sample"]
        sample = (samples[0]["props"].get("choices") or [[None, None]])[0][1] if samples else None

        def join(_: int) -> str:
            body = {"data": ["", sample, None, LAYERS], "fn_index": fn, "session_hash": secrets.token_hex(6),
                    "trigger_id": None, "event_data": None}  # fmt: skip
            return f"join: {client.post(f'{WORKSPACE}/gradio_api/queue/join', json=body).status_code}"

        while time.monotonic() < until:
            with ThreadPoolExecutor(8) as pool:
                for _ in pool.map(lambda i: timed(attack, functools.partial(join, i)), range(burst)):
                    pass
            time.sleep(min(5.0, max(0.0, until - time.monotonic())))
    return attack


def slow_hub(url: str, until: float, at_once: int = 45) -> Attack:
    """A slow Hub: 45 scripted submissions at once whose ``whoami`` hangs (the stand-in Hub never answers
    a ``slow`` token); before, the page's own script got no answer within 20 s."""
    attack = Attack(f"{at_once} scripted submissions waiting on a Hub that hangs")

    def submit(n: int) -> str:
        answer = httpx.post(
            f"{url}/script-api/submit",
            headers={"Authorization": f"Bearer hf_slow{n:06d}", "X-Forwarded-For": f"198.18.{n // 250}.{n % 250}"},
            files={"file": ("p.tsv", b"x")},
            timeout=120,
        )
        return f"{answer.status_code}: {answer.json().get('error', '')[:40]}"

    def caller(i: int) -> None:
        n = i
        while time.monotonic() < until:
            timed(attack, functools.partial(submit, n))
            n += at_once

    with ThreadPoolExecutor(at_once) as pool:
        list(pool.map(caller, range(at_once)))
    return attack


def slow_bodies(url: str, until: float, senders: int = 4) -> Attack:
    """Slow bodies: scripted submissions with a valid token announcing 200 KB and sending the file a byte
    every 2 s (before, two of them held both of the route's slots for ever and an honest submission got no
    answer); each sender a new user, so that the per-user upload limit is not what ends it."""
    attack = Attack(f"{senders} slow bodies (a byte every 2 s) on the scripted route")
    host, port = httpx.URL(url).host, httpx.URL(url).port
    count = iter(range(10**6))

    def one(i: int) -> str:
        answer = trickle(host, port, f"hf_user_trickler{i}x{next(count)}_xx", 2.0, until + 60)
        return answer.split(b"\r\n", 1)[0].decode(errors="replace")[:40] or "no answer"

    def sender(i: int) -> None:
        while time.monotonic() < until:
            timed(attack, functools.partial(one, i))

    with ThreadPoolExecutor(senders) as pool:
        list(pool.map(sender, range(senders)))
    return attack


def _outcome(text: object) -> str:
    """A short name for what the attacking call got back."""
    shown = str(text)
    for marker in (
        "parameters_b has",
        "You can submit",
        "cannot be submitted",
        "Not submitted",
        "Row score",
        "Too many",
    ):
        if marker in shown:
            return marker
    return shown[:60]


def worst_case_submission(url: str, home: Path, key, work: Path, timeout_s: float) -> tuple[object, str, tuple]:
    """A scored validation submission of 2,000-point zigzags by ``attacker``: ``(client, its id, a row)``."""
    from gradio_client import handle_file

    path = work / "worst.tsv"
    worst_case_traces(path, key)
    client = signed_in(url, "attacker")
    client.predict(handle_file(str(path)), "validation", api_name="/check_file")
    meta = ("Zigzag", "", "", "", "z@example.org", "", "", "", False)
    receipt = client.predict(handle_file(str(path)), "validation", *meta, *UNDECLARED, api_name="/submit")[0]
    found = re.search(r"class='nt-id'>([0-9a-f]{16})<", receipt)
    if not found:
        raise SystemExit(f"the worst-case submission was not taken: {receipt[:300]}")
    sid = found.group(1)
    job, deadline = home / "requests" / "jobs" / f"{sid}.json", time.monotonic() + timeout_s
    while not (job.exists() and json.loads(job.read_text()).get("finished_at")):
        if time.monotonic() > deadline:
            raise SystemExit(f"the worst-case submission {sid} was not scored within {timeout_s:.0f} s")
        time.sleep(1)
    sample, embodiment = next(iter(key.expected_rows()))
    return client, sid, (sample.sample_id, embodiment)


def run(private: Path, public: Path, args: argparse.Namespace) -> tuple[Result, list[tuple[str, float, float]], list]:
    """The viewers through every phase; ``(their loads, the phases (name, start, end), the attacks)``."""
    work = Path(tempfile.mkdtemp(prefix="navitrace-attack-"))
    home = work / "home"
    key = load_answer_key(private, "validation", home / "cache")  # the app's own cache: it starts warm
    small, big = work / "small.tsv", work / "big.tsv"
    write_example(key, "noisy", small)
    huge_raw_response(big, key, megabytes=58)  # valid, read to its end by a check; under the 64 MB limit
    env = {"ANSWER_KEY_DATASET": str(private), "PUBLIC_DATASET": str(public), "SCORE_INTERVAL_S": "1"}
    # The worst-case file is over today's per-file scoring limit (LEADERBOARD_MAX_JOB_POINTS); lifted here so the
    # explorer attack can draw its rows (one 2,000-point row is still allowed in an ordinary file).
    env |= {"LEADERBOARD_MAX_JOB_POINTS": str(10**7), "LEADERBOARD_DAILY_POINTS": str(10**8)}
    hub = SlowHub()  # the scripted route's whoami: refusals at once, a hang for "slow" tokens
    env |= {"HF_ENDPOINT": hub.url, "TRUSTED_PROXIES": "1"}  # the viewers send no X-Forwarded-For: their peer counts
    app = App(home, REQUESTS_REPO="", RESULTS_REPO="", **env)
    result, stop, phases, attacks = Result(0), threading.Event(), [], []
    try:
        app.wait_page()
        app.wait_log("public datasets ready", timeout=600)
        if "explorer" in args.attacks:
            explorer = worst_case_submission(app.url, home, key, work, timeout_s=args.deadline_s)
        viewers = start_viewers(app.url, args.viewers, args.think_s, stop, result)
        stop.wait(args.warm_s)  # the viewers' first loads arrive together on a cold page: not counted
        plan: list[tuple[str, Callable[[float], Attack | None]]] = [
            ("idle", lambda until: _idle(stop, until)),
            ("ReDoS", lambda until: redos(app.url, small, until, args.pace_s)),
            ("60 MB checks", lambda until: big_checks(app.url, big, until)),
            ("explorer", lambda until: explorer_draws(app.url, *explorer, until)),
            ("fresh views", lambda until: fresh_views(app.url, until)),
            ("forged addresses", lambda until: forged_addresses(app.url, until)),
            ("stranger draws", lambda until: stranger_draws(app.url, until)),
            ("slow bodies", lambda until: slow_bodies(app.url, until)),
            ("slow Hub", lambda until: slow_hub(app.url, until)),
        ]
        with as_other_machines() as clients:  # the attackers' clients; the app and the viewers keep their priority
            print(f"  ({clients})")
            for name, attack in plan:
                if name not in ("idle", *args.attacks):
                    continue
                begin, cpu = time.monotonic(), cpu_s(app.process.pid)
                done = attack(begin + args.phase_s)
                end = time.monotonic()
                busy = (cpu_s(app.process.pid) - cpu) / (end - begin)  # the app's own threads, not its children
                phases.append((name, begin, end, rss_mb(app.process.pid) or 0.0, busy))
                if done is not None:
                    attacks.append(done)
                stop.wait(args.settle_s)  # what the attack left running (queued calls) ends before the next phase
        stop.set()
        for thread in viewers:
            thread.join(60)
    finally:
        stop.set()
        stop_app(app)
        hub.close()
    return result, phases, attacks


def _idle(stop: threading.Event, until: float) -> None:
    stop.wait(until - time.monotonic())


def report(result: Result, phases: list, attacks: list[Attack]) -> bool:
    """Print the figures; whether every attack kept the viewer's p50 and p95 within ``TARGET_RATIO`` of idle."""
    loads = {name: [b + p for s, b, p in result.page if begin <= s <= end] for name, begin, end, *_ in phases}
    idle50, idle95 = percentiles(loads["idle"])
    held = True
    print("a viewer's page (GET / and its files, from the browser's cache after a first visit), per phase:")
    for name, begin, end, rss, busy in phases:
        p50, p95 = percentiles(loads[name])
        ratio = f"{p50 / idle50:.2f}x / {p95 / idle95:.2f}x idle (p50 / p95)" if name != "idle" else "the reference"
        print(f"  {name:13} {spread(loads[name])}  {ratio}")
        print(f"  {'':13} {end - begin:.0f} s; the app used {busy:.2f} CPU s a second; its RSS at the end {rss:.0f} MB")
        held = held and (name == "idle" or (p50 <= TARGET_RATIO * idle50 and p95 <= TARGET_RATIO * idle95))
    print(f"  target: every attack's p50 and p95 <= {TARGET_RATIO}x idle: {'held' if held else 'NOT held'}")
    print("what the attacks got:")
    for attack in attacks:
        outcomes = ", ".join(f"{n} x {o!r}" for o, n in sorted(attack.outcomes.items(), key=lambda x: -x[1]))
        print(f"  {attack.name}: {len(attack.calls)} calls, {spread(attack.calls)}")
        print(f"    {outcomes}")
    print(f"viewer errors: {len(result.errors)} {result.errors[:3]}")
    return held


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--viewers", type=int, default=5)
    parser.add_argument("--think-s", type=float, default=1.0, help="a viewer's pause between page loads (default 1)")
    parser.add_argument("--phase-s", type=float, default=60.0, help="how long each phase lasts (default 60)")
    parser.add_argument("--attacks", nargs="*", default=ATTACKS, choices=ATTACKS, help="the attacks to run (all)")
    parser.add_argument("--pace-s", type=float, default=0.25, help="a ReDoS caller's pause between calls")
    parser.add_argument("--warm-s", type=float, default=10.0, help="viewers' first loads, not counted (default 10)")
    parser.add_argument("--settle-s", type=float, default=5.0, help="pause between phases (default 5)")
    parser.add_argument("--deadline-s", type=float, default=900.0, help="longest wait for the worst-case scoring")
    parser.add_argument("--samples", type=int, default=50, help="scenes of the synthetic dataset (default 50)")
    parser.add_argument("--size", default="1440x1080", help="its image size (default 1440x1080, the real one)")
    parser.add_argument("--data", type=Path, default=Path.home() / ".cache" / "navitrace-bench")
    args = parser.parse_args()
    private, public = _scoring_dataset(args.data, args.samples, args.size)
    print(f"machine: {os.cpu_count()} cores, load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} (at start)")
    print(f"{args.viewers} viewers, {args.phase_s:g} s a phase; {args.samples} scenes at {args.size}")
    result, phases, attacks = run(private, public, args)
    print(f"machine: load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} (at the end)")
    if not report(result, phases, attacks) or result.errors:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
