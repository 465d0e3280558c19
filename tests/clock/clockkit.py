"""Phase-clock test kit: a running game whose phase ends when a test says, what "closed once" means, a real Celery
worker (a subprocess on the test database and the test run's own Redis), and that Redis.

A test touches only what it started: the broker is a `redis-server` this run starts on a free port in a temporary
directory (`tests.servers.RedisServer`, stopped at the end of the run), never the developer's Redis at REDIS_URL; the workers'
database sessions are gone before the test database is dropped."""

from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import sys
import time
import uuid
from datetime import timedelta
from pathlib import Path

import psycopg
from django.conf import settings
from django.db import connection
from kombu import Connection

from cards.catalogue import DEFAULT_CAMPS, DEFAULT_HAND_SIZE, standard_deck
from cards.dealing import deal
from moderator import tasks
from moderator.models import AuditLog, Game, Phase
from moderator.services import clock, setup
from tests.servers import RedisServer, postgres_session
from tests.world import CAST

PLAYERS = CAST  # the seven names of the demo and the benchmarks
SWEEP_SECONDS = 1.0  # the test workers' beat interval


REDIS: RedisServer | None = None  # set by the `own_redis` fixture (conftest.py) for the whole run


def broker_url() -> str:
    """The test workers' broker: this run's own redis-server."""
    assert REDIS is not None, "the own_redis fixture starts the test run's redis-server"
    return REDIS.url


def running_game(*, ends_in: float, kind: str = "night", number: int = 1, seed: int = 1) -> Phase:
    """A seven-seat table, running, whose open phase ends `ends_in` seconds from the database's now."""
    hands = deal(list(DEFAULT_CAMPS), standard_deck(), DEFAULT_HAND_SIZE, seed).hands
    players = [{"name": n, "camp": c, "hand": list(h)} for n, c, h in zip(PLAYERS, DEFAULT_CAMPS, hands, strict=True)]
    game = setup.table_create(name=f"clock-{uuid.uuid4().hex[:8]}", players=players, start=(kind, number))
    now = clock.db_now()
    ends_at = now + timedelta(seconds=ends_in)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.RUNNING, started_at=now)
    return Phase.objects.create(
        game=game, kind=kind, number=number, starts_at=ends_at - timedelta(hours=1), ends_at=ends_at
    )


def closes_of(phase: Phase) -> int:
    """How many times this phase was closed: one `phase_close` log row per successful close."""
    return AuditLog.objects.filter(game_id=phase.game_id, action="phase_close").count()


def assert_closed_once(phase: Phase) -> None:
    """T1: closed, logged once, one next phase, every announcement draft written once."""
    phase.refresh_from_db()
    assert phase.status == Phase.Status.CLOSED
    assert closes_of(phase) == 1
    assert Phase.objects.filter(game_id=phase.game_id).count() == 2
    # by kind, recipient and title: a pause and a resume each draft their own public notice (T4) beside the close's
    drafts = list(phase.announcements.values_list("kind", "recipient", "title"))
    assert drafts and len(drafts) == len(set(drafts))


def publish_close(phase_id: int) -> None:
    """close_phase on the test workers' broker."""
    with Connection(broker_url()) as conn:
        tasks.close_phase.apply_async((phase_id,), connection=conn)


def publish_batch(phase_ids: list[int]) -> None:
    """close_phases (one batch, one transaction) on the test workers' broker."""
    with Connection(broker_url()) as conn:
        tasks.close_phases.apply_async((phase_ids,), connection=conn)


def publish_sweep() -> str:
    """One sweep_phases on the test workers' broker (the `clock` queue, as beat sends it); returns its task id."""
    task_id = str(uuid.uuid4())
    with Connection(broker_url()) as conn:
        tasks.sweep_phases.apply_async(connection=conn, task_id=task_id)
    return task_id


def queued() -> int:
    """Messages still waiting in the test broker's queues (not yet handed to a worker)."""
    import redis

    r = redis.Redis.from_url(broker_url())
    return r.llen("celery") + r.llen("clock")


