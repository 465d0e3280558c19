"""The suite touches only what it started. While it runs, REDIS_URL is the guard — a redis-server of the run's own
(tests/settings.py, tests/conftest.py) — not the Redis of the environment; a test that writes there instead of into a
server it started fails the run, naming the key. Tests that need Redis start their own (`own_redis`)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.conf import settings

from tests import settings as test_settings

ROOT = Path(__file__).resolve().parents[2]

STRAY = """
import redis
from django.conf import settings


def test_a_test_that_writes_to_the_redis_at_redis_url():
    redis.Redis.from_url(settings.REDIS_URL).set("stray-key-of-a-careless-test", 1)


def test_a_test_that_uses_a_redis_server_of_its_own(own_redis):
    own_redis.client().set("a-key-in-its-own-server", 1)
"""


def test_redis_url_is_the_guard_of_this_run_not_the_redis_of_the_environment(redis_guard):
    assert settings.REDIS_URL == test_settings.GUARD_REDIS_URL == os.environ["REDIS_URL"]
    assert settings.CELERY_BROKER_URL == settings.REDIS_URL  # Celery's broker too
    if test_settings.ENVIRONMENT_REDIS_URL:
        assert settings.REDIS_URL != test_settings.ENVIRONMENT_REDIS_URL
    if redis_guard is not None:  # the guard answers on that port, and it is our child: nobody else's server
        assert urlsplit(settings.REDIS_URL).port == redis_guard.port
        with open(f"/proc/{redis_guard.proc.pid}/stat") as stat:
            assert int(stat.read().rsplit(")", 1)[1].split()[1]) == os.getpid()


@pytest.mark.redis
def test_a_key_written_to_the_redis_at_redis_url_fails_the_run_and_is_named(tmp_path):
    """A small run of its own, with the suite's settings and fixtures: one test writes a key to REDIS_URL, one into a
    redis-server it started. Both pass, and the run fails at its end naming the stray key — only that one."""
    (tmp_path / "test_probe.py").write_text(textwrap.dedent(STRAY))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "DJANGO_SETTINGS_MODULE"))}
    env["REDIS_URL"] = "redis://127.0.0.1:9/0"  # what the environment says is never used: the guard replaces it
    options = [
        "-p",
        "tests.conftest",
        "-c",
        str(ROOT / "pyproject.toml"),
        "--rootdir",
        str(ROOT),
        "-p",
        "no:cacheprovider",
    ]
    run = subprocess.run(
        [sys.executable, "-m", "pytest", *options, "-q", str(tmp_path / "test_probe.py")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    out = run.stdout + run.stderr
    assert run.returncode != 0, out
    assert "2 passed" in out and "1 error" in out, out
    assert "used the Redis at REDIS_URL" in out and "stray-key-of-a-careless-test" in out, out
    assert "a-key-in-its-own-server" not in out, out
