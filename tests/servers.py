"""Servers a test run starts for itself: a `redis-server` on a free port in its own directory, stopped by its pid.

A test touches only what it started (CONTRIBUTING.md "Rules for tests"): never the Redis at REDIS_URL. While the suite
runs, REDIS_URL itself points at one of these, the guard (tests/conftest.py): what a test writes there instead of
into a server of its own fails the run."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from pathlib import Path

# Commands that neither read nor write data: the guard's own checks and a client's hand-shake.
QUIET_COMMANDS = {"ping", "info", "hello", "client", "select", "command", "quit", "auth"}


def postgres_session(dbname: str, **options):
    """A psycopg session of its own on the run's PostgreSQL server (the host, port and user of DATABASES["default"]),
    on `dbname`: the test database, or the server's maintenance database `postgres` to create or drop a database the
    test made. Outside Django's connection: it may hold a lock while the test goes on."""
    import psycopg
    from django.db import connection

    s = connection.settings_dict
    return psycopg.connect(
        host=s["HOST"] or "127.0.0.1", port=s["PORT"] or 5432, user=s["USER"], password=s["PASSWORD"], dbname=dbname,
        **options,
    )  # fmt: skip


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


def postgres_binaries() -> Path | None:
    """The directory holding `initdb`, `postgres` and `pg_ctl` (on PATH, else Debian's /usr/lib/postgresql/N/bin,
    the newest), or None when PostgreSQL's server programs are not installed."""
    import shutil

    found = shutil.which("initdb")
    candidates = [Path(found).resolve().parent] if found else []
    candidates += sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: p.parent.name, reverse=True)
    for directory in candidates:
        if all((directory / name).exists() for name in ("initdb", "postgres", "pg_ctl")):
            return directory
    return None


def postgres_unavailable() -> str | None:
    """Why a PostgreSQL cluster of our own cannot be started here, or None when it can."""
    if postgres_binaries() is None:
        return "需要 PostgreSQL 的服务器程序 initdb/postgres(测试自己 initdb 一个集群):apt-get install postgresql"
    if os.geteuid() == 0:
        import pwd

        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "以 root 运行时需要 postgres 账户来运行 PostgreSQL(它拒绝以 root 运行):apt-get install postgresql"
    return None


