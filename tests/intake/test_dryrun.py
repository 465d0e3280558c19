"""The dawn/dusk dry-run reads word for word like the post the close will draft, and stores nothing."""

from datetime import timedelta

import pytest
from django.template.loader import render_to_string

from moderator.models import Announcement, Phase
from moderator.rules.scenario import DEFAULT_MANIFESTO
from moderator.services import play
from moderator.services import preview as dryrun
from tests import entries

pytestmark = pytest.mark.django_db


def _seat(game, name):
    return game.seats.get(player_name=name)


def _open(game):
    return game.phases.get(status=Phase.Status.OPEN)


def test_the_dawn_preview_is_the_dawn_post_the_close_will_write_A2(night):
    t = _open(night).starts_at + timedelta(hours=2)
    attack = {"card": "杀手", "use": "普通攻击", "target": "李元芳", "manifesto": DEFAULT_MANIFESTO}
    entries.action_submit(game=night, seat=_seat(night, "狄如燕"), payload=attack, forum_at=t)
    entries.action_submit(
        game=night, seat=_seat(night, "狄仁杰"), payload={"use": "束魂", "target": "曾泰"}, forum_at=t
    )
    preview = dryrun.close_preview(night)
    assert "李元芳昨夜受到了攻击,他丢了一张庶民牌" in preview["text"]
    assert "预览" in preview["title"] and preview["kind"] == "night"
    assert not Announcement.objects.exists()
    assert play.phase_close(phase=_open(night), now=_open(night).ends_at)
    assert Announcement.objects.get(kind=Announcement.Kind.DAWN).bbcode == preview["bbcode"]


def test_the_dusk_preview_shows_the_weighted_tally_and_who_would_be_executed_A3(day):
    t = _open(day).starts_at + timedelta(hours=1)
    for voter, target in (
        *((v, "李朗") for v in ("狄仁杰", "李元芳", "曾泰", "狄如燕", "张环", "虎敬晖")),
        ("李朗", "曾泰"),
    ):
        entries.vote_submit(game=day, seat=_seat(day, voter), target=_seat(day, target), change=False, forum_at=t)
    preview = dryrun.close_preview(day)
    assert preview["kind"] == "day" and sorted(preview["executed"]) == ["曾泰", "李朗"]  # D5: the top two totals
    assert "李朗:30 票" in preview["text"] and "被处决的是:" in preview["text"]
    html = render_to_string("console/_dryrun.html", {"game": day})
    assert "这只是预览" in html and "李朗:30 票" in html
    assert play.phase_close(phase=_open(day), now=_open(day).ends_at)
    assert Announcement.objects.get(kind=Announcement.Kind.DUSK).bbcode == preview["bbcode"]
