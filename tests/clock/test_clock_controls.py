"""The GM's controls on the clock: extend (T4), end early (T5), pause and resume — each one logged."""

from __future__ import annotations

from datetime import timedelta

import pytest
from clockkit import assert_closed_once, running_game
from django.contrib.auth import get_user_model

from moderator.models import AuditLog, Game, Phase
from moderator.services import clock, setup
from moderator.services.errors import PlayError
from tests import entries

pytestmark = pytest.mark.django_db


@pytest.fixture
def gm():
    return get_user_model().objects.create_user("tianshen-clock", password="x")


def _log(phase: Phase, action: str) -> AuditLog:
    return AuditLog.objects.get(game_id=phase.game_id, action=action)


def _vote(phase: Phase, voters: list[str], target: str = "狄仁杰") -> None:
    game = phase.game
    for name in voters:
        entries.vote_submit(
            game=game,
            seat=game.seats.get(player_name=name),
            target=game.seats.get(player_name=target),
            change=False,
            forum_at=phase.starts_at + timedelta(minutes=10),
        )


def test_it_extends_the_current_phase_by_twelve_hours_when_a_substitute_takes_a_seat_T4(gm):
    phase = running_game(ends_in=600)
    planned = phase.ends_at
    seat = phase.game.seats.get(number=3)
    setup.seat_substitute(seat=seat, player_name="替补甲", at=clock.db_now(), actor=gm)
    phase.refresh_from_db()
    assert phase.ends_at == planned + timedelta(hours=12)
    log = _log(phase, "phase_extend")
    assert (log.actor, log.detail["by_s"]) == (gm, 12 * 3600)
    assert log.detail["reason"].startswith("替补:替补甲 接替") and log.detail["reason"].endswith("(T4)")


def test_it_extends_by_any_positive_amount_and_refuses_anything_else_T4():
    phase = running_game(ends_in=600)
    planned = phase.ends_at
    clock.phase_extend(game=phase.game, by=timedelta(minutes=90))
    phase.refresh_from_db()
    assert phase.ends_at == planned + timedelta(minutes=90)
    with pytest.raises(PlayError, match="大于零"):
        clock.phase_extend(game=phase.game, by=timedelta(0))


def test_an_extended_phase_is_not_closed_at_its_old_end_time_T4():
    phase = running_game(ends_in=-1)  # overdue, not swept yet
    clock.phase_extend(game=phase.game, by=timedelta(hours=1))
    assert clock.sweep() == 0
    phase.refresh_from_db()
    assert phase.status == Phase.Status.OPEN


def test_it_names_who_has_not_voted_and_will_not_end_the_day_early_T5():
    phase = running_game(ends_in=3600, kind="day")
    _vote(phase, ["狄仁杰", "李元芳", "曾泰", "狄如燕", "张环"])
    assert clock.waiting_for(phase.game) == ["李朗", "虎敬晖"]
    with pytest.raises(PlayError, match="李朗、虎敬晖"):
        clock.phase_end_early(game=phase.game)
    phase.refresh_from_db()
    assert phase.status == Phase.Status.OPEN


def test_it_ends_the_day_early_once_everyone_has_voted_and_the_night_starts_then_T5(gm):
    phase = running_game(ends_in=3600, kind="day")
    planned = phase.ends_at
    _vote(phase, ["狄仁杰", "李元芳", "曾泰", "狄如燕", "张环", "李朗", "虎敬晖"])
    assert clock.waiting_for(phase.game) == []
    clock.phase_end_early(game=phase.game, actor=gm)
    assert_closed_once(phase)
    phase.refresh_from_db()
    assert phase.ends_at < planned
    night = Phase.objects.get(game_id=phase.game_id, kind="night", number=2)
    assert night.starts_at == phase.ends_at
    log = _log(phase, "phase_end_early")
    assert (log.actor, log.detail["not_acted"]) == (gm, [])


def test_at_night_a_player_without_an_accepted_action_is_still_waited_for_T5():
    phase = running_game(ends_in=3600)
    game = phase.game
    assert len(clock.waiting_for(game)) == 7
    entries.action_submit(
        game=game,
        seat=game.seats.get(player_name="虎敬晖"),  # the 自选 seat: S4 stance, night 1
        payload={"use": "立场", "side": "杀手", "mode": "共赢"},
        forum_at=phase.starts_at + timedelta(minutes=5),
    )
    assert "虎敬晖" not in clock.waiting_for(game)
    assert len(clock.waiting_for(game)) == 6


def test_forcing_an_early_end_closes_the_phase_and_logs_who_had_not_acted_T5():
    phase = running_game(ends_in=3600, kind="day")
    _vote(phase, ["狄仁杰"])
    clock.phase_end_early(game=phase.game, force=True)
    assert_closed_once(phase)
    assert _log(phase, "phase_end_early").detail["not_acted"] == ["李元芳", "曾泰", "狄如燕", "张环", "李朗", "虎敬晖"]


def test_pausing_keeps_the_remaining_time_and_the_sweep_leaves_the_game_alone(gm):
    phase = running_game(ends_in=600)
    clock.game_pause(game=phase.game, actor=gm)
    phase.refresh_from_db()
    assert phase.game.status == Game.Status.PAUSED
    assert timedelta(seconds=595) < phase.paused_remaining <= timedelta(seconds=600)
    assert clock.sweep(now=phase.ends_at + timedelta(days=1)) == 0
    with pytest.raises(PlayError):
        clock.game_pause(game=phase.game)
    assert _log(phase, "game_pause").actor == gm


def test_resuming_ends_the_phase_its_remaining_time_from_now(gm):
    phase = running_game(ends_in=600)
    clock.game_pause(game=phase.game)
    clock.phase_extend(game=phase.game, by=timedelta(minutes=5))  # while paused: the remaining time grows
    phase.refresh_from_db()
    remaining = phase.paused_remaining
    assert timedelta(seconds=895) < remaining <= timedelta(seconds=900)
    before = clock.db_now()
    clock.game_resume(game=phase.game, actor=gm)
    phase.refresh_from_db()
    assert phase.game.status == Game.Status.RUNNING and phase.paused_remaining is None
    assert before + remaining <= phase.ends_at <= clock.db_now() + remaining
    assert _log(phase, "game_resume").detail["remaining_s"] == remaining.total_seconds()


def test_a_phase_paused_at_its_end_closes_right_after_resuming():
    phase = running_game(ends_in=-1)
    clock.game_pause(game=phase.game)
    phase.refresh_from_db()
    assert phase.paused_remaining == timedelta(0)
    clock.game_resume(game=phase.game)
    assert clock.sweep() == 1
    assert_closed_once(phase)
