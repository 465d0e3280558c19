"""Noir: Killer vs Inspector (source 001): every rule of the issue pinned by a test."""

from __future__ import annotations

import random

import pytest
from tables_playout import play

from tables.rules import GAMES, RuleError
from tables.rules.noir import SUSPECTS

noir = GAMES["noir"]  # its rules and its view, as the site uses them

K, INS = 0, 1  # seats: killer, inspector


def N(r: int, c: int) -> str:
    return SUSPECTS[r * 5 + c]


def fresh(**kw):
    """Killer at the centre (2,2) of a row-major grid; the killer to move first."""
    s = noir.new_game(["杀手甲", "警探乙"], 1, {"killer": K})
    s.grid = [[{"name": N(r, c), "dead": False, "exonerated": False} for c in range(5)] for r in range(5)]
    s.killer_identity = N(2, 2)
    s.deck = [n for n in SUSPECTS if n != N(2, 2)]
    for key, value in kw.items():
        setattr(s, key, value)
    return s


def main_phase(**kw):
    """Inspector at (0,0) holding three cards; killer to move."""
    s = fresh()
    s.phase = "main"
    s.inspector_identity = N(0, 0)
    s.inspector_hand = [N(4, 4), N(4, 3), N(0, 4)]
    used = {N(2, 2), N(0, 0), N(4, 4), N(4, 3), N(0, 4)}
    s.deck = [n for n in SUSPECTS if n not in used]
    for key, value in kw.items():
        setattr(s, key, value)
    return s


def act(s, seat, kind, **params):
    return noir.apply(s, {"type": kind, "player": seat, **params})[0]


def texts(s) -> str:
    return "\n".join(e["text"] for e in s.log)


def test_noir_setup_is_a_five_by_five_grid_of_the_25_suspects_and_the_killer_draws_an_identity():
    s = noir.new_game(["a", "b"], 5)
    assert len(s.grid) == 5 and all(len(row) == 5 for row in s.grid)
    assert sorted(cell["name"] for row in s.grid for cell in row) == sorted(SUSPECTS)
    assert s.killer_identity in SUSPECTS and s.killer_identity not in s.deck
    assert len(s.deck) == 24
    assert s.turn == s.killer and s.phase == "killer_first"


def test_noir_killer_first_turn_must_be_a_kill_of_an_adjacent_suspect():
    s = fresh()
    with pytest.raises(RuleError, match="现在可以:「杀害」。"):
        act(s, K, "shift", axis="row", index=0, dir=1)
    with pytest.raises(RuleError, match="不与你的身份"):
        act(s, K, "kill", target=N(0, 0))
    s = act(s, K, "kill", target=N(1, 1))  # a corner neighbour counts
    assert s.grid[1][1]["dead"] and s.kills == 1


def test_noir_inspector_first_turn_draws_four_and_keeps_three_after_choosing_a_living_identity():
    s = act(fresh(), K, "kill", target=N(2, 3))
    assert s.phase == "inspector_first" and s.turn == INS
    drawn = list(s.inspector_hand)
    assert len(drawn) == 4 and len(s.deck) == 20
    s.inspector_hand[0] = N(2, 3)  # a dead suspect among the four
    with pytest.raises(RuleError, match="已经死亡"):
        act(s, INS, "choose_identity", card=N(2, 3))
    s = act(s, INS, "choose_identity", card=drawn[1])
    assert s.inspector_identity == drawn[1] and len(s.inspector_hand) == 3 and s.phase == "main"


def test_noir_shifting_a_row_moves_every_card_and_wraps_the_one_pushed_out():
    s = act(main_phase(), K, "shift", axis="row", index=1, dir=1)
    assert [c["name"] for c in s.grid[1]] == [N(1, 4), N(1, 0), N(1, 1), N(1, 2), N(1, 3)]
    s = act(main_phase(), K, "shift", axis="col", index=0, dir=-1)
    assert [row[0]["name"] for row in s.grid] == [N(1, 0), N(2, 0), N(3, 0), N(4, 0), N(0, 0)]


def test_noir_killer_cannot_reverse_the_previous_shift():
    s = act(main_phase(turn=INS), INS, "shift", axis="row", index=3, dir=1)
    with pytest.raises(RuleError, match="还原"):
        act(s, K, "shift", axis="row", index=3, dir=-1)
    s = act(s, K, "shift", axis="row", index=3, dir=1)  # the same direction again is not a reversal
    with pytest.raises(RuleError, match="还原"):
        act(s, INS, "shift", axis="row", index=3, dir=-1)  # binds the inspector too


