"""python manage.py bench_clock --games 200 --phase-seconds 20 — the phase clock against the real worker, beat, Redis
and database: 200 games (--games) whose night ends at the same second 20 s from now (--phase-seconds), then one line:

    closed X/N exactly_once=yes|no lateness_p50=…s lateness_p99=…s late=K closes_per_s=…

lateness = closed_at − ends_at per phase; late = how many closed more than --late-after seconds (default 1.5: the
short ETA fires at the end time) after their end — the wall-clock thresholds live here, never in the tests; closes_per_s = X / (last closed_at − the common end time). exactly_once:
every game has one closed phase, one `phase_close` log row, one next phase, the same announcements as the others,
and no phase closed before its end. The bench games are deleted afterwards (unless --keep).

Workers: if a Celery worker answers on REDIS_URL the command uses it (and the beat you run beside it); otherwise it
starts its own — `celery -A moderator worker -Q celery,clock -c W` and `celery -A moderator beat` on the same
REDIS_URL and DATABASE_URL (it prints both commands) — and stops them afterwards. A second line then gives what a
close cost (the started workers and beat, and the database's side), from /proc and pg_stat_database:

    cpu_ms_per_close=… (worker=… beat=… postgres=…) pg_active_ms_per_close=… sessions_per_close=… xacts_per_close=…

postgres = the CPU of this database's backends (sampled from /proc at the start and the end, so a session that both
opened and ended in between is missing: sessions_per_close says whether there were any).
"""

from __future__ import annotations

import math
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from datetime import timedelta
from typing import TextIO

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction
from django.db.models import Count, Max

from cards.catalogue import DEFAULT_CAMPS, DEFAULT_HAND_SIZE, standard_deck
from cards.dealing import deal
from moderator.celery import app
from moderator.cpu import cpu_seconds
from moderator.management.migrated import ensure_migrated
from moderator.models import Announcement, AuditLog, Game, Phase, Seat
from moderator.services.clock import db_now

GAME_NAME_PREFIX = "bench-clock"
PLAYERS = ("狄仁杰", "李元芳", "曾泰", "狄如燕", "张环", "李朗", "虎敬晖")
FAR = timedelta(days=3650)  # a bench game's night ends here until every game exists


class Command(BaseCommand):
    help = "阶段时钟压测:N 局游戏的时段在同一秒结束,统计是否每个都只关闭一次、迟到多久"

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=100)
        parser.add_argument("--phase-seconds", type=float, default=30)
        parser.add_argument("--timeout", type=float, default=180, help="seconds to wait after the end time")
        parser.add_argument("--keep", action="store_true", help="keep the bench games")
        parser.add_argument("--late-after", type=float, default=1.5, help="a close later than this (s) counts as late")
        parser.add_argument("--workers", type=int, default=2, help="processes of the worker it starts (if none runs)")

    def handle(self, *args, workers: int, **options):
        ensure_migrated(self)  # a fresh database: the tables first, as make run does
        answering = app.control.ping(timeout=2)
        if answering:
            names = ", ".join(name for reply in answering for name in reply)
            self.stderr.write(f"using the Celery worker(s) already running: {names} (and your beat)")
            self._run(None, **options)
            return
        with tempfile.TemporaryDirectory(prefix="bench-clock-") as tmp:
            fleet = Fleet(tmp, workers)
            for cmd in fleet.commands:
                self.stderr.write("started: " + " ".join(cmd))
            try:
                fleet.start()
                self._run(fleet, **options)
            finally:
                fleet.stop()

    def _run(self, fleet, *, games: int, phase_seconds: float, timeout: float, keep: bool, late_after: float, **o):
        self._delete()
        started = time.monotonic()
        game_ids = games_create(games)
        self.stderr.write(f"created {games} games in {time.monotonic() - started:.1f}s")
        now = db_now()
        ends_at = now.replace(microsecond=0) + timedelta(seconds=math.ceil(phase_seconds) + 1)
        with transaction.atomic():
            Game.objects.filter(pk__in=game_ids).update(status=Game.Status.RUNNING, started_at=now)
            Phase.objects.filter(game_id__in=game_ids).update(starts_at=now, ends_at=ends_at)
        self.stderr.write(f"all {games} nights end at {ends_at.isoformat()}")
        # after the UPDATE, so that its dead rows are gone too
        self.stderr.write(f"vacuumed and analysed the bench's tables in {vacuum():.1f}s")
        # While it waits, the bench asks one cheap question every 0.5 s: is any of its nights still open? Through the
        # (status, ends_at) index and the games' id range, not a list of N ids (at 20,000 that poll cost a quarter of
        # a core, taken from the closes it measures). The id range holds the bench's games, created together just now,
        # and at most a game created beside them, whose night does not end at this very instant.
        still_open = Phase.objects.filter(
            status=Phase.Status.OPEN, ends_at=ends_at, game_id__gte=min(game_ids), game_id__lte=max(game_ids)
        )
        before = Costs.sample(fleet)
        while still_open.exists() and db_now() < ends_at + timedelta(seconds=timeout):
            time.sleep(0.5)
        time.sleep(1)  # let a straggling duplicate finish, so that exactly_once sees it
        after = Costs.sample(fleet)
        self.stdout.write(lateness_report(game_ids, ends_at, late_after))
        first = Phase.objects.filter(game_id__in=game_ids, number=1, kind=Phase.Kind.NIGHT)
        closed = first.filter(status=Phase.Status.CLOSED).count()
        self.stdout.write(after.minus(before, closed))
        if not keep:
            self._delete()

    def _delete(self) -> None:
        Game.objects.filter(name__startswith=GAME_NAME_PREFIX).delete()


