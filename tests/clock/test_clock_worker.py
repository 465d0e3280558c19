"""T1 against the real thing: a Celery worker subprocess, Redis and PostgreSQL. A task may run twice, a worker may die
mid-close, Redis may come back empty — every phase still closes exactly once, on time, never early."""

from __future__ import annotations

import os
import signal
import subprocess
import time

import psycopg
import pytest
from clockkit import (
    SWEEP_SECONDS,
    assert_closed_once,
    closes_of,
    publish_close,
    redis_start,
    redis_up,
    running_game,
    wait_for,
)
from django.db import connection

from moderator.models import Phase

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]


def _status(phase: Phase) -> str:
    return Phase.objects.values_list("status", flat=True).get(pk=phase.pk)


def _closed(phase: Phase) -> bool:
    return _status(phase) == Phase.Status.CLOSED


def _raw_connection() -> psycopg.Connection:
    s = connection.settings_dict
    return psycopg.connect(
        host=s["HOST"] or "127.0.0.1", port=s["PORT"] or 5432, user=s["USER"], password=s["PASSWORD"], dbname=s["NAME"]
    )


def _activity(sql: str, params=()):
    with connection.cursor() as cursor:  # autocommit: a fresh statistics snapshot every time
        cursor.execute(sql, params)
        return cursor.fetchone()


def _close_stuck_before_commit() -> int | None:
    """The backend of a close that has done its compare-and-set and waits to write the announcements (held back by
    a table lock): past the UPDATE, before the COMMIT."""
    row = _activity(
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
        " AND query LIKE %s",
        ['INSERT INTO "moderator_announcement"%'],
    )
    return row[0] if row else None


def _backend_gone(pid: int) -> bool:
    return _activity("SELECT count(*) FROM pg_stat_activity WHERE pid = %s", [pid])[0] == 0


def test_the_same_close_task_published_ten_times_closes_the_phase_once(celery_worker):
    celery_worker(concurrency=2)
    phase = running_game(ends_in=-1)
    for _ in range(10):
        publish_close(phase.pk)
    assert wait_for(lambda: _closed(phase), 20)
    time.sleep(1)  # the other nine run and find nothing to do
    assert_closed_once(phase)


def test_the_beat_sweeper_closes_a_phase_on_time_and_never_before_its_end(celery_worker):
    celery_worker(beat=True, concurrency=2)
    phases = [running_game(ends_in=3, seed=i) for i in range(3)]
    assert wait_for(lambda: all(_closed(p) for p in phases), 20)
    for phase in phases:
        assert_closed_once(phase)
        lateness = (phase.closed_at - phase.ends_at).total_seconds()
        assert 0 <= lateness < 1.5  # the short ETA fires at the end time; never early


def test_a_worker_killed_between_the_update_and_the_commit_rolls_back_and_the_redelivered_task_closes_once(
    celery_worker,
):
    worker = celery_worker(concurrency=1)
    phase = running_game(ends_in=-1)
    with _raw_connection() as holder:
        holder.execute("LOCK TABLE moderator_announcement IN EXCLUSIVE MODE")  # the close will wait here
        publish_close(phase.pk)
        stuck = wait_for(_close_stuck_before_commit, 20)
        assert stuck, worker.output()
        assert _status(phase) == Phase.Status.OPEN  # updated, not committed
        (child,) = worker.pool_children()
        os.kill(child, signal.SIGKILL)
        holder.rollback()  # lock released: the orphaned backend finds its client gone and rolls back
        assert wait_for(lambda: _backend_gone(stuck), 20)
    # acks_late + reject_on_worker_lost: the message goes back to the queue and the worker runs it again
    assert wait_for(lambda: _closed(phase), 30), worker.output()
    assert "WorkerLostError" in worker.output() or "SIGKILL" in worker.output()
    time.sleep(1)
    assert_closed_once(phase)


def test_a_whole_worker_killed_mid_close_leaves_the_phase_open_for_the_next_worker_s_sweep(celery_worker):
    worker = celery_worker(concurrency=1)
    phase = running_game(ends_in=-1)
    with _raw_connection() as holder:
        holder.execute("LOCK TABLE moderator_announcement IN EXCLUSIVE MODE")
        publish_close(phase.pk)
        stuck = wait_for(_close_stuck_before_commit, 20)
        assert stuck, worker.output()
        worker.kill()  # main process and pool: the message stays unacknowledged in Redis
        holder.rollback()
        assert wait_for(lambda: _backend_gone(stuck), 20)
    assert _status(phase) == Phase.Status.OPEN and closes_of(phase) == 0  # rolled back
    celery_worker(beat=True)
    assert wait_for(lambda: _closed(phase), 20)
    time.sleep(1)
    assert_closed_once(phase)


def test_a_phase_overdue_while_redis_is_down_closes_within_one_sweep_after_redis_comes_back_empty(
    celery_worker, redis_restored
):
    worker = celery_worker(beat=True)
    subprocess.run(["redis-cli", "flushall"], check=True)
    subprocess.run(["redis-cli", "shutdown", "nosave"], check=False)
    assert wait_for(lambda: not redis_up(), 10)
    phase = running_game(ends_in=-1)
    time.sleep(1.5)
    assert _status(phase) == Phase.Status.OPEN  # nothing can sweep without the broker
    redis_start()  # empty: --save "" and the data was flushed
    back = time.monotonic()
    # The worker reconnects on its own retry schedule (kombu: after 2 s, then 4 s more …); then one sweep.
    assert wait_for(lambda: _closed(phase), 30), worker.output()
    assert time.monotonic() - back <= 2 + 2 * SWEEP_SECONDS + 2, worker.output()
    assert_closed_once(phase)
