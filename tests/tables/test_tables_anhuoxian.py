"""暗火线 (source 003): every rule of the issue pinned by a test."""

from __future__ import annotations

from collections import Counter

import pytest

from tables.rules import GAMES, RuleError
from tables.rules.anhuoxian import CITIZEN, SWAT, TERRORIST
from tables.rules.anhuoxian_cards import (
    AID,
    CONTROL,
    DISARM,
    DOUBLE,
    FLASH,
    GRENADE,
    RESTAURANT,
    SERUM,
    SINGLE,
    SMOKE,
    STORAGE,
    SUPERMARKET,
    VEST,
    WARRANT,
)

anhuoxian = GAMES["anhuoxian"]  # its rules and its view, as the site uses them
NAMES = list("ABCDEFGH")
SIX = [SWAT, CITIZEN, TERRORIST, SWAT, CITIZEN, TERRORIST]


def game(roles=SIX, **hands):
    """A in play with the given hands (by letter), everyone else empty-handed."""
    n = len(roles)
    s = anhuoxian.new_game(NAMES[:n], 1, {"warrant": True})
    s.roles = list(roles)
    s.hands = [list(hands.get(NAMES[p], [])) for p in range(n)]
    return s


def act(s, seat, kind, **params):
    return anhuoxian.apply(s, {"type": kind, "player": seat, **params})[0]


def texts(s) -> str:
    return "\n".join(e["text"] for e in s.log)


A, B, C, D, E, F = range(6)


@pytest.mark.parametrize("n", range(4, 9))
def test_anhuoxian_roles_follow_the_table_for_each_player_count(n):
    s = anhuoxian.new_game(NAMES[:n], n)
    swat, citizen, terrorist = anhuoxian.ROLE_TABLE[n]
    assert Counter(s.roles) == Counter({SWAT: swat, CITIZEN: citizen, TERRORIST: terrorist})


def test_anhuoxian_six_players_are_two_swat_two_citizens_two_terrorists_as_in_the_example():
    assert anhuoxian.ROLE_TABLE[6] == (2, 2, 2)


def test_anhuoxian_everyone_has_four_serum_hp_and_three_starting_cards_and_serums_join_the_deck():
    s = anhuoxian.new_game(NAMES[:5], 3)
    assert s.hp == [4] * 5 and s.max_hp == [4] * 5
    assert [len(h) for h in s.hands] == [5, 3, 3, 3, 3]  # the first player has also drawn 2
    everything = s.deck + [c for h in s.hands for c in h]
    assert everything.count(SERUM) == 5 * anhuoxian.SERUM_PER_PLAYER
    assert WARRANT not in everything


def test_anhuoxian_turns_go_counter_clockwise_and_draw_two():
    s = game()
    s = act(s, A, "end_play")
    assert s.current == F and len(s.hands[F]) == 2
    assert anhuoxian.new_game(NAMES[:4], 1, {"first": 2}).current == 2


def test_anhuoxian_single_bullet_deals_one_and_double_two_to_one_or_one_each_to_two():
    s = act(game(A=[SINGLE]), A, "shoot", card=SINGLE, targets=[B])
    assert s.hp[B] == 3
    s = act(game(A=[DOUBLE]), A, "shoot", card=DOUBLE, targets=[B])
    assert s.hp[B] == 2
    s = act(game(A=[DOUBLE]), A, "shoot", card=DOUBLE, targets=[B, D])
    assert s.hp[B] == 3 and s.hp[D] == 3
    with pytest.raises(RuleError, match="单发子弹指定 1 名"):
        act(game(A=[SINGLE]), A, "shoot", card=SINGLE, targets=[B, C])


def test_anhuoxian_equip_shoot_and_skill_are_once_per_turn_but_serum_is_not():
    s = game(A=[SINGLE, SINGLE, VEST, STORAGE, SMOKE, SMOKE, SERUM, SERUM])
    s.hp[A] = 2
    s = act(s, A, "shoot", card=SINGLE, targets=[B])
    with pytest.raises(RuleError, match="攻击一次"):
        act(s, A, "shoot", card=SINGLE, targets=[C])
    s = act(s, A, "equip", card=VEST)
    with pytest.raises(RuleError, match="只能装备一张"):
        act(s, A, "equip", card=STORAGE)
    s = act(s, A, "skill", card=SMOKE, target=B)
    with pytest.raises(RuleError, match="技能牌"):
        act(s, A, "skill", card=SMOKE, target=C)
    s = act(act(s, A, "serum"), A, "serum")
    assert s.hp[A] == 4
    with pytest.raises(RuleError):
        act(s, A, "serum")


def test_anhuoxian_hp_never_goes_below_zero():
    s = game(A=[DOUBLE])
    s.hp[B] = 1
    s = act(s, A, "shoot", card=DOUBLE, targets=[B])
    assert s.hp[B] == 0 and s.phase == "dying"


