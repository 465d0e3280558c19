"""Moves declared once at 暗火线 (both modes) and 三国杀 实体牌: each lists its legal moves from the state, its forms
are that list's, and a form offers only what the rules accept."""

from __future__ import annotations

import pytest

from bench.tables_fuzz import _moves_disagree
from tables.rules import GAMES, PHYSICAL, RuleError
from tables.rules import anhuoxian_table as aht
from tables.rules import sanguosha_table as sgt
from tables.rules.anhuoxian import CITIZEN, SWAT, TERRORIST
from tables.rules.anhuoxian_cards import AID, CONTROL, DOUBLE, GRENADE, SINGLE, SMOKE, VEST
from tables.rules.moves import Arg, Move
from tables.rules.sanguosha import LOYAL, RENEGADE
from tables.rules.tracker import HOST

ahx = GAMES["anhuoxian"]
NAMES = ["甲", "乙", "丙", "丁", "戊", "己", "庚", "辛"]
A, B, C, D, E, F = range(6)


def act(game, s, who, kind, **params):
    return game.apply(s, {"type": kind, "player": who, **params})[0]


def labels(game, s, seat) -> list[str]:
    return [f["label"] for f in game.forms(s, seat)]


def choices(game, s, seat, label, name) -> list:
    spec = next(f for f in game.forms(s, seat) if f["label"] == label)
    return [c[0] for p in spec["params"] if p["name"] == name for c in p["choices"]]


def anhuoxian_play(**hands):
    """暗火线 electronic, six players, 甲 in their play phase with the given hands (by seat letter)."""
    s = ahx.new_game(NAMES[:6], 1)
    s.roles = [SWAT, CITIZEN, TERRORIST, SWAT, CITIZEN, TERRORIST]
    s.hands = [list(hands.get("ABCDEF"[p], [])) for p in range(6)]
    return s


def test_anhuoxian_offers_no_second_vest_and_no_double_shot_after_a_grenade():
    """暗火线: one 防弹衣 at a time; 手雷 and 双发子弹 exclude each other in a turn."""
    s = anhuoxian_play(A=[VEST, DOUBLE, SINGLE])
    s.vest[A] = True
    assert "装备" not in labels(ahx, s, A)
    with pytest.raises(RuleError, match="已经装备了防弹衣"):
        act(ahx, s, A, "equip", card=VEST)
    s.used = ["skill", "grenade"]
    assert "开枪:双发子弹" not in labels(ahx, s, A) and "开枪:单发子弹" in labels(ahx, s, A)


def test_anhuoxian_offers_as_targets_only_players_the_card_may_name():
    """暗火线: a smoked player takes no attack but a grenade's; 主控室 may be named only by a full-HP player (手雷
    excepted)."""
    s = anhuoxian_play(A=[SINGLE, GRENADE])
    s.effects = [{"kind": SMOKE, "by": D, "targets": [B]}]
    s.env[C] = CONTROL
    s.hp[A] = 3
    assert choices(ahx, s, A, "开枪:单发子弹", "targets") == [D, E, F]
    assert choices(ahx, s, A, "技能:手雷", "target") == [B, C, D, E, F]
    for target in (B, C):
        with pytest.raises(RuleError):
            act(ahx, s, A, "shoot", card=SINGLE, targets=[target])


def test_anhuoxian_offers_the_first_aid_kit_only_to_a_player_holding_one():
    """暗火线: everyone is asked in turn (nobody learns who holds a kit); only a holder may use one."""
    s = anhuoxian_play(A=[SINGLE], C=[AID])
    s.hp[B] = 1
    s = act(ahx, s, A, "shoot", card=SINGLE, targets=[B])
    asker = s.dying["askers"][0]
    assert asker != C and labels(ahx, s, asker) == ["不救"]
    while s.dying["askers"][s.dying["idx"]] != C:
        s = act(ahx, s, s.dying["askers"][s.dying["idx"]], "pass")
    assert labels(ahx, s, C) == ["对 乙 使用急救包", "不救"]


def sanguosha_ready(**options):
    """三国杀 实体牌, five players, generals chosen; the lord (seat 0) starts."""
    s = sgt.new_game(NAMES[:5], 3, {"lord_seat": 0, **options})
    for p in range(5):
        s = act(sgt, s, p, "choose_general", general=s.candidates[p][0])
    return s