class PostgresServer:
    """A PostgreSQL cluster of a test's (or a benchmark's) own: `initdb` into a new temporary directory, the postmaster
    on 127.0.0.1 and a free port, trust authentication, its socket in that directory — never the PostgreSQL at
    DATABASE_URL. `kill` SIGKILLs the postmaster, then every other process of this cluster (each found by its working
    directory, which PostgreSQL sets to its data directory: never a process of another cluster); `start` brings it
    back on the same port (crash recovery). `destroy` stops it and removes the directory.

    PostgreSQL refuses to run as root: when this process is root the cluster runs as the `postgres` account (its
    directory is given to it). fsync is off: a process killed loses nothing the kernel holds, and only processes are
    killed here, never the machine."""

    def __init__(self, port: int | None = None, dbname: str = "direnjie_faults"):
        import tempfile

        found = postgres_binaries()
        assert found is not None, "PostgreSQL's server programs (initdb, postgres) are not installed"
        self.bin: Path = found
        self.port = port or free_port()
        self.dbname = dbname
        self.dir = Path(tempfile.mkdtemp(prefix="pg-own-"))
        self.data = self.dir / "data"
        self.proc: subprocess.Popen | None = None
        self.user: dict = {}
        if os.geteuid() == 0:
            import pwd

            account = pwd.getpwnam("postgres")  # KeyError: no account to run it as
            self.user = {"user": account.pw_uid, "group": account.pw_gid, "extra_groups": []}
            os.chown(self.dir, account.pw_uid, account.pw_gid)

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{self.dbname}"

    def settings(self) -> dict:
        """The parts of a Django DATABASES entry that point at this cluster's database."""
        return {"NAME": self.dbname, "USER": "postgres", "PASSWORD": "", "HOST": "127.0.0.1", "PORT": str(self.port)}

    def _run(self, *cmd: str) -> None:
        run = subprocess.run(
            list(cmd),
            cwd=self.dir,
            capture_output=True,
            text=True,
            env={**os.environ, "LC_ALL": "C.UTF-8"},
            **self.user,
        )
        assert run.returncode == 0, f"{' '.join(cmd)}: {run.stdout}{run.stderr}"

    def init(self) -> None:
        """initdb, start, and create the (empty) database."""
        self._run(str(self.bin / "initdb"), "-D", str(self.data), "-U", "postgres", "-A", "trust", "-E", "UTF8")
        self.start()
        import psycopg

        with psycopg.connect(self._dsn("postgres"), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{self.dbname}"')

    def _dsn(self, dbname: str | None = None) -> str:
        return f"host=127.0.0.1 port={self.port} user=postgres dbname={dbname or self.dbname} connect_timeout=2"

    def start(self, timeout: float = 60) -> None:
        cmd = [str(self.bin / "postgres"), "-D", str(self.data), "-p", str(self.port), "-k", str(self.dir)]
        cmd += ["-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "max_connections=60"]
        cmd += ["-c", "shared_buffers=32MB", "-c", "autovacuum=off", "-c", "log_min_messages=warning"]
        log = open(self.dir / "postgres.log", "a")
        self.proc = subprocess.Popen(
            cmd, cwd=self.dir, stdout=log, stderr=subprocess.STDOUT, start_new_session=True, **self.user
        )
        log.close()
        deadline = time.monotonic() + timeout
        while not self.up("postgres"):
            assert self.proc.poll() is None, f"postgres exited:\n{self.log()}"
            assert time.monotonic() < deadline, f"postgres did not start on port {self.port}:\n{self.log()}"
            time.sleep(0.1)

    def up(self, dbname: str | None = None) -> bool:
        import psycopg

        try:
            with psycopg.connect(self._dsn(dbname)) as conn:
                conn.execute("SELECT 1")
            return True
        except psycopg.Error:
            return False

    def log(self) -> str:
        path = self.dir / "postgres.log"
        return path.read_text(errors="replace")[-4000:] if path.exists() else ""

    def pids(self) -> list[int]:
        """Every process of this cluster: the postmaster and each backend and auxiliary process (their working
        directory is this cluster's data directory)."""
        mine = []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    if Path(os.readlink(entry / "cwd")) == self.data:
                        mine.append(int(entry.name))
                except OSError:  # gone meanwhile, or not ours to read
                    pass
        return mine

    def kill(self) -> None:
        """SIGKILL the postmaster, then every process of the cluster that is left: nothing gets to clean up."""
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)
        deadline = time.monotonic() + 10
        while pids := self.pids():
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            assert time.monotonic() < deadline, f"processes of the cluster survived SIGKILL: {pids}"
            time.sleep(0.05)
        self.proc = None

    def stop(self) -> None:
        """A fast shutdown (SIGINT), SIGKILL if it does not end."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.kill()
        self.proc = None

    def destroy(self) -> None:
        import shutil

        self.stop()
        if self.pids():
            self.kill()
        shutil.rmtree(self.dir, ignore_errors=True)


class WebServer:
    """The project served as in production — the Procfile's `gunicorn moderator.wsgi` (a master and its workers) — on
    127.0.0.1 and a free port (or the one given), in its own session, with the environment given (its database, its
    key). `kill` SIGKILLs the master and every worker at once (nothing gets to finish a request or clean up);
    `start` serves again on the same port, new processes."""

    def __init__(self, log: Path, env: dict[str, str], port: int | None = None, workers: int = 2):
        import sys

        self.log, self.env, self.workers = log, env, workers
        self.port = port or free_port()
        self.gunicorn = str(Path(sys.executable).with_name("gunicorn"))
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60) -> None:
        cmd = [self.gunicorn, "moderator.wsgi", "--bind", f"127.0.0.1:{self.port}", "--workers", str(self.workers)]
        cmd += ["--access-logfile", "-"]
        with self.log.open("a") as log:
            self.proc = subprocess.Popen(
                cmd,
                cwd=Path(__file__).resolve().parents[1],
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + timeout
        while not self.up():
            assert self.proc.poll() is None, f"gunicorn exited:\n{self.output()}"
            assert time.monotonic() < deadline, f"gunicorn did not answer on port {self.port}:\n{self.output()}"
            time.sleep(0.1)

    def up(self) -> bool:
        """A worker answers (any HTTP status: /healthz also judges the clock, which is not this server's)."""
        import http.client

        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
        try:
            conn.request("GET", "/healthz")
            conn.getresponse().read()
            return True
        except OSError:
            return False
        finally:
            conn.close()

    def output(self) -> str:
        return self.log.read_text(errors="replace")[-4000:] if self.log.exists() else ""

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)
        self.proc = None

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.kill()
        self.proc = None
