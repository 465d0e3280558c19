"""A correction compares results seat by seat — a substitute (S5) is the same seat, not a change."""

from datetime import timedelta

import pytest

from moderator.models import Announcement, Phase
from moderator.services import corrections, inputs, play, setup
from tests import entries

pytestmark = pytest.mark.django_db
MANIFESTO = "天下大势,分久必合,合久必分。" * 8


def test_a_correction_sees_no_change_where_only_the_seats_holder_changed_s5(game):
    night1 = game.phases.get(status=Phase.Status.OPEN)
    at = night1.starts_at + timedelta(hours=1)
    entries.action_submit(
        game=game, seat=game.seats.get(player_name="乙"), payload={"use": "束魂", "target": "乙"}, forum_at=at
    )
    entries.action_submit(
        game=game,
        seat=game.seats.get(player_name="甲"),
        payload={"use": "普通攻击", "target": "乙", "manifesto": MANIFESTO},
        forum_at=at,
    )
    passed, _ = inputs.write(game, inputs.Entry(game.seats.get(player_name="丙"), [{"pass": True}], at)).first
    assert play.phase_close(phase=night1, now=night1.ends_at)
    night1.refresh_from_db()
    assert night1.result["saved"] == ["乙"]
    setup.seat_substitute(seat=game.seats.get(player_name="乙"), player_name="無名氏", at=night1.ends_at)
    # A result stored under the seat's former holder (a game stored before the snapshots were rewritten).
    Phase.objects.filter(pk=night1.pk).update(result={**night1.result, "saved": ["乙"]})
    diffs = corrections.correction_preview(game=game, edits=[{"op": "void", "id": passed.pk}])
    assert diffs == []  # before: "被救 乙 → 無名氏", a night-1 diff the void never made


def test_a_correction_that_changes_nothing_writes_no_post(game):
    night1 = game.phases.get(status=Phase.Status.OPEN)
    at = night1.starts_at + timedelta(hours=1)
    passed, _ = inputs.write(game, inputs.Entry(game.seats.get(player_name="丙"), [{"pass": True}], at)).first
    assert play.phase_close(phase=night1, now=night1.ends_at)
    before = Announcement.objects.count()
    assert corrections.correction_apply(game=game, edits=[{"op": "void", "id": passed.pk}]) == []
    assert Announcement.objects.count() == before
