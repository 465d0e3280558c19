"""Issue 22.7 in Chromium: the new-game form sent four times at once makes one game and says so."""

from __future__ import annotations

import pytest

from moderator.models import Game

PLAYERS = ["狄仁杰", "李元芳", "曾泰", "狄如燕", "张环", "李朗", "虎敬晖"]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_in_chromium_the_new_game_form_sent_four_times_makes_one_game_and_says_so(page, django_user_model):
    django_user_model.objects.create_user("tianshen", password="direnjie-测试")
    page.goto("/accounts/login/")
    page.fill("#id_username", "tianshen")
    page.fill("#id_password", "direnjie-测试")
    page.click("button[type=submit]")
    page.goto("/games/new/")
    page.fill("#id_name", "浏览器重复提交局")
    page.fill("#id_players", "\n".join(PLAYERS))
    page.click("button[type=submit]")
    page.wait_for_selector("text=《游戏者名单》帖")
    page.goto("/games/new/")
    page.fill("#id_name", "浏览器四次提交局")
    page.fill("#id_players", "\n".join(PLAYERS))
    # The same filled form sent four times at once (a 天神's quadruple click on a slow connection).
    texts = page.evaluate(
        """async () => {
            const body = new FormData(document.querySelector("main form"));
            const sent = [1, 2, 3, 4].map(() => fetch("/games/new/", {method: "POST", body: new URLSearchParams(body)}));
            return Promise.all((await Promise.all(sent)).map((r) => r.text()));
        }"""
    )
    assert Game.objects.filter(name="浏览器四次提交局").count() == 1
    assert all("浏览器四次提交局 · 开局" in t for t in texts)  # every submit lands on the one game's page
    # the repeats are told (the flash messages of concurrent requests share one cookie: one page may show two)
    assert any("这个表单已经提交过了" in t and "没有再建一局" in t for t in texts)
