"""GET /healthz — is this site able to work: the database answers, the cache keeps what it is given, and the phase
clock has swept lately. JSON, 200 when all three hold, 503 with the failing check named otherwise; for a load
balancer, a container's healthcheck or an uptime monitor.

Served by a middleware first in the chain, so it answers on any Host header and over plain HTTP (a probe from inside
the network knows neither the public name nor TLS); it shows nothing a public page does not (no game, no player).

The clock's last sweep: each clock stamps it in the database at every sweep (`stamp_sweep`: the Celery clock's
sweep_phases, the embedded django-q2 clock's sweeps), where a Redis restarted empty cannot erase it. The clock fails
the check when its last sweep is older than CLOCK_STALE_SECONDS (a worker or beat that died, a broker that does not
come back), or, before any sweep was ever stamped, when a running game's phase has been overdue that long (a clock
that never started).

The body is public: a failed check says which check failed and what kind of error it met (the exception's class),
never the error's text, which names internal addresses ("Error 111 connecting to 127.0.0.1:6379"); the full error
goes to the log."""

from __future__ import annotations

import json
import logging
import secrets
import time
from datetime import UTC, datetime

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import HttpResponse
from django.utils import timezone

PATH = "/healthz"
_log = logging.getLogger(__name__)


def stamp_sweep(clock: str) -> None:
    """Record that `clock` ("celery" or "q") has just finished a sweep: one upsert of one row."""
    from moderator.models import ClockSweep

    ClockSweep.objects.bulk_create(
        [ClockSweep(clock=clock, at=timezone.now())],
        update_conflicts=True,
        unique_fields=["clock"],
        update_fields=["at"],
    )


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
    """Times (epoch seconds) of the last sweep as each clock stamped it."""
    from moderator.models import ClockSweep

    return [at.timestamp() for at in ClockSweep.objects.values_list("at", flat=True)]


def _now() -> float:
    return time.time()


def _clock() -> dict:
    from moderator.services import clock

    now = _now()
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


_NAMES = {"database": "数据库", "cache": "缓存", "clock": "阶段时钟"}


def report() -> tuple[bool, dict]:
    checks = {}
    for name, check in (("database", _database), ("cache", _cache), ("clock", _clock)):
        try:
            checks[name] = check()
        except Exception as exc:  # a health check reports a broken dependency, whatever its error
            _log.warning("healthz: the %s check failed", name, exc_info=True)
            checks[name] = {"ok": False, "error": f"{_NAMES[name]}检查失败({type(exc).__name__})"}
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
