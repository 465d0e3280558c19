"""A fault as a test (marker `faults`): PostgreSQL killed -9 — the postmaster, then every process of the cluster —
and restarted while a real Celery worker sweeps hundreds of due phases, and while a 天神 goes on confirming PMs.

The database is on a cluster this module starts for itself (`tests.servers.PostgresServer`: initdb into a temporary
directory, a free port, the project migrated once into a template), each test a fresh copy of it, never the PostgreSQL
at DATABASE_URL; the broker is this run's own redis-server. This process's Django connection points at the test's
database for the test (`on_database`), the worker is given its URL.

It ends with every phase closed exactly once (one `phase_close` log row, one next phase, no announcement drafted
twice), every input whose confirm was answered stored once, and the clock running again by itself: a phase that
falls due after the restart closes too, with nobody restarting the worker. No timing assertion: each wait is a
bounded poll for an outcome."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
import uuid
from contextlib import contextmanager
from datetime import timedelta

import clockkit
import psycopg
import pytest
from clockkit import (
    Worker,
    activity,
    assert_closed_once,
    close_stuck_before_commit,
    closed,
    purge,
    running_game,
    wait_for,
)
from django.conf import settings

from moderator.management.commands.bench_clock import games_create
from moderator.models import AuditLog, Game, Input, Message, Phase, UsedToken
from moderator.services import intake
from moderator.services.clock import db_now
from moderator.services.once import Once, form_nonce
from tests.servers import PostgresServer, postgres_unavailable

pytestmark = [pytest.mark.faults, pytest.mark.redis]

# Same-second deadlines swept at once (the audit's 300); FAULT_TEST_PHASES=2000 for a bigger run.
PHASES = int(os.environ.get("FAULT_TEST_PHASES", "300"))
CLOSED_BEFORE = PHASES // 4  # closed and committed before the kill: crash recovery must keep them, closed once
LIVE_GAMES = 6  # games whose night is not due: the 天神 confirms PMs to them all through the fault
KILLER_ATTACK = {"use": "普通攻击", "card": "杀手", "target": "李元芳", "manifesto": "月黑风高,取你性命。"}


def _django_settings(server: PostgresServer) -> dict:
    base = settings.DATABASES["default"]
    return {
        **base,
        "ENGINE": "django.db.backends.postgresql",
        "OPTIONS": {},
        "CONN_MAX_AGE": 0,
        "CONN_HEALTH_CHECKS": False,
        **server.settings(),
        "TEST": {"NAME": None},
    }


@contextmanager
def on_database(server: PostgresServer):
    """This thread's default Django connection on the test's own cluster, then back to the one it had (the test
    database of the run, untouched meanwhile)."""
    from django.contrib.contenttypes.models import ContentType
    from django.db import connections
    from django.db.utils import load_backend

    wanted = _django_settings(server)
    own = load_backend(wanted["ENGINE"]).DatabaseWrapper(wanted, "default")
    before = connections["default"]
    connections["default"] = own
    try:
        yield own
    finally:
        try:
            own.close()
        except Exception:  # a cluster already killed: nothing to close
            pass
        connections["default"] = before
        ContentType.objects.clear_cache()  # ids read from the other database


def forget_connection() -> None:
    """After a database error: drop this thread's session (a dead one is not reused)."""
    from django.db import connection

    try:
        connection.close()
    except Exception:
        connection.connection = None


MIGRATED = "direnjie_faults_migrated"  # the module cluster's migrated template: each test copies it (CREATE DATABASE)


@pytest.fixture(scope="module")
def own_cluster():
    """A PostgreSQL cluster of this module's own (initdb, the project migrated into a template database once);
    destroyed after the module's last test. A test that killed it has started it again (crash recovery)."""
    if reason := postgres_unavailable():
        pytest.skip(reason)
    server = PostgresServer(dbname=MIGRATED)
    try:
        server.init()
        migrate = subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
            cwd=settings.BASE_DIR,
            env={**os.environ, "DATABASE_URL": server.url},
            capture_output=True,
            text=True,
        )
        assert migrate.returncode == 0, migrate.stderr
        yield server
    finally:
        server.destroy()


