"""Shared test set-up: real services, and loud skips.

Tests marked `postgres` need DATABASE_URL to point at PostgreSQL (locking is meaningless on SQLite); `redis` needs the
`redis-server` program (those tests start their own on a free port, `own_redis`, and never touch the Redis of the
environment); `browser` needs Debian's chromium. Without them those tests are skipped and the run says so loudly;
with CI=true a single skip fails the run.

While the suite runs, REDIS_URL points at the guard: a redis-server of the run's own (tests/settings.py). Whatever a
test writes there, instead of into a server it started, fails the run at its end, naming the keys.
"""

from __future__ import annotations

import itertools
import os
import shutil
import time
import warnings
from urllib.parse import urlsplit

import psycopg.sql
import pytest
from django.conf import settings

from tests.servers import RedisServer, postgres_session
from tests.world import gm, gm_client  # noqa: F401 — the test world's fixtures, for every test (tests/world.py)

# Debian's chromium-headless-shell when installed (the same Chromium, built without the browser's windowing layers: a
# new context costs ≈ 0.1 s of CPU instead of ≈ 0.45 s, a page load about half; what Playwright itself runs headless),
# else Debian's chromium. CHROMIUM overrides either.
CHROMIUM = os.environ.get("CHROMIUM") or next(
    (path for path in ("/usr/bin/chromium-headless-shell", "/usr/bin/chromium") if os.path.exists(path)),
    "/usr/bin/chromium",
)
_skipped: list[tuple[str, str]] = []


def _redis_server() -> bool:
    return bool(shutil.which("redis-server"))


def _on_postgres() -> bool:
    return settings.DATABASES["default"]["ENGINE"].endswith("postgresql")


# The slowest modules and their seconds as `--durations=0` prints them (summed per module): a hint for spreading them
# over the workers, never for a result (a stale list costs time only). make test's workers (pytest-xdist, worksteal)
# each start with an equal share of the collection, in collection order, and take another's last tests when they run
# out: each share starts with its part of these, so that what is left to take at the end is short tests.
SLOW_MODULES = {
    "tests/clock/test_faults.py": 67,
    "tests/clock/test_faults_broker.py": 48,
    "tests/browser/test_accessibility.py": 37,
    "tests/browser/test_console_playthrough.py": 33,
    "tests/clock/test_clock_worker.py": 33,
    "tests/tables/test_tables_browser.py": 32,
    "tests/tables/test_tables_browser_electronic.py": 28,
    "tests/clock/test_clock_batch.py": 28,
    "tests/clock/test_faults_postgres.py": 26,
    "tests/tables/test_tables_moves_direnjie_noir.py": 24,
    "tests/browser/test_console_what_counts.py": 20,
    "tests/browser/test_console_corrections.py": 19,
    "tests/tables/test_tables_fuzz.py": 18,
}


