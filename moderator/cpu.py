"""CPU time of a process on this machine, from /proc (the benchmarks: `manage.py bench_clock`, `python -m bench.pages`).
No Django: the page bench imports it before settings exist."""

from __future__ import annotations

import os

TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User + system CPU of one process so far (0 if it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICK
