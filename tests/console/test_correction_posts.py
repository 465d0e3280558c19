"""A correction re-resolves closed phases and redrafts their posts: the page compares the old post with the new post
of the same kind (a dawn with a dawn, never a dawn with a vote post), and only the close's own drafts are marked
已更正 — a substitution's notice and handover PM, written by hand on the same phase, still hold."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from moderator.models import Announcement, Input, Phase
from moderator.services import corrections, play, setup
from tests import entries
from tests.console.test_console import MANIFESTO

pytestmark = pytest.mark.django_db


def _attack(game, target: str) -> Input:
    phase = game.phases.get(status=Phase.Status.OPEN)
    rec, _ = entries.action_submit(
        game=game,
        seat=game.seats.get(player_name="甲"),
        payload={"card": "杀手", "use": "普通攻击", "target": target, "manifesto": MANIFESTO},
        forum_at=phase.starts_at + timedelta(hours=1),
    )
    return rec


def _close(game) -> None:
    assert play.phase_close(phase=game.phases.get(status=Phase.Status.OPEN))


def test_the_correction_compares_the_old_dawn_with_the_new_dawn(game):
    attack = _attack(game, "乙")
    _close(game)
    diff, day = corrections.correction_preview(game=game, edits=[{"op": "void", "id": attack.pk}])
    assert day.open and ("乙的票权", "4 票", "5 票") in day.changes  # the open day changes too (T3/T5)
    assert "乙昨夜受到了攻击" in diff.before_text and "投票帖" not in diff.before_text.splitlines()[0]
    assert "昨夜平安无事" in diff.after_text


def test_a_correction_leaves_the_substitution_notice_and_its_handover_pm_standing(game):
    attack = _attack(game, "乙")
    _close(game)  # day 1 opens
    seat = game.seats.get(player_name="丙")
    setup.seat_substitute(seat=seat, player_name="戊", at=timezone.now())
    _close(game)  # day 1, with the substitution's drafts: re-resolved below (乙's lost card weighs on the tally)
    by_hand = list(game.announcements.filter(title__contains="替补").exclude(kind=Announcement.Kind.VOTE_POST))
    assert {a.kind for a in by_hand} == {Announcement.Kind.NOTICE, Announcement.Kind.PRIVATE}
    corrections.correction_apply(game=game, edits=[{"op": "void", "id": attack.pk}])
    for a in by_hand:
        a.refresh_from_db()
        assert a.corrected_at is None and not a.title.startswith("〔已更正〕"), a.title
    assert game.announcements.filter(kind=Announcement.Kind.DAWN, corrected_at__isnull=False).count() == 1
    olds = game.announcements.filter(kind=Announcement.Kind.VOTE_POST, corrected_at__isnull=False)
    assert olds.count() == 2  # the close's vote post and the one rewritten for the substitute


def test_a_correction_whose_outcome_differs_from_its_preview_stores_nothing(game):
    """T3/T5: the confirm carries the digest of the preview the 天神 saw; if the correction would now do anything
    else (an input entered meanwhile), nothing is stored."""
    attack = _attack(game, "乙")
    _close(game)
    shown = corrections.correction_preview(game=game, edits=[{"op": "void", "id": attack.pk}])
    day = game.phases.get(status=Phase.Status.OPEN)
    entries.vote_submit(  # meanwhile 乙 votes: the void now changes the weight of a vote the preview did not show
        game=game,
        seat=game.seats.get(player_name="乙"),
        target=game.seats.get(player_name="丁"),
        change=False,
        forum_at=day.starts_at + timedelta(hours=1),
    )
    with pytest.raises(corrections.CorrectionNotAsSeen):
        corrections.correction_apply(game=game, edits=[{"op": "void", "id": attack.pk}], seen=shown.digest)
    assert not hasattr(Input.objects.get(pk=attack.pk), "void")
    again = corrections.correction_preview(game=game, edits=[{"op": "void", "id": attack.pk}])
    corrections.correction_apply(game=game, edits=[{"op": "void", "id": attack.pk}], seen=again.digest)
    assert hasattr(Input.objects.get(pk=attack.pk), "void")
