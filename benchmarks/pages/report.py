"""The compact tables ``bench_pages.py`` prints at the end, from its figures (the same dict it writes as JSON)."""

from __future__ import annotations

import math
import statistics

KB = 1024
IMPACTS = ("critical", "serious", "moderate", "minor")
RATIO_TARGET = 1.5


def p90(values: list[float]) -> float:
    """Nearest rank: the value at or below which 90% of ``values`` lie (of 7 values, the largest)."""
    ordered = sorted(values)
    return ordered[math.ceil(0.9 * len(ordered)) - 1]


def timing_rows(timing: list[dict]) -> list[dict]:
    """One row per (page, size, cache): app and static median and p90 (ms), and the ratio of the medians."""
    by_key = {(t["page"], t["size"], t["cache"], t["source"]): t["ms"] for t in timing}
    rows = []
    for page, size, cache in dict.fromkeys((t["page"], t["size"], t["cache"]) for t in timing):
        app, static = by_key[(page, size, cache, "app")], by_key[(page, size, cache, "static")]
        row = {"page": page, "size": size, "cache": cache, "n": len(app)}
        row |= {"app_median": statistics.median(app), "app_p90": p90(app)}
        row |= {"static_median": statistics.median(static), "static_p90": p90(static)}
        row["ratio"] = row["app_median"] / row["static_median"]
        rows.append(row)
    return rows


def print_timing(timing: list[dict]) -> None:
    rows = timing_rows(timing)
    if not rows:
        return
    n = rows[0]["n"]
    print(f"\nTime to the first screen (ms from navigation start; median / p90 of {n}); target app/static <= 1.5")
    print(f"  {'page':7} {'size':9} {'cache':5} {'app':>15} {'static':>15} {'app/static':>10}")
    for r in rows:
        app = f"{r['app_median']:7.0f} /{r['app_p90']:6.0f}"
        static = f"{r['static_median']:7.0f} /{r['static_p90']:6.0f}"
        mark = "" if r["ratio"] <= RATIO_TARGET else "  over"
        print(f"  {r['page']:7} {r['size']:9} {r['cache']:5} {app:>15} {static:>15} {r['ratio']:9.1f}x{mark}")


def print_transfer(t: dict) -> None:
    print("\nFirst visit to the board (1440x900, a fresh context); targets <= 100 KB in all, <= 20 KB of JavaScript")
    print(
        f"  {t['bytes'] / KB:8.1f} KB over the wire ({t['decoded_bytes'] / KB:.1f} KB decoded) in {t['requests']} "
        f"requests ({t['failed']} failed, {t['compressed']} compressed)"
    )
    js, decoded = t["js_bytes"] / KB, t["js_decoded_bytes"] / KB
    print(f"  JavaScript {js:8.1f} KB in {t['js_files']} files ({decoded:.1f} KB decoded)")
    print("  by type: " + ", ".join(f"{k} {v / KB:.1f} KB" for k, v in t["by_type"].items()))
    for url, size in t["largest"]:
        print(f"    {size / KB:8.1f} KB  {url[-90:]}")


def print_lighthouse(runs: list[dict]) -> None:
    print("\nLighthouse 12.2.3 (simulated throttling); targets performance, accessibility, best practices >= 95")
    heads = f"{'perf':>4} {'a11y':>4} {'bp':>4} {'CLS':>6} {'LCP ms':>7} {'TBT ms':>7} {'boot ms':>7}"
    print(f"  {'page':6} {'preset':7} {heads}")
    for r in runs:
        if not r["scores"]:
            print(f"  {r['page']:6} {r['preset']:7} did not run: {r['errors'][:1]}")
            continue
        s = r["scores"]
        print(
            f"  {r['page']:6} {r['preset']:7} {_n(s['performance']):>4} {_n(s['accessibility']):>4} "
            f"{_n(s['best-practices']):>4} {_n(r['cls'], '.3f'):>6} {_n(r['lcp_ms'], '.0f'):>7} "
            f"{_n(r['tbt_ms'], '.0f'):>7} {_n(r['script_boot_ms'], '.0f'):>7}"
        )
        if r["failed"]:
            print(f"         not passed: {', '.join(r['failed'])}")


def print_axe(runs: list[dict]) -> None:
    print("\naxe-core (default rules, 1440x900): violated rules (elements) by impact; target 0 critical, 0 serious")
    print(f"  {'page':8} {'critical':>9} {'serious':>9} {'moderate':>9} {'minor':>9}")
    for r in runs:
        cells = " ".join(f"{r['rules'][i]:>3} ({r['nodes'][i]:>3})" for i in IMPACTS)
        print(f"  {r['page']:8} {cells}")
        for v in r["violations"]:
            if v["impact"] in ("critical", "serious"):
                print(f"           {v['id']} ({v['impact']}, {v['nodes']}): {', '.join(v['targets'])}"[:160])


def print_all(figures: dict) -> None:
    print_timing(figures.get("timing", []))
    if "transfer" in figures:
        print_transfer(figures["transfer"])
    if figures.get("lighthouse"):
        print_lighthouse(figures["lighthouse"])
    if figures.get("axe"):
        print_axe(figures["axe"])


def _n(value: float | None, spec: str = "") -> str:
    return "—" if value is None else format(value, spec)
