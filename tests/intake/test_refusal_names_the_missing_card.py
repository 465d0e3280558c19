"""A privilege the hand lacks is refused for that reason — "狙击乙" from a hand with an untransformed
阿米巴 and no 狙击手 says first that no card grants 普通狙击, not only that the 阿米巴 has not transformed (M1)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from moderator.services import intake
from tests.browser.console_kit import TABLE
from tests.world import game_make

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("text", ["狙击乙", "今晚狙击乙", "今晚狙擊乙,謝謝天神"])
def test_a_shot_without_a_sniper_is_refused_because_no_card_grants_it_m1(text):
    game = game_make(name="狙击局", players=TABLE, started_at=timezone.now() - timedelta(hours=3))
    bing = game.seats.get(player_name="丙")  # 庶民 巫医 绝杀/特赦 纵火/圣人 阿米巴: no 狙击手
    at = game.phases.get().starts_at + timedelta(minutes=30)
    [item] = intake.pm_preview(game, intake.Pasted(seat=bing, text=text, forum_at=at)).items
    assert not item.accepted and item.cost == 0
    assert item.reason.startswith("你手里没有能用“普通狙击”的牌")
