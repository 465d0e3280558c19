"""Benchmark of the player and public pages against a trivial Django view, in one run: `python -m bench.pages`.

Builds the sample game (bench.sample: seven seats, three closed phases, day 2 open) in a fresh SQLite
database under /tmp (or BENCH_DATABASE_URL, e.g. PostgreSQL), serves the project with gunicorn (DEBUG off,
bench.settings) and loads three URLs with Locust (a Python load generator of the dev dependencies, run as its own
process; its CPU is not counted), 50 concurrent users: the trivial view, the public page, and the
seven private pages in turn. Rounds alternate the URLs so that all three see the same machine; the figures are the
medians over rounds. Prints p50/p95 per URL, p95 ÷ the trivial view's p95 (goal: ≤ 2 on PostgreSQL), and the
CPU per request of the web workers (gunicorn's processes, /proc), of the PostgreSQL backends serving them (their
/proc/<pid>/stat, the way bench/close.py reads its backend: the server runs on this machine) and of the cache's
redis-server, with the database transactions per request (pg_stat_database: one per query outside a transaction).

The cache is a redis-server of the bench's own (a free port, nothing saved, stopped at the end; never the Redis at
REDIS_URL), as in production (CACHE_IN_REDIS); `--cache locmem` uses each worker's memory instead. Variants:
`warm` — the pages from the cache under their game's version (no query); `--checked` adds a run where
every request checks the game's fingerprint (PAGES_REVALIDATE_SECONDS=0: one query, how pages were served before);
`--cold` adds a run with the cache off (every request replays the game and renders the page).

Takes about two minutes (it says how long before it starts); `--quick` is one short round per URL (about 30 s). Needs
redis-server for the default cache (`--cache locmem` does without).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from moderator.cpu import cpu_seconds as _cpu

# One load run, in its own process (Locust patches the standard library with gevent when imported): USERS users
# request PATHS in turn for SECONDS seconds, then one JSON line with the counts and percentiles (ms).
LOAD_SCRIPT = """
import itertools, json

import gevent
from locust import FastHttpUser, constant, task
from locust.env import Environment

HOST, PATHS, USERS, SECONDS = %r, %r, %d, %d
turn = itertools.count()


class Page(FastHttpUser):
    host = HOST
    wait_time = constant(0)

    @task
    def get(self):
        self.client.get(PATHS[next(turn) %% len(PATHS)])


