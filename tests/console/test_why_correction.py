"""The correction preview shows the 为什么 before and after: the steps of each changed phase's trace that the
correction removes and those it adds (services/corrections.py, templates/console/_trace_diff.html)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from moderator.services import corrections
from tests.console.test_correction_posts import _attack, _close

pytestmark = pytest.mark.django_db


def test_voiding_an_attack_shows_its_steps_gone_and_the_void_in_the_new_trace_n1(game):
    attack = _attack(game, "乙")
    _close(game)
    night, _day = corrections.correction_preview(game=game, edits=[{"op": "void", "id": attack.pk}])
    assert "N1 攻击:甲用杀手牌普通攻击 乙生效,乙受到一次杀手普通攻击" in night.trace_gone
    assert any(line.startswith("O4 丢牌:乙丢掉") for line in night.trace_gone)
    assert any("普通攻击(杀手) → 乙:已被天神作废,不参与结算" in line for line in night.trace_new)
    assert not any("乙生效" in line for line in night.trace_new)


def test_the_correction_page_shows_the_trace_change(game, gm_client):
    attack = _attack(game, "乙")
    _close(game)
    page = gm_client.post(reverse("console_correction", args=[game.pk]), {"void": [str(attack.pk)], "preview": "1"})
    body = page.content.decode()
    assert "为什么:结算过程的变化" in body
    assert "甲用杀手牌普通攻击 乙生效" in body
