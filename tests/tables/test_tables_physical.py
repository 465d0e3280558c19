"""Physical-deck trackers: the app deals the secrets, the table records the public state in a few taps."""

from __future__ import annotations

import pytest

from tables.rules import PHYSICAL, RuleError
from tables.rules import anhuoxian_table as ahx
from tables.rules import direnjie_table as djt
from tables.rules import sanguosha_table as sgt
from tables.rules.tracker import HOST

NAMES = ["甲", "乙", "丙", "丁", "戊", "己", "庚", "辛", "壬", "癸"]


def act(game, s, who, kind, **params):
    return game.apply(s, {"type": kind, "player": who, **params})[0]


def texts(s) -> str:
    return "\n".join(e["text"] for e in s.log)


def sgs_ready(n=5, lord_seat=0, seed=3):
    """Generals chosen (each the first candidate); play starts with the lord."""
    s = sgt.new_game(NAMES[:n], seed, {"lord_seat": lord_seat})
    s = act(sgt, s, s.lord, "choose_general", general=s.candidates[s.lord][0])
    for p in range(n):
        if p != s.lord:
            s = act(sgt, s, p, "choose_general", general=s.candidates[p][0])
    return s


def test_sanguosha_the_lord_chooses_from_cao_cao_liu_bei_sun_quan_plus_two_others():
    s = sgt.new_game(NAMES[:5], 1)
    lord = s.lord
    assert s.phase == "lord_general" and s.candidates[lord][:3] == ["曹操", "刘备", "孙权"]
    assert len(set(s.candidates[lord])) == 5 and all(g in sgt.PRINTED_HP for g in s.candidates[lord])
    other = (lord + 1) % 5
    assert sgt.forms(s, other) == [] and sgt.view(s, other)["candidates"] == []
    assert not any(s.candidates[lord][3] in line for line in sgt.view(s, other)["log"])
    with pytest.raises(RuleError, match="候选武将"):
        act(sgt, s, lord, "choose_general", general="吕布" if "吕布" not in s.candidates[lord] else "貂蝉")


def test_sanguosha_other_players_choose_in_secret_from_three_and_the_choices_are_revealed_together():
    s = sgt.new_game(NAMES[:5], 1)
    s = act(sgt, s, s.lord, "choose_general", general="刘备")
    others = [p for p in range(5) if p != s.lord]
    assert s.phase == "generals" and all(len(s.candidates[p]) == 3 for p in others)
    dealt = [g for p in range(5) for g in s.candidates[p] if p != s.lord]
    assert len(set(dealt)) == 12 and "刘备" not in dealt
    first = others[0]
    s = act(sgt, s, first, "choose_general", general=s.candidates[first][1])
    assert sgt.view(s, others[1])["seats"][first]["general"] is None
    assert sgt.view(s, first)["seats"][first]["general"] == s.candidates[first][1]
    for p in others[1:]:
        s = act(sgt, s, p, "choose_general", general=s.candidates[p][0])
    assert s.phase == "play" and all(row["general"] for row in sgt.view(s, None)["seats"])


def test_sanguosha_hp_is_the_generals_and_the_lord_gets_one_more_from_five_players():
    s = sgs_ready(5)
    for p in range(5):
        expected = sgt.PRINTED_HP[s.generals[p]] + (1 if p == s.lord else 0)
        assert s.max_hp[p] == s.hp[p] == expected
    four = sgs_ready(4)
    assert four.max_hp[four.lord] == sgt.PRINTED_HP[four.generals[four.lord]]


def test_sanguosha_with_ten_players_everyone_else_chooses_from_two():
    s = sgt.new_game(NAMES[:10], 2)
    s = act(sgt, s, s.lord, "choose_general", general="孙权")
    assert all(len(s.candidates[p]) == 2 for p in range(10) if p != s.lord)


def test_sanguosha_turns_go_counter_clockwise_from_the_lord_and_each_turn_draws_two():
    s = sgs_ready(5, lord_seat=2)
    assert s.current == 2 and s.hand[2] == 6
    s = act(sgt, s, 2, "end_turn")
    assert s.current == 1 and s.hand[1] == 6
    with pytest.raises(RuleError, match="只有当前回合"):
        act(sgt, s, 3, "end_turn")


