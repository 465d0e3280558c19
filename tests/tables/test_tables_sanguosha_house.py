"""三国杀 as seed 002 plays it: the house rules of its 详细规则 (1 座位抽签, 2 暗魂 / 最后一滴血, 3 三人倒计时) and its
转世规则 / 暗魂 sections, in the physical tracker and the electronic mode."""

from __future__ import annotations

import pytest

from tables.rules import GAMES, RuleError
from tables.rules import sanguosha_house as house
from tables.rules import sanguosha_table as sgt
from tables.rules.sanguosha_generals import GENERALS
from tables.rules.tracker import HOST

sgs = GAMES["sanguosha"]  # its rules and its view, as the site uses them

NAMES = ["甲", "乙", "丙", "丁", "戊", "己", "庚", "辛", "壬", "癸"]


def act(game, s, who, kind, **params):
    return game.apply(s, {"type": kind, "player": who, **params})[0]


def texts(s) -> str:
    return "\n".join(e["text"] for e in s.log)


def public(s) -> str:
    return "\n".join(e["text"] for e in s.log if e["to"] is None)


def ready(n=5, seed=3, **options):
    """A physical table with generals chosen (each the first candidate); the lord (seat 0) starts."""
    s = sgt.new_game(NAMES[:n], seed, {"lord_seat": 0, **options})
    s = act(sgt, s, 0, "choose_general", general=s.candidates[0][0])
    for p in range(1, n):
        s = act(sgt, s, p, "choose_general", general=s.candidates[p][0])
    return s


def seat_of(s, role, but=()):
    return next(p for p in range(s.n) if s.roles[p] == role and p not in but)


def kill(s, victim, source="none"):
    return act(sgt, s, HOST, "death", target=victim, source=source)


def to_lords_turn(s):
    """The host ends turns until the lord's next turn starts (one round)."""
    s = act(sgt, s, HOST, "end_turn")
    while s.current != s.lord:
        s = act(sgt, s, HOST, "end_turn")
    return s


# --- 详细规则 1: 座位即出牌顺序抽签决定 -----------------------------------------------------------------------------


@pytest.mark.django_db
def test_seats_are_drawn_by_lot_from_a_recorded_seed_and_the_page_names_it(client, tables_urls):
    """详细规则 1: the seats (= the turn order) are drawn by lot; the lot's seed is recorded and shown."""
    from tables import services

    typed = NAMES[:7]
    orders = set()
    for seed in range(1, 6):
        table = services.create_table("sanguosha", typed, seed=seed, options={"seat_lot": True}, mode="physical")
        drawn = table.player_names
        orders.add(tuple(drawn))
        assert sorted(drawn) == sorted(typed) and table.options["typed"] == typed
        assert drawn == house.draw_seats(typed, table.options["seat_seed"])  # the recorded seed replays the lot
        page = client.get(f"/tables/{table.pk}/").content.decode()
        assert f"抽签种子 {table.options['seat_seed']}" in page and "座位即出牌顺序" in page
        assert table.rebuild().to_dict() == table.state
    assert len(orders) > 1  # not the order typed every time


# --- 详细规则 2: 暗魂; without ghost cards, 最后一滴血受规则保护 ----------------------------------------------------


def test_the_last_drop_of_blood_of_last_games_first_out_is_protected_until_someone_else_is_out():
    """详细规则 2: the first out of the previous game may not go out first: an HP record that would take their last
    point leaves them at 1, and their death is refused — until somebody else is out."""
    s = ready(last_blood=True, protected=2)
    assert "最后一滴血:丙 上一局第一个出局" in public(s)
    s = act(sgt, s, 1, "hp", target=2, delta=-5, source=3)
    assert s.hp[2] == 1 and "最后一滴血受规则保护:丙" in public(s)
    with pytest.raises(RuleError, match="最后一滴血受规则保护"):
        kill(s, 2)
    assert sgt.view(s, None)["house"]["protected"] == "丙"
    other = next(p for p in (3, 4, 1) if s.roles[p] != sgs.REBEL or p == 3)
    s = kill(s, other)
    assert sgt.view(s, None)["house"] is None or sgt.view(s, None)["house"]["protected"] is None
    s = act(sgt, s, 1, "hp", target=2, delta=-1, source=1)
    assert s.hp[2] == 0  # someone else is out: no protection