def games_create(n: int) -> list[int]:
    """N seven-seat tables (dealt with a seed, hands in discard order), each with night 1 open, not running yet."""
    deck, camps = standard_deck(), list(DEFAULT_CAMPS)
    created = Game.objects.bulk_create(
        Game(
            name=f"{GAME_NAME_PREFIX}-{i}",
            seats_count=len(PLAYERS),
            hand_size=DEFAULT_HAND_SIZE,
            deck=deck,
            order_seed=i,
            deal_seed=i,
            hands_are_orders=True,
        )
        for i in range(n)
    )
    seats, phases = [], []
    for i, game in enumerate(created):
        hands = deal(camps, deck, DEFAULT_HAND_SIZE, i).hands  # its deal_seed
        for number, (name, camp, hand) in enumerate(zip(PLAYERS, camps, hands, strict=True), start=1):
            seats.append(Seat(game=game, number=number, player_name=name, camp=camp, dealt_hand=list(hand)))
        far = db_now() + FAR
        phases.append(Phase(game=game, kind=Phase.Kind.NIGHT, number=1, starts_at=far, ends_at=far))
    Seat.objects.bulk_create(seats, batch_size=2000)
    Phase.objects.bulk_create(phases, batch_size=2000)
    return [g.pk for g in created]


def vacuum() -> float:
    """VACUUM ANALYZE the tables a run writes, before its deadline: what autovacuum does for a database in use (and
    what nothing does where it is off, as on this project's test machines). Without it each run left the dead rows
    of the last one's games (20,000 games: ≈ 1 million seat, phase and draft rows) and its fresh ones unanalysed, and
    the next run's closes paid for scanning past them (PostgreSQL's CPU per close 0.45 → 0.9 ms after three runs).
    Returns the seconds it took."""
    if connection.vendor != "postgresql":
        return 0.0
    started = time.monotonic()
    tables = [m._meta.db_table for m in (Game, Seat, Phase, Announcement, AuditLog)]
    with connection.cursor() as cursor:
        cursor.execute("VACUUM (ANALYZE) " + ", ".join(connection.ops.quote_name(t) for t in tables))
    return time.monotonic() - started


def _percentile(values: list[float], q: int) -> float:
    if not values:
        return math.nan
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1] if len(values) > 1 else values[0]


def lateness_report(game_ids: list[int], ends_at, late_after: float = 1.5) -> str:
    first = Phase.objects.filter(game_id__in=game_ids, kind=Phase.Kind.NIGHT, number=1)
    closed = list(first.filter(status=Phase.Status.CLOSED).values_list("pk", "closed_at"))
    lateness = sorted((at - ends_at).total_seconds() for _, at in closed)
    logs = Counter(
        AuditLog.objects.filter(game_id__in=game_ids, action=AuditLog.Action.PHASE_CLOSE).values_list(
            "game_id", flat=True
        )
    )
    phase_counts = Game.objects.filter(pk__in=game_ids).annotate(n=Count("phases")).values_list("n", flat=True)
    drafts = Counter(
        Announcement.objects.filter(phase_id__in=[pk for pk, _ in closed])
        .values("phase_id")
        .annotate(n=Count("id"))
        .values_list("n", flat=True)
    )
    once = (
        len(closed) == len(game_ids)
        and all(logs[g] == 1 for g in game_ids)
        and set(phase_counts) == {2}
        and len(drafts) == 1
        and (not lateness or lateness[0] >= 0)
    )
    last = first.aggregate(last=Max("closed_at"))["last"]
    span = (last - ends_at).total_seconds() if last else math.nan
    rate = len(closed) / span if span and span > 0 else math.nan
    if not once:
        print(f"logs={Counter(logs.values())} phases={Counter(phase_counts)} drafts={drafts}", file=sys.stderr)
    return (
        f"closed {len(closed)}/{len(game_ids)} exactly_once={'yes' if once else 'no'} "
        f"lateness_p50={_percentile(lateness, 50):.2f}s lateness_p99={_percentile(lateness, 99):.2f}s "
        f"late={sum(x > late_after for x in lateness)} closes_per_s={rate:.1f}"
    )