def test_sanguosha_manual_hp_and_max_hp_changes_name_who_recorded_them():
    s = sgs_ready(5)
    s = act(sgt, s, 3, "hp", target=1, delta=-2, source=0)
    assert s.hp[1] == s.max_hp[1] - 2 and "(来源:甲)" in texts(s) and "〔丁 记录〕" in texts(s)
    s = act(sgt, s, 1, "hp", target=1, delta=5)
    assert s.hp[1] == s.max_hp[1]
    s = act(sgt, s, HOST, "max_hp", target=1, delta=-1)
    assert s.max_hp[1] == s.hp[1] and "〔主持人 记录〕" in texts(s)


def test_sanguosha_killing_a_rebel_gives_three_cards_and_the_lord_killing_a_loyalist_discards_everything():
    s = sgs_ready(6, lord_seat=0)
    rebel = s.roles.index(sgt.sgs.REBEL)
    loyal = s.roles.index(sgt.sgs.LOYAL)
    killer = next(p for p in range(6) if p not in (rebel, 0))
    before = s.hand[killer]
    s = act(sgt, s, HOST, "death", target=rebel, source=killer)
    assert s.hand[killer] == before + 3 and "奖励" in texts(s)
    assert sgt.view(s, None)["seats"][rebel]["role"] == sgt.sgs.REBEL
    s = act(sgt, s, HOST, "death", target=loyal, source=0)
    assert s.hand[0] == 0 and "惩罚:主公错杀忠臣" in texts(s)


def test_sanguosha_victory_and_fourth_edition_scoring_after_the_rebels_and_renegade_die():
    s = sgs_ready(4, lord_seat=0)
    for p in range(4):
        if s.roles[p] in (sgt.sgs.REBEL, sgt.sgs.RENEGADE):
            s = act(sgt, s, HOST, "death", target=p, source=0)
    assert s.phase == "over" and s.winning_side == sgt.sgs.SIDE_LORD
    loyal = s.roles.index(sgt.sgs.LOYAL)
    assert sorted(sgt.winner(s)) == sorted([0, loyal])
    # lord: 4 + 2 per living loyalist + 1 per rebel or renegade killed (the renegade died in a duel-free game)
    assert sgt.score(s)[0] == 4 + 2 + 2 and sgt.score(s)[loyal] == 5 + 1


def test_sanguosha_roles_stay_hidden_until_death_or_the_end_but_the_lord_is_public():
    s = sgs_ready(5, lord_seat=1)
    for viewer in [None, *range(5)]:
        for row in sgt.view(s, viewer)["seats"]:
            visible = row["seat"] in (1, viewer)
            assert (row["role"] is not None) == visible


def test_physical_records_are_refused_for_the_dead_and_corrections_need_the_host_and_a_reason():
    s = sgs_ready(5)
    s = act(sgt, s, HOST, "death", target=3, source="none")
    with pytest.raises(RuleError, match="已经阵亡"):
        act(sgt, s, 0, "hand", target=3, delta=1)
    with pytest.raises(RuleError, match="只有主持人"):
        act(sgt, s, 0, "correct", target=2, field="hp", value=1, reason="记错了")
    with pytest.raises(RuleError, match="理由"):
        act(sgt, s, HOST, "correct", target=2, field="hp", value=1, reason=" ")
    s = act(sgt, s, HOST, "correct", target=2, field="hand", value=7, reason="少记了两张")
    assert s.hand[2] == 7 and "主持人更正:丙 的手牌数" in texts(s) and "理由:少记了两张" in texts(s)


def test_anhuoxian_tracker_deals_roles_by_the_tables_counts_and_the_killer_loots_the_hand():
    s = ahx.new_game(NAMES[:5], 4, {"roles": [2, 2, 1], "first": 2})
    assert sorted(s.roles) == sorted(["特警", "特警", "市民", "市民", "绑匪"])
    assert s.current == 2 and s.hand == [3, 3, 5, 3, 3] and s.hp == [4] * 5
    s = act(ahx, s, 2, "end_turn")
    assert s.current == 1
    victim = next(p for p in range(5) if s.roles[p] == "市民")
    killer = next(p for p in range(5) if p != victim)
    loot, before = s.hand[victim], s.hand[killer]
    s = act(ahx, s, HOST, "death", target=victim, source=killer)
    assert s.hand[killer] == before + loot and s.hand[victim] == 0


