"""三国杀 with seed 002's house rules in a real headless Chromium at a phone's size (390 px): a 5-player physical
table created from the form with the defaults as the seed plays (座位抽签, 暗魂, 三人倒计时) plus 转世; a ghost, a
sacrifice and a rebirth made through the players' pages, the countdown reached, the game finished; the public page
shows each of them and no living player's identity."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from tables_playout import private_url

if "tables" in settings.INSTALLED_APPS:
    from tables import services
    from tables.models import Table
    from tables.rules import sanguosha as sgs

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("tables_urls")]
TYPED = ["刘备", "关羽", "张飞", "曹操", "孙权"]


def record(page, url, label, **selects):
    """Fill one action form on ``url`` (found by its label) and send it, as a player taps it."""
    page.goto(url)
    box = page.locator("form.action", has=page.locator(f'input[name="label"][value="{label}"]')).first
    for name, value in selects.items():
        box.locator(f'select[name="{name}"]').select_option(str(value))
    with page.expect_navigation():
        box.locator("button[type=submit]").click()
    assert page.locator('[role="alert"]').count() == 0, page.inner_text('[role="alert"]')


def fresh(table):
    return Table.objects.get(pk=table.pk).load()


def spectator(page, table) -> str:
    page.goto(f"/tables/{table.pk}/")
    return page.inner_text("main")


def test_a_five_player_physical_game_uses_the_seeds_house_rules_at_390_px(phone):
    phone.goto("/tables/")
    phone.select_option("#id_kind", "sanguosha")
    phone.select_option("#id_mode", "physical")
    assert phone.is_checked("#id_sgs_seat_lot") and phone.is_checked("#id_sgs_countdown")
    assert phone.locator("#id_sgs_rule2").input_value() == "ghosts"  # the seed's default
    phone.check("#id_sgs_rebirth")
    phone.fill("#id_players", ",".join(TYPED))
    phone.click("button[type=submit]")
    phone.wait_for_selector("#host-link")
    table = Table.objects.get()
    assert table.options["typed"] == TYPED and sorted(table.player_names) == sorted(TYPED)
    text = spectator(phone, table)
    assert f"抽签种子 {table.options['seat_seed']}" in text and "本桌规则:暗魂、三人倒计时、转世" in text

    state = fresh(table)
    for seat in [state.lord, *(p for p in range(5) if p != state.lord)]:
        services.act(table.pk, seat, {"type": "choose_general", "general": fresh(table).candidates[seat][0]})
    state = fresh(table)
    lord = state.lord
    loyal = next(p for p in range(5) if state.roles[p] == sgs.LOYAL)
    rebels = [p for p in range(5) if state.roles[p] == sgs.REBEL]
    renegade = next(p for p in range(5) if state.roles[p] == sgs.RENEGADE)
    host = f"/tables/{table.pk}/h/{table.host_token}/"

    # 暗魂: the loyalist goes out (the host records it: the identity shows) and possesses the hurt lord once
    record(phone, host, "阵亡", target=loyal, source="none")
    services.act(table.pk, rebels[0], {"type": "hp", "target": lord, "delta": -1, "source": rebels[0]})
    hp = fresh(table).hp[lord]
    assert "罗汉暗魂" in spectator(phone, table)
    record(phone, private_url(table, loyal), "罗汉暗魂附体(只能用一次)", target=lord)
    assert fresh(table).hp[lord] == hp + 1 and "罗汉暗魂附体" in spectator(phone, table)

    # 转世: a rebel goes out; three sacrifices (one from a player's page) and the rebel is reborn
    record(phone, host, "阵亡", target=rebels[0], source="none")
    givers = [p for p in range(5) if fresh(table).alive[p]][:3]
    record(phone, private_url(table, givers[0]), "献祭一张手牌(转世)", target=rebels[0])
    assert "收到献祭 1/3" in spectator(phone, table)
    for giver in givers[1:]:
        services.act(table.pk, giver, {"type": "sacrifice", "target": rebels[0]})
    state = fresh(table)
    assert state.reborn[rebels[0]] and state.hp[rebels[0]] == 1
    text = spectator(phone, table)
    assert "已转世为" in text and "判定胜负时仍视为已出局" in text

    # the reborn rebel goes out again (no reward): three players are left, and the countdown runs
    record(phone, host, "阵亡", target=rebels[0], source=str(lord))
    assert "不计奖励" in spectator(phone, table)
    for _ in range(4):  # four rounds: three free, then everyone loses 1 体力
        services.act(table.pk, None, {"type": "end_turn"})
        while fresh(table).current != lord:
            services.act(table.pk, None, {"type": "end_turn"})
    text = spectator(phone, table)
    assert "所有人同时各失去 1 点体力" in text and "三人倒计时:每轮开始时" in text

    # nothing on the public page names a living non-lord identity
    state = fresh(table)
    rows = phone.locator("table tr").all_inner_texts()
    for p in (rebels[1], renegade):
        # the player's own row: a cell that is exactly their name (a general's name may hold another player's)
        row = next(r for r in rows if state.players[p] in r.split("\t") and ("张" in r))
        assert not re.search(r"反贼|内奸|忠臣", row), row

    for p in (rebels[1], renegade):
        record(phone, host, "阵亡", target=p, source=str(lord))
    text = spectator(phone, table)
    assert "结果" in text and "主公与忠臣获胜" in text
    assert Table.objects.get(pk=table.pk).rebuild().to_dict() == Table.objects.get(pk=table.pk).state


def test_an_electronic_table_chooses_generals_and_shows_the_protection_and_the_countdown_at_390_px(phone):
    """The electronic mode with the form's defaults — 挑选武将 (skills as text, not enforced), 座位抽签, 三人倒计时 —
    and rule 2 without ghosts: 最后一滴血 for the player named as last game's first out."""
    phone.goto("/tables/")
    phone.select_option("#id_kind", "sanguosha")
    phone.select_option("#id_mode", "digital")
    assert phone.is_checked("#id_sgs_generals")
    phone.select_option("#id_sgs_rule2", "last_blood")
    phone.fill("#id_players", ",".join(TYPED))
    phone.fill("#id_sgs_protected", "关羽")
    phone.click("button[type=submit]")
    phone.wait_for_selector("#host-link")
    table = Table.objects.get()
    state = fresh(table)
    assert state.phase == "lord_general" and state.protected == table.player_names.index("关羽")
    record(phone, private_url(table, state.lord), "选择武将", general="刘备")
    assert phone.locator("h3", has_text="你的候选武将").count() == 0
    assert f"主公 {table.player_names[state.lord]} 选择了 刘备" in phone.inner_text("main")
    for p in range(5):
        if p != state.lord:
            services.act(table.pk, p, {"type": "choose_general", "general": fresh(table).candidates[p][0]})
    text = spectator(phone, table)
    assert "基本牌练习" in phone.title() and "武将技能只显示文字,电子牌不执行" in text
    assert "刘备" in text and "最后一滴血:关羽" in text and "三人倒计时:还有 5 名玩家" in text
    assert fresh(table).max_hp[state.lord] == 5  # 刘备 4 + 1 for the lord
