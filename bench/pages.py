"""Benchmark of the player and public pages against a trivial Django view, in one run: `python -m bench.pages`.

Builds the sample game (moderator.public.sample: seven seats, three closed phases, day 2 open) in a fresh SQLite
database under /tmp (or BENCH_DATABASE_URL), serves the project with gunicorn (DEBUG off, bench.settings) and loads
three URLs with wrk, 50 concurrent connections: the trivial view, the public page, and the seven private pages in
turn. Rounds alternate the URLs so that all three see the same machine; the figures are the medians over rounds.
Prints p50/p95 per URL and p95 ÷ the trivial view's p95 (goal: ≤ 3). `--uncached` adds a second server with the
page-body cache off (every request replays the game and renders the page).

Needs wrk (`apt-get install -y wrk`).
"""

from __future__ import annotations

import argparse
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

WRK_SCRIPT = """
local paths = {%s}
local i = 0
request = function()
  i = i %% #paths + 1
  return wrk.format("GET", paths[i])
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("RESULT %%d %%d %%d %%d %%d\\n", latency:percentile(50), latency:percentile(95),
    summary.requests, summary.duration, e.status + e.connect + e.read + e.write + e.timeout))
end
"""


def prepare(db_url: str) -> dict[str, list[str]]:
    """Migrate the database and play the sample game; returns the paths to load."""
    os.environ["DATABASE_URL"] = db_url
    os.environ["DJANGO_SETTINGS_MODULE"] = "bench.settings"
    import django

    django.setup()
    from django.core.management import call_command

    from moderator.public.sample import sample_game

    call_command("migrate", verbosity=0)
    sample = sample_game(name="压测局")
    return {
        "trivial": ["/bench/trivial/"],
        "public": [f"/games/{sample.game.pk}/"],
        "private": [f"/p/{seat.token}/" for seat in sample.seats.values()],
    }


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


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


def load(base: str, paths: list[str], seconds: int, connections: int, workdir: Path) -> tuple[float, float, float]:
    """One wrk run: (p50 ms, p95 ms, requests per second); any error or non-2xx response stops the bench."""
    script = workdir / "paths.lua"
    script.write_text(WRK_SCRIPT % ", ".join(f'"{p}"' for p in paths))
    cmd = ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--timeout", "10s", "-s", str(script), base]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    line = next(x for x in out.splitlines() if x.startswith("RESULT"))
    p50, p95, requests, duration, errors = (int(v) for v in line.split()[1:])
    if errors:
        raise SystemExit(f"wrk saw {errors} errors on {paths[0]}:\n{out}")
    return p50 / 1000, p95 / 1000, requests / (duration / 1e6)


def measure(base: str, urls: dict[str, list[str]], args, workdir: Path) -> dict[str, tuple[float, float, float]]:
    for paths in urls.values():  # warm every worker's cache and connection
        load(base, paths, 2, args.connections, workdir)
    runs: dict[str, list[tuple[float, float, float]]] = {name: [] for name in urls}
    for _ in range(args.rounds):
        for name, paths in urls.items():
            runs[name].append(load(base, paths, args.seconds, args.connections, workdir))
    return {name: tuple(statistics.median(r[i] for r in rs) for i in range(3)) for name, rs in runs.items()}


def report(title: str, results: dict[str, tuple[float, float, float]]) -> None:
    trivial_p95 = results["trivial"][1]
    print(title)
    print(f"  {'page':<10}{'p50 ms':>9}{'p95 ms':>9}{'req/s':>9}{'p95 ÷ trivial':>15}")
    for name, (p50, p95, rps) in results.items():
        print(f"  {name:<10}{p50:>9.1f}{p95:>9.1f}{rps:>9.0f}{p95 / trivial_p95:>15.2f}")


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=10, help="length of one wrk run")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--connections", type=int, default=50)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2, help="gunicorn sync workers")
    parser.add_argument("--uncached", action="store_true", help="also measure with the page-body cache off")
    args = parser.parse_args(argv)
    if not shutil.which("wrk"):
        raise SystemExit("wrk is missing: apt-get install -y wrk")
    workdir = Path(tempfile.mkdtemp(prefix="direnjie-bench-"))
    db_url = os.environ.get("BENCH_DATABASE_URL") or f"sqlite:///{workdir}/bench.sqlite3"
    urls = prepare(db_url)
    env = {**os.environ, "DATABASE_URL": db_url, "DJANGO_SETTINGS_MODULE": "bench.settings"}
    print(
        f"{args.connections} connections, {args.workers} gunicorn sync workers, {args.rounds} × {args.seconds} s per URL"
    )
    variants = [("page bodies cached (as served)", {})]
    if args.uncached:
        variants.append(("page-body cache off (every request replays and renders)", {"BENCH_CACHE": "dummy"}))
    for title, extra in variants:
        proc, base = serve({**env, **extra}, args.workers)
        try:
            report(title, measure(base, urls, args, workdir))
        finally:
            proc.terminate()
            proc.wait(timeout=10)
    shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main(sys.argv[1:])