def test_anhuoxian_serums_never_go_below_zero_but_sanguosha_hp_may():
    s = act(ahx, ahx.new_game(NAMES[:4], 4), 0, "hp", target=1, delta=-5)
    assert s.hp[1] == 0 and "濒死" in texts(s)
    g = act(sgt, sgs_ready(5), 0, "hp", target=1, delta=-5)
    assert g.hp[1] < 0


def test_anhuoxian_terrorists_win_when_all_citizens_are_dead():
    s = ahx.new_game(NAMES[:4], 4)
    for p in range(4):
        if s.roles[p] == "市民":
            s = act(ahx, s, HOST, "death", target=p, source="none") if s.phase != "over" else s
    assert s.winning_side == "绑匪" and ahx.winner(s) == [s.roles.index("绑匪")]


def djt_game(n=5, **options):
    return djt.new_game(NAMES[:n], 1, {"start": 1, **options})


def test_direnjie_tracker_counts_turns_clues_and_ends_after_the_tail_once_eight_clues_are_public():
    s = djt_game(2)
    assert s.hand == [10, 10] and s.current == 1 and s.tail == 0
    s.hand = [12, 12]
    for _ in range(4):
        for p in (0, 1):
            s = act(djt, s, p, "submit_clue", target=p)
            s = act(djt, s, p, "reveal_clue", target=p)
    assert s.last_round and "最后一轮" in texts(s)
    assert "这是 甲 翻开的第 2 组线索:请执行检查线索或线索功能" in texts(s)
    s = act(djt, s, 1, "end_turn")
    assert s.phase == "play" and s.current == 0
    s = act(djt, s, 0, "end_turn")
    assert s.phase == "answer"


def test_direnjie_tracker_answers_stay_private_until_the_mission_is_turned_over_and_then_score():
    s = djt_game(2)
    s.phase = "answer"
    s.submitted = [4, 2]
    s = act(djt, s, 0, "answer", T=3, W=2, L=5)
    assert djt.view(s, 1)["seats"][0]["answer"] is None and djt.view(s, 0)["seats"][0]["answer"]
    assert "T3" not in "\n".join(djt.view(s, 1)["log"])
    s = act(djt, s, 1, "answer", T=3, W=1, L=1)
    assert s.phase == "mission"
    s = act(djt, s, 1, "mission", T=3, W=2, L=4)
    assert djt.score(s) == {0: 3 + 2, 1: 1 + 1} and djt.winner(s) == [0]


def test_direnjie_tracker_killer_claims_in_secret_and_the_offer_stays_for_everyone():
    s = djt_game(5, killer=True)
    assert s.hand == [11, 10, 10, 10, 10]  # start = seat 1, so the 尾家 (seat 0) takes the card left over
    s = act(djt, s, 3, "claim_killer")
    assert s.killer == 3 and "杀手" not in "\n".join(djt.view(s, 0)["log"])
    assert all(any(f["type"] == "claim_killer" for f in djt.forms(s, p)) for p in (0, 1, 2, 4))
    assert not any(f["type"] == "claim_killer" for f in djt.forms(s, 3))


def test_direnjie_teams_chosen_by_the_table_group_the_scores():
    s = djt_game(4, team_of=[1, 2, 2, 1])
    assert djt.view(s, None)["teams"] == [[0, 3], [1, 2]]
    with pytest.raises(RuleError, match="每队人数相同"):
        djt_game(4, team_of=[1, 1, 1, 2])


@pytest.mark.parametrize("kind", list(PHYSICAL))
def test_every_tracker_refuses_unknown_records_in_chinese(kind):
    g = PHYSICAL[kind]
    s = g.new_game(NAMES[: g.MIN_PLAYERS], 1)
    with pytest.raises(RuleError) as info:
        g.apply(s, {"type": "nonsense", "player": 0})
    assert "nonsense" not in str(info.value)
