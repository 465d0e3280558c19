"""Task entry points of the phase clock. They only call moderator.services.clock.

Production: Celery beat publishes `sweep_phases` every CLOCK_SWEEP_SECONDS on the `clock` queue (expiring after one
interval, so sweeps never pile up behind an outage); a worker closes what is overdue and arms a short ETA
(`close_phases`, one task per batch of deadlines in the same instant) for what ends within the next
CLOCK_ETA_WINDOW_SECONDS. The deadline itself is a column: an ETA
lost with a worker or a flushed Redis costs at most one sweep. `acks_late`, `reject_on_worker_lost` and prefetch 1
mean a task can run twice — safe only because closing is idempotent (the close's compare-and-set).

Embedded (`make run`, no Redis): django-q2 on the ORM broker runs `sweep_q` from a schedule (`ensure_q_schedule`).
"""

from __future__ import annotations

import fcntl
import time
from datetime import timedelta
from functools import cache

from celery import shared_task
from django.conf import settings
from django.db import connection

from moderator.health import stamp_sweep
from moderator.services import clock

RELIABLE = {"acks_late": True, "reject_on_worker_lost": True, "ignore_result": True}
Q_SCHEDULE_NAME = "阶段时钟:关闭到期的时段"


@cache
def _redis():
    import redis

    return redis.Redis.from_url(settings.REDIS_URL)


def _key(kind: str, *parts) -> str:
    """A claim key, per database: two databases on one Redis (a bench, a test run) never share phase ids."""
    return ":".join(["clock", str(connection.settings_dict["NAME"]), kind, *map(str, parts)])


# SET NX PX of every key in one command: a sweep during a backlog claims up to CLOCK_SWEEP_LIMIT phases, and one
# pipelined SET per key cost the worker ≈ 45 ms of CPU per sweep for 2,000 keys (≈ 4 ms as one script call).
_CLAIM_LUA = """
local claimed = {}
for i, key in ipairs(KEYS) do
  claimed[i] = redis.call('SET', key, 1, 'NX', 'PX', ARGV[1]) and 1 or 0
end
return claimed
"""


@cache
def _claim_script():
    return _redis().register_script(_CLAIM_LUA)  # EVALSHA; loaded again by redis-py if Redis lost it (a flush)


def _claimed(keys: list[str], ttl: float) -> list[bool]:
    """Which of `keys` this caller claimed (SET NX): a phase is published once per claim, not once per sweep."""
    if not keys:
        return []
    return [bool(ok) for ok in _claim_script()(keys=keys, args=[int(ttl * 1000)])]


@shared_task(name="moderator.tasks.sweep_phases", **RELIABLE)
def sweep_phases() -> int:
    """Close every overdue phase: a few inline, a backlog fanned out to the whole pool; then arm the short ETAs."""
    due = list(clock.due_phases().values_list("pk", flat=True)[: settings.CLOCK_SWEEP_LIMIT])
    inline, backlog = due[: settings.CLOCK_SWEEP_INLINE], due[settings.CLOCK_SWEEP_INLINE :]
    closed = clock.close_batch(inline)
    _fan_out(backlog)
    _arm_etas()
    stamp_sweep("celery")  # what /healthz reads as the clock's last sweep (in the database: Redis may restart empty)
    return closed


def _batches(phase_ids: list[int]) -> list[list[int]]:
    size = settings.CLOCK_BATCH_SIZE
    return [phase_ids[i : i + size] for i in range(0, len(phase_ids), size)]


def _fan_out(phase_ids: list[int]) -> None:
    """Each overdue phase, at most once per CLOCK_FAN_OUT_TTL_SECONDS, in a close_phases task of up to
    CLOCK_BATCH_SIZE phases (one transaction each). No `expires` on close tasks: a late close is still wanted (a
    stale one finds nothing to do), and a worker that finds hundreds of expired tasks at once revokes them
    recursively until Celery 5.7 dies of a RecursionError."""
    claims = _claimed([_key("close", pk) for pk in phase_ids], settings.CLOCK_FAN_OUT_TTL_SECONDS)
    for batch in _batches([pk for pk, mine in zip(phase_ids, claims, strict=True) if mine]):
        close_phases.delay(batch)


