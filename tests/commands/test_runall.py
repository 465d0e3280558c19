"""Issue 14: `make run` is quiet, and SIGTERM stops the phase scheduler with the web server (none left running)."""

import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def test_runall_prints_no_scheduler_chatter_and_sigterm_stops_the_scheduler_too(tmp_path):
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'run.db'}", "PYTHONUNBUFFERED": "1"}
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    out = tmp_path / "out.txt"
    with out.open("w") as sink:
        run = subprocess.Popen(
            [sys.executable, "manage.py", "runall", f"127.0.0.1:{_free_port()}"],
            cwd=ROOT,
            env=env,
            stdout=sink,
            stderr=subprocess.STDOUT,
        )
        time.sleep(10)  # five of django-q2's 2-second rounds
        run.send_signal(signal.SIGTERM)
        assert run.wait(timeout=100) == 0
    text = out.read_text()
    cluster = int(re.search(r"进程 (\d+)", text).group(1))
    assert not _alive(cluster), text
    assert "阶段时钟已停止" in text
    assert not re.search(r"INFO|Process-|processing|Processed|Enqueued", text), text
