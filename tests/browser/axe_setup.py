"""axe-core for the browser tests: installed on first use (``npm ci`` in ``benchmarks/pages``), as the Space
sign-in tests install their OpenID provider; in CI a missing install fails rather than skips."""

from __future__ import annotations

import shutil
import subprocess

from benchmarks.pages.audits import AXE
from tests.browser.space_mode import missing


def axe_ready() -> None:
    if AXE.is_file():
        return
    npm = shutil.which("npm")
    if not npm:
        missing("npm is needed to install axe-core for the accessibility tests")
        return
    folder = AXE.parents[2]  # benchmarks/pages
    done = subprocess.run(
        [npm, "ci", "--no-audit", "--no-fund"], cwd=folder, capture_output=True, text=True, timeout=900
    )
    if done.returncode != 0 or not AXE.is_file():
        missing(f"`npm ci` in {folder} failed ({done.returncode}): {(done.stderr or done.stdout)[-1500:]}")
