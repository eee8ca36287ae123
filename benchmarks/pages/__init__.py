"""Helpers of ``benchmarks/bench_pages.py``: the seeded store, the browser measurements, Lighthouse and axe-core.

``package.json`` and ``package-lock.json`` pin the npm tools; ``npm ci`` installs them into ``node_modules`` here
on first use (ignored by git).
"""
