"""What one process of the benchmarked app uses, read from ``/proc`` (Linux): memory, CPU time, children."""

from __future__ import annotations

import os
from pathlib import Path


def rss_mb(pid: int) -> float | None:
    """Resident memory of one process, from ``/proc`` (``None`` once it is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def cpu_s(pid: int) -> float:
    """CPU seconds one process has used so far, its own threads only (not its children), from ``/proc``."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def children(pid: int) -> list[int]:
    """Direct children of ``pid`` (the app's scoring process)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found
