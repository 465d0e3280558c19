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


@pytest.mark.redis
def test_the_celery_clock_stamps_its_sweeps_in_redis_and_a_stale_stamp_fails(client, settings):
    from moderator.tasks import sweep_phases

    settings.CLOCK_CELERY = True
    stamps = redis.Redis.from_url(settings.REDIS_URL)
    try:
        sweep_phases()  # the beat's task, run in-process: it stamps its sweep
        status, body = _health(client)
        assert status == 200, body
        assert body["checks"]["clock"]["seconds_ago"] < 30
        stamps.set(last_sweep_key(), time.time() - 3600)  # the worker stopped an hour ago
        status, body = _health(client)
        assert status == 503 and "没有扫描" in body["checks"]["clock"]["error"]
    finally:
        stamps.delete(last_sweep_key())  # only the key this test wrote
