"""T1 against the real thing, on one worker the module's tests share (tests/clock/conftest.py `pool_worker`: a prefork
worker with one pool process, no beat, each test reading its log from where the test began): its pool process killed
mid-close or mid-batch (the main process forks a new one and the task is redelivered), its database session kept
from one close to the next, or dropped between two. Starting a worker costs about 1.5 s of CPU, and stopping it 2 s:
these tests leave theirs running for the next. Every phase still closes exactly once.

No test sleeps and hopes: each one polls for the close with a deadline, then runs one more full sweep cycle (a
published sweep, and every task it leads to) and only then counts closes, log rows and phases."""

from __future__ import annotations

import os
import signal

import pytest
from clockkit import (
    activity,
    assert_closed_once,
    backend_gone,
    close_stuck_before_commit,
    closed,
    publish_batch,
    publish_close,
    raw_connection,
    running_game,
    status,
    wait_for,
)

from moderator.models import Phase

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]


def test_a_worker_killed_between_the_update_and_the_commit_rolls_back_and_the_redelivered_task_closes_once(pool_worker):
    worker = pool_worker
    phase = running_game(ends_in=-1)
    with raw_connection() as holder:
        holder.execute("LOCK TABLE moderator_announcement IN EXCLUSIVE MODE")  # the close will wait here
        publish_close(phase.pk)
        stuck = wait_for(close_stuck_before_commit, 20)
        assert stuck, worker.output()
        assert status(phase) == Phase.Status.OPEN  # updated, not committed
        (child,) = worker.pool_children()
        os.kill(child, signal.SIGKILL)
        holder.rollback()  # lock released: the orphaned backend finds its client gone and rolls back
        assert wait_for(lambda: backend_gone(stuck), 20)
    # acks_late + reject_on_worker_lost: the message goes back to the queue and the worker runs it again
    assert wait_for(lambda: closed(phase), 30), worker.output()
    assert "WorkerLostError" in worker.output() or "SIGKILL" in worker.output()
    assert worker.results("close_phase") == ["True"]  # the one task, run again, closed the phase
    assert worker.sweep_cycle(beat=False) == "0"
    assert_closed_once(phase)


def test_a_worker_process_keeps_its_database_session_from_one_close_to_the_next(pool_worker):
    """Celery's Django fixup closed the session around every task, so every close paid for a new PostgreSQL session;
    now the pool process keeps it (CONN_MAX_AGE, health-checked before each task)."""
    worker = pool_worker
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


def test_a_worker_whose_database_session_was_dropped_between_tasks_closes_on_a_new_one(pool_worker):
    """The kept session is checked before each task: a server restart or a pooler that dropped it costs nothing."""
    worker = pool_worker
    first, second = running_game(ends_in=-1, seed=1), running_game(ends_in=-1, seed=2)
    publish_close(first.pk)
    assert wait_for(lambda: worker.results("close_phase") == ["True"], 30), worker.output()
    ((pid, _),) = worker.sessions()
    activity("SELECT pg_terminate_backend(%s)", [pid])  # the test database's own session: ours to end
    assert wait_for(lambda: backend_gone(pid), 10)
    publish_close(second.pk)
    assert wait_for(lambda: len(worker.results("close_phase")) == 2, 30), worker.output()
    assert worker.results("close_phase") == ["True", "True"], worker.output()
    assert [p for p, _ in worker.sessions()] != [pid]
    assert_closed_once(first)
    assert_closed_once(second)


def test_a_worker_killed_mid_batch_rolls_the_whole_batch_back_and_the_redelivered_batch_closes_each_phase_once(
    pool_worker,
):
    worker = pool_worker
    phases = [running_game(ends_in=-1, seed=i) for i in range(5)]
    with raw_connection() as holder:
        holder.execute("LOCK TABLE moderator_announcement IN EXCLUSIVE MODE")  # the batch's first close waits here
        publish_batch([p.pk for p in phases])
        stuck = wait_for(close_stuck_before_commit, 20)
        assert stuck, worker.output()
        (child,) = worker.pool_children()
        os.kill(child, signal.SIGKILL)
        holder.rollback()
        assert wait_for(lambda: backend_gone(stuck), 20)
    assert wait_for(lambda: all(closed(p) for p in phases), 30), worker.output()
    assert worker.results("close_phases") == ["5"]  # the one batch, run again, closed all five
    assert worker.sweep_cycle(beat=False) == "0"
    for phase in phases:
        assert_closed_once(phase)
