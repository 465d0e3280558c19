"""三国杀 (source 002): every rule of the issue pinned by a test."""

from __future__ import annotations

from collections import Counter

import pytest

from tables.rules import GAMES, RuleError
from tables.rules.sanguosha import JIU, LORD, LOYAL, REBEL, RENEGADE, SHA, SHAN, TAO

sanguosha = GAMES["sanguosha"]  # its rules and its view, as the site uses them

NAMES = ["甲", "乙", "丙", "丁", "戊", "己", "庚", "辛", "壬", "癸"]


def game(n: int, roles: list[str] | None = None, seed: int = 1):
    s = sanguosha.new_game(NAMES[:n], seed)
    if roles:  # fixed identities; the lord at seat 0 starts
        s = sanguosha.new_game(NAMES[:n], seed)
        s.roles = roles
        s.lord = roles.index(LORD)
        s.max_hp = [4 + (1 if p == s.lord and n >= 5 else 0) for p in range(n)]
        s.hp = list(s.max_hp)
        s.current = s.lord
    return s


def act(s, seat, kind, **params):
    return sanguosha.apply(s, {"type": kind, "player": seat, **params})[0]


def texts(s) -> str:
    return "\n".join(e["text"] for e in s.log)


FIVE = [LORD, REBEL, LOYAL, RENEGADE, REBEL]


@pytest.mark.parametrize("n", range(4, 11))
def test_sanguosha_identities_follow_the_table_for_each_player_count(n):
    s = game(n)
    expected = sanguosha.IDENTITIES[n]
    assert Counter(s.roles) == Counter(expected)
    assert s.roles.count(LORD) == 1


def test_sanguosha_identity_counts_are_the_published_table():
    counts = {n: Counter(r) for n, r in sanguosha.IDENTITIES.items()}
    assert counts[4] == Counter({LORD: 1, LOYAL: 1, REBEL: 1, RENEGADE: 1})
    assert counts[8] == Counter({LORD: 1, LOYAL: 2, REBEL: 4, RENEGADE: 1})
    assert counts[10] == Counter({LORD: 1, LOYAL: 3, REBEL: 4, RENEGADE: 2})


def test_sanguosha_the_lord_is_revealed_and_other_identities_stay_hidden():
    s = game(6)
    public = sanguosha.view(s, None)
    shown = [seat["role"] for seat in public["seats"]]
    assert shown[s.lord] == LORD and shown.count(None) == 5
    other = next(p for p in range(6) if p != s.lord)
    assert sanguosha.view(s, other)["seats"][other]["role"] == s.roles[other]


def test_sanguosha_hp_is_4_and_the_lord_gets_one_more_from_five_players():
    four = game(4)
    assert four.max_hp == [4, 4, 4, 4]
    five = game(5)
    assert five.max_hp[five.lord] == 5
    assert sorted(five.max_hp) == [4, 4, 4, 4, 5]


def test_sanguosha_everyone_starts_with_four_cards_and_the_lord_draws_two_in_the_first_turn():
    s = game(5)
    counts = [len(h) for h in s.hands]
    assert counts[s.lord] == 6 and sorted(counts) == [4, 4, 4, 4, 6]
    assert len(s.deck) == sum(sanguosha.BASIC_DECK.values()) - 22


def test_sanguosha_turns_go_counter_clockwise_from_the_lord_through_the_six_phases():
    s = game(5, FIVE)
    s.hands[0] = [SHA]
    s = act(s, 0, "end_play")
    log = texts(s)
    for phase in sanguosha.TURN_PHASES:
        assert phase in log
    assert s.current == 4  # to the right: the previous seat in the clockwise list
    s.hands[4] = []
    s = act(s, 4, "end_play")
    assert s.current == 3


def test_sanguosha_the_draw_phase_draws_two_and_reshuffles_the_discard_pile_when_the_deck_is_empty():
    s = game(4, [LORD, LOYAL, REBEL, RENEGADE])
    s.hands[0] = []
    s.discard_pile = s.deck[:-1]
    s.deck = s.deck[-1:]
    total = len(s.discard_pile) + 1
    s = act(s, 0, "end_play")
    assert len(s.hands[3]) == 6
    assert len(s.deck) == total - 2 and s.discard_pile == []
    assert "弃牌堆洗混" in texts(s)


