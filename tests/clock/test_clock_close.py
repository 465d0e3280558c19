"""T1: every phase closes exactly once and never before its end time — the close service and the sweep."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from clockkit import assert_closed_once, closes_of, running_game
from django.db import connection, transaction

from moderator import tasks
from moderator.models import Game, Phase
from moderator.services import clock

pytestmark = pytest.mark.django_db


def test_it_closes_a_phase_once_when_close_is_called_twice():
    phase = running_game(ends_in=-1)
    assert clock.phase_close_due(phase_id=phase.pk) is True
    assert clock.phase_close_due(phase_id=phase.pk) is False
    assert_closed_once(phase)


def test_it_opens_the_next_phase_at_the_previous_end_time_not_at_the_moment_of_closing_T1():
    phase = running_game(ends_in=-30)
    clock.sweep()
    phase.refresh_from_db()
    day = Phase.objects.get(game_id=phase.game_id, kind="day", number=1)
    assert day.starts_at == phase.ends_at < phase.closed_at
    assert day.ends_at == phase.ends_at + timedelta(seconds=phase.game.phase_seconds)


def test_it_never_closes_a_phase_before_its_end_time():
    phase = running_game(ends_in=5)
    assert clock.sweep() == 0
    assert clock.phase_close_due(phase_id=phase.pk) is False
    assert tasks.close_phase(phase.pk) is False  # an ETA that fires early does nothing
    phase.refresh_from_db()
    assert phase.status == Phase.Status.OPEN and closes_of(phase) == 0


def test_a_sweep_closes_every_overdue_phase_and_leaves_the_rest():
    overdue = [running_game(ends_in=-5, seed=i) for i in range(3)]
    future = running_game(ends_in=60)
    assert clock.sweep() == 3
    for phase in overdue:
        assert_closed_once(phase)
    future.refresh_from_db()
    assert future.status == Phase.Status.OPEN
    assert clock.sweep() == 0


def test_a_sweep_skips_a_paused_game():
    phase = running_game(ends_in=-5)
    Game.objects.filter(pk=phase.game_id).update(status=Game.Status.PAUSED)
    assert clock.sweep() == 0
    phase.refresh_from_db()
    assert phase.status == Phase.Status.OPEN


def test_one_failing_game_does_not_stop_the_sweep_and_is_logged(caplog):
    broken, fine = running_game(ends_in=-10, seed=1), running_game(ends_in=-5, seed=2)
    # a table the engine cannot start from: a seat's opening AP is not a number (fails on either close path)
    Game.objects.filter(pk=broken.game_id).update(initial_ap={"狄仁杰": "两点"})
    assert clock.sweep() == 1
    assert_closed_once(fine)
    broken.refresh_from_db()
    assert broken.status == Phase.Status.OPEN and closes_of(broken) == 0
    assert f"phase {broken.pk}: close failed" in caplog.text
    Game.objects.filter(pk=broken.game_id).update(initial_ap={})  # the table repaired
    assert clock.sweep() == 1  # the next sweep tries again
    assert_closed_once(broken)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_twenty_concurrent_closers_close_a_phase_once():
    phase = running_game(ends_in=-1)
    barrier, results = threading.Barrier(20), []

    def closer():
        try:
            barrier.wait()
            results.append(clock.phase_close_due(phase_id=phase.pk))
        finally:
            connection.close()

    threads = [threading.Thread(target=closer) for _ in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(results) == [False] * 19 + [True]
    assert_closed_once(phase)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_twenty_concurrent_sweeps_close_each_phase_once():
    phases = [running_game(ends_in=-1, seed=i) for i in range(5)]
    barrier, results = threading.Barrier(20), []

    def sweeper():
        try:
            barrier.wait()
            results.append(clock.sweep())
        finally:
            connection.close()

    threads = [threading.Thread(target=sweeper) for _ in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sum(results) == 5
    for phase in phases:
        assert_closed_once(phase)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_batch_skips_a_game_another_closer_holds_and_closes_the_others():
    held, free = running_game(ends_in=-1, seed=1), running_game(ends_in=-1, seed=2)
    result = []

    def batch():
        try:
            result.append(clock.close_batch([held.pk, free.pk]))
        finally:
            connection.close()

    with transaction.atomic():
        Game.objects.select_for_update().get(pk=held.game_id)  # another writer of this game, mid-transaction
        thread = threading.Thread(target=batch)
        thread.start()
        thread.join(30)
    assert result == [1]  # SKIP LOCKED: it did not wait for the held game
    assert_closed_once(free)
    held.refresh_from_db()
    assert held.status == Phase.Status.OPEN and closes_of(held) == 0
    assert clock.sweep() == 1  # the next sweep closes it
    assert_closed_once(held)


@pytest.mark.postgres
def test_the_three_statement_close_writes_nothing_when_its_compare_and_set_matches_no_row_T1():
    """closesql's one write statement: a phase not yet due (its end moved after the lock was taken, as an extension
    would) gets no snapshot, result, next phase, draft or log row — every CTE writes only FROM the compare-and-set."""
    from moderator.models import Announcement
    from moderator.services import closesql

    phase = running_game(ends_in=-1)
    with transaction.atomic():
        [(game, locked)] = closesql.lock([phase.pk])
        Phase.objects.filter(pk=phase.pk).update(ends_at=locked.ends_at + timedelta(hours=1))
        assert closesql.close(game, locked, None) is False  # resolved in Python, then nothing written
    phase.refresh_from_db()
    assert phase.status == Phase.Status.OPEN and phase.closed_at is None
    assert phase.snapshot == "" and phase.result == {}
    assert Phase.objects.filter(game_id=phase.game_id).count() == 1
    assert not Announcement.objects.filter(game_id=phase.game_id).exists() and closes_of(phase) == 0
    Phase.objects.filter(pk=phase.pk).update(ends_at=phase.ends_at - timedelta(hours=1))
    assert clock.phase_close_due(phase_id=phase.pk) is True  # due again: closed once, by the same path
    assert_closed_once(phase)