# --- the workers it starts, and what the closes cost ----------------------------------------------------------------


class Fleet:
    """A Celery worker (W pool processes) and beat on this REDIS_URL and DATABASE_URL, each in its own session,
    logs in a temporary directory; stopped by their process ids."""

    def __init__(self, tmp: str, workers: int):
        self.tmp = tmp
        self.procs: list[subprocess.Popen] = []
        self.logs_open: list[TextIO] = []
        celery = [sys.executable, "-m", "celery", "-A", "moderator"]
        worker = ["worker", "-Q", "celery,clock", "-c", str(workers), "--prefetch-multiplier", "1"]
        worker += [
            "-n",
            f"bench-clock-{os.getpid()}@%h",
            "--without-gossip",
            "--without-mingle",
            "--loglevel",
            "WARNING",
        ]
        beat = ["beat", "-s", os.path.join(tmp, "beat-schedule"), "--loglevel", "WARNING"]
        self.commands = [[*celery, *worker], [*celery, *beat]]

    def start(self) -> None:
        for i, cmd in enumerate(self.commands):
            log = open(os.path.join(self.tmp, f"{i}.log"), "w")
            self.logs_open.append(log)
            self.procs.append(
                subprocess.Popen(
                    cmd, cwd=settings.BASE_DIR, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
                )
            )
        stop = time.monotonic() + 60
        while not app.control.ping(timeout=1):
            if time.monotonic() > stop or any(p.poll() is not None for p in self.procs):
                raise CommandError("启动的 Celery worker 没有应答:\n" + self.logs())
        self.worker, self.beat = self.procs

    def logs(self) -> str:
        return "\n".join(open(os.path.join(self.tmp, f"{i}.log")).read()[-2000:] for i in range(len(self.procs)))

    def stop(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in self.procs:
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(10)
        for log in self.logs_open:
            log.close()


def tree(pid: int) -> list[int]:
    """A process and its children (a worker's pool)."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [pid, *map(int, f.read().split())]
    except OSError:
        return [pid]


class Costs:
    """CPU of the started worker and beat, of this database's backends, and pg_stat_database's counters."""

    def __init__(self, worker: dict, beat: dict, backends: dict, counters: tuple):
        self.worker, self.beat, self.backends, self.counters = worker, beat, backends, counters

    @classmethod
    def sample(cls, fleet: Fleet | None) -> Costs:
        worker = {p: cpu_seconds(p) for p in tree(fleet.worker.pid)} if fleet else {}
        beat = {p: cpu_seconds(p) for p in tree(fleet.beat.pid)} if fleet else {}
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
            backends = {pid: cpu_seconds(pid) for (pid,) in cursor.fetchall()}
            cursor.execute("SELECT pg_stat_force_next_flush()")
            cursor.execute(
                "SELECT sessions, xact_commit + xact_rollback, active_time FROM pg_stat_database"
                " WHERE datname = current_database()"
            )
            counters = cursor.fetchone()
        return cls(worker, beat, backends, counters)

    def minus(self, before: Costs, closes: int) -> str:
        def spent(now: dict, then: dict) -> float:
            return sum(cpu - then.get(pid, 0.0) for pid, cpu in now.items())

        per = max(closes, 1)
        worker, beat = spent(self.worker, before.worker), spent(self.beat, before.beat)
        postgres = spent(self.backends, before.backends)
        sessions, xacts, active = (a - b for a, b in zip(self.counters, before.counters, strict=True))
        mine = "" if self.worker else " (a worker not started here: its CPU is not counted)"
        return (
            f"cpu_ms_per_close={(worker + beat + postgres) * 1000 / per:.2f} (worker={worker * 1000 / per:.2f} "
            f"beat={beat * 1000 / per:.2f} postgres={postgres * 1000 / per:.2f}) "
            f"pg_active_ms_per_close={active / per:.2f} sessions_per_close={sessions / per:.3f} "
            f"xacts_per_close={xacts / per:.2f}{mine}"
        )
