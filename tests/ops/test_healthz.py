"""GET /healthz: the database, the cache and the phase clock's last sweep, for a load balancer or a container's
healthcheck — on any Host header and over plain HTTP, 503 naming the check that failed (never an internal address).
The last sweep is stamped in the database: a Redis restarted empty does not make a dead clock look unstarted."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import override_settings
from django.utils import timezone
from django_q.tasks import async_task

from moderator.models import Phase
from tests.servers import free_port

pytestmark = pytest.mark.django_db


def _health(client):
    response = client.get("/healthz", HTTP_HOST="10.0.0.7:8000")  # an internal probe: not an ALLOWED_HOSTS name
    return response.status_code, response.json()


@override_settings(SECURE_SSL_REDIRECT=True)
def test_healthz_answers_a_probe_on_any_host_over_plain_http(client):
    status, body = _health(client)
    assert status == 200, body
    assert body["status"] == "ok"
    assert body["checks"]["database"]["ok"] and body["checks"]["cache"]["ok"]
    assert body["checks"]["clock"] == {"ok": True, "overdue_seconds": 0.0, "last_sweep": None}
    assert client.get("/healthz", HTTP_HOST="10.0.0.7:8000").headers["Cache-Control"] == "no-store"


@override_settings(CLOCK_STALE_SECONDS=60)
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

    settings.REDIS_URL = own_redis.url
    tasks._redis.cache_clear()
    tasks._claim_script.cache_clear()
    yield own_redis
    tasks._redis.cache_clear()
    tasks._claim_script.cache_clear()


def _later(monkeypatch, seconds: float) -> None:
    """/healthz asked `seconds` from now: the clock's last sweep has aged that much, nothing has swept since."""
    import time

    monkeypatch.setattr("moderator.health._now", lambda: time.time() + seconds)


@pytest.mark.redis
def test_a_celery_clock_that_stopped_sweeping_fails_within_two_minutes(client, celery_clock_redis, monkeypatch):
    from moderator.tasks import sweep_phases

    sweep_phases()  # the beat's task, run in-process: it stamps its sweep
    status, body = _health(client)
    assert status == 200, body
    assert body["checks"]["clock"]["seconds_ago"] < 30
    _later(monkeypatch, 121)  # the worker (or beat) died two minutes ago
    status, body = _health(client)
    assert status == 503 and "没有扫描" in body["checks"]["clock"]["error"]


@pytest.mark.redis
def test_a_dead_clock_is_still_flagged_after_redis_restarted_empty(client, celery_clock_redis, monkeypatch):
    """The worker swept, then died; Redis restarts (empty, as compose's Redis does). The stamp of the last sweep is
    not Redis's to lose: an hour later the clock still fails, though no phase is overdue."""
    from moderator.tasks import sweep_phases

    sweep_phases()
    celery_clock_redis.stop()
    celery_clock_redis.start()  # the same port, empty
    _later(monkeypatch, 3600)
    status, body = _health(client)
    assert status == 503, body
    assert body["checks"]["clock"]["last_sweep"] is not None and body["checks"]["clock"]["overdue_seconds"] == 0.0


def test_a_failed_check_names_itself_and_the_kind_of_error_never_an_internal_address(client, settings):
    """An anonymous probe's 503 says which check failed; the address of the Redis that refused (the cache's here)
    belongs in the log, not in a public body."""
    port = free_port()  # nothing listens there
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": f"redis://127.0.0.1:{port}/0"}
    }
    response = client.get("/healthz", HTTP_HOST="10.0.0.7:8000")
    assert response.status_code == 503
    body = response.json()
    assert body["checks"]["cache"] == {"ok": False, "error": "缓存检查失败(ConnectionError)"}
    assert body["checks"]["database"]["ok"]
    text = response.content.decode()
    assert "127.0.0.1" not in text and str(port) not in text and "Error 111" not in text
