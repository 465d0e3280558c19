"""The console's PM page accounts for every part of the pasted message: a message with an input AND a greeting, a
guess and a PS shows the input with its sentence and cost and each other part with what the parser took it for
(templates/web/_pm_account.html) — the notes are shown whatever else the message holds."""

from __future__ import annotations

import html
import re

import pytest
from django.utils import timezone

from tests.intake.conftest import at, table

pytestmark = pytest.mark.django_db
TEXT = "天神晚上好~\n束魂李元芳。我觉得狄如燕是杀手吧\nPS:辛苦了"


def rows(page: str) -> list[str]:
    block = page.split('<ol id="account"', 1)[1].split("</ol>", 1)[0]
    found = re.findall(r'<li class="account-[a-z]+">(.*?)</li>', block, re.S)
    return [" ".join(html.unescape(re.sub(r"<[^>]+>", "", row)).split()) for row in found]


def test_the_pm_preview_shows_the_input_and_beside_it_the_greeting_the_guess_and_the_ps(gm_client, gm):
    game = table()
    game.gms.add(gm)
    seat = game.seats.get(player_name="狄仁杰")
    data = {
        "seat": seat.pk,
        "forum_at": timezone.localtime(at(game)).strftime("%Y-%m-%dT%H:%M"),
        "text": TEXT,
        "preview": "1",
    }
    page = gm_client.post(f"/gm/{game.pk}/pm/", data).content.decode()
    greeting, cast, guess, ps = rows(page)
    assert "说明:“天神晚上好”是问候,没有当作指令" in greeting
    assert "输入:束魂 → 李元芳(扣 2 点,将被接受)" in cast
    assert "说明:“我觉得狄如燕是杀手吧”是猜测或闲聊,没有当作指令" in guess and "“狄如燕”" in guess
    assert "附言、签名或写给天神的话" in ps