def test_sanguosha_hand_limit_is_current_hp_in_the_discard_phase():
    s = game(4, [LORD, LOYAL, REBEL, RENEGADE])
    s.hp[0] = 2
    s.hands[0] = [SHAN, SHAN, TAO, SHA, SHA]
    s = act(s, 0, "end_play")
    assert s.phase == "discard"
    with pytest.raises(RuleError, match="正好弃置 3 张"):
        act(s, 0, "discard", cards=[SHA])
    s = act(s, 0, "discard", cards=[SHA, SHA, SHAN])
    assert sorted(s.hands[0]) == sorted([SHAN, TAO]) and s.current == 3


def test_sanguosha_only_one_sha_per_play_phase_and_only_within_range():
    s = game(5, FIVE)
    s.hands[0] = [SHA, SHA]
    with pytest.raises(RuleError, match="攻击范围"):
        act(s, 0, "sha", target=2)
    s = act(s, 0, "sha", target=1)
    s.hands[1] = []
    s = act(s, 1, "take")
    with pytest.raises(RuleError, match="仅限使用一次"):
        act(s, 0, "sha", target=4)


def test_sanguosha_shan_cancels_sha_and_taking_it_costs_one_hp():
    s = game(5, FIVE)
    s.hands[0] = [SHA]
    s.hands[1] = [SHAN]
    s = act(s, 0, "sha", target=1)
    dodged = act(s, 1, "shan")
    assert dodged.hp[1] == 4 and dodged.phase == "play"
    hit = act(s, 1, "take")
    assert hit.hp[1] == 3


def test_sanguosha_jiu_makes_the_next_sha_deal_two():
    s = game(5, FIVE)
    s.hands[0] = [SHA, JIU]
    s = act(act(s, 0, "jiu"), 0, "sha", target=1)
    assert act(s, 1, "take").hp[1] == 2


def test_sanguosha_tao_heals_only_when_hurt():
    s = game(5, FIVE)
    s.hands[0] = [TAO]
    with pytest.raises(RuleError, match="体力已满"):
        act(s, 0, "tao")
    s.hp[0] = 3
    assert act(s, 0, "tao").hp[0] == 4


def dying(s, victim_hp=1, target=1):
    s.hands[0] = [SHA] + [c for c in s.hands[0] if c != SHA]
    s.hp[target] = victim_hp
    s.hands[target] = [c for c in s.hands[target] if c not in (SHAN, TAO, JIU)]
    return act(act(s, 0, "sha", target=target), target, "take")


def test_sanguosha_at_zero_hp_a_character_is_dying_and_can_be_saved_with_tao():
    s = game(5, FIVE)
    s.hands[0] = [SHA, TAO]
    s = dying(s)
    assert s.phase == "dying" and s.hp[1] == 0
    assert s.pending["askers"][0] == 0  # asking starts from the current player
    saved = act(s, 0, "rescue", card=TAO)
    assert saved.hp[1] == 1 and saved.phase == "play" and saved.alive[1]


def test_sanguosha_the_dying_character_may_drink_jiu_but_others_may_not_give_it():
    s = game(5, FIVE)
    s.hands[0] = [SHA, JIU]
    s = dying(s)
    with pytest.raises(RuleError, match="酒"):
        act(s, 0, "rescue", card=JIU)
    s = act(s, 0, "pass")
    s = act(s, 4, "pass")
    s = act(s, 3, "pass")
    s = act(s, 2, "pass")
    s.hands[1].append(JIU)
    s = act(s, 1, "rescue", card=JIU)
    assert s.hp[1] == 1 and s.alive[1]


def pass_all(s):
    while s.phase == "dying":
        s = act(s, s.pending["askers"][s.pending["idx"]], "pass")
    return s


def test_sanguosha_death_discards_every_card_and_reveals_the_identity():
    s = game(5, FIVE)
    s = dying(s, target=4)
    s.hands[4] = [SHAN, SHA]
    s = pass_all(s)
    assert not s.alive[4] and s.hands[4] == []
    assert sanguosha.view(s, None)["seats"][4]["role"] == REBEL
    assert "亮出身份:反贼" in texts(s)


def test_sanguosha_whoever_kills_a_rebel_draws_three_cards():
    s = game(5, FIVE)
    s = dying(s, target=4)
    before = len(s.hands[0])
    s = pass_all(s)
    assert len(s.hands[0]) == before + 3 and "摸三张牌" in texts(s)


