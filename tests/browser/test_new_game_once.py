"""In Chromium: the new-game form sent four times — one after the other (a reload, a double click) or all at
once (PostgreSQL: SQLite's shared in-memory test database refuses concurrent writers with "table is locked") — makes
one game and says so."""

from __future__ import annotations

import pytest

from moderator.models import Game
from tests.world import CAST


def _sign_in_and_fill(page, django_user_model, name: str) -> None:
    django_user_model.objects.create_user("tianshen", password="direnjie-测试")
    page.goto("/accounts/login/")
    page.fill("#id_username", "tianshen")
    page.fill("#id_password", "direnjie-测试")
    page.click("button[type=submit]")
    page.goto("/games/new/")
    page.fill("#id_name", name)
    page.fill("#id_players", "\n".join(CAST))


SEND = """async (together) => {
    const body = new URLSearchParams(new FormData(document.querySelector("main form")));
    const send = () => fetch("/games/new/", {method: "POST", body}).then((r) => r.text());
    if (together) return Promise.all([1, 2, 3, 4].map(send));
    const texts = [];
    for (let i = 0; i < 4; i++) texts.push(await send());
    return texts;
}"""


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_in_chromium_the_new_game_form_sent_four_times_makes_one_game_and_says_so(page, django_user_model):
    _sign_in_and_fill(page, django_user_model, "浏览器四次提交局")
    texts = page.evaluate(SEND, False)  # the same filled form, token and all, sent four times
    assert Game.objects.filter(name="浏览器四次提交局").count() == 1
    assert all("浏览器四次提交局 · 开局" in t for t in texts)  # every submit lands on the one game's page
    assert "这个表单已经提交过了" not in texts[0]
    assert all("这个表单已经提交过了" in t and "没有再建一局" in t for t in texts[1:])


@pytest.mark.browser
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_in_chromium_the_new_game_form_sent_four_times_at_once_makes_one_game(page, django_user_model):
    _sign_in_and_fill(page, django_user_model, "浏览器并发提交局")
    texts = page.evaluate(SEND, True)
    assert Game.objects.filter(name="浏览器并发提交局").count() == 1
    assert all("浏览器并发提交局 · 开局" in t for t in texts)
    # the repeats are told (the flash messages of concurrent requests share one cookie: one page may show two)
    assert any("这个表单已经提交过了" in t and "没有再建一局" in t for t in texts)
