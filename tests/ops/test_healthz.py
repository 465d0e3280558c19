"""GET /healthz: the database, the cache and the phase clock's last sweep, for a load balancer or a container's
healthcheck — on any Host header and over plain HTTP, 503 naming the check that failed."""

from __future__ import annotations

import time
from datetime import timedelta
from io import StringIO

import pytest
import redis
from django.core.management import call_command
from django.test import override_settings
from django.utils import timezone
from django_q.tasks import async_task

from moderator.health import last_sweep_key
from moderator.models import Phase

pytestmark = pytest.mark.django_db


def _health(client):
    response = client.get("/healthz", HTTP_HOST="10.0.0.7:8000")  # an internal probe: not an ALLOWED_HOSTS name
    return response.status_code, response.json()


@override_settings(SECURE_SSL_REDIRECT=True, CLOCK_CELERY=False)
def test_healthz_answers_a_probe_on_any_host_over_plain_http(client):
    status, body = _health(client)
    assert status == 200, body
    assert body["status"] == "ok"
    assert body["checks"]["database"]["ok"] and body["checks"]["cache"]["ok"]
    assert body["checks"]["clock"] == {"ok": True, "overdue_seconds": 0.0, "last_sweep": None}
    assert client.get("/healthz", HTTP_HOST="10.0.0.7:8000").headers["Cache-Control"] == "no-store"


@override_settings(CLOCK_CELERY=False, CLOCK_STALE_SECONDS=60)
def test_a_clock_that_never_swept_fails_once_a_phase_is_overdue_and_a_sweep_brings_it_back(client):
    call_command("demo", stdout=StringIO())
    Phase.objects.filter(status=Phase.Status.OPEN).update(ends_at=timezone.now() - timedelta(minutes=5))
    status, body = _health(client)
    assert status == 503 and body["status"] == "fail"
    assert not body["checks"]["clock"]["ok"] and "没有扫描" in body["checks"]["clock"]["error"]
    assert body["checks"]["database"]["ok"]  # the others still say what holds

    async_task("moderator.tasks.sweep_q", 0, sync=True)  # the embedded clock's task, run and saved by django-q2
    status, body = _health(client)
    assert status == 200, body
    assert body["checks"]["clock"]["seconds_ago"] < 30 and body["checks"]["clock"]["overdue_seconds"] == 0.0
    assert not Phase.objects.filter(status=Phase.Status.OPEN, ends_at__lt=timezone.now()).exists()


@pytest.fixture
def celery_clock_redis(settings, own_redis):
    """The Celery clock's Redis is the run's own redis-server (never the one at REDIS_URL); the tasks' cached client is
    dropped before and after, so that no other test talks to this one."""
    from moderator import tasks

    settings.CLOCK_CELERY = True
    settings.REDIS_URL = own_redis.url
    tasks._redis.cache_clear()
    tasks._claim_script.cache_clear()
    yield redis.Redis.from_url(own_redis.url)
    tasks._redis.cache_clear()
    tasks._claim_script.cache_clear()


@pytest.mark.redis
def test_the_celery_clock_stamps_its_sweeps_in_redis_and_a_stale_stamp_fails(client, celery_clock_redis):
    from moderator.tasks import sweep_phases

    stamps = celery_clock_redis
    stamps.delete(last_sweep_key())
    status, body = _health(client)
    assert body["checks"]["clock"]["last_sweep"] is None  # no stamp yet: the check waits for an overdue phase
    sweep_phases()  # the beat's task, run in-process: it stamps its sweep
    assert float(stamps.get(last_sweep_key())) > time.time() - 30
    status, body = _health(client)
    assert status == 200, body
    assert body["checks"]["clock"]["seconds_ago"] < 30
    stamps.set(last_sweep_key(), time.time() - 3600)  # the worker stopped an hour ago
    status, body = _health(client)
    assert status == 503 and "没有扫描" in body["checks"]["clock"]["error"]
