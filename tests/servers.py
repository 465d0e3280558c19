"""Servers a test run starts for itself: a `redis-server` on a free port in its own directory, stopped by its pid.

A test touches only what it started (CONTRIBUTING.md "Rules for tests"): never the Redis at REDIS_URL. While the suite
runs, REDIS_URL itself points at one of these, the guard (tests/conftest.py): what a test writes there instead of
into a server of its own fails the run."""

from __future__ import annotations

import socket
import subprocess
import time
from pathlib import Path

# Commands that neither read nor write data: the guard's own checks and a client's hand-shake.
QUIET_COMMANDS = {"ping", "info", "hello", "client", "select", "command", "quit", "auth"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class RedisServer:
    """A `redis-server` of this test run's own: 127.0.0.1, a free port (or the one given), its own directory, nothing
    saved to disk. `stop` ends that process (by its pid) and `start` brings it back on the same port, empty — a
    flushed broker."""

    def __init__(self, directory: Path, port: int | None = None):
        self.dir = directory
        self.port = port or free_port()
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def client(self, db: int = 0):
        import redis

        return redis.Redis(host="127.0.0.1", port=self.port, db=db, socket_connect_timeout=0.5, socket_timeout=0.5)

    def start(self) -> None:
        if self.up():
            return
        self.dir.mkdir(parents=True, exist_ok=True)
        cmd = ["redis-server", "--bind", "127.0.0.1", "--port", str(self.port), "--save", "", "--appendonly", "no"]
        cmd += ["--dir", str(self.dir), "--logfile", str(self.dir / "redis.log")]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 10
        while not self.up():
            assert time.monotonic() < deadline, f"redis-server did not start on port {self.port}"
            time.sleep(0.05)

    def up(self) -> bool:
        import redis

        try:
            return bool(self.client().ping())
        except redis.RedisError:
            return False

    def touched(self) -> list[str]:
        """What clients did here besides saying hello: every key in every database, and every other command run."""
        info = self.client().info("everything")
        found = []
        for name in sorted(k for k in info if k.startswith("db") and k[2:].isdigit()):
            keys = sorted(k.decode(errors="replace") for k in self.client(int(name[2:])).scan_iter(count=100))
            found.append(f"{name}: {len(keys)} keys {keys[:20]}")
        commands = {k.removeprefix("cmdstat_"): v["calls"] for k, v in info.items() if k.startswith("cmdstat_")}
        ran = {c: n for c, n in commands.items() if c.split("|")[0] not in QUIET_COMMANDS}
        if ran:
            found.append(f"commands: {ran}")
        return found

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self.proc = None