def wait_for(predicate, timeout: float, every: float = 0.05):
    stop = time.monotonic() + timeout
    while time.monotonic() < stop:
        value = predicate()
        if value:
            return value
        time.sleep(every)
    return predicate()


def redis_up() -> bool:
    return REDIS is not None and REDIS.up()


def _database_url() -> str:
    s = connection.settings_dict
    auth = s["USER"] + (f":{s['PASSWORD']}" if s["PASSWORD"] else "")
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


def database_url() -> str:
    """The test database as a URL, for a process a test starts (a worker, a web server)."""
    return _database_url()


def purge() -> None:
    """Forget what earlier runs left in the broker: their queues and this database's claim keys."""
    import redis

    r = redis.Redis.from_url(broker_url())
    r.delete("celery", "clock", "unacked", "unacked_index")
    for key in r.scan_iter(f"clock:{connection.settings_dict['NAME']}:*"):
        r.delete(key)


# Celery's INFO lines about a task: "Task moderator.tasks.close_phase[<id>] received" / "… succeeded in 0.04s: True"
# and, when the broker connection is lost under it, "Task …[<id>] … cannot be acknowledged after a connection loss …"
# (cancelled: settings.CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS), or a sweep past its expiry,
# "Discarding revoked task: moderator.tasks.sweep_phases[<id>]": finished, unless received again; and one that raised
# ("Task …[<id>] raised unexpected: OperationalError(…)": its database was away), finished too, its result "raised".
TASK_LINE = re.compile(
    r"(?:Task |Discarding revoked task: )moderator\.tasks\.(\w+)\[([0-9a-f-]+)\]"
    r"(?:(?P<received> received)|(?: succeeded in \S+s: (?P<result>.*)$)|(?P<cancelled>.*cannot be acknowledged)"
    r"|(?P<raised> raised unexpected: )|$)",
    re.M,
)


def end_process(proc: subprocess.Popen, name: str) -> None:
    """SIGTERM a process group of the test's, SIGKILL it if it is still there after 15 s; then wait until the
    database sessions it opened (application_name `name`) are gone."""
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)
    sessions_ended(name)


