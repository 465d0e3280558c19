"""The console's PM preview accounts for every part of the message (templates/web/_pm_account.html): an input
with its sentence and cost, and beside it the greeting, the guess and the PS it did not take as instructions, each
with its reason in words — also when the message holds an input."""

from __future__ import annotations

import html
import re

import pytest
from django.template.loader import render_to_string

from moderator.parser import account, parse_pm
from moderator.services import intake, storage
from tests.intake.conftest import at, table

pytestmark = pytest.mark.django_db

TEXT = "天神晚上好~\n束魂李元芳。我觉得狄如燕是杀手吧\nPS:辛苦了"


def shown(text: str, player: str = "狄仁杰") -> tuple[list, str]:
    """The parts of the real preview of `text` (the parser's notes with it), and the partial as the 天神 sees it."""
    game = table()
    seat = game.seats.get(player_name=player)
    preview = intake.pm_preview(game, intake.Pasted(seat=seat, text=text, forum_at=at(game)))
    names = list(game.seats.order_by("number").values_list("player_name", flat=True))
    hand = list(storage.game_replay(game).state.seat(player).names)
    notes = parse_pm(text, sender=player, players=names, hand=hand).to_json()["notes"]
    parts = account(
        text, inputs=[i.data for i in preview.items], refusals=preview.refusals, notes=notes, items=preview.items
    )
    return parts, render_to_string("web/_pm_account.html", {"parts": parts})


def rows(page: str) -> list[str]:
    """Each part's row as text, in the order shown."""
    found = re.findall(r'<li class="account-[a-z]+">(.*?)</li>', page, re.S)
    return [" ".join(html.unescape(re.sub(r"<[^>]+>", "", row)).split()) for row in found]


def test_a_message_with_an_input_shows_the_input_and_the_parts_it_did_not_take_each_with_its_reason():
    parts, page = shown(TEXT)
    assert [p.kind for p in parts] == ["note", "input", "note", "note"]
    greeting, cast, guess, ps = rows(page)
    assert greeting.startswith("天神晚上好~") and "说明:“天神晚上好”是问候,没有当作指令" in greeting
    assert cast.startswith("束魂李元芳。") and "输入:束魂 → 李元芳(扣 2 点,将被接受)" in cast
    assert "说明:“我觉得狄如燕是杀手吧”是猜测或闲聊,没有当作指令" in guess and "“狄如燕”" in guess
    assert "附言、签名或写给天神的话" in ps


def test_every_character_of_the_message_is_in_one_row_and_no_row_shows_a_data_structure():
    parts, page = shown(TEXT)
    assert "".join(p.text for p in parts) == TEXT
    quoted = [html.unescape(q) for q in re.findall(r"<q>(.*?)</q>", page, re.S)]
    assert "".join(quoted) == TEXT
    for row in rows(page):
        assert not re.search(r"[{}\[\]_]|span|refusal|note|input|None", row.split("”", 1)[-1]), row


def test_a_refusal_and_a_note_are_shown_beside_each_other():
    _, page = shown("禁锢张环(他昨天一直带节奏)\n我猜虎敬晖是狼人", player="狄仁杰")  # 狄仁杰 holds no 禁锢
    refusal, aside, guess = rows(page)
    assert refusal.startswith("禁锢张环") and "拒绝:" in refusal
    assert "说明:“(他昨天一直带节奏)”是括号里的旁白" in aside
    assert "猜测或闲聊" in guess and "“虎敬晖”" in guess
