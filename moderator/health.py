"""GET /healthz — is this site able to work: the database answers, the cache keeps what it is given, and the phase
clock has swept lately. JSON, 200 when all three hold, 503 with the failing check named otherwise; for a load
balancer, a container's healthcheck or an uptime monitor.

Served by a middleware first in the chain, so it answers on any Host header and over plain HTTP (a probe from inside
the network knows neither the public name nor TLS); it shows nothing a public page does not (no game, no player).

The clock's last sweep: the Celery clock (Procfile beat + worker) stamps it in Redis at every sweep
(tasks.sweep_phases); the embedded clock of `make run` (django-q2) leaves a saved task per run. The clock fails the
check when its last sweep is older than CLOCK_STALE_SECONDS, or, before any sweep was seen, when a running game's
phase has been overdue that long (a clock that never started)."""

from __future__ import annotations

import json
import secrets
import time
from datetime import UTC, datetime

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import HttpResponse

PATH = "/healthz"


def last_sweep_key() -> str:
    return ":".join(["clock", str(connection.settings_dict["NAME"]), "last-sweep"])


def _database() -> dict:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return {"ok": True, "vendor": connection.vendor}


def _cache() -> dict:
    key, value = f"healthz:{secrets.token_hex(8)}", secrets.token_hex(8)
    cache.set(key, value, 10)
    ok = cache.get(key) == value
    cache.delete(key)
    return {"ok": ok, **({} if ok else {"error": "缓存没有保存写入的值"})}


def _sweeps() -> list[float]:
    """Times (epoch seconds) of the last sweep as each clock recorded it."""
    seen = []
    from django_q.models import Task

    last = Task.objects.filter(func="moderator.tasks.sweep_q").order_by("-stopped").values_list("stopped", flat=True)
    if stamp := last.first():
        seen.append(stamp.timestamp())
    if settings.CLOCK_CELERY:
        import redis

        stamp = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=1, socket_connect_timeout=1).get(
            last_sweep_key()
        )
        if stamp:
            seen.append(float(stamp))
    return seen


def _clock() -> dict:
    from moderator.services import clock

    now = time.time()
    stale = settings.CLOCK_STALE_SECONDS
    oldest = clock.due_phases().order_by("ends_at").values_list("ends_at", flat=True).first()
    overdue = round(now - oldest.timestamp(), 1) if oldest else 0.0
    sweeps = _sweeps()
    report: dict = {"overdue_seconds": overdue}
    if sweeps:
        ago = now - max(sweeps)
        report |= {"last_sweep": datetime.fromtimestamp(max(sweeps), UTC).isoformat(), "seconds_ago": round(ago, 1)}
        ok = ago <= stale
    else:
        report["last_sweep"] = None
        ok = overdue <= stale
    if not ok:
        report["error"] = f"阶段时钟超过 {stale:g} 秒没有扫描(到期未关闭的时段已过 {overdue:g} 秒)"
    return {"ok": ok, **report}


def report() -> tuple[bool, dict]:
    checks = {}
    for name, check in (("database", _database), ("cache", _cache), ("clock", _clock)):
        try:
            checks[name] = check()
        except Exception as exc:  # a health check reports a broken dependency, whatever its error
            checks[name] = {"ok": False, "error": f"{type(exc).__name__}: {exc}"[:300]}
    ok = all(c["ok"] for c in checks.values())
    return ok, {"status": "ok" if ok else "fail", "checks": checks}


class HealthMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path != PATH or request.method not in ("GET", "HEAD"):
            return self.get_response(request)
        ok, body = report()
        response = HttpResponse(
            json.dumps(body, ensure_ascii=False), status=200 if ok else 503, content_type="application/json"
        )
        response["Cache-Control"] = "no-store"
        return response