@pytest.fixture
def own_postgres(own_cluster, django_db_blocker):
    """A migrated database of this test's own on the module's cluster (a copy of the migrated template, nobody else's
    sessions on it), this process's connection on it."""
    server = own_cluster
    if not server.up("postgres"):  # an earlier test failed while it was killed
        server.start()
    server.dbname = f"direnjie_faults_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(server._dsn("postgres"), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{server.dbname}" TEMPLATE "{MIGRATED}"')
    with django_db_blocker.unblock(), on_database(server):
        yield server


@pytest.fixture
def workers(own_postgres, own_redis, tmp_path):
    """Start real workers on the test's cluster with `workers(beat=…)`; each is stopped while the cluster answers
    (its sessions then end with it), else killed."""
    purge()
    started: list[Worker] = []

    def start(*, beat: bool, concurrency: int = 2) -> Worker:
        worker = Worker(tmp_path / f"worker-{len(started)}.log", beat=beat, concurrency=concurrency)
        started.append(worker)
        return worker

    yield start
    for worker in started:
        if own_postgres.up():
            worker.stop()
        else:
            worker.kill()


def due_games(n: int) -> list[Phase]:
    """N running seven-seat games whose night 1 is open (started an hour ago, not yet due), and in each the killer's
    attack confirmed before the deadline: the input every close must resolve."""
    ids = games_create(n)
    now = db_now()
    Game.objects.filter(pk__in=ids).update(status=Game.Status.RUNNING, started_at=now - timedelta(hours=1))
    Phase.objects.filter(game_id__in=ids).update(starts_at=now - timedelta(hours=1), ends_at=now + timedelta(hours=1))
    phases = list(Phase.objects.filter(game_id__in=ids).select_related("game").order_by("pk"))
    for phase in phases:
        seat = phase.game.seats.get(number=1)  # the killer's seat (DEFAULT_CAMPS[0]), who holds the 杀手 card
        intake.action_entry(game=phase.game, seat=seat, item=KILLER_ATTACK, forum_at=now - timedelta(minutes=30))
    return phases


def waiting_on_locks(worker: Worker) -> int:
    """How many of the worker's sessions wait on a lock (a close held before its COMMIT)."""
    sql = "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s AND wait_event_type = 'Lock'"
    return activity(sql, [worker.name])[0]


def make_due(phases: list[Phase]) -> None:
    """Their deadline is now (the same instant for all of them)."""
    Phase.objects.filter(pk__in=[p.pk for p in phases]).update(ends_at=db_now())


class Confirms(threading.Thread):
    """A 天神 confirming PMs round the live games, each with a token of its own, until told to stop: the confirms
    that returned (answered) and how many raised (the database was away)."""

    def __init__(self, server: PostgresServer, games: list[Game]):
        super().__init__(daemon=True)
        self.server, self.games = server, games
        self.answered: list[str] = []
        self.failed = 0
        self.halt = threading.Event()

    def run(self) -> None:
        with on_database(self.server):
            n = 0
            while not self.halt.is_set():
                game = self.games[n % len(self.games)]
                n += 1
                token = form_nonce()
                try:
                    phase_id = game.phases.get(status=Phase.Status.OPEN).pk
                    seat = game.seats.get(number=2)
                    intake.pm_confirm(
                        game,
                        intake.Pasted(seat=seat, text=f"诅咒 狄仁杰(第 {n} 条)", forum_at=db_now()),
                        once=Once(token, phase_id),
                    )
                    self.answered.append(token)
                except Exception:  # the database away: not answered; the 天神 would try again
                    self.failed += 1
                    forget_connection()
                    time.sleep(0.05)


