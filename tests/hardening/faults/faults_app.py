"""The real app as a user meets it: started as ``python app.py`` (through the kill-point launcher),
signed in with the local sign-in, files uploaded through the Submit tab's HTTP API.

A submission counts as *acknowledged* only when the answer carries the receipt a person sees
("Submitted: …" or "You already sent this file …", with the id); a dropped connection, an
error event or a "Not submitted" note acknowledge nothing.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path

import httpx

from leaderboard.config import Settings
from tests.browser.conftest import MAINTAINER, ROOT, free_port

LAUNCHER = Path(__file__).with_name("faults_killpoints.py")
START_TIMEOUT_S = 90.0
RECEIPT_ID = re.compile(r"nt-id['\"]>([0-9a-f]{16})<")


@dataclass
class App:
    url: str
    process: subprocess.Popen
    log: Path

    def serving(self, timeout_s: float = START_TIMEOUT_S) -> bool:
        """True once the page is served; False when the process died first (a kill point at start-up)."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                return False
            try:
                if httpx.get(self.url + "/", timeout=2).status_code == 200:
                    return True
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise AssertionError(f"the app did not serve {self.url} within {timeout_s:.0f} s:\n{self.log_tail()}")

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self) -> int:
        """SIGTERM, as a Space restart does; the exit status."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()
        return self.process.returncode

    def log_tail(self, chars: int = 4000) -> str:
        return self.log.read_text("utf-8", errors="replace")[-chars:]


def app_environ(folder: Path, private: Path, public: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("SPACE_ID", "REQUESTS_REPO", "RESULTS_REPO", "HF_TOKEN")}
    env.update(
        LEADERBOARD_HOME=str(folder / "home"),
        ANSWER_KEY_DATASET=str(private),
        PUBLIC_DATASET=str(public),
        MAINTAINERS=MAINTAINER,
        GRADIO_SERVER_NAME="127.0.0.1",
        GRADIO_TEMP_DIR=str(folder / "gradio"),
        TMPDIR=str(folder / "tmp"),  # the app's scratch folder: a killed app leaves it behind, keep it here
        PYTHONUNBUFFERED="1",
        **extra,
    )
    return env


def start(environ: dict[str, str], log: Path, kill_at: str = "") -> App:
    """``python app.py`` on a free port, under the kill-point launcher (``kill_at`` empty: no kill point)."""
    port = free_port()
    Path(environ["TMPDIR"]).mkdir(parents=True, exist_ok=True)
    env = {**environ, "GRADIO_SERVER_PORT": str(port), "FAULTS_KILL_AT": kill_at, "FAULTS_KILL_LOG": f"{log}.kills"}
    with open(log, "ab") as out:
        process = subprocess.Popen(
            [sys.executable, str(LAUNCHER), "app.py"], cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT
        )
    return App(f"http://127.0.0.1:{port}", process, log)


class NotAcknowledged(Exception):
    """The app gave no receipt: the connection dropped, or it answered with an error."""


class Submitter:
    """One signed-in browser session of ``user``, talking to the Submit tab's API (the Gradio page at ``/submit``)."""

    def __init__(self, url: str, user: str, timeout_s: float = 30.0) -> None:
        # A browser names the page a request comes from; the app refuses signed-in changes that do not.
        self.client = httpx.Client(base_url=url, timeout=timeout_s, headers={"origin": url})
        try:
            answer = self.client.post("/local-auth/sign-in", data={"user": user}, headers={"origin": url})
        except httpx.HTTPError as error:
            self.client.close()
            raise NotAcknowledged(f"sign-in: {type(error).__name__}: {error}") from error
        if answer.status_code != 303:
            self.client.close()
            raise NotAcknowledged(f"sign-in answered {answer.status_code}")

    def close(self) -> None:
        self.client.close()

    def submit(self, path: Path, split: str, model: str, publish: bool) -> str:
        """The id on the receipt; ``NotAcknowledged`` otherwise."""
        try:
            uploaded = self.client.post("/submit/gradio_api/upload", files=[("files", (path.name, path.read_bytes()))])
            uploaded.raise_for_status()
            file = {"path": uploaded.json()[0], "orig_name": path.name, "meta": {"_type": "gradio.FileData"}}
            declared = ["none", "no", "", "1", False]  # the declarations: trained on, beyond inference, code, runs, Hub
            fields = [file, split, model, "", "", "", "someone@example.org", "", "", "", publish, *declared]
            call = self.client.post("/submit/gradio_api/call/submit", json={"data": fields})
            call.raise_for_status()
            stream = self.client.get(f"/submit/gradio_api/call/submit/{call.json()['event_id']}").text
        except (httpx.HTTPError, ValueError, KeyError) as error:
            raise NotAcknowledged(f"{type(error).__name__}: {error}") from error
        found = RECEIPT_ID.search(stream) if "event: complete" in stream else None
        if found is None:
            raise NotAcknowledged(" ".join(stream.split())[:300])
        return found.group(1)


def journal_leftovers(store_folder: Path) -> dict[str, int]:
    """What a killed writer left in a ``LocalStorage`` journal: committed entries, staging and retired folders."""
    journal = store_folder / ".store" / "journal"
    names = os.listdir(journal) if journal.is_dir() else []
    return {
        "committed": sum(not n.startswith(".") for n in names),
        "staging": sum(n.startswith(".tmp-") for n in names),
        "retired": sum(n.startswith(".done-") for n in names),
    }


def service_settings(home: Path, private: Path, public: Path, key_cache: Path, **extra: str) -> Settings:
    """The service's settings of an in-process deployment on ``home`` (``extra``: more variables)."""
    environ = {
        "LEADERBOARD_HOME": str(home),
        "ANSWER_KEY_DATASET": str(private),
        "PUBLIC_DATASET": str(public),
        "MAINTAINERS": MAINTAINER,
        **extra,
    }
    return replace(Settings.from_env(environ), answer_key_cache=key_cache)
