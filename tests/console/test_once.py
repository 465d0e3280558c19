"""Idempotent commands and the one lock order (the architecture issue): a repeated or stale submit changes nothing,
and every service, run at once against one game on PostgreSQL, queues on the game row instead of deadlocking."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from moderator.models import AuditLog, Game, Input, Message, Phase
from moderator.services import clock, corrections, errors, intake, play, setup, storage
from moderator.services.once import Once, form_nonce

pytestmark = pytest.mark.django_db
MANIFESTO = "天下大势,分久必合,合久必分。" * 8


def _once(game) -> Once:
    """What a page rendered now carries: a fresh token and the open phase's id."""
    phase = game.phases.filter(status=Phase.Status.OPEN).first()
    return Once(form_nonce(), phase.pk if phase else None)


def _at(game, hours=1):
    return game.phases.get(status=Phase.Status.OPEN).starts_at + timedelta(hours=hours)


def _together(n: int, work) -> list:
    """Run `work(i)` in n threads released at the same moment; returns each result or the exception it raised."""
    barrier, results = threading.Barrier(n), [None] * n

    def run(i):
        try:
            barrier.wait()
            results[i] = work(i)
        except Exception as exc:  # the refusal (or a deadlock, which the test reports)
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    return results


def test_it_refuses_a_confirm_sent_twice_and_stores_the_message_once(game):
    seat = game.seats.get(player_name="乙")
    once = _once(game)
    intake.pm_confirm(game, intake.Pasted(seat=seat, text="束魂 乙", forum_at=_at(game)), once=once)
    with pytest.raises(errors.PlayError, match="已经提交过了"):
        intake.pm_confirm(game, intake.Pasted(seat=seat, text="束魂 乙", forum_at=_at(game)), once=once)
    assert Message.objects.count() == 1 and Input.objects.count() == 1
    assert storage.game_replay(game).state.seat("乙").ap == 1  # charged once: 3 − 2


def test_it_refuses_a_page_that_showed_a_phase_that_has_closed_since(game):
    shown = _once(game)  # the dashboard of night 1
    play.phase_close(phase=game.phases.get(status=Phase.Status.OPEN))
    with pytest.raises(errors.PlayError, match="页面已过期:提交的页面显示的是第1夜,现在是第1天"):
        clock.phase_end_early(game=game, force=True, once=shown)
    assert game.phases.get(kind="day", number=1).status == Phase.Status.OPEN


def test_a_form_without_its_token_changes_nothing(game):
    with pytest.raises(errors.PlayError, match="缺少一次性令牌"):
        clock.game_pause(game=game, once=Once("", None))
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_three_concurrent_confirms_of_one_pm_store_one_curse_and_charge_once(game):
    seat, once, at = game.seats.get(player_name="乙"), _once(game), _at(game)
    results = _together(
        3, lambda i: intake.pm_confirm(game, intake.Pasted(seat=seat, text="诅咒 甲", forum_at=at), once=once)
    )
    assert sum(not isinstance(r, Exception) for r in results) == 1, results
    assert all("已经提交过了" in str(r) for r in results if isinstance(r, Exception))
    assert Message.objects.count() == 1 and Input.objects.count() == 1
    assert storage.game_replay(game).state.seat("乙").ap == 2  # 3 − 1, once


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_end_early_posts_close_night_1_only(game):
    once = _once(game)
    results = _together(2, lambda i: clock.phase_end_early(game=game, force=True, once=once))
    assert sum(not isinstance(r, Exception) for r in results) == 1, results
    assert list(game.phases.order_by("starts_at").values_list("kind", "number", "status")) == [
        ("night", 1, "closed"),
        ("day", 1, "open"),
    ]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_substitute_posts_extend_the_phase_by_twelve_hours_once(game):
    phase = game.phases.get(status=Phase.Status.OPEN)
    seat, once = game.seats.get(player_name="丙"), _once(game)
    _together(2, lambda i: setup.seat_substitute(seat=seat, player_name="替补丙", at=timezone.now(), once=once))
    phase.refresh_from_db()
    assert phase.ends_at - phase.starts_at == timedelta(hours=24 + 12)
    assert AuditLog.objects.filter(action="phase_extend").count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_every_service_at_once_on_one_game_queues_on_the_game_row_and_never_deadlocks(game):
    """The one lock order (base.game_lock): inputs, a void, a correction, clock controls, a substitution, the
    close and the pages' replay, all released at the same moment, twice over."""
    seats = {s.player_name: s for s in game.seats.all()}
    first = intake.action_entry(
        game=game,
        seat=seats["甲"],
        item={"use": "普通攻击", "card": "杀手", "target": "乙", "manifesto": MANIFESTO},
        forum_at=_at(game),
    )[0]
    night1 = game.phases.get(status=Phase.Status.OPEN)
    at = _at(game, 2)
    jobs = [
        lambda: intake.action_entry(game=game, seat=seats["乙"], item={"use": "束魂", "target": "乙"}, forum_at=at),
        lambda: intake.action_entry(game=game, seat=seats["丙"], item={"use": "治疗", "target": "乙"}, forum_at=at),
        lambda: intake.pm_confirm(game, intake.Pasted(seat=seats["丁"], text="诅咒 甲", forum_at=at)),
        lambda: intake.input_void(game=game, pk=first.pk, reason="录错了"),
        lambda: clock.phase_extend(game=game, by=timedelta(hours=1)),
        lambda: clock.game_pause(game=game),
        lambda: clock.game_resume(game=game),
        lambda: setup.seat_substitute(seat=seats["丙"], player_name="替补丙", at=timezone.now()),
        lambda: storage.game_replay(game),
        lambda: clock.waiting_for(game),
    ]
    results = _together(len(jobs), lambda i: jobs[i]())
    deadlocks = [r for r in results if isinstance(r, Exception) and "deadlock" in str(r).lower()]
    assert not deadlocks
    refusals = [r for r in results if isinstance(r, Exception)]
    assert all(isinstance(r, errors.PlayError) for r in refusals), refusals  # a pause/resume out of turn, nothing else
    # Then the close, a correction and more inputs, at once.
    game.refresh_from_db()
    if game.status == Game.Status.PAUSED:
        clock.game_resume(game=game)
    play.Phase.objects.filter(pk=night1.pk).update(ends_at=timezone.now() - timedelta(seconds=1))
    jobs = [
        lambda: play.phase_close(phase=night1),
        lambda: play.phase_close(phase=night1),
        lambda: intake.action_entry(game=game, seat=seats["甲"], item={"use": "保镖"}, forum_at=at),
        lambda: clock.sweep(),
    ]
    results = _together(len(jobs), lambda i: jobs[i]())
    assert not [r for r in results if isinstance(r, Exception) and "deadlock" in str(r).lower()]
    assert game.phases.filter(kind="night", number=1, status=Phase.Status.CLOSED).count() == 1
    assert game.phases.filter(kind="day", number=1).count() == 1
    edit = {"op": "void", "id": Input.objects.filter(game=game, phase=night1).exclude(void__isnull=False).first().pk}
    results = _together(2, lambda i: corrections.correction_apply(game=game, edits=[edit]))
    assert not [r for r in results if isinstance(r, Exception) and "deadlock" in str(r).lower()]
    # Whatever the interleaving, the stored snapshots equal a replay from night 1.
    full = storage.game_replay(game, full=True)
    assert storage.game_replay(game).state == full.state
