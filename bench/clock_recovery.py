"""How fast the phase clock catches up after its services were down: `python -m bench.clock_recovery
[--phases 2000] [--workers 2] [--down 5] [--rounds 1] [--fault stopped,worker,postgres,redis-close,redis-sweep]`.

It starts what it measures, on this machine, and nothing else: a PostgreSQL cluster of its own (initdb into a
temporary directory, a free port: `tests.servers.PostgresServer`), a redis-server of its own, and the Procfile's
Celery worker (`-c W --prefetch-multiplier 1`) and beat with the production settings (a sweep every 2 s). N seven-seat
games, night 1 open, then one fault each run:

- stopped:  worker and beat stopped; every night's deadline passes (a minute ago); worker and beat started again.
            Recovery = the moment they are launched.
- worker:   the running worker has armed its ETA closes for deadlines 15 s ahead; worker and beat are SIGKILLed; they
            stay down until `--down` s past the deadline; a new worker and beat. Recovery = their launch.
- postgres: all N nights due at once; as soon as the first closes commit (the sweep has fanned the rest out), the
            cluster is killed -9 (postmaster, then every process); down `--down` s; started again (crash recovery).
            Recovery = the moment it accepts connections again.
- redis-close, redis-sweep: the Procfile's own worker and beat commands (two processes, as shipped, nobody restarting
            them). redis-close: all N deadlines `AHEAD` s ahead, armed as timed closes; redis-sweep: all N overdue at
            once, a sweep closing the first ones inline. Either way the first close is held before its COMMIT (a
            table lock), the worker's main process is stopped (SIGSTOP), Redis is SIGKILLed, the close commits, the
            main process goes on (it finds the close's result and the dead broker together: a close that ended in
            the milliseconds after Redis died), and 1 s later Redis is started again, empty. Recovery = that start.
            The line adds worker_alive=yes|no (the same worker process, no "Unrecoverable error" in its log).

One line per run:

    fault=… phases=N closed=X/N exactly_once=yes|no all_closed_after_s=… (first_close_after_s=…) closes_per_s=…
    cpu_s=… (worker=… beat=… postgres=…)

all_closed_after_s: from recovery to the last night closed (the goal: ≤ 10 s at 2,000); closes_per_s = N over that;
cpu_s: CPU of the worker's processes, beat and the cluster's processes over the same span (/proc). exactly_once: every
game has one closed night, one `phase_close` log row, one next phase and the same number of drafts as the others
(`manage.py bench_clock`'s check). Wall times depend on the machine's load; the CPU figures hold better.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

from bench import local_settings
from moderator.cpu import cpu_seconds
from tests.servers import PostgresServer, RedisServer, postgres_unavailable

FAULTS = ("stopped", "worker", "postgres", "redis-close", "redis-sweep")
AHEAD = 15  # worker fault: the deadline this far ahead, inside the ETA window (60 s), so every close is armed


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phases", type=int, default=2000)
    parser.add_argument("--workers", type=int, default=2, help="pool processes of the worker (the Procfile's 2)")
    parser.add_argument("--down", type=float, default=5, help="seconds the services stay down")
    parser.add_argument("--fault", default=",".join(FAULTS), help="which runs, comma-separated: " + ",".join(FAULTS))
    parser.add_argument("--timeout", type=float, default=300, help="seconds to wait for every close")
    parser.add_argument("--rounds", type=int, default=1, help="runs of each fault")
    args = parser.parse_args(argv)
    faults = [f.strip() for f in args.fault.split(",") if f.strip()]
    if unknown := set(faults) - set(FAULTS):
        parser.error(f"unknown fault: {', '.join(sorted(unknown))}")
    if reason := postgres_unavailable():
        sys.exit(reason)

    with tempfile.TemporaryDirectory(prefix="bench-recovery-") as tmp:
        pg = PostgresServer(dbname="direnjie_recovery")
        redis = RedisServer(Path(tmp) / "redis")
        try:
            pg.init()
            redis.start()
            os.environ.update(DATABASE_URL=pg.url, REDIS_URL=redis.url, CONN_MAX_AGE="600")
            local_settings()
            import django

            django.setup()
            from django.core.management import call_command

            call_command("migrate", verbosity=0)
            print(f"own PostgreSQL on port {pg.port}, own Redis on port {redis.port}", file=sys.stderr)
            for fault in faults:
                for _ in range(args.rounds):
                    print(Run(pg, redis, tmp, args).go(fault), flush=True)
        finally:
            redis.stop()
            pg.destroy()


class Run:
    def __init__(self, pg: PostgresServer, redis: RedisServer, tmp: str, args):
        self.pg, self.redis, self.tmp, self.args = pg, redis, tmp, args
        self.fleet = None

    # --- the services -------------------------------------------------------------------------------------------

    def start_fleet(self):
        from moderator.management.commands.bench_clock import Fleet

        fleet = Fleet(self.tmp, self.args.workers)
        fleet.start()
        self.fleet = fleet
        return fleet

    def start_shipped(self):
        fleet = ShippedFleet(self.tmp)
        fleet.start()
        self.fleet = fleet
        return fleet

    def kill_fleet(self) -> None:
        for proc in self.fleet.procs:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(10)
        for log in self.fleet.logs_open:
            log.close()

    def cpu(self) -> dict[str, dict[int, float]]:
        """CPU so far of each process of the worker, beat and the cluster, by pid (a process that ends between two
        samples is missing from the second: its CPU is not counted)."""
        from moderator.management.commands.bench_clock import tree

        return {
            "worker": {p: cpu_seconds(p) for p in tree(self.fleet.worker.pid)},
            "beat": {p: cpu_seconds(p) for p in tree(self.fleet.beat.pid)},
            "postgres": {p: cpu_seconds(p) for p in self.pg.pids()},
        }

    # --- the games ----------------------------------------------------------------------------------------------

    def games(self) -> list[int]:
        from django.db import connection

        from moderator.management.commands.bench_clock import GAME_NAME_PREFIX, games_create, vacuum
        from moderator.models import Game

        Game.objects.filter(name__startswith=GAME_NAME_PREFIX).delete()
        self.redis.client().flushall()  # the bench's own Redis: no claim or message of an earlier run
        ids = games_create(self.args.phases)
        connection.close()
        print(f"created {len(ids)} games; vacuumed in {vacuum():.1f}s", file=sys.stderr)
        return ids

    def set_deadline(self, ids: list[int], seconds_from_now: float):
        from django.db import transaction

        from moderator.models import Game, Phase
        from moderator.services.clock import db_now

        now = db_now()
        ends_at = now.replace(microsecond=0) + timedelta(seconds=seconds_from_now)
        with transaction.atomic():
            Game.objects.filter(pk__in=ids).update(status=Game.Status.RUNNING, started_at=now)
            Phase.objects.filter(game_id__in=ids).update(starts_at=ends_at - timedelta(hours=24), ends_at=ends_at)
        return ends_at

    def closed(self, ids: list[int]) -> int | None:
        """How many of the nights are closed; None while the database does not answer."""
        from django.db import DatabaseError, connection

        from moderator.models import Phase

        try:
            return Phase.objects.filter(
                game_id__gte=min(ids), game_id__lte=max(ids), number=1, status=Phase.Status.CLOSED
            ).count()
        except DatabaseError:
            connection.close()
            return None

    # --- one run ------------------------------------------------------------------------------------------------

    def go(self, fault: str) -> str:
        from django.db import connection

        from moderator.management.commands.bench_clock import lateness_report
        from moderator.services.clock import db_now

        ids = self.games()
        n = len(ids)
        note = ""
        if fault == "stopped":
            ends_at = self.set_deadline(ids, -60)
            claims = self._claims("close")
            t0 = time.monotonic()
            before = {"worker": {}, "beat": {}, "postgres": {p: cpu_seconds(p) for p in self.pg.pids()}}
            self.start_fleet()
        elif fault == "worker":
            self.start_fleet()
            ends_at = self.set_deadline(ids, AHEAD)
            armed = self._wait(lambda: self._claims("eta") >= n, 60, "the worker to arm every ETA close")
            self.kill_fleet()
            note = f"every close armed {armed:.1f}s after the deadline was set; worker and beat SIGKILLed"
            time.sleep(max((ends_at - db_now()).total_seconds(), 0) + self.args.down)
            connection.close()
            claims = self._claims("close")
            t0 = time.monotonic()
            before = {"worker": {}, "beat": {}, "postgres": {p: cpu_seconds(p) for p in self.pg.pids()}}
            self.start_fleet()
        elif fault.startswith("redis-"):
            fleet = self.start_shipped()
            holder = self.hold_closes()
            if fault == "redis-close":
                ends_at = self.set_deadline(ids, AHEAD)
                self._wait(lambda: self._claims("eta") >= n, 60, "the worker to arm every ETA close")
            else:
                ends_at = self.set_deadline(ids, -60)
            self._wait(self.close_stuck, 60, "a close held before its COMMIT")
            os.kill(fleet.worker.pid, signal.SIGSTOP)  # the main process; its pool goes on
            try:
                self.redis_kill()
                holder.rollback()
                self._wait(lambda: (self.closed(ids) or 0) >= 1, 60, "the held close to commit")
                time.sleep(0.3)  # the pool process writes its result to the stopped main process
            finally:
                os.kill(fleet.worker.pid, signal.SIGCONT)
            holder.close()
            before_restart = self.closed(ids)
            time.sleep(1)  # the main process acknowledges on the dead broker and cleans up the lost connection
            before = self.cpu()
            self.redis.start()  # the same port, empty
            t0 = time.monotonic()
            claims = 0
            note = f"Redis killed -9 under a close, behind the worker's back; {before_restart} closed then"
        else:
            self.start_fleet()
            ends_at = self.set_deadline(ids, 0)
            self._wait(lambda: (self.closed(ids) or 0) >= 1, 60, "the first close")
            self.pg.kill()
            connection.close()
            time.sleep(self.args.down)
            self.pg.start()
            t0 = time.monotonic()
            before = self.cpu()
            claims = self._claims("close")
            note = f"PostgreSQL killed -9 right after the first closes committed; {self.closed(ids)} closed then"
        first = last = None
        while time.monotonic() - t0 < self.args.timeout:
            count = self.closed(ids)
            now = time.monotonic() - t0
            if count and first is None:
                first = now
            if count == n:
                last = now
                break
            time.sleep(0.1)
        after = self.cpu()
        time.sleep(1)  # a straggling duplicate would show in the check below
        check = lateness_report(ids, ends_at)
        if isinstance(self.fleet, ShippedFleet):
            self.fleet.alive_throughout = self.fleet.worker.poll() is None and "Unrecoverable" not in self.fleet.logs()
        self.fleet.stop()
        spent = {k: sum(cpu - before[k].get(pid, 0.0) for pid, cpu in after[k].items()) for k in after}
        print(
            f"{fault}: {note}; {claims} close claims (ETA or fan-out) alive at recovery; bench_clock's check: {check}",
            file=sys.stderr,
        )
        took = f"{last:.2f}" if last is not None else f">{self.args.timeout:.0f}"
        alive = ""
        if isinstance(self.fleet, ShippedFleet):
            alive = f" worker_alive={'yes' if self.fleet.alive_throughout else 'no'}"
        return (
            f"fault={fault} phases={n} closed={self.closed(ids)}/{n} exactly_once={check.split('exactly_once=')[1].split()[0]} "
            f"all_closed_after_s={took} (first_close_after_s={'-' if first is None else f'{first:.2f}'}) "
            f"closes_per_s={f'{n / last:.1f}' if last else 'nan'} cpu_s={sum(spent.values()):.2f} "
            f"(worker={spent['worker']:.2f} beat={spent['beat']:.2f} postgres={spent['postgres']:.2f}){alive}"
        )

    # --- the broker faults ----------------------------------------------------------------------------------------

    def hold_closes(self):
        """A session of the bench's own holding a lock every close waits on before its COMMIT (the drafts' table)."""
        import psycopg

        holder = psycopg.connect(self.pg.url)
        holder.execute("LOCK TABLE moderator_announcement IN EXCLUSIVE MODE")
        return holder

    def close_stuck(self) -> bool:
        from django.db import connection

        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
            )
            return cursor.fetchone()[0] > 0

    def redis_kill(self) -> None:
        self.redis.proc.kill()
        self.redis.proc.wait(10)
        self.redis.proc = None

    def _claims(self, kind: str) -> int:
        from django.db import connection

        pattern = f"clock:{connection.settings_dict['NAME']}:{kind}:*"
        return sum(1 for _ in self.redis.client().scan_iter(pattern, count=1000))

    @staticmethod
    def _wait(predicate, timeout: float, what: str) -> float:
        start = time.monotonic()
        while not predicate():
            if time.monotonic() - start > timeout:
                raise SystemExit(f"gave up waiting for {what} after {timeout:.0f}s")
            time.sleep(0.05)
        return time.monotonic() - start


class ShippedFleet:
    """The Procfile's worker and beat commands as they are (beat's schedule in this bench's directory), INFO logs."""

    def __init__(self, tmp: str):
        import shlex

        from django.conf import settings

        self.tmp, self.base = tmp, settings.BASE_DIR
        lines = dict(line.split(": ", 1) for line in (self.base / "Procfile").read_text().splitlines() if ": " in line)
        self.commands = []
        for name in ("worker", "beat"):
            cmd = [sys.executable, "-m", *shlex.split(lines[name])]  # celery … → python -m celery …
            if "--schedule" in cmd:
                cmd[cmd.index("--schedule") + 1] = os.path.join(tmp, "beat-schedule")
            self.commands.append(cmd)
        self.procs: list = []
        self.alive_throughout = False
        self.env = {**os.environ, "LOG_LEVEL": "INFO"}  # its "ready." line and any "Unrecoverable error"

    def start(self) -> None:
        import subprocess

        for i, cmd in enumerate(self.commands):
            with open(os.path.join(self.tmp, f"shipped-{i}.log"), "w") as log:
                self.procs.append(
                    subprocess.Popen(
                        cmd, cwd=self.base, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
                    )
                )
        self.worker, self.beat = self.procs
        stop = time.monotonic() + 90
        while " ready." not in self.logs():
            if time.monotonic() > stop or any(p.poll() is not None for p in self.procs):
                raise SystemExit("the Procfile's worker did not start:\n" + self.logs()[-3000:])
            time.sleep(0.2)

    @property
    def logs_open(self) -> list:
        return []

    def logs(self) -> str:
        return "\n".join(open(os.path.join(self.tmp, f"shipped-{i}.log")).read() for i in range(len(self.procs)))

    def stop(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        if keep := os.environ.get("BENCH_KEEP_LOGS"):  # a directory: the run's worker and beat logs are copied there
            import shutil

            for i in range(len(self.procs)):
                shutil.copy(
                    os.path.join(self.tmp, f"shipped-{i}.log"), os.path.join(keep, f"{time.time():.0f}-{i}.log")
                )
        for proc in self.procs:
            try:
                proc.wait(20)
            except Exception:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(10)


if __name__ == "__main__":
    main()