def test_the_protection_does_not_hold_against_a_player_the_protected_one_attacked():
    """详细规则 2: 「被攻击的人攻击他,则不受此规则保护」."""
    s = ready(last_blood=True, protected=2)
    s = act(sgt, s, 2, "hp", target=3, delta=-1, source=2)  # 丙 attacks 丁
    s = act(sgt, s, 3, "hp", target=2, delta=-5, source=3)  # 丁 strikes back
    assert s.hp[2] <= 0 and "最后一滴血受规则保护:" not in public(s)
    s = kill(s, 2, source=3)
    assert not s.alive[2]


def test_the_electronic_mode_protects_the_last_drop_of_blood_a_killing_sha_leaves_one_hp():
    """详细规则 2 「如无暗魂角牌 … 最后一滴血受规则保护」 in the electronic mode: a [杀] that would kill the
    protected player is held at 1 体力 while nobody is out."""
    s = sgs.new_game(NAMES[:5], 4, {"last_blood": True, "protected": 0})
    assert "本桌规则:最后一滴血受规则保护" in public(s)
    attacker = s.current
    victim = next(p for p in range(5) if p != attacker and sgs.distance(s, attacker, p) == 1)
    s.protected = victim
    s.hp[victim] = 1
    s.hands[attacker] = [sgs.SHA]
    s.hands[victim] = []
    s = act(sgs, s, attacker, "sha", target=victim)
    s = act(sgs, s, victim, "take")
    assert s.hp[victim] == 1 and s.phase == "play" and s.alive[victim]
    assert "最后一滴血受规则保护" in public(s)


def test_a_series_protects_the_previous_games_first_out(db):
    from tables import services
    from tables.models import Table

    table = services.create_table("sanguosha", NAMES[:5], seed=9, options={"last_blood": True}, mode="physical")
    state = table.load()
    first = next(p for p in range(5) if p != state.lord)
    state.kills = [[-1, first]]
    state.phase, state.winning_side = "over", sgs.SIDE_REBEL
    Table.objects.filter(pk=table.pk).update(state=state.to_dict())
    table = services.next_game(table.pk)
    assert table.rounds[0]["first_out"] == first and table.load().protected == first
    assert f"最后一滴血:{NAMES[first]} 上一局第一个出局" in public(table.load())


def test_a_player_who_goes_out_becomes_a_ghost_by_identity_usable_once():
    """暗魂: 忠臣 → 罗汉 (absorbs one damage for the possessed, who discards a card), 反贼 → 玄武 (swap a card),
    内奸 → 祝由 (in the possessed player's play phase: discard the whole hand, draw as many); each once, then gone."""
    s = ready(ghosts=True)
    loyal, rebel, renegade = seat_of(s, sgs.LOYAL), seat_of(s, sgs.REBEL), seat_of(s, sgs.RENEGADE)
    s = kill(s, loyal)
    assert "化为罗汉暗魂" in public(s) and sgt.view(s, None)["seats"][loyal]["ghost"] == "罗汉"
    s = act(sgt, s, 0, "hp", target=0, delta=-1, source=rebel)
    hp, hand = s.hp[0], s.hand[0]
    s = act(sgt, s, loyal, "ghost", target=0)
    assert (s.hp[0], s.hand[0]) == (hp + 1, hand - 1) and "罗汉暗魂附体 甲" in public(s)
    with pytest.raises(RuleError, match="没有可以使用的暗魂"):
        act(sgt, s, loyal, "ghost", target=0)
    assert sgt.forms(s, loyal)[0]["type"] != "ghost"
    s = kill(s, rebel)
    assert "化为玄武暗魂" in public(s)
    hand = s.hand[renegade]
    s = act(sgt, s, HOST, "ghost", ghost=rebel, target=renegade)
    assert s.hand[renegade] == hand and "玄武暗魂附体" in public(s)
    assert any("玄武" in line for line in sgt.view(s, None)["house"]["ghost_lines"])


