"""The player's own page on a 390-pixel phone in real Chromium, the details a whole game turned up: the privilege menu
lists what the hand can use and the 杀人宣言 help names every attack (N-kill); the order offered first never ends in
a 庶民 (O2); a preview whose only item is refused offers no confirm; a candidate the player clicked is his choice;
an O3 window's line leaves 还缺什么 once the new order is sent; a player whose last card went to yesterday's
execution is told he dies at dawn unless pardoned (D8, V5); a replaced link says to ask the 天神."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from moderator.models import Game, Input
from moderator.services import clock, inputs, setup, storage
from moderator.services.seats import seat_token_rotate
from tests.browser.console_kit import MANIFESTO

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def _phone(browser, live_server):
    context = browser.new_context(
        base_url=live_server.url, locale="zh-CN", viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True
    )
    tab = context.new_page()
    tab.set_default_timeout(20_000)
    return tab


def _fits(tab) -> bool:
    return tab.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def _game(name: str, players: list[dict], start=("night", 1), dealt: bool = False) -> Game:
    game = setup.table_create(name=name, players=players, start=start)
    game.self_entry, game.hands_are_orders = True, not dealt
    game.save(update_fields=["self_entry", "hands_are_orders"])
    setup.game_start(game=game, at=timezone.now() - timedelta(minutes=30))
    return game


def _seat(game, name):
    return game.seats.get(player_name=name)


def _at(game):
    return game.phases.get(status="open").starts_at + timedelta(minutes=1)


def test_night_one_on_a_phone_menu_order_refusals_and_a_chosen_candidate(browser, live_server):
    game = _game(
        "手机细节",
        [
            {"name": "甲", "camp": "杀手", "hand": ["杀手", "狙击手", "保镖", "庶民", "庶民"]},
            {"name": "乙", "camp": "平民", "hand": ["庶民", "束魂", "诅咒/庇佑", "防弹衣/狼毒", "禁锢/反狙击"]},
            {"name": "丙", "camp": "平民", "hand": ["庶民", "巫医", "绝杀/特赦", "纵火/圣人", "阿米巴"]},
            {"name": "丁", "camp": "狼人", "hand": ["庶民", "狼人", "束魂", "巫医", "狙击手"]},
        ],
        dealt=True,
    )
    tab = _phone(browser, live_server)
    tab.goto(f"/p/{_seat(game, '甲').token}/act/")
    # The menu: what 甲's 杀手 and 狙击手 can do at night, nothing else (保镖 is automatic, 庶民 has no privilege).
    options = tab.eval_on_selector_all("#id_a-use option", "els => els.map(e => e.textContent)")
    assert options == ["—", "普通攻击", "一击必杀", "普通狙击", "瞄准狙击"]
    assert "普通攻击、一击必杀、普通狙击、瞄准狙击都要写杀人宣言" in tab.inner_text("#privilege")
    # O2: dealt with two 庶民 last, the order offered puts the last privilege card at the bottom, and it is accepted.
    offered = tab.eval_on_selector_all("#form-order select", "els => els.map(e => e.value)")
    assert offered == ["杀手", "狙击手", "庶民", "庶民", "保镖"]
    tab.click("#form-order button[name=preview]")
    tab.wait_for_selector("#preview")
    assert "将被接受" in tab.inner_text("#preview-items") and tab.locator("#confirm").count() == 1
    tab.click("#confirm")
    tab.wait_for_selector(".flash li.success")

    # A refused-only preview (an attack without its 杀人宣言) offers nothing to confirm, and says why.
    tab.select_option("#id_a-use", "普通攻击")
    tab.select_option("#id_a-target", "乙")
    tab.click("#form-form button[name=preview]")
    tab.wait_for_selector("#preview")
    assert "将被拒绝" in tab.inner_text("#preview-items")
    assert tab.locator("#confirm").count() == 0 and "没有可以确认的内容" in tab.inner_text("#nothing-to-confirm")
    assert _fits(tab)

    # A candidate 乙 clicks is his own choice: so the preview, the confirmation and the record say.
    tab.goto(f"/p/{_seat(game, '乙').token}/act/")
    tab.fill("#id_t-text", "束魂甲或丙")
    tab.click("#form-text button[name=preview]")
    tab.click("button.candidate:has-text('丙')")
    tab.wait_for_selector(".chosen")
    assert "束魂 → 丙(由玩家选定)" in tab.inner_text("#preview-items")
    tab.click("#confirm")
    tab.wait_for_selector(".flash li.success")
    flash = tab.inner_text(".flash")
    assert "束魂 → 丙(由玩家选定)" in flash and "天神" not in flash
    assert _fits(tab)

    # The 天神 replaces 乙's link: the old one says what to do.
    old = _seat(game, "乙").token
    seat_token_rotate(seat=_seat(game, "乙"))
    tab.goto(f"/p/{old}/act/")
    assert "请向天神要新的私人链接" in tab.inner_text("#link-hint") and _fits(tab)
    tab.context.close()


def test_a_last_card_pending_execution_and_an_order_window_on_a_phone_d8_o3(browser, live_server):
    """Day 1: 丁 (one card) is executed; night 2 his page says plainly he dies at dawn unless pardoned and asks him
    for nothing. At dawn his card and an attack's make 2 of 8 cards lost (O3: a window); 乙 sends a new order from
    his phone and the line leaves 还缺什么."""
    game = _game(
        "最后一张",
        [
            {"name": "甲", "camp": "杀手", "hand": ["庶民", "杀手"]},
            {"name": "乙", "camp": "平民", "hand": ["庶民", "束魂", "绝杀/特赦"]},
            {"name": "丙", "camp": "平民", "hand": ["巫医", "绝杀/特赦"]},
            {"name": "丁", "camp": "狼人", "hand": ["狼人"]},
        ],
        start=("day", 1),
    )
    for name in ("甲", "乙", "丙"):
        inputs.write(game, inputs.Entry(_seat(game, name), [{"for": "丁"}], _at(game)))
    clock.phase_end_early(game=game, force=True)  # day 1: 丁 executed, his only card pending until dawn (D6, D8)
    state = storage.game_replay(game).state
    assert state.seat("丁").alive and not state.seat("丁").hand and "丁" in state.pending_executions

    tab = _phone(browser, live_server)
    token = _seat(game, "丁").token
    tab.goto(f"/p/{token}/act/")
    said = tab.inner_text("#why-not")
    assert "你的最后一张牌(狼人)在昨天的处决中丢掉了:天亮时你就会死亡,除非今夜有人特赦你" in said
    assert tab.locator("#form-form").count() == 0 and tab.locator("#missing").count() == 0 and _fits(tab)
    tab.goto(f"/p/{token}/")
    assert "除非今夜有人特赦你,天亮时你就会死亡" in tab.inner_text("#dies-at-dawn")
    assert "今晚的行动" not in tab.inner_text("main")

    attack = {"use": "普通攻击", "card": "杀手", "target": "乙", "manifesto": MANIFESTO}
    inputs.write(game, inputs.Entry(_seat(game, "甲"), [attack], _at(game)))
    clock.phase_end_early(game=game, force=True)  # night 2: 丁 dies, 乙 loses a 庶民: 2 of 8 lost, a window (O3)
    assert storage.game_replay(game).state.orders_open
    tab.goto(f"/p/{_seat(game, '乙').token}/act/")
    assert "改顺序期(O3)" in tab.inner_text("#missing")
    tab.click("#form-order button[name=preview]")
    tab.wait_for_selector("#preview")
    tab.click("#confirm")
    tab.wait_for_selector(".flash li.success")
    assert Input.objects.filter(game=game, kind="order", seat=_seat(game, "乙")).count() == 1
    assert "改顺序期(O3)" not in tab.inner_text("#missing") and _fits(tab)
    tab.context.close()
