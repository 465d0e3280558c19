"""What the 天神 sees of two shapes the parser reads with a candidate or a guess to check:

- 投大白兔 (a vote for an unknown name one character off a player's): refused with the candidate, and the candidate
  is a one-click button on the vote-post page, whose click previews that vote marked 天神选定 (D1, D3);
- 刚才的王五改给赵六 (a change of target in words, no privilege written): read when the sender's hand has one privilege
  that names a player, and the preview says it was inferred (T3)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from moderator.models import Input, Phase
from moderator.services import intake, play
from tests.tokens import signed
from tests.world import game_make

pytestmark = pytest.mark.django_db
TABLE = [
    {"name": "王五", "camp": "杀手", "hand": ["庶民", "庶民", "狙击手", "保镖", "杀手"]},
    {"name": "赵六", "camp": "平民", "hand": ["庶民", "束魂", "保镖", "庶民", "庶民"]},  # one privilege naming a player
    {"name": "小白兔", "camp": "平民", "hand": ["庶民", "巫医", "绝杀/特赦", "纵火/圣人", "阿米巴"]},
    {"name": "孙八", "camp": "狼人", "hand": ["庶民", "狼人", "束魂", "巫医", "狙击手"]},
]


@pytest.fixture
def night(gm):
    return game_make(name="第二十三局", players=TABLE, gm=gm, started_at=timezone.now() - timedelta(hours=3))


@pytest.fixture
def day(night):
    phase = night.phases.get(status=Phase.Status.OPEN)
    assert play.phase_close(phase=phase, now=phase.ends_at)
    return night


def seat(game, name):
    return game.seats.get(player_name=name)


def at(game, minutes=30):
    return game.phases.get(status=Phase.Status.OPEN).starts_at + timedelta(minutes=minutes)


@pytest.mark.parametrize(("text", "sentence"), [("投大白兔", "投票 → 小白兔"), ("改投　大白兔", "改票 → 小白兔")])
def test_a_vote_for_an_unknown_name_becomes_the_vote_for_the_chosen_candidate_d1(day, text, sentence):
    preview = intake.pm_preview(day, intake.Pasted(seat=seat(day, "王五"), text=text, forum_at=at(day), vote_post=True))
    assert preview.items == [] and preview.refusals[0]["candidates"] == ["小白兔"]
    chosen = intake.pm_preview(
        day, intake.Pasted(seat=seat(day, "王五"), text=text, forum_at=at(day), vote_post=True, choices={0: "小白兔"})
    )
    [item] = chosen.items
    assert item.sentence == f"{sentence}(由天神选定)"
    assert chosen.refusals[0]["choice"] == "小白兔"


def test_the_vote_post_page_offers_the_candidate_as_a_button_and_stores_the_chosen_vote_d1(gm_client, day):
    form = {
        "seat": seat(day, "王五").pk,
        "forum_at": timezone.localtime(at(day)).strftime("%Y-%m-%dT%H:%M"),
        "text": "投大白兔",
        **signed(gm_client, "console_vote_post", day),
    }
    page = gm_client.post(f"/gm/{day.pk}/vote-post/", {**form, "preview": "1"}).content.decode()
    assert 'name="pick" value="0:小白兔"' in page and "天神选定" not in page
    page = gm_client.post(f"/gm/{day.pk}/vote-post/", {**form, "pick": "0:小白兔"}).content.decode()
    assert "投票 → 小白兔(由天神选定)" in page and 'name="chosen" value="0:小白兔"' in page
    seen = re.search(r'name="seen" value="([^"]*)"', page).group(1)
    done = gm_client.post(
        f"/gm/{day.pk}/vote-post/", {**form, "confirm": "1", "chosen": "0:小白兔", "seen": seen}, follow=True
    )
    assert "天神选定:小白兔" in done.content.decode()
    vote = Input.objects.get()
    assert (vote.kind, vote.payload["for"]) == ("vote", seat(day, "小白兔").number)


def test_a_target_change_without_its_privilege_is_previewed_as_inferred_from_the_hand_t3(gm_client, night):
    phase = night.phases.get(status=Phase.Status.OPEN)
    intake.pm_confirm(night, intake.Pasted(seat=seat(night, "赵六"), text="束魂 王五", forum_at=at(night, 30)))
    data = {
        "seat": seat(night, "赵六").pk,
        "forum_at": timezone.localtime(at(night, 60)).strftime("%Y-%m-%dT%H:%M"),
        "text": "剛才的王五改給孫八，謝謝天神",
        "preview": "1",
        "phase": phase.pk,
    }
    page = gm_client.post(f"/gm/{night.pk}/pm/", data).content.decode()
    assert "更换对象:束魂 → 孙八(没写是哪个特权:手里能指定目标的只有束魂,按束魂读,请核对)" in page


def test_a_target_change_without_its_privilege_names_the_candidates_when_the_hand_has_two(gm_client, night):
    data = {
        "seat": seat(night, "王五").pk,
        "forum_at": timezone.localtime(at(night)).strftime("%Y-%m-%dT%H:%M"),
        "text": "刚才的赵六改给孙八",
        "preview": "1",
        "phase": night.phases.get(status=Phase.Status.OPEN).pk,
    }
    page = gm_client.post(f"/gm/{night.pk}/pm/", data).content.decode()
    assert "可能是普通狙击、瞄准狙击、普通攻击、一击必杀;不会替你选" in page
    assert 'name="pick"' not in page  # privileges are no players: nothing to click