def test_postgres_killed_and_restarted_during_a_sweep_closes_every_phase_once_and_keeps_every_answered_input(
    own_postgres, workers
):
    server = own_postgres
    phases = due_games(PHASES)
    live = [p.game for p in due_games(LIVE_GAMES)]
    Phase.objects.filter(game__in=live).update(ends_at=db_now() + timedelta(hours=2))
    before, during = phases[:CLOSED_BEFORE], phases[CLOSED_BEFORE:]
    worker = workers(beat=True)

    make_due(before)  # closed and committed before the fault
    assert wait_for(lambda: all(closed(p) for p in before), 120), worker.output()

    confirms = Confirms(server, live)
    confirms.start()
    holder = psycopg.connect(server._dsn())
    try:
        # Closes in flight: each one's write waits on this lock, inside its transaction, when the database dies.
        holder.execute("LOCK TABLE moderator_announcement IN EXCLUSIVE MODE")
        make_due(during)
        assert wait_for(close_stuck_before_commit, 60), worker.output()
        # both pool processes hold a close: the sweep's inline batch and a batch it fanned out (the rest queued)
        assert wait_for(lambda: waiting_on_locks(worker) >= 2, 60), worker.output()
        assert not Phase.objects.filter(pk__in=[p.pk for p in during], status=Phase.Status.CLOSED).exists()
        server.kill()  # the postmaster, then every backend: no transaction in flight commits
    finally:
        holder.close()
    forget_connection()
    assert not server.up()
    time.sleep(3)  # down long enough for sweeps and closes to fail on it
    server.start()  # crash recovery
    assert wait_for(lambda: all(closed(p) for p in during), 180), worker.output()
    later = running_game(ends_in=2, seed=7)  # due after the restart: only a clock running again closes it
    assert wait_for(lambda: closed(later), 90), worker.output()
    confirms.halt.set()
    confirms.join(30)

    assert worker.proc.poll() is None, worker.output()
    assert "Unrecoverable error" not in worker.output()
    worker.sweep_cycle(beat=True, timeout=60)
    for phase in [*phases, later]:
        assert_closed_once(phase)
    # a database away is transient: no close counted as failed, no phase left to the 天神 (quarantine)
    assert not Phase.objects.filter(close_failures__gt=0).values_list("pk", "close_error")
    # the killer's attack of every game stored once, in the night it was confirmed in
    stored = Input.objects.filter(phase__in=phases).values_list("phase_id", flat=True)
    assert sorted(stored) == sorted(p.pk for p in phases)
    # every confirm that was answered is stored, once; nothing stored that was not spent once
    assert confirms.answered and confirms.failed, (len(confirms.answered), confirms.failed)
    spent = set(UsedToken.objects.filter(game__in=live).values_list("token", flat=True))
    assert set(confirms.answered) <= spent
    assert Message.objects.filter(game__in=live).count() == len(spent)
    assert AuditLog.objects.filter(game__in=live, action="录入消息").count() == len(spent)
    assert not clockkit.queued()


def sweep_after_recovery(worker: Worker) -> str:
    """The result of the first sweep that ran whole on the database that is back (one begun while it was away, or
    on a session it killed, raised), with every close it fanned out run too."""
    for _ in range(5):
        result = worker.sweep_cycle(beat=True, timeout=60)
        if result != "raised":
            return result
    raise AssertionError(f"no sweep ran whole after the restart:\n{worker.output()}")


def test_the_first_sweep_after_the_database_is_back_fans_out_every_phase_a_failed_close_left_open(
    own_postgres, workers, monkeypatch
):
    """Sweeps close nothing inline here (CLOCK_SWEEP_INLINE=0): only the fan-out closes. The fan-out's two batches are
    held before their COMMIT when the cluster is killed; they fail while it is away. Once it is back, one sweep (and
    the closes it fans out) must close every phase: no timing, one sweep cycle."""
    monkeypatch.setenv("CLOCK_SWEEP_INLINE", "0")  # read by the workers this test starts
    server = own_postgres
    phases = due_games(60)  # two batches of CLOCK_BATCH_SIZE (50)
    worker = workers(beat=True)
    holder = psycopg.connect(server._dsn())
    try:
        holder.execute("LOCK TABLE moderator_announcement IN EXCLUSIVE MODE")
        make_due(phases)
        assert wait_for(lambda: waiting_on_locks(worker) >= 2, 60), worker.output()
        server.kill()
    finally:
        holder.close()
    forget_connection()
    # the two batches give up while the database is away (each close refused: "the next sweep tries again")
    assert wait_for(lambda: all(r is not None for r in worker.tasks("close_phases").values()), 30), worker.output()
    server.start()
    sweep_after_recovery(worker)
    still_open = [p.pk for p in phases if not closed(p)]
    assert not still_open, f"{len(still_open)} of {len(phases)} due phases left open after a sweep cycle"
    for phase in phases:
        assert_closed_once(phase)