def test_noir_a_reversal_is_allowed_once_another_action_came_between():
    s = act(main_phase(), K, "shift", axis="col", index=4, dir=1)
    s = act(s, INS, "arrest", target=N(0, 1))
    s = act(s, K, "kill", target=N(1, 2))
    s = act(s, INS, "shift", axis="col", index=4, dir=-1)
    assert [row[4]["name"] for row in s.grid] == [N(r, 4) for r in range(5)]


def test_noir_kill_must_target_a_living_adjacent_suspect():
    s = main_phase()
    with pytest.raises(RuleError, match="不与你的身份"):
        act(s, K, "kill", target=N(0, 2))
    s.grid[1][2]["dead"] = True
    with pytest.raises(RuleError, match="已经死亡"):
        act(s, K, "kill", target=N(1, 2))
    with pytest.raises(RuleError):
        act(s, K, "kill", target=N(2, 2))  # not yourself


def test_noir_killing_an_exonerated_suspect_makes_the_inspector_say_whether_they_are_adjacent():
    s = main_phase()
    s.grid[1][1]["exonerated"] = True  # (1,1) neighbours the inspector at (0,0)
    s = act(s, K, "kill", target=N(1, 1))
    assert "警探回答:我在" in texts(s)
    s = main_phase()
    s.grid[3][3]["exonerated"] = True
    s = act(s, K, "kill", target=N(3, 3))
    assert "警探回答:我不在" in texts(s)
    assert not s.grid[3][3]["exonerated"] and s.grid[3][3]["dead"]


def test_noir_arrest_is_only_of_an_adjacent_suspect_or_oneself():
    s = main_phase(turn=INS)
    with pytest.raises(RuleError, match="只能逮捕"):
        act(s, INS, "arrest", target=N(3, 3))
    s2 = act(s, INS, "arrest", target=N(0, 0))
    assert s2.phase == "main" and "不是" in texts(s2)
    s3 = act(s, INS, "arrest", target=N(1, 0))
    assert s3.phase == "main" and s3.turn == K


def test_noir_inspector_wins_by_arresting_the_killer():
    s = main_phase(turn=INS, killer_identity=N(1, 1))
    s = act(s, INS, "arrest", target=N(1, 1))
    assert s.phase == "over" and noir.winner(s) == [INS] and noir.score(s) == {K: 0, INS: 1}


def test_noir_successful_disguise_exonerates_the_old_identity_and_takes_the_drawn_one():
    s = main_phase()
    s.deck.append(N(4, 0))
    s = act(s, K, "disguise")
    assert s.killer_identity == N(4, 0)
    assert s.grid[2][2]["exonerated"]
    assert "伪装成功" in texts(s)


def test_noir_disguise_fails_when_the_drawn_suspect_is_dead():
    s = main_phase()
    s.grid[4][0]["dead"] = True
    s.deck.append(N(4, 0))
    s = act(s, K, "disguise")
    assert s.killer_identity == N(2, 2) and s.discard == [N(4, 0)]
    assert "伪装失败" in texts(s) and s.turn == INS


def test_noir_exonerate_draws_then_plays_a_card_and_the_killer_answers_adjacency():
    s = main_phase(turn=INS)
    s.deck.append(N(2, 1))  # next to the killer at (2,2)
    s = act(s, INS, "exonerate_draw")
    assert s.phase == "exonerate_choose" and len(s.inspector_hand) == 4 and s.turn == INS
    with pytest.raises(RuleError):
        act(s, INS, "arrest", target=N(0, 1))
    near = act(s, INS, "exonerate", card=N(2, 1))
    assert near.grid[2][1]["exonerated"] and "周围有杀手" in texts(near)
    assert len(near.inspector_hand) == 3 and near.turn == K
    far = act(s, INS, "exonerate", card=N(4, 4))
    assert "周围没有杀手" in texts(far)


def test_noir_a_dead_suspect_can_be_exonerated():
    s = main_phase(turn=INS)
    s.grid[4][4]["dead"] = True
    s = act(act(s, INS, "exonerate_draw"), INS, "exonerate", card=N(4, 4))
    assert s.grid[4][4]["exonerated"]


def test_noir_a_fully_dead_row_and_a_fully_dead_column_collapse():
    s = main_phase(killer_identity=N(3, 3))
    for c in range(5):
        if c != 4:
            s.grid[4][c]["dead"] = True
    s = act(s, K, "kill", target=N(4, 4))
    assert len(s.grid) == 4 and all(len(row) == 5 for row in s.grid)
    s = main_phase(killer_identity=N(1, 3))
    for r in range(1, 5):
        s.grid[r][4]["dead"] = True
    s = act(s, K, "kill", target=N(0, 4))
    assert len(s.grid) == 5 and all(len(row) == 4 for row in s.grid)
    assert noir.cells_adjacent(s, N(1, 3), N(2, 3))