class Worker:
    """`celery -A moderator worker -Q celery,clock` (and `-B` for beat) on the test database, in its own session."""

    def __init__(self, log: Path, *, beat: bool, concurrency: int):
        cmd = [sys.executable, "-m", "celery", "-A", "moderator", "worker", "-Q", "celery,clock"]
        self.name = f"clocktest-{uuid.uuid4().hex[:8]}"
        cmd += ["-c", str(concurrency), "-P", "prefork", "-n", f"{self.name}@%h"]
        cmd += ["--without-gossip", "--without-mingle", "--loglevel", "INFO"]
        if beat:
            cmd += ["-B", "-s", str(log.with_suffix(".beat"))]
        env = {
            **os.environ,
            "DATABASE_URL": _database_url(),
            "REDIS_URL": broker_url(),
            "CLOCK_SWEEP_SECONDS": str(SWEEP_SECONDS),
            "PGAPPNAME": self.name,  # its sessions in pg_stat_activity (libpq reads it)
        }
        self.log = log
        self.offset = 0  # where this test's part of the log begins (`mark`)
        self.proc = subprocess.Popen(
            cmd, cwd=settings.BASE_DIR, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT, start_new_session=True
        )
        if not wait_for(lambda: " ready." in self.output() or self.proc.poll() is not None, 60):
            raise AssertionError(f"worker did not start:\n{self.output()}")
        if self.proc.poll() is not None:
            raise AssertionError(f"worker exited:\n{self.output()}")

    def output(self) -> str:
        """The log from the last `mark` on (from its start for a worker a test started itself)."""
        return self.log.read_bytes()[self.offset :].decode(errors="replace")

    def mark(self) -> None:
        """A worker kept from an earlier test: what it logged so far (tasks, results) is not this test's."""
        self.offset = self.log.stat().st_size

    def tasks(self, name: str) -> dict[str, str | None]:
        """Every `name` task this worker received, by id: its result as logged, or None while it has not finished
        (a task received again after its worker was lost is unfinished again until it succeeds)."""
        seen: dict[str, str | None] = {}
        for line in TASK_LINE.finditer(self.output()):
            task, task_id = line.group(1), line.group(2)
            if task == name:
                ended = (
                    line["result"]
                    if line["result"] is not None
                    else "cancelled"
                    if line["cancelled"]
                    else "raised"
                    if line["raised"]
                    else "discarded"
                )
                seen[task_id] = None if line["received"] else ended
        return seen

    def results(self, name: str) -> list[str]:
        return [r for r in self.tasks(name).values() if r is not None]

    def idle(self) -> bool:
        """Nothing left to do: the broker's queues are empty and every task this worker received has finished."""
        names = ("close_phase", "close_phases", "sweep_phases")
        pending = [r for name in names for r in self.tasks(name).values() if r is None]
        return not pending and queued() == 0

    def sweep_cycle(self, *, beat: bool, timeout: float = 30) -> str:
        """One more full sweep cycle, no sleeping: a sweep_phases that *started after this call* (the next beat tick,
        or one published here when the worker has no beat) has run, and the worker is idle again (every close it
        fanned out or armed has run too). Returns that sweep's logged result (how many phases it closed)."""
        before = set(self.tasks("sweep_phases"))
        published = None if beat else publish_sweep()

        def ran() -> str | None:
            done = {i: r for i, r in self.tasks("sweep_phases").items() if i not in before and r is not None}
            if published is not None:
                return done.get(published)
            return next(iter(done.values()), None)

        result = wait_for(ran, timeout)
        assert result is not None, f"no sweep ran within {timeout}s:\n{self.output()}"
        assert wait_for(self.idle, timeout), f"the worker did not go idle:\n{self.output()}"
        return result

    def sessions(self) -> list[tuple[int, object]]:
        """This worker's database sessions now: (backend pid, when it started)."""
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pid, backend_start FROM pg_stat_activity WHERE application_name = %s ORDER BY pid", [self.name]
            )
            return cursor.fetchall()

    def pool_children(self) -> list[int]:
        path = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children")
        return [int(pid) for pid in path.read_text().split()]

    def kill(self) -> None:
        """SIGKILL the whole worker (main process and pool): nothing gets to clean up."""
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        end_process(self.proc, self.name)


def status(phase: Phase) -> str:
    return Phase.objects.values_list("status", flat=True).get(pk=phase.pk)


def closed(phase: Phase) -> bool:
    return status(phase) == Phase.Status.CLOSED


def raw_connection() -> psycopg.Connection:
    """A session of the test's own on its database, outside Django's (it holds a lock while the test goes on)."""
    return postgres_session(connection.settings_dict["NAME"])


def activity(sql: str, params=()):
    with connection.cursor() as cursor:  # autocommit: a fresh statistics snapshot every time
        cursor.execute(sql, params)
        return cursor.fetchone()


def close_stuck_before_commit() -> int | None:
    """The backend of a close held back by a table lock on the drafts, before its COMMIT: the ORM path's draft
    INSERT (past its compare-and-set UPDATE), or closesql's one write statement (which locks every table it writes
    before it runs: the compare-and-set and the drafts commit together or not at all)."""
    row = activity(
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
        " AND (query LIKE %s OR query LIKE %s)",
        ['INSERT INTO "moderator_announcement"%', "%UPDATE moderator_phase p SET status = 'closed'%"],
    )
    return row[0] if row else None


def backend_gone(pid: int) -> bool:
    return activity("SELECT count(*) FROM pg_stat_activity WHERE pid = %s", [pid])[0] == 0