def test_anhuoxian_vest_stops_a_single_bullet_and_one_point_of_a_double():
    s = game(A=[SINGLE])
    s.vest[B] = True
    assert act(s, A, "shoot", card=SINGLE, targets=[B]).hp[B] == 4
    s = game(A=[DOUBLE])
    s.vest[B] = True
    assert act(s, A, "shoot", card=DOUBLE, targets=[B]).hp[B] == 3


def test_anhuoxian_vest_and_environment_coexist_and_a_new_environment_replaces_the_old():
    s = game(A=[VEST, STORAGE, CONTROL])
    s = act(s, A, "equip", card=VEST)
    s.used = []
    s = act(s, A, "equip", card=STORAGE)
    s.used = []
    s = act(s, A, "equip", card=CONTROL)
    assert s.vest[A] and s.env[A] == CONTROL and STORAGE in s.discard_pile


def test_anhuoxian_grenade_hits_the_target_and_both_neighbours_ignoring_vests():
    s = game(C=[GRENADE])
    s.current = C
    s.vest[F] = True
    s = act(s, C, "skill", card=GRENADE, target=A)
    assert [s.hp[p] for p in range(6)] == [3, 3, 4, 4, 4, 3]


def test_anhuoxian_grenade_and_double_bullet_exclude_each_other_but_a_single_may_follow_a_grenade():
    s = act(game(A=[GRENADE, DOUBLE, SINGLE]), A, "skill", card=GRENADE, target=C)
    with pytest.raises(RuleError, match="双发子弹不能和手雷"):
        act(s, A, "shoot", card=DOUBLE, targets=[E])
    s = act(s, A, "shoot", card=SINGLE, targets=[E])
    assert s.hp[E] == 3
    s = act(game(A=[GRENADE, DOUBLE]), A, "shoot", card=DOUBLE, targets=[E])
    with pytest.raises(RuleError, match="手雷不能和双发子弹"):
        act(s, A, "skill", card=GRENADE, target=C)


def test_anhuoxian_smoke_protects_from_attacks_and_limits_its_target_to_healing():
    s = act(game(A=[SMOKE, SINGLE]), A, "skill", card=SMOKE, target=B)
    with pytest.raises(RuleError, match="烟雾弹"):
        act(s, A, "shoot", card=SINGLE, targets=[B])
    with pytest.raises(RuleError, match="不能指定你自己"):
        act(game(A=[SMOKE]), A, "skill", card=SMOKE, target=A)
    s.current, s.used, s.hands[B] = B, [], [SINGLE, SERUM]
    s.hp[B] = 3
    with pytest.raises(RuleError, match="「使用血清」、「结束出牌阶段」"):
        act(s, B, "shoot", card=SINGLE, targets=[C])
    assert act(s, B, "serum").hp[B] == 4


def test_anhuoxian_a_grenade_hits_a_smoked_player_and_ends_the_smoke():
    s = act(game(A=[SMOKE]), A, "skill", card=SMOKE, target=B)
    s.current, s.used, s.hands[C] = C, [], [GRENADE]
    s = act(s, C, "skill", card=GRENADE, target=A)
    assert s.hp[B] == 3 and not anhuoxian.smoked(s, B)


def test_anhuoxian_disarm_on_a_smoked_player_can_only_remove_the_smoke():
    s = act(game(A=[SMOKE]), A, "skill", card=SMOKE, target=B)
    s.current, s.used, s.hands[C] = C, [], [DISARM]
    s.vest[B] = True
    with pytest.raises(RuleError, match="只能拆除烟雾弹"):
        act(s, C, "skill", card=DISARM, target=B, what="vest")
    s = act(s, C, "skill", card=DISARM, target=B, what="smoke")
    assert not anhuoxian.smoked(s, B) and s.vest[B]


def test_anhuoxian_smoke_and_flash_last_until_the_start_of_the_users_next_turn():
    s = act(game(A=[SMOKE]), A, "skill", card=SMOKE, target=B)
    for seat in (A, F, E, D, C, B):
        assert anhuoxian.smoked(s, B)
        s.hands[seat] = []
        s = act(s, seat, "end_play")
    assert s.current == A and not anhuoxian.smoked(s, B)


def test_anhuoxian_flash_makes_two_adjacent_players_skip_their_play_phase():
    s = game(A=[FLASH])
    with pytest.raises(RuleError, match="不相邻"):
        act(s, A, "skill", card=FLASH, targets=[B, D])
    s = act(s, A, "skill", card=FLASH, targets=[E, F])
    s = act(s, A, "end_play")
    assert "F 被闪光弹影响,跳过出牌阶段" in texts(s) and "E 被闪光弹影响,跳过出牌阶段" in texts(s)
    assert s.current == D and s.phase == "play"  # F and E only drew (and had nothing to discard)


