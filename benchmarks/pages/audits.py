"""Lighthouse (its scores and CLS, LCP, TBT) and axe-core (violations by impact), from this folder's npm lock.

Lighthouse is pinned to 12.2.3: 13 wants Node 22 and Debian's node is 20. It runs offline as it is: its default
simulated throttling needs no network, and on this machine's Chromium 150 only a few diagnostics that carry no
weight in any score fail (``layout-shifts``, ``largest-contentful-paint-element``, ``render-blocking-resources``:
"Cannot read properties of undefined (reading 'frame_sequence')"); their messages are kept in ``errors``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
MODULES = HERE / "node_modules"
AXE = MODULES / "axe-core" / "axe.min.js"
LIGHTHOUSE = MODULES / "lighthouse" / "cli" / "index.js"
CATEGORIES = ("performance", "accessibility", "best-practices")
IMPACTS = ("critical", "serious", "moderate", "minor")
CHROME_FLAGS = "--headless --no-sandbox --disable-gpu"
LIGHTHOUSE_TIMEOUT_S = 300


@dataclass(frozen=True)
class LighthouseRun:
    page: str
    preset: str  # "desktop" (--preset=desktop) or "mobile" (Lighthouse's default)
    scores: dict[str, int | None]  # category -> 0..100, higher is better
    cls: float | None  # cumulative layout shift, lower is better
    lcp_ms: float | None  # largest contentful paint (simulated throttling)
    tbt_ms: float | None  # total blocking time
    script_boot_ms: float | None  # "bootup-time": script evaluation and parsing
    bytes: float | None  # "total-byte-weight": transferred bytes
    failed: list[str] = field(default_factory=list)  # audits that weigh in a score and did not pass
    errors: list[str] = field(default_factory=list)  # the run's error, or audits that could not run


@dataclass(frozen=True)
class AxeRun:
    page: str
    url: str
    rules: dict[str, int]  # impact -> violated rules
    nodes: dict[str, int]  # impact -> elements in violation
    violations: list[dict[str, object]]  # id, impact, nodes (how many), help, targets (the first three)


def install() -> None:
    """``npm ci`` in this folder, once; exits with npm's message when it cannot."""
    if AXE.is_file() and LIGHTHOUSE.is_file():
        return
    npm = shutil.which("npm")
    if npm is None:
        raise SystemExit("Lighthouse and axe-core need node and npm (apt-get install -y nodejs npm)")
    done = subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=HERE, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise SystemExit(f"`npm ci` in {HERE} failed ({done.returncode}): {(done.stderr or done.stdout)[-1500:]}")


def lighthouse(page: str, url: str, preset: str, out: Path, chromium: Path) -> LighthouseRun:
    """One Lighthouse run (a fresh Chromium profile: a cold first visit): performance, accessibility, best practices."""
    command = [
        "node",
        str(LIGHTHOUSE),
        url,
        "--output=json",
        f"--output-path={out}",
        f"--only-categories={','.join(CATEGORIES)}",
        f"--chrome-flags={CHROME_FLAGS}",
        "--quiet",
        *(["--preset=desktop"] if preset == "desktop" else []),
    ]
    env = {**os.environ, "CHROME_PATH": str(chromium)}
    try:
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=LIGHTHOUSE_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return LighthouseRun(page, preset, {}, None, None, None, None, None, errors=["timed out"])
    if done.returncode != 0 or not out.is_file():
        return LighthouseRun(page, preset, {}, None, None, None, None, None, errors=[done.stderr[-800:]])
    return read_report(page, preset, json.loads(out.read_text()))


def read_report(page: str, preset: str, report: dict) -> LighthouseRun:
    audits, categories = report["audits"], report["categories"]

    def number(audit: str) -> float | None:
        return audits.get(audit, {}).get("numericValue")

    scores = {c: None if categories[c]["score"] is None else round(100 * categories[c]["score"]) for c in CATEGORIES}
    failed = sorted(
        {
            ref["id"]
            for c in CATEGORIES
            for ref in categories[c]["auditRefs"]
            if ref["weight"] > 0 and (audits[ref["id"]].get("score") is not None) and audits[ref["id"]]["score"] < 1
        }
    )
    errors = [f"{k}: {a['errorMessage']}" for k, a in audits.items() if a.get("errorMessage")]
    if report.get("runtimeError"):
        errors.insert(0, f"runtime: {report['runtimeError'].get('message')}")
    return LighthouseRun(
        page,
        preset,
        scores,
        cls=number("cumulative-layout-shift"),
        lcp_ms=number("largest-contentful-paint"),
        tbt_ms=number("total-blocking-time"),
        script_boot_ms=number("bootup-time"),
        bytes=number("total-byte-weight"),
        failed=failed,
        errors=errors,
    )


AXE_RUN_JS = """async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.map(v => ({
    id: v.id, impact: v.impact, nodes: v.nodes.length, help: v.help,
    targets: v.nodes.slice(0, 3).map(n => n.target.join(' ')),
  }));
}"""


def axe(page_name: str, page) -> AxeRun:
    """axe-core's default rules on the open Playwright ``page`` (its context made with ``bypass_csp=True``)."""
    page.add_script_tag(path=str(AXE))
    violations = page.evaluate(AXE_RUN_JS)
    rules = {i: sum(v["impact"] == i for v in violations) for i in IMPACTS}
    nodes = {i: sum(v["nodes"] for v in violations if v["impact"] == i) for i in IMPACTS}
    return AxeRun(page_name, page.url, rules, nodes, violations)