def test_a_luohan_ghost_is_offered_only_on_a_hurt_player_and_a_zhuyou_only_on_the_player_whose_turn_it_is():
    """详细规则 2 暗魂: 罗汉 absorbs a damage just taken (a hurt player); 祝由 acts in the possessed player's turn."""
    s = sanguosha_ready(ghosts=True)
    loyal, renegade = (next(p for p in range(5) if s.roles[p] == r) for r in (LOYAL, RENEGADE))
    s = act(sgt, s, HOST, "death", target=loyal, source="none")
    assert not any("罗汉暗魂附体" in label for label in labels(sgt, s, loyal))
    hurt = next(p for p in range(5) if s.alive[p])
    s = act(sgt, s, HOST, "hp", target=hurt, delta=-1, source="none")
    assert choices(sgt, s, loyal, "罗汉暗魂附体(只能用一次)", "target") == [hurt]
    s = act(sgt, s, HOST, "death", target=renegade, source="none")
    assert choices(sgt, s, renegade, "祝由暗魂附体(只能用一次)", "target") == [s.current]
    assert _moves_disagree("sanguosha", "physical", sgt, s, oracle=True) == []


def test_a_protected_players_death_is_offered_only_with_a_killer_they_attacked():
    """详细规则 2 最后一滴血: last game's first out may not go out first, unless the one hurting them is a player
    they attacked."""
    s = sanguosha_ready(last_blood=True, protected=2)
    s = act(sgt, s, HOST, "correct", target=2, field="hp", value=0, reason="记错了")
    assert "丙 阵亡" not in labels(sgt, s, 1) and 2 not in choices(sgt, s, 1, "阵亡", "target")
    s = act(sgt, s, 2, "hp", target=3, delta=-1, source=2)  # 丙 attacks 丁
    assert choices(sgt, s, 1, "丙 阵亡", "source") == [3]
    assert _moves_disagree("sanguosha", "physical", sgt, s, oracle=True) == []


def test_a_record_naming_a_dead_player_as_the_source_is_refused_and_never_offered():
    s = sanguosha_ready()
    s = act(sgt, s, HOST, "death", target=4, source="none")
    with pytest.raises(RuleError, match="伤害来源必须是存活的角色"):
        act(sgt, s, 1, "hp", target=2, delta=-1, source=4)
    assert 4 not in choices(sgt, s, 1, "体力变化", "source")


def anhuoxian_table(**options):
    return aht.new_game(NAMES[:5], 2, {"warrant": True, **options})


def test_the_physical_anhuoxian_lists_its_records_and_the_host_s_correction():
    s = anhuoxian_table()
    assert [m.type for m in aht.moves(s, s.current)] == ["end_turn", "hp", "hand", "max_hp", "death", "warrant"]
    assert [m.type for m in aht.moves(s, HOST)][-1] == "correct" and "warrant" not in [
        m.type for m in aht.moves(s, HOST)
    ]
    assert aht.forms(s, HOST) == [m.form() for m in aht.moves(s, HOST)]
    assert _moves_disagree("anhuoxian", "physical", aht, s, oracle=True) == []


def test_the_check_catches_a_physical_list_that_leaves_out_a_legal_record_or_offers_one_the_rules_refuse(monkeypatch):
    s = anhuoxian_table()
    me = s.current
    listed = aht.moves
    monkeypatch.setattr(aht, "moves", lambda s, seat: [m for m in listed(s, seat) if m.type != "warrant"])
    wrong = _moves_disagree("anhuoxian", "physical", aht, s, oracle=True)
    assert any("合法的动作没有表单" in w and "'warrant'" in w for w in wrong)
    myself = Move("warrant", "搜查令", (Arg("target", "查看谁", "seat", ((me, NAMES[me]),)),))
    monkeypatch.setattr(aht, "moves", lambda s, seat: [*listed(s, seat), *([myself] if seat == me else [])])
    wrong = _moves_disagree("anhuoxian", "physical", aht, s, oracle=True)
    assert any("表单给出的动作不合法" in w and "'warrant'" in w for w in wrong)


def test_electronic_anhuoxian_agrees_with_its_oracle_in_a_dying_and_a_play_phase():
    s = anhuoxian_play(A=[SINGLE, DOUBLE, GRENADE, VEST, "闪光弹", "武装解除"], C=[AID])
    assert _moves_disagree("anhuoxian", "digital", ahx, s, oracle=True) == []
    s.hp[B] = 1
    s = act(ahx, s, A, "shoot", card=SINGLE, targets=[B])
    assert _moves_disagree("anhuoxian", "digital", ahx, s, oracle=True) == []
    assert PHYSICAL["anhuoxian"] is aht