def test_sanguosha_a_lord_who_kills_a_loyalist_discards_all_hand_cards():
    roles = [LORD, LOYAL, REBEL, RENEGADE, REBEL]
    s = game(5, roles)
    s = dying(s, target=1)
    s.hands[0] += [TAO, SHAN]
    s = pass_all(s)
    assert s.roles[1] == LOYAL and not s.alive[1]
    assert s.hands[0] == [] and "错杀忠臣" in texts(s)


def kill(s, victim, by=0):
    s.current = by
    s.phase = "play"
    s.sha_used = False
    s.hands[by] = [SHA]
    s.hp[victim] = 1
    s.hands[victim] = []
    ring = [p for p in range(len(s.players)) if s.alive[p]]
    assert sanguosha.distance(s, by, victim) == 1, (by, victim, ring)
    s = act(act(s, by, "sha", target=victim), victim, "take")
    return pass_all(s)


def test_sanguosha_lord_and_loyalists_win_when_all_rebels_and_renegades_are_dead():
    s = game(4, [LORD, REBEL, LOYAL, RENEGADE])
    s = kill(s, 1)
    assert s.phase != "over"
    s = kill(s, 3)
    assert s.winning_side == sanguosha.SIDE_LORD
    assert sanguosha.winner(s) == [0, 2]


def test_sanguosha_rebels_win_when_the_lord_dies_unless_the_renegade_is_the_only_survivor():
    s = game(4, [LORD, REBEL, LOYAL, RENEGADE])
    s = kill(s, 0, by=1)
    assert s.winning_side == sanguosha.SIDE_REBEL and sanguosha.winner(s) == [1]
    s = game(4, [LORD, REBEL, LOYAL, RENEGADE])
    s.alive[1] = s.alive[2] = False
    s = kill(s, 0, by=3)
    assert s.winning_side == sanguosha.SIDE_RENEGADE and sanguosha.winner(s) == [3]


def test_sanguosha_fourth_edition_scores_for_a_lord_side_win():
    roles = [LORD, REBEL, LOYAL, RENEGADE, REBEL]
    s = game(5, roles)
    s = kill(s, 1)
    s = kill(s, 4)
    s = kill(s, 3, by=2)  # the loyalist kills the renegade
    assert s.winning_side == sanguosha.SIDE_LORD
    # lord: 4 + 1 living loyalist × 2 + 2 rebels killed; loyalist: 5 + 1 + 1 renegade killed
    assert sanguosha.score(s) == {0: 8, 1: 0, 2: 7, 3: 0, 4: 0}


def test_sanguosha_a_renegade_beaten_in_a_duel_with_the_lord_scores_the_player_count():
    s = game(4, [LORD, REBEL, LOYAL, RENEGADE])
    s = kill(s, 1)
    s = kill(s, 2, by=3)
    assert s.duel
    s = kill(s, 3)
    assert sanguosha.score(s)[3] == 4  # 游戏人数 × 1


def test_sanguosha_fourth_edition_scores_for_a_rebel_win():
    roles = [LORD, REBEL, LOYAL, RENEGADE, REBEL]
    s = game(5, roles)
    s = kill(s, 0, by=1)
    # rebels: 2 alive × 3, plus 2 for the killer of the lord; the living renegade 1; lord and loyalist 0
    assert sanguosha.score(s) == {0: 0, 1: 8, 2: 0, 3: 1, 4: 6}


def test_sanguosha_fourth_edition_scores_for_a_renegade_win():
    s = game(5, [LORD, REBEL, LOYAL, RENEGADE, REBEL])
    for p in (1, 2, 4):
        s.alive[p] = False
    s = kill(s, 0, by=3)
    assert sanguosha.score(s) == {0: 1, 1: 0, 2: 0, 3: 4 + 5 * 2, 4: 0}


def test_sanguosha_only_the_player_to_act_may_act():
    s = game(5, FIVE)
    with pytest.raises(RuleError, match="现在应由 甲 行动"):
        act(s, 1, "end_play")
    with pytest.raises(RuleError, match="现在可以:"):
        act(s, 0, "shan")


def test_sanguosha_hands_are_private():
    s = game(5, FIVE)
    public = sanguosha.view(s, None)
    assert all(seat["hand"] is None for seat in public["seats"])
    assert sanguosha.view(s, 2)["seats"][2]["hand"] == s.hands[2]