def test_anhuoxian_an_attack_ends_a_flash_early():
    s = act(game(A=[FLASH, SINGLE]), A, "skill", card=FLASH, targets=[C, D])
    s = act(s, A, "shoot", card=SINGLE, targets=[D])
    assert not anhuoxian.flashed(s, C) and not anhuoxian.flashed(s, D)


def test_anhuoxian_storage_room_blocks_smoke_and_moves_flash_and_grenade():
    s = game(A=[SMOKE])
    s.env[B] = STORAGE
    with pytest.raises(RuleError, match="储藏室"):
        act(s, A, "skill", card=SMOKE, target=B)
    s = game(E=[FLASH])  # the source's example: E flashes B and C, C has a storage room: B and D are flashed
    s.current, s.env[C] = E, STORAGE
    s = act(s, E, "skill", card=FLASH, targets=[B, C])
    assert anhuoxian.flashed(s, B) and anhuoxian.flashed(s, D) and not anhuoxian.flashed(s, C)
    s = game(A=[GRENADE])
    s.env[C] = STORAGE
    s = act(s, A, "skill", card=GRENADE, target=C)  # passes clockwise to D; D's neighbours without C: B and E
    assert [s.hp[p] for p in range(6)] == [4, 3, 4, 3, 3, 4]


def test_anhuoxian_control_room_can_only_be_targeted_by_full_hp_players_except_by_grenade():
    s = game(A=[SINGLE, GRENADE])
    s.env[C] = CONTROL
    s.hp[A] = 3
    with pytest.raises(RuleError, match="主控室"):
        act(s, A, "shoot", card=SINGLE, targets=[C])
    assert act(s, A, "skill", card=GRENADE, target=C).hp[C] == 3
    s.hp[A] = 4
    assert act(s, A, "shoot", card=SINGLE, targets=[C]).hp[C] == 3


def test_anhuoxian_restaurant_raises_max_hp_and_heals_and_can_be_removed_later():
    s = game(A=[RESTAURANT])
    s.hp[A] = 2
    s = act(s, A, "equip", card=RESTAURANT)
    assert (s.hp[A], s.max_hp[A]) == (3, 5)
    with pytest.raises(RuleError, match="同一回合"):
        act(s, A, "unequip")
    s.turn_no += 1
    s = act(s, A, "unequip")  # not at full HP: heals 1 as the max drops back to 4
    assert (s.hp[A], s.max_hp[A]) == (4, 4)
    s = act(game(A=[RESTAURANT]), A, "equip", card=RESTAURANT)
    assert (s.hp[A], s.max_hp[A]) == (5, 5)


def test_anhuoxian_disarm_removes_equipment_environment_or_a_random_hand_card():
    s = game(A=[DISARM], B=[SERUM, SINGLE])
    s.env[B] = RESTAURANT
    s.max_hp[B] = s.hp[B] = 5
    removed = act(s, A, "skill", card=DISARM, target=B, what="env")
    assert removed.env[B] is None and (removed.hp[B], removed.max_hp[B]) == (4, 4)
    hand = act(s, A, "skill", card=DISARM, target=B, what="hand")
    assert len(hand.hands[B]) == 1
    with pytest.raises(RuleError, match="没有装备防弹衣"):
        act(s, A, "skill", card=DISARM, target=B, what="vest")


def test_anhuoxian_supermarket_draws_one_on_equip_three_per_turn_and_raises_the_hand_limit_to_four():
    s = game(A=[SUPERMARKET])
    s = act(s, A, "equip", card=SUPERMARKET)
    assert len(s.hands[A]) == 1 and anhuoxian.hand_limit(s, A) == 4
    s.env[F] = SUPERMARKET
    s = act(s, A, "end_play")
    assert len(s.hands[F]) == 3


def test_anhuoxian_discard_phase_keeps_at_most_three_cards():
    s = game(A=[SINGLE] * 5)
    s = act(s, A, "end_play")
    assert s.phase == "discard"
    with pytest.raises(RuleError, match="正好弃置 2 张"):
        act(s, A, "discard", cards=[SINGLE])
    s = act(s, A, "discard", cards=[SINGLE, SINGLE])
    assert len(s.hands[A]) == 3 and s.current == F


def to_dying(victim=B, attacker=A, **hands):
    s = game(**{NAMES[attacker]: [DOUBLE], **hands})
    s.current = attacker
    s.hp[victim] = 2
    return act(s, attacker, "shoot", card=DOUBLE, targets=[victim])


def test_anhuoxian_dying_asks_everyone_but_the_attacker_starting_from_the_dying_players_next_seat():
    s = to_dying(B)
    assert s.phase == "dying"
    assert s.dying["askers"] == [F, E, D, C]  # B's 下家 is A (the attacker, excluded), then F, E, D, C
    assert B not in s.dying["askers"]  # no self-aid