def sessions_ended(name: str, timeout: float = 10) -> None:
    """The stopped worker's sessions (application_name = its name) have ended: a killed worker's backend lingers
    until PostgreSQL notices, and one left would keep pytest-django from dropping the test database at the end of
    the run. Those still there after `timeout` are terminated. Only the worker's own: the test process's other
    sessions (a live server thread kept for the browser tests) are not this fixture's to end."""
    others = (
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
        " AND backend_type = 'client backend' AND application_name = %s"
    )
    with connection.cursor() as cursor:

        def gone() -> bool:
            cursor.execute(others, [name])
            return not cursor.fetchall()

        if not wait_for(gone, timeout, every=0.1):
            cursor.execute(f"SELECT pg_terminate_backend(pid) FROM ({others}) AS o", [name])


# --- the clock as shipped: the Procfile's worker and beat, two processes ------------------------------------------

PROCFILE = Path(settings.BASE_DIR) / "Procfile"


def procfile_command(name: str) -> list[str]:
    """The Procfile's command for `name`, run with this interpreter (`celery …` → `python -m celery …`)."""
    line = next(line for line in PROCFILE.read_text().splitlines() if line.startswith(f"{name}:"))
    cmd = shlex.split(line.split(":", 1)[1])
    assert cmd[0] == "celery", line
    return [sys.executable, "-m", *cmd]


def redis_kill() -> None:
    """SIGKILL this run's redis-server: no goodbye to its clients, whose sockets the kernel resets."""
    assert REDIS is not None and REDIS.proc is not None
    REDIS.proc.kill()
    REDIS.proc.wait(10)
    REDIS.proc = None


class ShippedWorker(Worker):
    """The Procfile's `worker` command, unchanged, on the test database and this run's Redis. Launched, then
    `started()` waits until it is ready (a Procfile runner starts the worker and beat together: so can a test)."""

    def __init__(self, log: Path, env: dict[str, str] | None = None):
        self.name = f"clockship-{uuid.uuid4().hex[:8]}"
        self.log, self.offset = log, 0
        self.proc = _launch(procfile_command("worker"), log, self.name, env)

    def started(self) -> ShippedWorker:
        if not wait_for(lambda: " ready." in self.output() or self.proc.poll() is not None, 60):
            raise AssertionError(f"worker did not start:\n{self.output()}")
        if self.proc.poll() is not None:
            raise AssertionError(f"worker exited:\n{self.output()}")
        return self


class ShippedBeat:
    """The Procfile's `beat` command, its schedule file in the test's directory (two runs never share one). Launched,
    then `started()` waits until it runs."""

    def __init__(self, log: Path, env: dict[str, str] | None = None):
        self.log = log
        self.name = f"clockbeat-{uuid.uuid4().hex[:8]}"
        cmd = procfile_command("beat")
        cmd[cmd.index("--schedule") + 1] = str(log.with_suffix(".schedule"))
        self.proc = _launch(cmd, log, self.name, env)

    def started(self) -> ShippedBeat:
        assert wait_for(lambda: "beat: Starting" in self.output() or self.proc.poll() is not None, 60), self.output()
        assert self.proc.poll() is None, self.output()
        return self

    def output(self) -> str:
        return self.log.read_bytes().decode(errors="replace")

    def stop(self) -> None:
        end_process(self.proc, self.name)


def _launch(cmd: list[str], log: Path, name: str, env: dict[str, str] | None) -> subprocess.Popen:
    env = {
        **os.environ,
        "DATABASE_URL": _database_url(),
        "REDIS_URL": broker_url(),
        "PGAPPNAME": name,  # its sessions in pg_stat_activity (libpq reads it)
        **(env or {}),
    }
    return subprocess.Popen(
        cmd, cwd=settings.BASE_DIR, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT, start_new_session=True
    )


REDIS_BACK_SECONDS = 15  # how soon after Redis is back every phase is closed and a new deadline closes


def redis_start() -> None:
    """This run's redis-server again, on the same port, empty."""
    assert REDIS is not None
    REDIS.start()
