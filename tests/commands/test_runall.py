"""`make run` is quiet, and SIGTERM stops the phase scheduler with the web server (none left running)."""

import os
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def _migrated(tmp_path_factory) -> Path:
    """An SQLite database migrated once (`manage.py migrate`, as `make run` does) for the module's tests."""
    db = tmp_path_factory.mktemp("runall") / "migrated.db"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{db}"}
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    return db


@pytest.fixture
def run_db(_migrated, tmp_path) -> Path:
    """This test's own copy of the migrated database."""
    return Path(shutil.copy(_migrated, tmp_path / "run.db"))


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


def _wait_for(condition, run: subprocess.Popen, what: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert run.poll() is None, "runall stopped by itself"
        if condition():
            return
        time.sleep(0.2)
    raise AssertionError(f"{what}: not within {timeout} s")


def _answers(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def _swept(db: Path) -> bool:
    with sqlite3.connect(db) as con:
        return bool(
            con.execute("select count(*) from django_q_task where func = 'moderator.tasks.sweep_q'").fetchone()[0]
        )


def test_runall_prints_no_scheduler_chatter_and_sigterm_stops_the_scheduler_too(tmp_path, run_db):
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{run_db}", "PYTHONUNBUFFERED": "1"}
    out = tmp_path / "out.txt"
    with out.open("w") as sink:
        port = _free_port()
        run = subprocess.Popen(
            [sys.executable, "manage.py", "runall", f"127.0.0.1:{port}"],
            cwd=ROOT,
            env=env,
            stdout=sink,
            stderr=subprocess.STDOUT,
        )
        _wait_for(lambda: _answers(port), run, "the web server answers")
        # A sweep queued now (the schedule's own first run is 30 s away) is pulled, run and saved by the scheduler:
        # every kind of its chatter has had its turn once the task is saved.
        queue = "from django_q.tasks import async_task; async_task('moderator.tasks.sweep_q')"
        subprocess.run([sys.executable, "manage.py", "shell", "-c", queue], cwd=ROOT, env=env, check=True)
        _wait_for(lambda: _swept(run_db), run, "the queued sweep ran")
        run.send_signal(signal.SIGTERM)
        assert run.wait(timeout=100) == 0
    text = out.read_text()
    cluster = int(re.search(r"进程 (\d+)", text).group(1))
    assert not _alive(cluster), text
    assert "阶段时钟已停止" in text
    assert not _answers(port), "the web server (the reloader's child) is still serving"
    assert not re.search(r"django[-_]q|Q Cluster|Process-|processing|Processed|Enqueued", text), (
        text
    )  # no scheduler chatter


def test_runall_reloads_the_web_server_when_a_python_file_changes_and_keeps_one_scheduler(tmp_path, run_db):
    app = tmp_path / "reload_probe"
    app.mkdir()
    (app / "__init__.py").write_text("VERSION = 1\n")
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{run_db}",
        "PYTHONUNBUFFERED": "1",
        "PYTHONPATH": str(tmp_path),
        "EXTRA_APPS": "reload_probe",  # a module the server has loaded, so the reloader watches it (no models)
    }
    out = tmp_path / "out.txt"
    port = _free_port()
    with out.open("w") as sink:
        run = subprocess.Popen(
            [sys.executable, "manage.py", "runall"],
            cwd=ROOT,
            env={**env, "PORT": str(port)},  # the address comes from PORT
            stdout=sink,
            stderr=subprocess.STDOUT,
        )
        try:
            _wait_for(lambda: _answers(port), run, "the web server answers on PORT")
            time.sleep(1.5)  # the stat reloader notes each file's time once a second
            (app / "__init__.py").write_text("VERSION = 2\n")
            _wait_for(lambda: "changed, reloading" in out.read_text(), run, "the reloader saw the edit")
            _wait_for(lambda: _answers(port), run, "the reloaded web server answers")
        finally:
            run.send_signal(signal.SIGTERM)
            assert run.wait(timeout=100) == 0
    text = out.read_text()
    assert text.count("阶段时钟已启动") == 1, text  # the scheduler was not started again by the reload
    assert not _answers(port)