def test_anhuoxian_first_aid_restores_one_hp_and_the_attacker_still_goes_to_discard_without_loot():
    s = to_dying(B, D=[AID], B=[SINGLE])
    s = act(act(s, F, "pass"), E, "pass")
    s = act(s, D, "aid")
    assert s.hp[B] == 1 and s.alive[B] and s.hands[B] == [SINGLE]
    assert s.current == F  # A went straight to the discard phase and ended the turn


def test_anhuoxian_players_under_flash_or_smoke_cannot_give_first_aid():
    s = game(A=[DOUBLE], D=[AID])
    s.effects.append({"kind": FLASH, "by": C, "targets": [D, E]})
    s.hp[B] = 2
    s = act(s, A, "shoot", card=DOUBLE, targets=[B])
    assert D not in s.dying["askers"] and E not in s.dying["askers"]
    with pytest.raises(RuleError, match="没有急救包"):
        act(s, F, "aid")


def test_anhuoxian_death_reveals_the_role_and_the_killer_takes_hand_and_equipment_then_discards():
    s = to_dying(B, B=[SERUM, SINGLE, SINGLE], A=[DOUBLE, SINGLE, SINGLE])
    for seat in (F, E, D, C):
        s = act(s, seat, "pass")
    assert not s.alive[B] and "身份公开:市民" in texts(s)
    assert anhuoxian.view(s, None)["seats"][B]["role"] == CITIZEN
    assert sorted(s.hands[A]) == sorted([SERUM, SINGLE, SINGLE, SINGLE, SINGLE])
    assert s.phase == "discard" and s.current == A  # straight to the discard phase: 5 cards, limit 3


def test_anhuoxian_the_killer_takes_the_equipment_into_hand():
    s = to_dying(B, B=[SERUM])
    s.env[B] = STORAGE
    for seat in (F, E, D, C):
        s = act(s, seat, "pass")
    assert sorted(s.hands[A]) == sorted([SERUM, STORAGE]) and s.env[B] is None
    assert s.current == F


def test_anhuoxian_a_thrower_killed_by_their_own_grenade_loots_nothing_and_the_turn_passes():
    s = game(A=[GRENADE, SINGLE])
    s.hp[A] = 1
    s = act(s, A, "skill", card=GRENADE, target=B)
    assert s.dying["queue"] == [A] and s.dying["askers"] == [F, E, D, C, B]
    for seat in (F, E, D, C, B):
        s = act(s, seat, "pass")
    assert not s.alive[A] and s.hands[A] == [] and SINGLE in s.discard_pile
    assert s.current == F and s.phase == "play"


def test_anhuoxian_after_a_death_the_two_neighbours_become_adjacent():
    s = game()
    assert not anhuoxian.seats_adjacent(s, A, C)
    s.alive[B] = False
    assert anhuoxian.seats_adjacent(s, A, C)


def test_anhuoxian_swat_and_citizens_win_when_every_terrorist_is_dead():
    s = to_dying(C)
    s.alive[F] = False
    s = s.clone()
    for seat in list(s.dying["askers"]):
        s = act(s, seat, "pass")
    assert s.winning_side == "特警与市民" and anhuoxian.winner(s) == [A, B, D, E]


def test_anhuoxian_terrorists_win_when_all_swat_or_all_citizens_are_dead():
    s = game(roles=[TERRORIST, SWAT, CITIZEN, CITIZEN], A=[DOUBLE])
    s.hp[B] = 1
    s = act(s, A, "shoot", card=DOUBLE, targets=[B])
    for seat in list(s.dying["askers"]):
        s = act(s, seat, "pass")
    assert s.winning_side == TERRORIST and anhuoxian.winner(s) == [A]
    assert anhuoxian.score(s) == {0: 1, 1: 0, 2: 0, 3: 0}


def test_anhuoxian_warrant_shows_a_role_to_its_user_only_and_leaves_the_game():
    s = act(game(A=[WARRANT]), A, "skill", card=WARRANT, target=C)
    assert anhuoxian.view(s, A)["peeks"] == [["C", TERRORIST]]
    assert all("搜查令:" not in line for line in anhuoxian.view(s, None)["log"])
    assert WARRANT not in s.discard_pile
    assert all("搜查令:" not in line for line in anhuoxian.view(s, B)["log"])


def test_anhuoxian_roles_and_hands_are_hidden_from_others():
    s = game(A=[SINGLE])
    public = anhuoxian.view(s, None)
    assert all(seat["role"] is None and seat["hand"] is None for seat in public["seats"])
    mine = anhuoxian.view(s, A)["seats"][A]
    assert mine["role"] == SWAT and mine["hand"] == [SINGLE]