def test_the_zhuyou_ghost_acts_only_in_the_possessed_players_play_phase():
    s = ready(ghosts=True)
    renegade = seat_of(s, sgs.RENEGADE)
    s = kill(s, renegade)
    other = next(p for p in range(5) if s.alive[p] and p != s.current)
    with pytest.raises(RuleError, match="出牌阶段"):
        act(sgt, s, renegade, "ghost", target=other)
    hand = s.hand[s.current]
    s = act(sgt, s, renegade, "ghost", target=s.current)
    assert s.hand[s.current] == hand and "祝由暗魂附体" in public(s)


def test_a_death_another_seat_records_makes_no_ghost_until_confirmed():
    """A ghost names the identity: it appears only when the death is confirmed (the identity is revealed)."""
    s = ready(ghosts=True)
    victim = seat_of(s, sgs.LOYAL)
    s = act(sgt, s, (victim + 1) % 5, "death", target=victim, source="none")
    assert "化为" not in public(s) and sgt.view(s, None)["seats"][victim]["role"] is None
    s = act(sgt, s, victim, "confirm_death", target=victim)
    assert "化为罗汉暗魂" in public(s)


# --- 详细规则 3: 三人倒计时 ------------------------------------------------------------------------------------------


def _three_left(s):
    """Out: a loyalist and a rebel (the lord, a rebel and the renegade are left: nobody has won)."""
    loyal = seat_of(s, sgs.LOYAL)
    s = kill(s, loyal)
    return kill(s, seat_of(s, sgs.REBEL, but=[loyal]))


def test_with_three_players_left_everyone_loses_one_hp_each_round_after_three_rounds():
    """详细规则 3: 「当游戏只剩三名玩家时,三轮以后每轮所有人同时各减一点体力」."""
    s = _three_left(ready(countdown=True))
    left = [p for p in range(5) if s.alive[p]]
    assert len(left) == 3
    for _ in range(3):  # three rounds start with three players: no loss
        before = list(s.hp)
        s = to_lords_turn(s)
        assert s.hp == before
    assert "再过 1 轮" in sgt.view(s, None)["house"]["countdown"]
    before = list(s.hp)
    s = to_lords_turn(s)
    assert all(s.hp[p] == before[p] - 1 for p in left) and "所有人同时各失去 1 点体力" in public(s)


def test_the_countdown_carries_on_when_everyone_would_go_out_together():
    """详细规则 3: 「如一起出局则延续到下轮」."""
    s = _three_left(ready(countdown=True))
    for _ in range(3):
        s = to_lords_turn(s)
    for p in range(5):
        if s.alive[p]:
            s = act(sgt, s, HOST, "correct", target=p, field="hp", value=1, reason="测试")
    s = to_lords_turn(s)
    assert all(s.hp[p] == 1 for p in range(5) if s.alive[p]) and "延续到下一轮" in public(s)


