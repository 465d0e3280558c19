"""T1 against the real thing: a Celery worker subprocess, Redis and PostgreSQL. A task may run twice, a worker may die
mid-close, Redis may come back empty — every phase still closes exactly once, never early.

No test sleeps and hopes: each one polls for the close with a deadline, then runs one more full sweep cycle (the next
beat tick, or a published sweep, and every task it leads to) and only then counts closes, log rows and phases — a
second close would have happened by then. How late a close is on the wall clock is a figure of
`manage.py bench_clock`, not a test threshold."""

from __future__ import annotations

import pytest
from clockkit import (
    assert_closed_once,
    backend_gone,
    close_stuck_before_commit,
    closed,
    closes_of,
    publish_close,
    raw_connection,
    redis_up,
    running_game,
    status,
    wait_for,
)

from moderator.models import Phase

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]


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
    assert wait_for(lambda: all(closed(p) for p in phases), 30), worker.output()
    worker.sweep_cycle(beat=True)
    for phase in phases:
        assert_closed_once(phase)
        assert phase.closed_at >= phase.ends_at  # never early; how late is bench_clock's lateness_p99


def test_a_whole_worker_killed_mid_close_leaves_the_phase_open_for_the_next_worker_s_sweep(celery_worker):
    worker = celery_worker(concurrency=1)
    phase = running_game(ends_in=-1)
    with raw_connection() as holder:
        holder.execute("LOCK TABLE moderator_announcement IN EXCLUSIVE MODE")
        publish_close(phase.pk)
        stuck = wait_for(close_stuck_before_commit, 20)
        assert stuck, worker.output()
        worker.kill()  # main process and pool: the message stays unacknowledged in Redis
        holder.rollback()
        assert wait_for(lambda: backend_gone(stuck), 20)
    assert status(phase) == Phase.Status.OPEN and closes_of(phase) == 0  # rolled back
    successor = celery_worker(beat=True)
    assert wait_for(lambda: closed(phase), 30), successor.output()
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
    assert status(phase) == Phase.Status.OPEN
    before = set(worker.tasks("sweep_phases"))
    redis_restored.start()  # the same port, empty: --save "" and no append-only file
    # The worker reconnects on its own retry schedule (kombu: after 2 s, then 4 s more …); the first sweep it
    # runs then closes the phase — nothing armed before the outage survived to do it.
    assert wait_for(lambda: closed(phase), 60), worker.output()

    # The phase's row is committed before the sweep that closed it has logged its result (it still arms the ETAs
    # and stamps the last sweep): wait for that line, then read it.
    def new_sweeps() -> list[str]:
        return [r for i, r in worker.tasks("sweep_phases").items() if i not in before and r is not None]

    assert wait_for(lambda: new_sweeps(), 30), worker.output()
    assert new_sweeps()[0] == "1", worker.output()
    worker.sweep_cycle(beat=True)
    assert_closed_once(phase)
