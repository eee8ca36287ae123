"""Several worker processes with separate disks on one Hub: each job scored exactly once, every transition kept.

Before the fix two ``work --once`` processes scored 1-2 of 8 jobs twice (a claim re-based blindly
over another worker's claim after a 412). Here ``workers`` processes of ``python -m leaderboard
work`` drain one queue on the local Hub while faults are drawn for their requests; the Hub's own
history is then read back: one ``finished`` audit entry per job, the scorer's numbers, no FINISHED
turned back into RUNNING, nothing acknowledged lost. The figures go to docs/RELIABILITY.md:

    .venv/bin/python -m pytest tests/hub/test_workers_http.py -s          # figures printed
    .venv/bin/python benchmarks/bench_workers.py                          # 200 jobs: the benchmark
"""

from __future__ import annotations

from pathlib import Path

import pytest

from scoring import load_answer_key
from tests.hub.conftest import BOSS_TOKEN
from tests.hub.server import LocalHub
from tests.hub.service_on_hub import ANSWER_KEY, seed_datasets
from tests.hub.workers import run_workers


@pytest.fixture
def deployed(hub: LocalHub, demo_dataset: Path, demo_public: Path) -> LocalHub:
    seed_datasets(hub, demo_dataset, demo_public)
    return hub


@pytest.fixture
def keys(deployed: LocalHub, tmp_path: Path) -> dict:
    return {s: load_answer_key(ANSWER_KEY, s, tmp_path / "test-keys", token=BOSS_TOKEN) for s in ("test", "validation")}


def report(name: str, figures: dict, capsys) -> None:
    with capsys.disabled():
        print(f"\n{name}: " + "; ".join(f"{k} {v}" for k, v in figures.items()))


def test_two_workers_on_one_hub_score_each_job_once(deployed, keys, tmp_path, capsys):
    figures = run_workers(deployed, keys, tmp_path, jobs=16, workers=2, fault_rate=0.0)
    report("2 workers, no faults", figures, capsys)
    assert figures["doubles"] == figures["lost"] == 0 and figures["claims"] == 16


@pytest.mark.slow
def test_three_workers_with_faults_and_a_killed_worker_score_each_job_once(deployed, keys, tmp_path, capsys):
    figures = run_workers(deployed, keys, tmp_path, jobs=30, workers=3, fault_rate=0.03, kill_one=True)
    report("3 workers, faults, one SIGKILLed", figures, capsys)
    assert figures["doubles"] == figures["lost"] == 0 and figures["faults"] > 0
