"""The Docker image's steps, run without Docker: a fresh virtual environment, the Dockerfile's commands.

Docker cannot run on the development machine, so this test reads the Dockerfile and does what it
says in a temporary folder: the requirements installed into a new environment before the code is
copied (honouring ``.dockerignore``), the Dockerfile's ``ENV`` (``HOME`` and ``LEADERBOARD_HOME``
moved into the temporary folder, a free port), then its ``CMD``, ``python app.py``, on the embedded
default; the page must be served and the first-start data generated. One difference: pip's
download cache is kept between runs (the image uses ``--no-cache-dir``), which changes nothing
that gets installed.
"""

from __future__ import annotations

import fnmatch
import json
import os
import re
import shutil
import subprocess
import time
import venv
from pathlib import Path

import httpx
import pytest

from tests.browser.conftest import free_port

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


def dockerfile() -> dict[str, object]:
    """The parts of the Dockerfile this test replays (and the Spaces conventions it must follow)."""
    text = (ROOT / "Dockerfile").read_text("utf-8")
    lines = [line.strip() for line in text.replace("\\\n", " ").splitlines() if line.strip() and line[0] != "#"]
    env: dict[str, str] = {}
    for line in lines:
        if line.startswith("ENV "):
            env.update(dict(re.findall(r"(\w+)=(\S+)", line[4:])))
    runs = [line[4:] for line in lines if line.startswith("RUN ")]
    copies = [line for line in lines if line.startswith("COPY ")]
    cmd = json.loads(next(line[4:] for line in lines if line.startswith("CMD ")))
    return {"lines": lines, "env": env, "runs": runs, "copies": copies, "cmd": cmd}


def test_the_dockerfile_follows_the_spaces_conventions():
    spec = dockerfile()
    lines = spec["lines"]
    assert any(re.search(r"useradd .*-u 1000 user", line) for line in lines) and "USER user" in lines
    assert spec["env"]["HOME"] == "/home/user" and spec["env"]["GRADIO_SERVER_PORT"] == "7860"
    assert "EXPOSE 7860" in lines and spec["cmd"] == ["python", "app.py"]
    copies = spec["copies"]
    assert "requirements.txt" in copies[0] and copies[-1].endswith(". .")  # requirements before the code
    assert any("pip install" in run and "-r requirements.txt" in run for run in spec["runs"])


def ignored(relative: str, patterns: list[str]) -> bool:
    """``.dockerignore`` semantics for the patterns this repository uses (folders, ``**/`` prefixes)."""
    for pattern in patterns:
        pattern = pattern.rstrip("/")
        bare = pattern.removeprefix("**/")
        parts = relative.split("/")
        if fnmatch.fnmatch(relative, pattern) or any(
            fnmatch.fnmatch("/".join(parts[: i + 1]), pattern) for i in range(len(parts))
        ):
            return True
        if pattern.startswith("**/") and any(fnmatch.fnmatch(part, bare) for part in parts):
            return True
    return False


def copy_context(target: Path) -> None:
    """``COPY . .``: the build context without what ``.dockerignore`` leaves out."""
    patterns = [p.strip() for p in (ROOT / ".dockerignore").read_text().splitlines() if p.strip() and p[0] != "#"]
    for folder, subfolders, names in os.walk(ROOT):
        base = Path(folder).relative_to(ROOT).as_posix()
        base = "" if base == "." else base
        subfolders[:] = [d for d in subfolders if not ignored(f"{base}/{d}".lstrip("/"), patterns)]
        for name in names:
            relative = f"{base}/{name}".lstrip("/")
            if not ignored(relative, patterns):
                (target / relative).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(ROOT / relative, target / relative)


def test_the_image_steps_in_a_fresh_environment_serve_the_page(tmp_path):
    spec = dockerfile()
    home, app_dir = tmp_path / "home" / "user", tmp_path / "home" / "user" / "app"
    app_dir.mkdir(parents=True)
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = env_dir / "bin" / "python"
    shutil.copy2(ROOT / "requirements.txt", app_dir / "requirements.txt")  # COPY requirements.txt .
    install = subprocess.run(  # RUN pip install --no-cache-dir --user -r requirements.txt (in the venv)
        [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", "-r", "requirements.txt"],
        cwd=app_dir, capture_output=True, text=True, timeout=1800,
    )  # fmt: skip
    assert install.returncode == 0, install.stdout[-3000:] + install.stderr[-3000:]
    copy_context(app_dir)  # COPY . .
    assert not (app_dir / ".venv").exists() and (app_dir / "app.py").is_file()

    port = free_port()
    env = dict(spec["env"])  # ENV ..., with the image's paths moved into the temporary folder
    env["PATH"] = (
        env.get("PATH", "$PATH").replace("/home/user", str(home)).replace("$PATH", f"{env_dir / 'bin'}:/usr/bin:/bin")
    )
    env.update(
        HOME=str(home),
        LEADERBOARD_HOME=str(home / "leaderboard"),
        NAVITRACE_CACHE=str(home / ".cache" / "navitrace"),
        GRADIO_SERVER_PORT=str(port),
        GRADIO_TEMP_DIR=str(tmp_path / "gradio"),
    )
    log = tmp_path / "app.log"
    with open(log, "wb") as out:
        server = subprocess.Popen(
            ["python", *spec["cmd"][1:]], cwd=app_dir, env=env, stdout=out, stderr=subprocess.STDOUT
        )
    try:
        page = _wait(lambda: httpx.get(f"http://127.0.0.1:{port}/", timeout=5), server, log, 120)
        assert page.status_code == 200 and "NaviTrace Leaderboard" in page.text
        _wait(lambda: "public datasets ready" in log.read_text(), server, log, 300)  # first-start data made
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert "Traceback" not in log.read_text(), log.read_text()[-4000:]


def _wait(probe, server: subprocess.Popen, log: Path, timeout_s: float):
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if server.poll() is not None:
            pytest.fail(f"python app.py exited with {server.returncode}:\n{log.read_text()[-4000:]}")
        try:
            result = probe()
            if result:
                return result
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    pytest.fail(f"timed out after {timeout_s:.0f} s:\n{log.read_text()[-4000:]}")
