"""`manage.py bench_clock` as docs/benchmarks.md gives it works on a fresh PostgreSQL database (no tables yet): it
migrates first and says so, then closes its games, instead of ending in a traceback about a missing relation."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from django.conf import settings

from tests.servers import postgres_session

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.postgres, pytest.mark.redis]


@pytest.fixture
def fresh_database():
    """A new, empty database on the test run's PostgreSQL server; dropped afterwards."""
    db = settings.DATABASES["default"]
    server = f"postgresql://{db['USER']}:{db['PASSWORD']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}"
    name = f"test_direnjie_fresh_{uuid.uuid4().hex[:8]}"  # a test database by its name, like pytest-django's
    with postgres_session("postgres", autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    yield f"{server}/{name}"
    with postgres_session("postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE "{name}" WITH (FORCE)')  # the one this fixture created, never another


def test_the_clock_bench_migrates_a_database_without_tables_and_closes_its_games(fresh_database, own_redis):
    env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_SETTINGS_MODULE", "SECRET_KEY", "DEBUG")}
    env.update(DATABASE_URL=fresh_database, REDIS_URL=own_redis.url)
    command = ["manage.py", "bench_clock", "--games", "2", "--phase-seconds", "1", "--workers", "1", "--timeout", "30"]
    run = subprocess.run([sys.executable, *command], cwd=ROOT, env=env, capture_output=True, text=True, timeout=180)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "先执行 migrate" in run.stderr
    assert run.stdout.startswith("closed 2/2 exactly_once=yes"), run.stdout