def _slow_first_in_each_share(items: list, workers: int) -> list:
    """The slow modules split greedily into `workers` parts of about the same seconds, each part first in its share of
    the collection (each module's tests kept together and in order: module fixtures are set up once)."""
    parts: list[list] = [[] for _ in range(workers)]
    seconds = [0] * workers
    for module in SLOW_MODULES:  # the slowest first, each to the part with the fewest seconds so far
        k = seconds.index(min(seconds))
        parts[k].extend(i for i in items if i.nodeid.split("::")[0] == module)
        seconds[k] += SLOW_MODULES[module]
    rest = iter([i for i in items if i.nodeid.split("::")[0] not in SLOW_MODULES])
    ordered: list = []
    for k, part in enumerate(parts):  # share k ends at item (k + 1) * n // workers (worksteal's first split)
        ordered += part
        ordered += itertools.islice(rest, max(0, (k + 1) * len(items) // workers - len(ordered)))
    ordered += rest
    return ordered


def pytest_collection_modifyitems(config, items):
    workers = getattr(config, "workerinput", {}).get("workercount", 0)  # on a worker of pytest-xdist only
    if workers > 1:
        items[:] = _slow_first_in_each_share(items, workers)
    checks = {
        "postgres": (_on_postgres, "需要 PostgreSQL:设置 DATABASE_URL=postgres://…"),
        "redis": (_redis_server, "需要 redis-server 程序(测试自己在空闲端口启动一个):apt-get install redis-server"),
        "browser": (lambda: bool(shutil.which(CHROMIUM)), f"需要 Debian chromium:{CHROMIUM} 不存在"),
    }
    verdicts: dict[str, bool] = {}
    for item in items:
        for name, (check, reason) in checks.items():
            if item.get_closest_marker(name):
                if name not in verdicts:
                    verdicts[name] = check()
                if not verdicts[name]:
                    item.add_marker(pytest.mark.skip(reason=reason))


def pytest_runtest_logreport(report):
    if report.skipped:
        reason = report.longrepr[-1] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        _skipped.append((report.nodeid, reason))


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if _skipped:
        terminalreporter.section("SKIPPED — 这些测试没有运行", sep="!", red=True, bold=True)
        for nodeid, reason in _skipped:
            terminalreporter.write_line(f"SKIPPED {nodeid}: {reason}", red=True)
        if os.environ.get("CI", "").lower() == "true":
            terminalreporter.write_line("CI=true: 不允许跳过任何测试", red=True, bold=True)


def pytest_sessionfinish(session, exitstatus):
    if _skipped and os.environ.get("CI", "").lower() == "true" and exitstatus == 0:
        session.exitstatus = 1


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, request):
    """pytest-django's test database, and at the end of the run every session still open on it ended, so that it
    can be dropped: a thread of a concurrency test or the live server keeps its connection (CONN_MAX_AGE),
    and PostgreSQL refuses to drop a database in use. New sessions are refused first (unless the database is kept,
    --reuse-db), so that none can open between the wait and the drop. This database is the run's own; nothing else is
    touched."""
    yield
    from django.db import connection

    name = connection.settings_dict["NAME"]
    if connection.vendor != "postgresql" or not name.startswith("test_"):  # only the test database pytest-django made
        return
    connection.close()
    with postgres_session("postgres", autocommit=True) as admin:  # the server's maintenance database, never the test's
        if not request.config.getoption("reuse_db", False):
            admin.execute(
                psycopg.sql.SQL("ALTER DATABASE {} WITH ALLOW_CONNECTIONS false").format(psycopg.sql.Identifier(name))
            )
        others = " FROM pg_stat_activity WHERE datname = %s"
        admin.execute("SELECT pg_terminate_backend(pid)" + others, [name])
        # pg_terminate_backend only signals: wait (≤ 10 s) until those sessions are gone, or the drop that follows
        # may still find one ("is being accessed by other users") and leave the database behind
        for _ in range(100):
            if admin.execute("SELECT count(*)" + others, [name]).fetchone()[0] == 0:
                break
            time.sleep(0.1)
        else:
            left = admin.execute("SELECT application_name, state, left(query, 80)" + others, [name]).fetchall()
            warnings.warn(f"sessions still open on the test database {name}: {left}", stacklevel=1)


@pytest.fixture(scope="session", autouse=True)
def redis_guard(tmp_path_factory):
    """The redis-server at REDIS_URL for the whole run (its port chosen by tests/settings.py): nothing may be written
    or read there. At the end of the run, anything that was fails it, with the keys and the commands named. Without
    redis-server nothing listens there, so such a test fails by itself."""
    if not shutil.which("redis-server"):
        yield None
        return
    guard = RedisServer(tmp_path_factory.mktemp("redis-guard"), port=urlsplit(settings.REDIS_URL).port)
    guard.start()
    yield guard
    touched = guard.touched()
    guard.stop()
    if touched:
        pytest.fail(
            "a test used the Redis at REDIS_URL instead of a redis-server of its own (the own_redis fixture): "
            + "; ".join(touched),
            pytrace=False,
        )


@pytest.fixture(scope="session")
def own_redis(tmp_path_factory):
    """A redis-server of this run's own on a free port in a temporary directory; stopped (by its pid) at the end."""
    server = RedisServer(tmp_path_factory.mktemp("redis"))
    server.start()
    yield server
    server.stop()


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    """Each test starts with no POSTs counted (the rate limits' cache, settings.RATELIMIT_USE_CACHE): an account's id
    is reused from one test to the next."""
    from django.core.cache import caches

    caches[settings.RATELIMIT_USE_CACHE].clear()
