"""A player's private page never misleads him: a text in which nothing was read offers no confirm and says nothing
will be sent; a second use on the same target is offered as what it is, never as a change from X to X; the primary
button is always the player's own reading."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from selfentry_kit import MANIFESTO, act_url, confirm_data, preview, seat

from moderator.models import Input, Message, SelfEntry
from moderator.services import clock, inputs

pytestmark = pytest.mark.django_db

SNIPE = {"a-use": "普通狙击", "a-card": "狙击手", "a-target": "乙", "a-manifesto": MANIFESTO}


def _buttons(html: str) -> dict[str, str]:
    """id → class of every button of the preview."""
    part = html.split('id="preview"', 1)[1]
    return {i: c for c, i in re.findall(r'<button[^>]*class="([^"]*)"[^>]*id="([^"]+)"', part)}


def test_a_text_in_which_nothing_is_read_offers_no_confirm_and_says_nothing_will_be_sent(game, client):
    a = seat(game, "甲")
    html = preview(client, a, "text", {"t-text": "大家晚上好,今晚我想想再说"})
    assert "没有读出任何行动" in html
    assert 'id="confirm"' not in html
    assert "不会寄出任何内容" in html
    page = client.post(act_url(a), confirm_data(html, {}), follow=True).content.decode()
    assert "已提交" not in page and "什么都没有保存" in page
    assert SelfEntry.objects.count() == 0 and Message.objects.count() == 0 and Input.objects.count() == 0


def test_a_second_snipe_on_the_same_target_is_offered_as_a_second_attack_never_as_a_change_to_itself(game, client):
    a = seat(game, "甲")
    first = preview(client, a, "form", SNIPE)
    assert client.post(act_url(a), confirm_data(first, {})).status_code == 302
    html = preview(client, a, "form", SNIPE)
    said = html.split('id="repeat"', 1)[1].split("</div>", 1)[0]
    assert "这是你本时段第二次用“普通狙击”" in said and "确认就是对乙的第二次普通狙击" in said
    assert "从乙改到乙" not in html and 'id="as-change"' not in html
    assert _buttons(html) == {"confirm": "confirm"}  # the one button, green: the player's own reading
    assert "第二次普通狙击 → 乙" in html
    assert client.post(act_url(a), confirm_data(html, {})).status_code == 302
    snipes = Input.objects.filter(seat=a, verdict__accepted=True)
    assert snipes.count() == 2  # both attacks stand, each charged (AP4)
    assert sum(i.verdict.cost for i in snipes) == 2


def test_a_second_use_on_another_target_offers_the_change_beside_the_primary_confirm(game, client):
    a = seat(game, "甲")
    assert client.post(act_url(a), confirm_data(preview(client, a, "form", SNIPE), {})).status_code == 302
    html = preview(client, a, "form", {**SNIPE, "a-target": "丙"})
    assert "把普通狙击从乙改到丙(不另扣点)" in html
    buttons = _buttons(html)
    assert buttons["confirm"] == "confirm" and buttons["as-change"] != "confirm"


def test_on_his_own_pages_a_refusal_speaks_to_the_player_as_you_n7(game, client):
    b = seat(game, "乙")
    night = game.phases.get(status="open")
    attack = {"use": "普通攻击", "card": "杀手", "target": "乙", "manifesto": MANIFESTO}
    inputs.write(game, inputs.Entry(seat(game, "甲"), [attack], night.starts_at + timedelta(minutes=5)))
    inputs.write(game, inputs.Entry(b, [{"use": "束魂", "card": "束魂", "target": "乙"}], night.starts_at))
    clock.phase_end_early(game=game, force=True)
    day = game.phases.get(status="open")
    (rec,) = inputs.write(game, inputs.Entry(b, [{"for": "甲"}], day.starts_at + timedelta(minutes=5))).inputs
    assert "“乙”昨夜被救活" in rec.verdict.reason  # the 天神's pages name him
    for url in (reverse("seat_private", args=[b.token]), act_url(b)):
        page = client.get(url).content.decode()
        assert "你昨夜被救活" in page and "“乙”昨夜" not in page, url