def test_noir_killer_wins_at_16_kills():
    s = main_phase()
    dead = [(r, c) for r in range(5) for c in range(5) if (r, c) not in {(2, 2), (0, 0), (1, 2)}][:15]
    for r, c in dead:
        s.grid[r][c]["dead"] = True
    s.kills = 15
    s = act(s, K, "kill", target=N(1, 2))
    assert s.phase == "over" and noir.winner(s) == [K] and "16" in s.win_reason


def test_noir_the_printed_manuals_14_kills_is_an_option():
    s = noir.new_game(["a", "b"], 1, {"kill_target": 14})
    assert s.options["kill_target"] == 14
    with pytest.raises(RuleError):
        noir.new_game(["a", "b"], 1, {"kill_target": 12})


def test_noir_killer_wins_by_killing_the_inspector():
    s = main_phase(killer_identity=N(1, 1))
    s = act(s, K, "kill", target=N(0, 0))
    assert s.phase == "over" and noir.winner(s) == [K]


def test_noir_when_the_evidence_deck_is_exhausted_disguise_and_exonerate_are_refused():
    s = main_phase(deck=[])
    with pytest.raises(RuleError, match="「推移」、「杀害」。"):
        act(s, K, "disguise")
    s.turn = INS
    with pytest.raises(RuleError, match="「推移」、「逮捕」。"):
        act(s, INS, "exonerate_draw")
    assert [f["type"] for f in noir.forms(s, INS)] == ["shift", "arrest"]


def test_noir_acting_out_of_turn_is_refused_with_a_clear_message():
    with pytest.raises(RuleError, match="现在应由 杀手甲 行动"):
        act(main_phase(), INS, "arrest", target=N(0, 0))


def test_noir_views_show_each_identity_only_to_its_holder():
    s = main_phase()
    public = noir.view(s, None)
    assert public["me"] is None and public["revealed"] is None
    assert N(2, 2) not in "".join(public["log"])
    assert noir.view(s, K)["me"]["identity"] == N(2, 2)
    inspector = noir.view(s, INS)["me"]
    assert inspector["identity"] == N(0, 0) and len(inspector["hand"]) == 3
    assert noir.view(s, K)["me"]["hand"] == []


def removed_bottom_row(**kw):
    """Main phase with the bottom row (row 5) gone: its suspects were all killed and the row removed."""
    s = main_phase(**kw)
    s.grid = s.grid[:4]
    return s


def test_noir_ruling_a_removed_suspect_can_be_played_to_exonerate_and_the_answer_is_no():
    s = removed_bottom_row(turn=INS, inspector_hand=[N(4, 4), N(4, 3)], deck=[N(4, 0)])
    s = act(s, INS, "exonerate_draw")
    assert s.phase == "exonerate_choose"
    assert sorted(c[0] for c in noir.forms(s, INS)[0]["params"][0]["choices"]) == sorted([N(4, 4), N(4, 3), N(4, 0)])
    s = act(s, INS, "exonerate", card=N(4, 0))
    assert f"{N(4, 0)} 的周围没有杀手" in texts(s)
    assert N(4, 0) in s.discard and s.phase == "main" and s.turn == K


def test_noir_exonerate_answers_are_written_on_the_grid_card():
    s = act(main_phase(turn=INS, deck=[N(2, 3)]), INS, "exonerate_draw")
    s = act(s, INS, "exonerate", card=N(2, 3))
    cell = noir.view(s, None)["grid"][2][3]
    assert cell["exonerated"] and cell["answer"] == "有杀手"


def test_noir_disguise_drawing_a_removed_suspect_fails_and_discards_it_face_up():
    s = removed_bottom_row(deck=[N(4, 1)])
    s = act(s, K, "disguise")
    assert s.killer_identity == N(2, 2)
    assert s.discard == [N(4, 1)] and s.turn == INS
    assert f"抽到已移出盘面的 {N(4, 1)},伪装失败" in texts(s)


@pytest.mark.parametrize("seed", [148, 164, 171, *range(0, 300, 10)])
def test_noir_random_play_from_any_seed_always_leaves_a_legal_action_until_the_end(seed):
    """Seeds 148, 164 and 171 once froze (only removed suspects left in the inspector's hand)."""
    end, _ = play(noir, noir.new_game(["甲", "乙"], seed), random.Random(seed))
    assert noir.winner(end)
