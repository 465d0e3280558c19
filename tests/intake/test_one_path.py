"""One way to write an input, one way to preview a write, and the audit row written by the verb itself: a preview is
the write rolled back (nothing of it stays), a write leaves the caller's replay as it was, and the console's action
form, vote form and start write the audit row the audit page shows inside their own transaction (a refused write
leaves none)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from moderator.models import AuditLog, Game, Input, InputVerdict, Message
from moderator.services import errors, inputs, intake, play, setup, storage, verdicts
from moderator.services.preview import rolled_back
from tests.browser.console_kit import TABLE
from tests.world import game_make

pytestmark = pytest.mark.django_db

MANIFESTO = "月黑风高" * 30


@pytest.fixture
def game():
    g = game_make(name="一条路", players=TABLE, started_at=timezone.now() - timedelta(hours=3))
    return g


def seat(game, name):
    return game.seats.get(player_name=name)


def at(game, minutes: int):
    return game.phases.get().starts_at + timedelta(minutes=minutes)


def test_a_rolled_back_write_returns_what_it_did_and_keeps_nothing(game):
    entry = inputs.Entry(seat(game, "乙"), [{"use": "束魂", "target": "丙"}], at(game, 30))
    outcome = rolled_back(lambda: inputs.write(game, entry).outcome)
    assert [verdicts.verdict_text(v) for v in outcome.verdicts] == ["接受(−2 点)"]
    assert outcome.what == ["束魂 → 丙"]
    assert not Input.objects.exists() and not InputVerdict.objects.exists()
    assert Game.objects.get(pk=game.pk).input_seq == 0  # the entry numbers it took are given back too
    stored = inputs.write(game, entry, seen=outcome.digest)  # the preview's digest is the write's
    assert stored.outcome.digest == outcome.digest and Input.objects.count() == 1


def test_an_error_inside_a_rolled_back_write_is_raised_and_nothing_is_kept(game):
    def fails():
        Message.objects.create(game=game, sender_name="甲", text="", forum_at=at(game, 5))
        raise errors.PlayError("拒绝")

    with pytest.raises(errors.PlayError, match="拒绝"):
        rolled_back(fails)
    assert not Message.objects.exists()


def test_a_write_leaves_the_replay_it_was_given_as_it_was(game):
    replay = storage.game_replay(game)
    state, records, verdicts_before = replay.state, dict(replay.records), dict(replay.verdicts)
    entry = inputs.Entry(seat(game, "乙"), [{"use": "束魂", "target": "丙"}], at(game, 30))
    written = inputs.write(game, entry, replay=replay)
    assert replay.state is state and replay.records == records and replay.verdicts == verdicts_before
    assert not replay.fresh
    [rec] = written.inputs
    assert written.replay.verdicts[rec.pk] == written.verdicts[0] and rec in written.replay.records[rec.phase_id]
    assert written.replay.state.seat("乙").ap == replay.state.seat("乙").ap - 2


def test_the_action_form_verb_writes_its_audit_row_with_the_item(game, gm):
    item = {"use": "普通攻击", "card": "杀手", "target": "乙", "manifesto": MANIFESTO}
    rec, verdict = intake.action_entry(game=game, seat=seat(game, "甲"), item=item, forum_at=at(game, 10), actor=gm)
    assert verdict.accepted and rec.entered_by == gm
    row = AuditLog.objects.get(game=game, action="录入特权")
    assert (row.actor, row.detail) == (gm, {"seat": "甲", **item})


def test_a_refused_form_entry_leaves_no_audit_row(game, gm):
    """Out of forum order, the entry would change a verdict the 天神 has not seen: nothing is stored, nor logged."""
    yi = seat(game, "乙")
    intake.action_entry(game=game, seat=yi, item={"use": "束魂", "target": "丙"}, forum_at=at(game, 60), actor=gm)
    with pytest.raises(verdicts.NotAsSeen):
        intake.action_entry(game=game, seat=yi, item={"use": "禁锢", "target": "丁"}, forum_at=at(game, 30), seen="")
    assert AuditLog.objects.filter(game=game, action="录入特权").count() == 1 and Input.objects.count() == 1


def test_the_vote_form_verb_writes_its_audit_row_with_the_kind_of_post(game, gm):
    night = game.phases.get()
    assert play.phase_close(phase=night, now=night.ends_at)
    day = game.phases.get(status="open")
    when = day.starts_at + timedelta(hours=1)
    intake.vote_entry(
        game=game, seat=seat(game, "甲"), target=seat(game, "乙"), change=False, edited=False, forum_at=when, actor=gm
    )
    intake.vote_entry(game=game, seat=seat(game, "丙"), target=None, change=False, edited=True, forum_at=when, actor=gm)
    rows = [r.detail for r in AuditLog.objects.filter(game=game, action="录入投票").order_by("id")]
    assert rows == [
        {"seat": "甲", "target": "乙", "post": "original"},
        {"seat": "丙", "target": "", "post": "edited"},
    ]


def test_a_start_by_the_gm_is_logged_with_the_phases_it_closes_at_once_and_a_scenarios_is_not(gm):
    started = game_make(name="开局", players=TABLE)
    setup.game_start(game=started, at=timezone.now() - timedelta(hours=61), actor=gm)
    row = AuditLog.objects.get(game=started, action="开始游戏")
    assert row.actor == gm and row.detail["closed_at_once"] == ["第1夜", "第1天"]
    quiet = game_make(name="情景", players=TABLE, started_at=timezone.now() - timedelta(hours=1))
    assert not AuditLog.objects.filter(game=quiet).exists()