env = Environment(user_classes=[Page])
runner = env.create_local_runner()
runner.start(USERS, spawn_rate=USERS)
gevent.sleep(SECONDS)
runner.stop()
total = env.stats.total
print(json.dumps({
    "requests": total.num_requests, "errors": total.num_failures, "rps": total.total_rps,
    "p50": total.get_response_time_percentile(0.5), "p95": total.get_response_time_percentile(0.95),
}))
"""


def prepare(db_url: str) -> dict[str, list[str]]:
    """Migrate the database and play the sample game; returns the paths to load."""
    os.environ["DATABASE_URL"] = db_url
    os.environ["DJANGO_SETTINGS_MODULE"] = "bench.settings"
    import django

    django.setup()
    from django.core.management import call_command

    from bench.sample import sample_game

    call_command("migrate", verbosity=0)
    sample = sample_game(name="压测局")
    return {
        "trivial": ["/bench/trivial/"],
        "public": [f"/games/{sample.game.pk}/"],
        "private": [f"/p/{seat.token}/" for seat in sample.seats.values()],
    }


def queries(urls: dict[str, list[str]]) -> str:
    """Queries of a first and a second request of each page, counted in this process (its own memory cache)."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client(HTTP_HOST="127.0.0.1")
    counts = []
    for name, paths in urls.items():
        runs = []
        for _ in range(2):
            with CaptureQueriesContext(connection) as captured:
                assert client.get(paths[0]).status_code == 200
            runs.append(len(captured))
        counts.append(f"{name} {runs[0]} → {runs[1]}")
    return ", ".join(counts)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def redis_start(workdir: Path) -> tuple[subprocess.Popen, str]:
    """A redis-server of this run's own: 127.0.0.1, a free port, nothing saved."""
    port = _free_port()
    cmd = ["redis-server", "--bind", "127.0.0.1", "--port", str(port), "--save", "", "--appendonly", "no"]
    proc = subprocess.Popen([*cmd, "--dir", str(workdir)], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    url = f"redis://127.0.0.1:{port}/0"
    for _ in range(100):
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return proc, url
        time.sleep(0.05)
    proc.terminate()
    raise SystemExit("redis-server did not start")


def _children(ppid: int) -> list[int]:
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == ppid:
                        pids.append(int(entry))
            except OSError:
                continue
    return pids


class Meter:
    """CPU of the web workers, their PostgreSQL backends and the redis-server, and the database's transactions."""

    def __init__(self, web: subprocess.Popen, redis: subprocess.Popen | None):
        from django.db import connection

        self.connection, self.web, self.redis = connection, web, redis
        self.postgres = connection.vendor == "postgresql"

    def _backends(self) -> list[int]:
        if not self.postgres:
            return []
        with self.connection.cursor() as cursor:
            cursor.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
                " AND backend_type = 'client backend'"
            )
            return [pid for (pid,) in cursor.fetchall()]

    def _xacts(self) -> int:
        if not self.postgres:
            return 0
        with self.connection.cursor() as cursor:
            cursor.execute(
                "SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = current_database()"
            )
            return cursor.fetchone()[0]

    def sample(self) -> dict:
        time.sleep(1.2)  # backends report their transaction counts at most once a second
        return {
            "web": {p: _cpu(p) for p in [self.web.pid, *_children(self.web.pid)]},
            "db": {p: _cpu(p) for p in self._backends()},
            "redis": _cpu(self.redis.pid) if self.redis else 0.0,
            "xacts": self._xacts(),
        }

    @staticmethod
    def per_request(before: dict, after: dict, requests: int) -> dict[str, float]:
        """Milliseconds of CPU per request: a process that began during the run counts from zero."""
        n = max(requests, 1)

        def delta(kind: str) -> float:
            return sum(cpu - before[kind].get(pid, 0.0) for pid, cpu in after[kind].items()) * 1000 / n

        return {
            "web": delta("web"),
            "db": delta("db"),
            "redis": (after["redis"] - before["redis"]) * 1000 / n,
            "xacts": (after["xacts"] - before["xacts"]) / n,
        }


def serve(env: dict[str, str], workers: int) -> tuple[subprocess.Popen, str]:
    port = _free_port()
    gunicorn = Path(sys.executable).with_name("gunicorn")
    cmd = [str(gunicorn), "moderator.wsgi:application", "-b", f"127.0.0.1:{port}", "-w", str(workers), "-k", "sync"]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            urllib.request.urlopen(base + "/bench/trivial/", timeout=1).read()
            return proc, base
        except OSError:
            time.sleep(0.1)
    proc.terminate()
    raise SystemExit("gunicorn did not start: " + (proc.stderr.read().decode() if proc.stderr else ""))


def load(base: str, paths: list[str], seconds: int, connections: int, workdir: Path, meter: Meter | None = None):
    """One Locust run: p50 ms, p95 ms, requests per second, and (with a meter) CPU ms and transactions per request; any
    error or non-2xx response stops the bench."""
    script = workdir / "load.py"
    script.write_text(LOAD_SCRIPT % (base, paths, connections, seconds))
    before = meter.sample() if meter else None
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True)
    lines = run.stdout.strip().splitlines()
    result = json.loads(lines[-1]) if run.returncode == 0 and lines else {}
    if (
        run.returncode or result.get("errors") or (meter and not result.get("requests"))
    ):  # a warm-up may finish none on a busy machine
        raise SystemExit(f"the load run failed on {paths[0]} ({result}):\n{run.stderr[-3000:]}")
    if not result:
        return {}
    cost = Meter.per_request(before, meter.sample(), result["requests"]) if meter and before else {}
    return {"p50": float(result["p50"]), "p95": float(result["p95"]), "rps": result["rps"], **cost}


