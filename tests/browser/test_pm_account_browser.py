"""In Chromium: the 天神 pastes a PM holding an input and a guess; the preview lists both, each with what it is."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.browser.console_kit import local, login, seat, table_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_preview_lists_the_input_and_the_guess_beside_it(page, django_user_model):
    game = table_game(login(page, django_user_model))
    page.goto(f"/gm/{game.pk}/pm/")
    page.select_option("#id_seat", str(seat(game, "乙").pk))
    page.fill("#id_forum_at", local(game.phases.get().starts_at + timedelta(minutes=10)))
    page.fill("#id_text", "束魂丙。我觉得丁是狼人吧")
    page.click("button[name=preview]")
    page.wait_for_selector("#account")
    assert page.locator("#account li").count() == 2
    cast, guess = page.locator("#account li.account-input"), page.locator("#account li.account-note")
    assert "输入:束魂 → 丙" in cast.inner_text() and cast.is_visible()
    assert "是猜测或闲聊,没有当作指令" in guess.inner_text() and "“丁”" in guess.inner_text() and guess.is_visible()
