"""The embedded clock (`make run`, no Redis): a django-q2 schedule on the ORM broker runs the same sweep."""

from __future__ import annotations

import time

import pytest
from clockkit import assert_closed_once, running_game
from django_q.models import Schedule

from moderator import tasks

pytestmark = pytest.mark.django_db


def test_the_django_q_schedule_is_created_once_however_often_it_is_ensured():
    first = tasks.ensure_q_schedule()
    Schedule.objects.filter(pk=first.pk).update(minutes=7)  # drifted: brought back, not duplicated
    again = tasks.ensure_q_schedule()
    assert Schedule.objects.filter(func="moderator.tasks.sweep_q").count() == 1
    assert (again.pk, again.minutes, again.schedule_type, again.repeats) == (first.pk, 1, Schedule.MINUTES, -1)


def test_the_django_q_run_sweeps_overdue_phases_and_leaves_the_rest(settings):
    settings.CLOCK_SWEEP_SECONDS = 0.05
    overdue, future = running_game(ends_in=-1, seed=1), running_game(ends_in=60, seed=2)
    assert tasks.sweep_q(seconds=0.2) == 1
    assert_closed_once(overdue)
    future.refresh_from_db()
    assert future.status == "open"


def test_a_django_q_run_closes_a_phase_ending_within_the_minute_and_then_returns(settings):
    phase = running_game(ends_in=1.5)
    started = time.monotonic()
    assert tasks.sweep_q(seconds=10) == 1
    assert time.monotonic() - started < 10  # it returned once nothing else ends in its window, not at the window's end
    assert_closed_once(phase)
    phase.refresh_from_db()
    assert phase.closed_at >= phase.ends_at  # never early; how late is a benchmark figure (bench_clock)