def _arm_etas() -> None:
    """A close_phase with an ETA at the end time of every phase ending within the window, once per end time (an
    extension arms a new one; the old one finds the phase not due). Until CLOCK_ETA_GRACE_SECONDS after the end,
    sweeps do not fan the phase out as well: the ETA is closing it (a sweep still closes a few inline)."""
    window = timedelta(seconds=settings.CLOCK_ETA_WINDOW_SECONDS)
    soon = list(clock.phases_ending_within(window).values_list("pk", "ends_at"))
    keys = [_key("eta", pk, ends_at.timestamp()) for pk, ends_at in soon]
    claims = _claimed(keys, 2 * window.total_seconds())
    armed = [due for due, mine in zip(soon, claims, strict=True) if mine]
    if not armed:
        return
    now, grace = clock.db_now(), settings.CLOCK_ETA_GRACE_SECONDS
    with _redis().pipeline(transaction=False) as pipe:
        for pk, ends_at in armed:
            pipe.set(_key("close", pk), 1, px=int(((ends_at - now).total_seconds() + grace) * 1000))
        pipe.execute()
    by_end: dict = {}
    for pk, ends_at in armed:
        by_end.setdefault(ends_at, []).append(pk)
    for ends_at, pks in by_end.items():  # the deadlines of one instant: one task per batch, not one per phase
        for batch in _batches(pks):
            close_phases.apply_async((batch,), eta=ends_at)


@shared_task(name="moderator.tasks.close_phase", **RELIABLE)
def close_phase(phase_id: int) -> bool:
    """Close one phase if it is due; early or twice does nothing."""
    return clock.phase_close_due(phase_id=phase_id)


@shared_task(name="moderator.tasks.close_phases", **RELIABLE)
def close_phases(phase_ids: list[int]) -> int:
    """Close the due ones of these phases in one transaction (clock.close_batch: an ETA at their common end time,
    or a sweep's fan-out); early or twice does nothing. Returns how many it closed. Those it did not close (the
    database went away, or one was not due) lose their fan-out claims, so the next sweep fans them out again at once
    instead of after the claims' time to live."""
    closed = clock.close_batch(phase_ids)
    if closed < len(phase_ids):
        _redis().delete(*[_key("close", pk) for pk in phase_ids])
    return closed


# --- django-q2 (embedded, ORM broker) -----------------------------------------------------------------------------


def sweep_q(seconds: float | None = None) -> int:
    """django-q2's scheduler wakes only every 30 s and repeats a schedule at most once a minute. So each run sweeps,
    then, for the phases ending within the next CLOCK_Q_RUN_SECONDS, sleeps until each end and sweeps again; with
    nothing ending soon it returns at once (a long run would hold up stopping `make run`)."""
    seconds = settings.CLOCK_Q_RUN_SECONDS if seconds is None else seconds
    stop = time.monotonic() + seconds
    closed = _sweep_alone()
    while (wait := _until_next_end(stop)) is not None:
        time.sleep(wait)
        closed += _sweep_alone()
    return closed


def _until_next_end(stop: float) -> float | None:
    """Seconds until the next phase end before `stop`; a phase still overdue (its close failed, or another process
    holds the sweep) is tried again after CLOCK_SWEEP_SECONDS; None when nothing ends before `stop`."""
    left = stop - time.monotonic()
    if left <= 0:
        return None
    if clock.due_phases().exists():
        return min(settings.CLOCK_SWEEP_SECONDS, left)
    ends_at = clock.phases_ending_within(timedelta(seconds=left)).values_list("ends_at", flat=True).first()
    if ends_at is None:
        return None
    return max((ends_at - clock.db_now()).total_seconds(), 0) + 0.05


def _sweep_alone() -> int:
    """One sweep, unless another process on this machine is sweeping right now. Closing twice at once would be
    safe, but on SQLite (`make run`) the second writer fails with "database is locked" instead of waiting."""
    with open(settings.BASE_DIR / "var" / "clock-sweep.lock", "a") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return 0
        closed = clock.sweep()
        stamp_sweep("q")
        return closed  # closing the file releases the lock


def ensure_q_schedule():
    """Create, or bring up to date, the django-q2 schedule that runs `sweep_q` every minute. Idempotent: call it
    before starting `qcluster` (runall, demo) — it keeps the next run time of an existing schedule."""
    from django_q.models import Schedule

    schedule, _ = Schedule.objects.update_or_create(
        name=Q_SCHEDULE_NAME,
        defaults={
            "func": "moderator.tasks.sweep_q",
            "args": None,
            "kwargs": None,
            "schedule_type": Schedule.MINUTES,
            "minutes": 1,
            "repeats": -1,
        },
    )
    return schedule
