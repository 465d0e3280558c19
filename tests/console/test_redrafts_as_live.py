"""A correction redrafts a close's posts word for word as a live close with the corrected inputs would have drafted
them: the same calculation and the same next phase — but for its deadline, when it has moved since (an extension,
a substitution's 12 hours, T4): a corrected post is posted now, and never states a deadline that no longer holds (T5:
the announced end is the reference)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from moderator.models import Announcement, Phase
from moderator.services import clock, corrections, play, setup
from tests import entries
from tests.console.conftest import TABLE
from tests.console.test_console import MANIFESTO

pytestmark = pytest.mark.django_db


def _table(at):
    game = setup.table_create(name="测试局", players=TABLE)
    setup.game_start(game=game, at=at)
    return game


def _night_drafts(game) -> list[tuple[str, str, str]]:
    night = game.phases.get(kind=Phase.Kind.NIGHT, number=1)
    drafts = night.announcements.filter(corrected_at__isnull=True).exclude(kind=Announcement.Kind.NOTICE)
    return sorted((a.kind, a.title.removesuffix("(更正后)"), a.bbcode) for a in drafts)


def test_a_corrections_redrafts_are_the_drafts_a_live_close_of_the_corrected_inputs_writes():
    at = timezone.now().replace(microsecond=0) - timedelta(days=3)
    corrected, live = _table(at), _table(at)
    night = corrected.phases.get()
    attack = {"card": "杀手", "use": "普通攻击", "target": "乙", "manifesto": MANIFESTO}
    rec, _ = entries.action_submit(
        game=corrected, seat=corrected.seats.get(player_name="甲"), payload=attack, forum_at=at + timedelta(hours=1)
    )
    assert play.phase_close(phase=night)
    assert play.phase_close(phase=live.phases.get())
    corrections.correction_apply(game=corrected, edits=[{"op": "void", "id": rec.pk}])
    assert _night_drafts(corrected) == _night_drafts(live) != []


def _vote_post(game) -> str:
    night = game.phases.get(kind=Phase.Kind.NIGHT, number=1)
    return night.announcements.get(corrected_at__isnull=True, kind=Announcement.Kind.VOTE_POST).text


def test_a_corrections_redrafted_vote_post_names_the_deadline_as_it_stands_after_an_extension():
    at = timezone.now().replace(microsecond=0) - timedelta(days=3)
    corrected, live = _table(at), _table(at)
    attack = {"card": "杀手", "use": "普通攻击", "target": "乙", "manifesto": MANIFESTO}
    rec, _ = entries.action_submit(
        game=corrected, seat=corrected.seats.get(player_name="甲"), payload=attack, forum_at=at + timedelta(hours=1)
    )
    assert play.phase_close(phase=corrected.phases.get())
    assert play.phase_close(phase=live.phases.get())
    clock.phase_extend(game=corrected, by=timedelta(hours=6), reason="论坛维护")  # day 1 now ends 6 hours later
    corrections.correction_apply(game=corrected, edits=[{"op": "void", "id": rec.pk}])
    day = corrected.phases.get(kind=Phase.Kind.DAY, number=1)
    deadline = timezone.localtime(day.announced_end or day.ends_at).strftime("%Y-%m-%d %H:%M")
    was = timezone.localtime(live.phases.get(kind=Phase.Kind.DAY, number=1).ends_at).strftime("%Y-%m-%d %H:%M")
    assert deadline != was and deadline in _vote_post(corrected) and was not in _vote_post(corrected)
    assert _vote_post(corrected).replace(deadline, was) == _vote_post(live)
