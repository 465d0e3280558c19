"""A phase that cannot be closed (here: a corrupt entry counter) is tried three times by the
sweeper, then quarantined — no sweep retries it forever — and the 天神's dashboard says so and why."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from moderator.models import Input, Phase
from moderator.services import clock
from tests.world import game_make

pytestmark = pytest.mark.django_db


@pytest.fixture
def broken(gm):
    game = game_make(name="坏局", gm=gm, started_at=timezone.now() - timedelta(hours=25))
    phase = game.phases.get()
    seat = game.seats.get(number=1)
    # A row whose entry number the game's counter never gave out (no service writes that): the replay reads it
    # fine, but the close's default orders (O1) take numbers from the counter and collide with it, every time.
    Input.objects.create(
        game=game, phase=phase, seat=seat, kind="pass", payload={"pass": True}, forum_at=phase.starts_at, seq=1
    )
    return gm, game, phase


def test_a_phase_that_fails_to_close_three_times_is_quarantined_and_shown_to_the_gm(client, broken):
    gm, game, phase = broken
    for attempt in range(1, 4):
        assert clock.sweep() == 0
        phase.refresh_from_db()
        assert phase.status == Phase.Status.OPEN and phase.close_failures == attempt
    assert not clock.due_phases().filter(pk=phase.pk).exists()  # the fourth sweep does not try it
    clock.sweep()
    phase.refresh_from_db()
    assert phase.close_failures == 3 and phase.close_error
    client.force_login(gm)
    page = client.get(f"/gm/{game.pk}/").content.decode()
    assert 'id="quarantined"' in page and "自动结算连续失败 3 次" in page


def test_extending_a_quarantined_phase_gives_the_clock_a_fresh_start(broken):
    _, game, phase = broken
    for _ in range(3):
        clock.sweep()
    clock.phase_extend(game=game, by=timedelta(hours=1))
    phase.refresh_from_db()
    assert phase.close_failures == 0 and phase.close_error == ""