def test_the_electronic_countdown_asks_each_player_at_zero_for_a_peach_in_turn():
    """详细规则 3 in the electronic mode: the players the countdown leaves at 0 are dying one after another."""
    s = sgs.new_game(NAMES[:4], 2, {"countdown": True})
    out = next(p for p in range(4) if s.roles[p] == sgs.LOYAL)
    s.alive[out] = False
    s.round_no, s.three_from = 5, 2
    left = [p for p in range(4) if s.alive[p]]
    for p in left:
        s.hp[p] = 2 if p == s.lord else 1
        s.hands[p] = []
    s.phase = "play"
    s = act(sgs, s, s.current, "end_play")
    while s.phase == "discard":
        s = act(sgs, s, s.current, "discard", cards=s.hands[s.current][: len(s.hands[s.current]) - s.hp[s.current]])
    while s.current != s.lord and s.phase == "play":
        s = act(sgs, s, s.current, "end_play")
        while s.phase == "discard":
            keep = max(s.hp[s.current], 0)
            s = act(sgs, s, s.current, "discard", cards=s.hands[s.current][: len(s.hands[s.current]) - keep])
    assert "所有人同时各失去 1 点体力" in public(s)
    assert s.current == s.lord and s.hp[s.lord] == 1
    at_zero = [p for p in sgs.turn_order_from(s, s.lord) if p != s.lord]  # the other two, in turn order
    dying = []
    while s.phase == "dying":
        if s.pending["victim"] not in dying:
            dying.append(s.pending["victim"])
        s = act(sgs, s, s.pending["askers"][s.pending["idx"]], "pass")
    assert dying == at_zero  # asked one after another, in turn order from the lord
    assert not any(s.alive[p] for p in at_zero) and s.phase == "over"


# --- 转世规则 -------------------------------------------------------------------------------------------------------


def _sacrifice_until_reborn(s, target):
    givers = [p for p in range(5) if s.alive[p] and p != target and not s.reborn[p]]
    need = house.rebirth_threshold(5) - s.hand[target]
    for giver in givers[:need]:
        s = act(sgt, s, giver, "sacrifice", target=target)
    return s


def test_a_player_out_is_reborn_at_three_sacrificed_cards_in_a_five_player_game():
    """转世规则: each other player may give one hand card a turn; at 3 cards (4–5 players) the player is reborn as
    the first general of their own kingdom turned from the unused generals, with 1 体力."""
    s = ready(rebirth=True)
    rebel = seat_of(s, sgs.REBEL)
    old = s.generals[rebel]
    s = kill(s, rebel)
    giver = next(p for p in range(5) if s.alive[p])
    hand = s.hand[giver]
    s = act(sgt, s, giver, "sacrifice", target=rebel)
    assert s.hand[giver] == hand - 1 and s.hand[rebel] == 1 and "献祭" in public(s)
    assert sgt.view(s, None)["seats"][rebel]["offerings"] == 1
    with pytest.raises(RuleError, match="每回合只能献祭一次"):
        act(sgt, s, giver, "sacrifice", target=rebel)
    s = to_lords_turn(s)
    s = _sacrifice_until_reborn(s, rebel)
    new = s.generals[rebel]
    assert s.alive[rebel] and s.reborn[rebel] and s.hp[rebel] == 1 and s.max_hp[rebel] == GENERALS[new][2]
    if GENERALS[old][0] != "群":
        assert GENERALS[new][0] == GENERALS[old][0]
    assert old in s.pool and new not in s.pool and "转世:" in public(s)
    assert rebel not in sgt._standing(s)  # still counted as out for victory


def test_killing_a_reborn_rebel_gives_no_reward_and_the_lord_wins_over_a_reborn_rebel():
    """转世规则: 「攻击转世后的反贼不获得摸三张牌的奖励」; a reborn rebel does not keep the rebels' side alive."""
    s = ready(rebirth=True)
    rebels = [p for p in range(5) if s.roles[p] == sgs.REBEL]
    s = kill(s, rebels[0])
    s = _sacrifice_until_reborn(s, rebels[0])
    assert s.reborn[rebels[0]]
    hand = s.hand[0]
    s = kill(s, rebels[0], source=0)
    assert s.hand[0] == hand and "不计奖励" in public(s) and s.kills.count([0, rebels[0]]) == 0
    s = to_lords_turn(s)
    s = _sacrifice_until_reborn(s, rebels[0])  # reborn again: repeatable
    assert s.reborn[rebels[0]]
    for p in (rebels[1], seat_of(s, sgs.RENEGADE)):
        s = kill(s, p, source=0)
    assert s.winning_side == sgs.SIDE_LORD  # the reborn rebel is still alive, but counts as out