def measure(base: str, urls: dict[str, list[str]], args, workdir: Path, meter: Meter) -> dict[str, dict[str, float]]:
    for paths in urls.values():  # warm every worker's cache and connection
        load(base, paths, 2, args.connections, workdir)
    runs: dict[str, list[dict[str, float]]] = {name: [] for name in urls}
    for _ in range(args.rounds):
        for name, paths in urls.items():
            runs[name].append(load(base, paths, args.seconds, args.connections, workdir, meter))
    return {name: {k: statistics.median(r[k] for r in rs) for k in rs[0]} for name, rs in runs.items()}


def report(title: str, results: dict[str, dict[str, float]]) -> None:
    trivial_p95 = results["trivial"]["p95"]
    print(title)
    print(
        f"  {'page':<9}{'p50 ms':>8}{'p95 ms':>8}{'req/s':>7}{'p95÷triv':>9}"
        f"{'CPU ms/req: web':>17}{'+ pg':>7}{'+ redis':>8}{'= all':>7}{'pg xacts/req':>13}"
    )
    for name, r in results.items():
        cpu = r["web"] + r["db"] + r["redis"]
        print(
            f"  {name:<9}{r['p50']:>8.1f}{r['p95']:>8.1f}{r['rps']:>7.0f}{r['p95'] / trivial_p95:>9.2f}"
            f"{r['web']:>17.2f}{r['db']:>7.2f}{r['redis']:>8.2f}{cpu:>7.2f}{r['xacts']:>13.2f}"
        )


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=10, help="length of one load run")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--connections", type=int, default=50)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2, help="gunicorn sync workers")
    parser.add_argument("--cache", choices=("redis", "locmem"), default="redis", help="the pages' cache")
    parser.add_argument("--checked", action="store_true", help="also: every request checks the fingerprint (1 query)")
    parser.add_argument("--cold", action="store_true", help="also: the cache off (every request replays and renders)")
    parser.add_argument("--uncached", action="store_true", help=argparse.SUPPRESS)  # the old name of --cold
    parser.add_argument("--quick", action="store_true", help="one round of 5 s per URL: checks that it works (≈ 45 s)")
    args = parser.parse_args(argv)
    if args.quick:
        args.seconds, args.rounds = 5, 1
    variants_count = 1 + args.checked + (args.cold or args.uncached)
    per_variant = 3 * (2 + args.rounds * args.seconds) + 10  # warm-up, the rounds, gunicorn's start
    print(
        f"This takes about {15 + variants_count * per_variant} s on a quiet machine (--quick: one short round).",
        flush=True,
    )
    if args.cache == "redis" and not shutil.which("redis-server"):
        raise SystemExit("redis-server is missing: apt-get install -y redis-server (or --cache locmem)")
    workdir = Path(tempfile.mkdtemp(prefix="direnjie-bench-"))
    db_url = os.environ.get("BENCH_DATABASE_URL") or f"sqlite:///{workdir}/bench.sqlite3"
    urls = prepare(db_url)
    redis, cache = (None, "locmem")
    if args.cache == "redis":
        redis, cache = redis_start(workdir)
    env = {**os.environ, "DATABASE_URL": db_url, "DJANGO_SETTINGS_MODULE": "bench.settings", "BENCH_CACHE": cache}
    from django.db import connection

    print(
        f"{connection.vendor}, cache {args.cache}, {args.connections} connections, {args.workers} gunicorn sync "
        f"workers, {args.rounds} × {args.seconds} s per URL; load average {_load()}"
    )
    print(f"queries per request (first → second request, counted in-process): {queries(urls)}")
    variants = [("warm: pages from the cache under their game's version (as served)", {})]
    if args.checked:
        variants.append(
            ("checked: every request checks the game's fingerprint (1 query)", {"PAGES_REVALIDATE_SECONDS": "0"})
        )
    if args.cold or args.uncached:
        variants.append(("cold: cache off (every request replays and renders)", {"BENCH_CACHE": "dummy"}))
    try:
        for title, extra in variants:
            proc, base = serve({**env, **extra}, args.workers)
            try:
                report(title, measure(base, urls, args, workdir, Meter(proc, redis)))
            finally:
                proc.terminate()
                proc.wait(timeout=10)
    finally:
        if redis is not None:
            redis.terminate()
            redis.wait(timeout=10)
    print(f"load average {_load()}")
    shutil.rmtree(workdir, ignore_errors=True)


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


if __name__ == "__main__":
    main(sys.argv[1:])
