"""The clock outlives its broker, run as shipped (marker `faults`): the Procfile's worker and beat, two processes,
nobody restarting them (a Procfile runner has no supervisor), while this run's redis-server is SIGKILLed and
started again empty at the worst moment.

The worst moment is a task that *finishes* after Redis died and before the worker noticed: its late acknowledgement
fails on the dead connection, then the worker's clean-up of the lost connection tried to restore the unacknowledged
messages through a transport it had already closed (AttributeError on 'hostname') and the worker exited
("Unrecoverable error"), leaving every later deadline open. To make that order certain rather than lucky, the test
holds the close before its COMMIT (a table lock), stops the worker's main process (SIGSTOP: it can notice nothing),
kills Redis, lets the close commit in the pool process, and only then lets the main process go on: it finds the
task's result and the dead broker together, as it does when a close ends in the milliseconds after Redis died.

Each test repeats its fault with the same worker and beat (the processes back from the fault meet it again); each
round ends with every phase closed exactly once and a deadline that falls after Redis is back closed within 15 s of
it, by the same processes."""

from __future__ import annotations

import os
import re
import signal
import time

import pytest
from clockkit import (
    REDIS_BACK_SECONDS,
    ShippedBeat,
    ShippedWorker,
    assert_closed_once,
    close_stuck_before_commit,
    closed,
    purge,
    raw_connection,
    redis_kill,
    redis_start,
    running_game,
    wait_for,
)

pytestmark = [pytest.mark.faults, pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]

ROUNDS = 2  # the fault, then the same fault on the processes that came back from it
# The worker's log once it has cleaned up the lost connection: retrying it, or the error that ended the worker.
CLEANED_UP = re.compile(r"consumer: Cannot connect to .*\n?Trying again in|Unrecoverable error")


@pytest.fixture
def shipped(tmp_path, redis_restored):
    purge()
    worker, beat = ShippedWorker(tmp_path / "worker.log"), ShippedBeat(tmp_path / "beat.log")  # started together
    try:
        worker.started()
        beat.started()
        yield worker, beat
    finally:
        beat.stop()
        worker.stop()


def _finish_behind_the_workers_back(worker, phases) -> None:
    """A close of `phases` is held before its COMMIT; the worker's main process is stopped; Redis is SIGKILLed; the
    close commits; the main process goes on, finds the close's result and the dead broker; then Redis comes back,
    empty (it keeps nothing on disk, as compose runs it)."""
    cleaned_up = len(CLEANED_UP.findall(worker.output()))
    with raw_connection() as holder:
        holder.execute("LOCK TABLE moderator_announcement IN EXCLUSIVE MODE")
        assert wait_for(close_stuck_before_commit, 30), worker.output()
        os.kill(worker.proc.pid, signal.SIGSTOP)  # the main process only: the pool process goes on
        try:
            redis_kill()
            holder.rollback()  # the close goes on and commits; its result waits for the main process
            assert wait_for(lambda: any(closed(p) for p in phases), 30), worker.output()
            time.sleep(0.3)  # the pool process writes its result to the main process
        finally:
            os.kill(worker.proc.pid, signal.SIGCONT)
    # The main process acknowledges on the dead broker, then cleans up the lost connection (it retries the connection
    # next, kombu: again after 2 s, or it dies of it): Redis comes back once that is logged, or after a second.
    wait_for(lambda: len(CLEANED_UP.findall(worker.output())) > cleaned_up or worker.proc.poll() is not None, 1)
    redis_start()


def _clock_runs_again(worker, beat, phases, seed: int) -> None:
    """Back from the fault without a hand: every phase closed once, a new deadline closed within the bound."""
    back = time.monotonic()
    later = running_game(ends_in=2, seed=seed)  # falls due after Redis is back: only a running clock closes it
    done = wait_for(lambda: closed(later) and all(closed(p) for p in phases), REDIS_BACK_SECONDS, every=0.1)
    took = time.monotonic() - back
    assert done, f"not all closed {took:.1f}s after Redis was back:\n{worker.output()[-8000:]}\n{beat.output()[-3000:]}"
    assert worker.proc.poll() is None and beat.proc.poll() is None, worker.output()[-6000:]
    assert "Unrecoverable error" not in worker.output(), worker.output()[-6000:]
    time.sleep(0.5)  # a straggling second close would show below
    for phase in [*phases, later]:
        assert_closed_once(phase)


def test_a_close_that_finishes_after_redis_died_and_before_the_worker_noticed_does_not_stop_the_clock(shipped):
    """Ten deadlines in the same second, armed as one timed close; the close finishes behind the worker's back."""
    worker, beat = shipped
    for round_ in range(ROUNDS):
        phases = [running_game(ends_in=4, seed=100 * round_ + i) for i in range(10)]
        _finish_behind_the_workers_back(worker, phases)
        _clock_runs_again(worker, beat, phases, seed=100 * round_ + 99)


def test_redis_restarted_during_a_sweep_does_not_stop_the_clock(shipped):
    """Thirty overdue phases: a sweep closes twenty inline, then would fan out the rest and arm its timed closes; Redis
    dies under it, so the sweep ends in an error on the dead broker, behind the worker's back. Redis comes back empty:
    the next sweeps find what is still open."""
    worker, beat = shipped
    for round_ in range(ROUNDS):
        phases = [running_game(ends_in=-1, seed=100 * round_ + i) for i in range(30)]
        _finish_behind_the_workers_back(worker, phases)
        _clock_runs_again(worker, beat, phases, seed=100 * round_ + 99)
