"""Issue 13: a 7-player game through the console as a new 天神 plays it — creation, the start button, PMs and forms,
a pass, an early end with its confirmation, a vote, an edited post and a change, a substitution, a correction,
export and import — with the private and public pages checked after every phase against RULES.md A1–A5."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from moderator.models import Announcement, Game, Phase
from tests.browser.console_kit import MANIFESTO, action, flash, local, login, shot, vote
from tests.pages.pages_scan import AP_WORDS, SECRET_WORDS, found, without_archive

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PLAYERS = ["狄仁杰", "李元芳", "曾泰", "狄如燕", "张环", "李朗", "虎敬晖"]


def _end(page, game, label):
    page.goto(f"/gm/{game.pk}/")
    page.click("#end-phase")
    page.wait_for_selector("#confirm-end")
    if page.locator("input[name=force]").count():
        page.check("input[name=force]")
    page.click("#confirm-end")
    assert f"{label}已提前结束并结算" in flash(page)


def _post_all(page, game):
    """The 天神 posts every draft on the forum and says so (only then are they public)."""
    page.goto(f"/gm/{game.pk}/announcements/")
    while page.locator("button.post").count():
        page.locator("button.post").first.click()
        page.wait_for_selector(".flash li")


def _check_pages(page, game):
    """A1–A5 after a phase: the public page names no card and no AP outside the posts (and the posts only by type);
    each private page shows that seat's hand and no other seat's camp."""
    body = page.goto(f"/games/{game.pk}/").text()
    assert found(without_archive(body), [*SECRET_WORDS, *AP_WORDS]) == []
    for seat in game.seats.order_by("number"):
        text = page.goto(f"/p/{seat.token}/").text()
        others = [s.player_name for s in game.seats.exclude(pk=seat.pk)]
        hand = re.search(r'<ol class="hand">(.*?)</ol>', text, re.S).group(1)
        assert not any(name in hand for name in others)
        assert seat.camp in text


def test_a_gm_plays_a_seven_player_game_through_the_console(page, django_user_model):
    page.on("dialog", lambda d: d.accept())
    login(page, django_user_model)
    page.goto("/")
    page.click("#my-games")
    page.click("text=新建一局游戏")
    page.fill("#id_name", "七人局")
    page.fill("#id_players", "\n".join(PLAYERS))
    page.fill("#id_seed", "2014")
    page.check("#id_replay")  # a typed seed is for tests and replays only (16.2)
    page.click("button[type=submit]")
    page.wait_for_selector("#start-game")
    game = Game.objects.get(name="七人局")
    deal = page.input_value(f"#deal-{game.seats.first().pk}")
    assert f"/p/{game.seats.first().token}/" in deal  # the deal PM carries the private link (A5)
    shot(page, "setup")
    page.fill("#id_at", local(timezone.now() - timedelta(minutes=30)))
    page.click("#start-game")
    page.wait_for_selector("text=第1夜")
    assert page.inner_text("#seats").count("尚未决定") == 7

    killer = game.seats.get(camp="杀手")
    victim = next(s for s in game.seats.exclude(pk=killer.pk).order_by("number") if "保镖" not in s.dealt_hand)
    page.goto(f"/gm/{game.pk}/pm/")
    page.select_option("#id_seat", str(killer.pk))
    page.fill("#id_text", f"今晚杀{victim.player_name}。杀人宣言:{MANIFESTO}")
    page.click("button[name=preview]")
    page.wait_for_selector("#preview")
    page.click("#confirm")
    assert "1 项被接受" in flash(page)
    passer = next(s for s in game.seats.order_by("number") if s.pk not in (killer.pk, victim.pk))
    assert "已接受" in action(page, game, passer.player_name, None)
    page.goto(f"/gm/{game.pk}/")
    assert passer.player_name not in page.inner_text("#not-acted")
    shot(page, "dashboard")
    _end(page, game, "第1夜")
    _post_all(page, game)
    _check_pages(page, game)
    assert "〔底牌〕" in page.goto(f"/p/{killer.token}/").text()  # the drawn order exists now (O1)

    voters = list(game.seats.order_by("number"))
    vote(page, game, voters[0].player_name, killer.player_name)
    vote(page, game, voters[1].player_name, killer.player_name)
    assert "已接受" in vote(page, game, voters[1].player_name, voters[2].player_name, post="change")
    assert "已接受" in vote(page, game, voters[2].player_name, killer.player_name)
    assert "已接受" in vote(page, game, voters[2].player_name, voters[3].player_name, post="edited")
    assert "已拒绝" in vote(page, game, voters[2].player_name, voters[3].player_name, post="change")
    shot(page, "votes")
    page.goto(f"/gm/{game.pk}/")
    page.select_option("#substitute select[name=seat]", str(voters[4].pk))
    page.fill("#substitute input[name=player_name]", "风清扬")
    page.click("#substitute button")
    assert "旧的私人链接已失效" in flash(page)
    _end(page, game, "第1天")
    _post_all(page, game)
    _check_pages(page, game)

    page.goto(f"/gm/{game.pk}/correction/")
    attack = game.inputs.filter(kind="action", phase__number=1, phase__kind="night").first()
    page.check(f"input[name=void][value='{attack.pk}']")
    page.click("button[name=preview]")
    page.wait_for_selector("#diff")
    page.click("#confirm")
    assert "更正已生效" in flash(page)
    assert Announcement.objects.filter(game=game, title__contains="更正公告").exists()
    _post_all(page, game)
    _check_pages(page, game)
    shot(page, "announcements")

    page.goto(f"/gm/{game.pk}/audit/")
    assert "{" not in page.inner_text("#audit")
    with page.expect_download() as download:
        page.evaluate(f"window.location = '/gm/{game.pk}/export/'")
    path = download.value.path()
    page.goto("/games/import/")
    page.set_input_files("#id_file", path)
    page.fill("#id_name", "七人局(导入)")
    page.click("button[type=submit]")
    assert "已导入并重放" in flash(page)
    copy = Game.objects.get(name="七人局(导入)")
    assert [p.result for p in copy.phases.filter(status=Phase.Status.CLOSED).order_by("starts_at")] == [
        p.result for p in game.phases.filter(status=Phase.Status.CLOSED).order_by("starts_at")
    ]
    page.goto("/gm/")
    rows = page.inner_text("#games")
    assert "七人局" in rows and "第2夜" in rows