def test_no_rebirth_without_a_general_of_ones_kingdom_left_and_no_more_sacrifices():
    s = ready(rebirth=True)
    victim = seat_of(s, sgs.REBEL)
    s = kill(s, victim)
    s.generals[victim] = "关羽"
    s.pool = [g for g in s.pool if GENERALS[g][0] != "蜀"]
    s = _sacrifice_until_reborn(s, victim)
    assert not s.alive[victim] and s.no_rebirth[victim] and "无法转世" in public(s)
    giver = next(p for p in range(5) if s.alive[p] and s.gave_on_turn[p] != s.turn_no)
    with pytest.raises(RuleError, match="不再接受献祭"):
        act(sgt, s, giver, "sacrifice", target=victim)


def test_house_rule_lines_never_show_a_living_players_identity():
    s = ready(ghosts=True, countdown=True, rebirth=True, seat_lot=True)
    for viewer in (None, 1, 2):
        view = sgt.view(s, viewer)
        for row in view["seats"]:
            if row["seat"] not in (0, viewer):
                assert row["role"] is None and not row.get("ghost")


# --- 挑选武将 in the electronic mode ---------------------------------------------------------------------------------


def test_electronic_generals_the_lord_chooses_first_then_the_others_in_secret_and_hp_follows_the_general():
    """「2、挑选武将」: the lord chooses among 曹操、刘备、孙权 + 2 drawn; the others get 3 each and reveal together;
    HP = the general's (+1 for the lord from 5 players); skills are text only in this mode."""
    s = sgs.new_game(NAMES[:5], 7, {"generals": True})
    lord = s.lord
    assert s.phase == "lord_general" and s.candidates[lord][:3] == ["曹操", "刘备", "孙权"]
    assert len(set(s.candidates[lord])) == 5
    other = (lord + 1) % 5
    assert sgs.forms(s, other) == [] and sgs.view(s, other)["candidates"] == []
    with pytest.raises(RuleError, match="现在应由"):
        act(sgs, s, other, "choose_general", general="吕布")
    s = act(sgs, s, lord, "choose_general", general="孙权")
    others = [p for p in range(5) if p != lord]
    dealt = [g for p in others for g in s.candidates[p]]
    assert s.phase == "generals" and len(set(dealt)) == 12 and "孙权" not in dealt
    first, second = others[0], others[1]
    s = act(sgs, s, first, "choose_general", general=s.candidates[first][2])
    assert sgs.view(s, second)["seats"][first]["general_card"] is None  # not revealed before everyone chose
    assert sgs.view(s, None)["seats"][lord]["general_card"]["name"] == "孙权"
    assert not any(s.candidates[first][2] in line for line in sgs.view(s, second)["log"])
    for p in others[1:]:
        s = act(sgs, s, p, "choose_general", general=s.candidates[p][0])
    assert s.phase == "play" and s.current == lord
    assert s.max_hp[lord] == GENERALS["孙权"][2] + 1
    assert all(s.max_hp[p] == GENERALS[s.generals[p]][2] for p in others)
    assert all(row["general_card"] for row in sgs.view(s, None)["seats"])
    assert "技能只显示文字,电子牌不执行" in public(s)


def test_electronic_generals_in_a_ten_player_game_deal_two_each():
    s = sgs.new_game(NAMES[:10], 1, {"generals": True})
    s = act(sgs, s, s.lord, "choose_general", general="刘备")
    assert all(len(s.candidates[p]) == 2 for p in range(10) if p != s.lord)
    assert set(sgs.view(s, None)["to_act"] if isinstance(sgs.view(s, None)["to_act"], list) else []) == {
        p for p in range(10) if p != s.lord
    }


def _digital_ready(n=5, seed=7, **options):
    s = sgs.new_game(NAMES[:n], seed, {"generals": True, **options})
    s = act(sgs, s, s.lord, "choose_general", general=s.candidates[s.lord][0])
    for p in range(n):
        if p != s.lord:
            s = act(sgs, s, p, "choose_general", general=s.candidates[p][0])
    return s


