"""Faults as tests (marker `faults`; run by `make test` and .ci/run like every test): the clock's own redis-server
restarted while a close is in flight, and a worker SIGKILLed in the middle of a batch of closes. Each ends with every
phase closed exactly once and the clock running again by itself, no hand restarting anything.

Only what the tests started is touched: this run's redis-server on a free port (tests/clock/conftest.py), the test
database, the workers they started. No timing assertion: each wait is a bounded poll for an outcome."""

from __future__ import annotations

import pytest
from clockkit import (
    assert_closed_once,
    backend_gone,
    close_stuck_before_commit,
    closed,
    publish_batch,
    publish_sweep,
    raw_connection,
    redis_up,
    running_game,
    status,
    wait_for,
)

from moderator.models import Phase

pytestmark = [pytest.mark.faults, pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]


def test_a_redis_restart_during_a_close_does_not_stop_the_clock(celery_worker, redis_restored):
    """The close waits on a lock before its COMMIT; Redis restarts (empty) under it; the lock goes. Kombu's Redis
    transport could not acknowledge a late-ack task on the connection Redis dropped (AttributeError on 'hostname'), and
    the worker died of it ("Unrecoverable error") with beat still sending sweeps nobody ran. Now the worker cancels
    the task in flight when it loses the broker (Celery's worker_cancel_long_running_tasks_on_connection_loss), the
    close rolls back or commits, and the next sweep settles it: closed once, and a later phase closes too. (The other
    order, a close that finishes after Redis died and before the worker noticed: test_faults_broker.py.)"""
    worker = celery_worker(beat=True, concurrency=1)
    phase = running_game(ends_in=-1)
    with raw_connection() as holder:
        holder.execute("LOCK TABLE moderator_announcement IN EXCLUSIVE MODE")
        stuck = wait_for(close_stuck_before_commit, 30)
        assert stuck, worker.output()
        redis_restored.stop()
        assert wait_for(lambda: not redis_up(), 10)
        holder.rollback()  # the stuck close goes on (or was cancelled) while the broker is away
    wait_for(lambda: closed(phase), 5)  # a close that went on commits and acknowledges while Redis is down
    redis_restored.start()  # the same port, empty
    assert wait_for(lambda: closed(phase), 90), worker.output()
    later = running_game(ends_in=2, seed=2)  # due after the restart: only a clock that runs again closes it
    assert wait_for(lambda: closed(later), 90), worker.output()
    assert worker.proc.poll() is None, worker.output()
    assert "Unrecoverable error" not in worker.output()
    worker.sweep_cycle(beat=True, timeout=60)
    assert_closed_once(phase)
    assert_closed_once(later)


def test_a_redis_restart_during_a_sweep_does_not_stop_the_clock(celery_worker, redis_restored):
    """A sweep finds thirty overdue phases (the clock was away): it closes the first ones inline and fans the rest
    out. Its first inline close waits on a lock before its COMMIT while Redis restarts (empty) under the sweep: the
    fan-out's messages and claims are gone with it. The worker lives, the next sweeps find what is still open, and
    every phase is closed exactly once; a phase due after the restart closes too. The sweeps are published here as
    beat would send them (one at a time, so the test knows which sweep holds the close)."""
    phases = [running_game(ends_in=-1, seed=100 + i) for i in range(30)]
    with raw_connection() as holder:
        holder.execute("LOCK TABLE moderator_announcement IN EXCLUSIVE MODE")
        worker = celery_worker(beat=False, concurrency=1)
        sweep = publish_sweep()
        stuck = wait_for(close_stuck_before_commit, 30)
        assert stuck, worker.output()
        assert worker.tasks("sweep_phases") == {sweep: None}  # the close held is the sweep's own, inline
        redis_restored.stop()
        assert wait_for(lambda: not redis_up(), 10)
        holder.rollback()  # the sweep goes on (or is cancelled) while the broker is away
    redis_restored.start()  # the same port, empty: the fanned-out closes it held are lost
    assert worker.proc.poll() is None, worker.output()
    for _ in range(5):  # sweeps as beat would send them, until the backlog is gone (each settles what it finds)
        worker.sweep_cycle(beat=False, timeout=90)
        if all(closed(p) for p in phases):
            break
    assert [status(p) for p in phases] == ["closed"] * len(phases), worker.output()
    later = running_game(ends_in=-1, seed=200)  # fell due after the restart: the next sweep closes it
    worker.sweep_cycle(beat=False, timeout=90)
    assert closed(later), worker.output()
    assert "Unrecoverable error" not in worker.output()
    for phase in [*phases, later]:
        assert_closed_once(phase)


def test_a_worker_sigkilled_mid_batch_leaves_every_phase_to_the_next_worker_closed_once(celery_worker):
    """A batch of 12 closes (one transaction) waits on a lock; the whole worker is SIGKILLed; the batch rolls back.
    The next worker's sweeps close every phase, each once, and none of them waits for a reservation to lapse."""
    worker = celery_worker(concurrency=1)
    phases = [running_game(ends_in=-1, seed=i) for i in range(12)]
    with raw_connection() as holder:
        holder.execute("LOCK TABLE moderator_announcement IN EXCLUSIVE MODE")
        publish_batch([p.pk for p in phases])
        stuck = wait_for(close_stuck_before_commit, 30)
        assert stuck, worker.output()
        worker.kill()  # main process and pool: the batch's message stays unacknowledged
        holder.rollback()
        assert wait_for(lambda: backend_gone(stuck), 20)
    assert all(status(p) == Phase.Status.OPEN for p in phases)  # one transaction: rolled back whole
    successor = celery_worker(beat=True, concurrency=1)
    assert wait_for(lambda: all(closed(p) for p in phases), 90), successor.output()
    successor.sweep_cycle(beat=True, timeout=60)
    for phase in phases:
        assert_closed_once(phase)


def test_phases_whose_timed_close_was_lost_with_its_worker_are_fanned_out_by_the_next_workers_sweeps(
    celery_worker, monkeypatch
):
    """The worker armed a close_phases with an ETA at the phases' end, then died before it. The phases are reserved
    for that ETA only a few seconds past their end (CLOCK_ETA_GRACE_SECONDS), then the next worker's sweeps fan them
    out to its pool. (Sweeps here close nothing inline — CLOCK_SWEEP_INLINE=0 —, so only the fan-out can close them:
    with the 120 s reservation of before, the bounded wait below, half of that, ran out.)"""
    monkeypatch.setenv("CLOCK_SWEEP_INLINE", "0")  # read by the workers this test starts
    worker = celery_worker(beat=True, concurrency=1)
    phases = [running_game(ends_in=8, seed=i) for i in range(3)]
    assert wait_for(lambda: worker.tasks("close_phases"), 30), worker.output()  # the ETA task, held by the worker
    worker.kill()
    assert all(status(p) == Phase.Status.OPEN for p in phases)
    successor = celery_worker(beat=True, concurrency=1)
    assert wait_for(lambda: all(closed(p) for p in phases), 60), successor.output()
    successor.sweep_cycle(beat=True, timeout=60)
    for phase in phases:
        assert_closed_once(phase)
