"""T1 against the real thing: a Celery worker subprocess, Redis and PostgreSQL. A task may run twice, a worker may die
mid-close, Redis may come back empty — every phase still closes exactly once, never early.

No test sleeps and hopes: each one polls for the close with a deadline, then runs one more full sweep cycle (the next
beat tick, or a published sweep, and every task it leads to) and only then counts closes, log rows and phases — a
second close would have happened by then. How late a close is on the wall clock is a figure of
`manage.py bench_clock`, not a test threshold."""

from __future__ import annotations

import os
import signal

import psycopg
import pytest
from clockkit import (
    assert_closed_once,
    closes_of,
    publish_batch,
    publish_close,
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
    """The backend of a close held back by a table lock on the drafts, before its COMMIT: the ORM path's draft
    INSERT (past its compare-and-set UPDATE), or closesql's one write statement (which locks every table it writes
    before it runs: the compare-and-set and the drafts commit together or not at all)."""
    row = _activity(
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
        " AND (query LIKE %s OR query LIKE %s)",
        ['INSERT INTO "moderator_announcement"%', "%UPDATE moderator_phase p SET status = 'closed'%"],
    )
    return row[0] if row else None


def _backend_gone(pid: int) -> bool:
    return _activity("SELECT count(*) FROM pg_stat_activity WHERE pid = %s", [pid])[0] == 0


def test_the_same_close_task_published_ten_times_closes_the_phase_once(celery_worker):
    worker = celery_worker(concurrency=2)
    phase = running_game(ends_in=-1)
    for _ in range(10):
        publish_close(phase.pk)
    assert wait_for(lambda: len(worker.results("close_phase")) == 10, 30), worker.output()
    assert sorted(worker.results("close_phase")) == ["False"] * 9 + ["True"]  # the other nine found nothing to do
    assert worker.sweep_cycle(beat=False) == "0"
    assert_closed_once(phase)


def test_the_beat_sweeper_closes_a_phase_at_its_end_and_never_before(celery_worker):
    worker = celery_worker(beat=True, concurrency=2)
    phases = [running_game(ends_in=3, seed=i) for i in range(3)]
    assert wait_for(lambda: all(_closed(p) for p in phases), 30), worker.output()
    worker.sweep_cycle(beat=True)
    for phase in phases:
        assert_closed_once(phase)
        assert phase.closed_at >= phase.ends_at  # never early; how late is bench_clock's lateness_p99


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
    assert worker.results("close_phase") == ["True"]  # the one task, run again, closed the phase
    assert worker.sweep_cycle(beat=False) == "0"
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
    successor = celery_worker(beat=True)
    assert wait_for(lambda: _closed(phase), 30), successor.output()
    successor.sweep_cycle(beat=True)
    assert_closed_once(phase)


def test_a_phase_overdue_while_redis_is_down_closes_within_one_sweep_after_redis_comes_back_empty(
    celery_worker, redis_restored
):
    worker = celery_worker(beat=True)
    redis_restored.stop()  # the test run's own redis-server: nothing saved, it comes back empty
    assert wait_for(lambda: not redis_up(), 10)
    phase = running_game(ends_in=-1)
    failed_ticks = worker.output().count("beat: Connection error")
    # A beat tick after the phase was due failed to reach the broker: nothing can sweep without it.
    assert wait_for(lambda: worker.output().count("beat: Connection error") > failed_ticks, 30), worker.output()
    assert _status(phase) == Phase.Status.OPEN
    before = set(worker.tasks("sweep_phases"))
    redis_restored.start()  # the same port, empty: --save "" and no append-only file
    # The worker reconnects on its own retry schedule (kombu: after 2 s, then 4 s more …); the first sweep it
    # runs then closes the phase — nothing armed before the outage survived to do it.
    assert wait_for(lambda: _closed(phase), 60), worker.output()

    # The phase's row is committed before the sweep that closed it has logged its result (it still arms the ETAs
    # and stamps the last sweep): wait for that line, then read it.
    def new_sweeps() -> list[str]:
        return [r for i, r in worker.tasks("sweep_phases").items() if i not in before and r is not None]

    assert wait_for(lambda: new_sweeps(), 30), worker.output()
    assert new_sweeps()[0] == "1", worker.output()
    worker.sweep_cycle(beat=True)
    assert_closed_once(phase)


def test_a_worker_process_keeps_its_database_session_from_one_close_to_the_next(celery_worker):
    """Celery's Django fixup closed the session around every task, so every close paid for a new PostgreSQL session;
    now the pool process keeps it (CONN_MAX_AGE, health-checked before each task)."""
    worker = celery_worker(concurrency=1)
    phases = [running_game(ends_in=-1, seed=i) for i in range(6)]
    publish_close(phases[0].pk)
    assert wait_for(lambda: worker.results("close_phase") == ["True"], 30), worker.output()
    (session,) = worker.sessions()
    for phase in phases[1:]:
        publish_close(phase.pk)
    assert wait_for(lambda: len(worker.results("close_phase")) == 6, 30), worker.output()
    assert worker.results("close_phase") == ["True"] * 6
    assert worker.sessions() == [session]  # the same backend, started before the first close
    for phase in phases:
        assert_closed_once(phase)


def test_a_worker_killed_mid_batch_rolls_the_whole_batch_back_and_the_redelivered_batch_closes_each_phase_once(
    celery_worker,
):
    worker = celery_worker(concurrency=1)
    phases = [running_game(ends_in=-1, seed=i) for i in range(5)]
    with _raw_connection() as holder:
        holder.execute("LOCK TABLE moderator_announcement IN EXCLUSIVE MODE")  # the batch's first close waits here
        publish_batch([p.pk for p in phases])
        stuck = wait_for(_close_stuck_before_commit, 20)
        assert stuck, worker.output()
        (child,) = worker.pool_children()
        os.kill(child, signal.SIGKILL)
        holder.rollback()
        assert wait_for(lambda: _backend_gone(stuck), 20)
    assert wait_for(lambda: all(_closed(p) for p in phases), 30), worker.output()
    assert worker.results("close_phases") == ["5"]  # the one batch, run again, closed all five
    assert worker.sweep_cycle(beat=False) == "0"
    for phase in phases:
        assert_closed_once(phase)


def test_a_worker_whose_database_session_was_dropped_between_tasks_closes_on_a_new_one(celery_worker):
    """The kept session is checked before each task: a server restart or a pooler that dropped it costs nothing."""
    worker = celery_worker(concurrency=1)
    first, second = running_game(ends_in=-1, seed=1), running_game(ends_in=-1, seed=2)
    publish_close(first.pk)
    assert wait_for(lambda: worker.results("close_phase") == ["True"], 30), worker.output()
    ((pid, _),) = worker.sessions()
    _activity("SELECT pg_terminate_backend(%s)", [pid])  # the test database's own session: ours to end
    assert wait_for(lambda: _backend_gone(pid), 10)
    publish_close(second.pk)
    assert wait_for(lambda: len(worker.results("close_phase")) == 2, 30), worker.output()
    assert worker.results("close_phase") == ["True", "True"], worker.output()
    assert [p for p, _ in worker.sessions()] != [pid]
    assert_closed_once(first)
    assert_closed_once(second)