def _digital_next_turn(s):
    s = act(sgs, s, s.current, "end_play")
    if s.phase == "discard":
        keep = max(s.hp[s.current], 0)
        s = act(sgs, s, s.current, "discard", cards=s.hands[s.current][: len(s.hands[s.current]) - keep])
    return s


def test_electronic_rebirth_takes_one_sacrifice_a_turn_and_reborn_players_count_as_out():
    """转世规则 with 挑选武将 in the electronic mode: the player whose play phase it is gives one card, once a turn;
    at 3 cards (5 players) the player who is out is reborn with 1 体力 as a general of their kingdom; killing them
    again gives no reward."""
    s = _digital_ready(rebirth=True)
    rebel = next(p for p in range(5) if s.roles[p] == sgs.REBEL and p != s.current)
    old = s.generals[rebel]
    s.alive[rebel] = False
    s.hands[rebel] = []
    for _ in range(20):
        if s.reborn[rebel]:
            break
        if s.current != rebel and s.hands[s.current]:
            form = next(f for f in sgs.forms(s, s.current) if f["type"] == "sacrifice")
            card = form["params"][1]["choices"][0][0]
            s = act(sgs, s, s.current, "sacrifice", target=rebel, card=card)
            assert not any(f["type"] == "sacrifice" for f in sgs.forms(s, s.current))  # once a turn
            with pytest.raises(RuleError, match="每回合只能献祭一次"):
                act(
                    sgs,
                    s,
                    s.current,
                    "sacrifice",
                    target=rebel,
                    card=s.hands[s.current][0] if s.hands[s.current] else "杀",
                )
        s = _digital_next_turn(s)
    new = s.generals[rebel]
    assert s.reborn[rebel] and s.alive[rebel] and s.hp[rebel] == 1 and len(s.hands[rebel]) >= 3
    if GENERALS[old][0] != "群":
        assert GENERALS[new][0] == GENERALS[old][0]
    assert "转世:" in public(s) and sgs.view(s, None)["seats"][rebel]["reborn"]
    kills = list(s.kills)
    sgs._die(s, rebel, s.lord)
    assert s.kills == kills and "不计奖励" in public(s) and not s.alive[rebel]


@pytest.mark.django_db
def test_the_create_form_ticks_the_seeds_rules_and_names_last_games_first_out(client, tables_urls):
    """The create form: 座位抽签, 暗魂 and 三人倒计时 are ticked as the seed plays; 最后一滴血 takes the name of last
    game's first out, refused with a sentence when it is not one of the players."""
    from tables.models import Table

    page = client.get("/tables/").content.decode()
    assert 'name="sgs_seat_lot" id="id_sgs_seat_lot" checked' in page or 'id="id_sgs_seat_lot" checked' in page
    assert '<option value="ghosts" selected>' in page
    players = "甲,乙,丙,丁,戊"
    base = {"kind": "sanguosha", "mode": "physical", "players": players, "sgs_rule2": "last_blood"}
    bad = client.post("/tables/", {**base, "sgs_protected": "张三"})
    assert bad.status_code == 400 and "要写玩家名单里的一个名字(收到「张三」)" in bad.content.decode()
    assert not Table.objects.exists()
    good = client.post("/tables/", {**base, "sgs_protected": "丙", "sgs_seat_lot": "on", "sgs_countdown": "on"})
    assert good.status_code == 200
    table = Table.objects.get()
    assert table.options["last_blood"] and table.options["countdown"] and "ghosts" not in table.options
    assert (
        table.player_names[table.options["protected"]] == "丙" and table.load().protected == table.options["protected"]
    )


@pytest.mark.django_db
def test_the_create_form_offers_rebirth_in_both_modes_and_asks_for_generals_in_the_electronic_one(client, tables_urls):
    """转世规则 turns the unused generals of one's kingdom: the electronic mode plays it with 挑选武将; ticked without
    them, the form says so instead of making a table that quietly plays without it."""
    from tables.models import Table

    page = client.get("/tables/").content.decode()
    assert "三国杀:转世" in page and "三国杀实体牌:转世" not in page
    base = {"kind": "sanguosha", "mode": "digital", "players": "甲,乙,丙,丁,戊", "sgs_rebirth": "on"}
    bad = client.post("/tables/", base)
    assert bad.status_code == 400 and "电子牌的转世要按武将的国籍转世" in bad.content.decode()
    assert not Table.objects.exists()
    assert client.post("/tables/", {**base, "sgs_generals": "on"}).status_code == 200
    table = Table.objects.get()
    assert (
        table.options["rebirth"]
        and table.options["generals"]
        and "本桌规则:转世" in " ".join(e["text"] for e in table.load().log)
    )


def test_electronic_ghosts_luohan_absorbs_a_sha_xuanwu_swaps_a_card_zhuyou_redraws_a_hand():
    """暗魂 in the electronic mode: 罗汉 (a dead loyalist) absorbs one damage of a [杀] about to hit the possessed
    player, who discards a card; 玄武 (a dead rebel) swaps a drawn card with one of the possessed player's; 祝由 (a
    dead renegade) makes the player in their play phase discard the hand and draw as many; each once."""
    s = sgs.new_game(NAMES[:5], 4, {"ghosts": True})
    loyal = next(p for p in range(5) if s.roles[p] == sgs.LOYAL and p != s.current)
    s = sgs.State.from_dict(s.to_dict())
    s.alive[loyal] = False
    s.ghosts[loyal] = "罗汉"
    attacker = s.current
    victim = next(p for p in range(5) if s.alive[p] and p != attacker and sgs.distance(s, attacker, p) == 1)
    s.hands[attacker] = [sgs.SHA]
    s.hands[victim] = [sgs.TAO, sgs.TAO]
    assert sgs.forms(s, loyal) == []  # nothing to absorb yet
    s = act(sgs, s, attacker, "sha", target=victim)
    assert [f["type"] for f in sgs.forms(s, loyal)] == ["ghost"]
    hp = s.hp[victim]
    s = act(sgs, s, loyal, "ghost", target=victim)
    assert len(s.hands[victim]) == 1 and s.ghosts[loyal] is None and "罗汉暗魂附体" in public(s)
    s = act(sgs, s, victim, "take")
    assert s.hp[victim] == hp and "罗汉暗魂抵挡了" in public(s)
    with pytest.raises(RuleError, match="没有可以使用的暗魂"):
        act(sgs, s, loyal, "ghost", target=victim)

    rebel = next(p for p in range(5) if s.roles[p] == sgs.REBEL and s.alive[p] and p not in (attacker, victim))
    s.alive[rebel], s.ghosts[rebel] = False, "玄武"
    before = list(s.hands[attacker] or [])
    s.hands[attacker] = before or [sgs.SHAN]
    count = len(s.hands[attacker])
    s = act(sgs, s, rebel, "ghost", target=attacker)
    assert len(s.hands[attacker]) == count and "玄武暗魂附体" in public(s)

    renegade = next(p for p in range(5) if s.roles[p] == sgs.RENEGADE)
    if s.alive[renegade] and renegade != attacker:
        s.alive[renegade], s.ghosts[renegade] = False, "祝由"
        assert sgs.ghost_moves(s, renegade) == [attacker]  # only the player in their play phase
        count = len(s.hands[attacker])
        s = act(sgs, s, renegade, "ghost", target=attacker)
        assert len(s.hands[attacker]) == count and "祝由暗魂附体" in public(s)


def test_a_player_out_in_the_electronic_mode_becomes_the_ghost_of_their_identity():
    s = _digital_ready(ghosts=True)
    loyal = next(p for p in range(5) if s.roles[p] == sgs.LOYAL)
    sgs._die(s, loyal, None)
    assert s.ghosts[loyal] == "罗汉" and "化为罗汉暗魂" in public(s)
    assert sgs.view(s, None)["seats"][loyal]["ghost"] == "罗汉"
