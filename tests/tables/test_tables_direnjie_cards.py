"""狄仁杰 card game (source 000): every rule of the issue pinned by a test."""

from __future__ import annotations

from collections import Counter

import pytest

from tables.rules import GAMES, RuleError

dj = GAMES["direnjie_cards"]  # its rules and its view, as the site uses them

NAMES = ["甲", "乙", "丙", "丁", "戊", "己", "庚"]


def fresh(n=4, killer=False, teams="", seed=1, **kw):
    """A game where seat 0 starts and is in step 2 (request)."""
    s = dj.new_game(NAMES[:n], seed, {"killer": killer, "teams": teams})
    s.start = s.current = 0
    s.phase = "request"
    s.log = []
    for key, value in kw.items():
        setattr(s, key, value)
    return s


def act(s, seat, kind, **params):
    return dj.apply(s, {"type": kind, "player": seat, **params})[0]


def texts(s) -> str:
    return "\n".join(e["text"] for e in s.log)


def clue(top, public=True):
    return {"cards": [top, top, top], "public": public}


def test_direnjie_the_deck_is_t1_t6_w1_w5_l1_l5_three_each_m1_m5_and_optional_a():
    deck = Counter(dj.full_deck(False))
    assert sum(deck.values()) == 53
    assert all(deck[f"T{k}"] == 3 for k in range(1, 7))
    assert all(deck[f"{c}{k}"] == 3 for c in "WL" for k in range(1, 6))
    assert all(deck[f"M{k}"] == 1 for k in range(1, 6))
    assert dj.full_deck(True).count("A") == 1


@pytest.mark.parametrize("n", [1, 7])
def test_direnjie_needs_two_to_six_players(n):
    with pytest.raises(RuleError, match="2–6"):
        dj.new_game(NAMES[:n] if n < 7 else [*NAMES, "X"][:n], 1)


def test_direnjie_the_player_dealt_t1_starts_and_with_fewer_players_the_lowest_t_starts():
    for seed in range(20):
        s = dj.new_game(NAMES[:6], seed)
        assert f"{NAMES[s.start]} T1" in s.log[0]["text"]
        assert s.current == s.start
    s = dj.new_game(NAMES[:2], 3)
    drawn = dict(part.split() for part in s.log[0]["text"].split(":")[1].split(";")[0].split(","))
    assert NAMES[s.start] == min(drawn, key=lambda name: int(drawn[name][1:]))


@pytest.mark.parametrize("n", range(2, 7))
def test_direnjie_the_secret_mission_is_one_t_one_w_one_l_kept_out_of_play(n):
    s = dj.new_game(NAMES[:n], n)
    m = s.mission
    assert 1 <= m["T"] <= 6 and 1 <= m["W"] <= 5 and 1 <= m["L"] <= 5
    in_play = Counter(s.deck + [c for h in s.hands for c in h])
    assert in_play[f"T{m['T']}"] == 2 and in_play[f"W{m['W']}"] == 2 and in_play[f"L{m['L']}"] == 2
    assert sum(in_play.values()) == 50


@pytest.mark.parametrize(("n", "per"), [(2, 3), (3, 3), (4, 3), (5, 2), (6, 2)])
def test_direnjie_starting_clues_are_three_each_up_to_four_players_and_two_each_for_five_or_six(n, per):
    s = dj.new_game(NAMES[:n], 7)
    seen = [c.split(":")[1] for notes in s.notes for c in notes]
    assert all(len(notes) == per for notes in s.notes)
    assert len(set(seen)) == len(seen)
    assert not {f"T{s.mission['T']}", f"W{s.mission['W']}", f"L{s.mission['L']}"} & set(seen)
    other = dj.view(s, 1)["me"]["notes"]
    assert dj.view(s, 0)["me"]["notes"] == s.notes[0] and other != s.notes[0]


@pytest.mark.parametrize(
    ("n", "killer", "sizes", "deck"),
    [
        (2, False, [10, 10], 30),
        (4, False, [10] * 4, 10),
        (5, False, [10] * 5, 0),
        (6, False, [8, 8, 8, 8, 9, 9], 0),
        (5, True, [10, 10, 10, 10, 11], 0),
        (6, True, [8, 8, 8, 8, 9, 10], 0),
    ],
)
def test_direnjie_starting_hands_by_player_count(n, killer, sizes, deck):
    s = dj.new_game(NAMES[:n], 11, {"killer": killer})
    order = [(s.start + k) % n for k in range(n)]
    assert [len(s.hands[p]) for p in order] == sizes
    assert len(s.deck) == deck


def test_direnjie_the_killer_expansion_needs_five_or_six_players_and_the_holder_of_a_is_the_killer():
    with pytest.raises(RuleError, match="5–6"):
        dj.new_game(NAMES[:4], 1, {"killer": True})
    s = dj.new_game(NAMES[:5], 4, {"killer": True})
    assert "A" in s.hands[s.killer]
    assert dj.view(s, s.killer)["me"]["role"] == "杀手"
    other = (s.killer + 1) % 5
    assert dj.view(s, other)["me"]["role"] == "捕快"
    assert dj.view(s, None)["killer"] is None


def test_direnjie_step_one_reveals_the_hidden_clue_at_the_start_of_the_turn():
    s = fresh(2, hands=[["W1"], ["L2"]], deck=[])
    s.clues[1] = [{"cards": ["W3", "W3", "W3"], "public": False}]
    s = act(s, 0, "request", category="L")
    s = act(s, 1, "pass")
    s = act(s, 0, "refill", sources=[])
    assert s.current == 1 and s.clues[1][0]["public"] and s.phase == "request"
    assert "公开线索 W3" in texts(s)


def bonus_state(top="T2"):
    """Seat 0 reveals its second clue at the start of its turn."""
    s = fresh(3, deck=[])
    s.current = 2
    s.phase = "refill"
    s.clues[0] = [clue("W1"), {"cards": [top, top, top], "public": False}]
    s.clues[1] = [clue("L4", public=False)]
    s.hands = [["W2", "W3", "L1", "L2"], ["T1", "T3", "T4", "T5", "L3"], ["W4"]]
    return act(s, 2, "refill", sources=[])


def test_direnjie_revealing_the_second_clue_demands_a_check_or_a_clue_function():
    s = bonus_state()
    assert s.phase == "bonus" and s.bonus == "T"
    with pytest.raises(RuleError, match="「检查线索」、「线索功能」"):
        act(s, 0, "request", category="W")


def test_direnjie_a_check_shows_a_clue_to_its_checker_only_and_cannot_be_repeated():
    s = act(bonus_state(), 0, "check", owner=1, index=0)
    assert "检查 乙 的第 1 组线索:L4 L4 L4" in s.notes[0]
    assert dj.view(s, 0)["seats"][1]["clues"][0]["cards"] == ["L4", "L4", "L4"]
    assert dj.view(s, 2)["seats"][1]["clues"][0]["cards"] is None
    assert [1, 0] in s.checked[0] and (1, 0) not in dj.check_targets(s)


def test_direnjie_target_clue_function_takes_three_at_random_and_gives_three_back():
    s = act(bonus_state("T2"), 0, "function", target=1)
    assert s.phase == "give_back" and len(s.hands[0]) == 7 and len(s.hands[1]) == 2
    with pytest.raises(RuleError, match="正好还给"):
        act(s, 0, "give_back", cards=["W2"])
    s = act(s, 0, "give_back", cards=["W2", "W3", "L1"])
    assert len(s.hands[0]) == 4 and len(s.hands[1]) == 5 and s.phase == "request"


def test_direnjie_weapon_clue_function_takes_two_from_the_player_with_most_cards():
    s = bonus_state("W2")
    with pytest.raises(RuleError, match="可以选择"):
        act(s, 0, "function", target=2)
    s = act(s, 0, "function", target=1)
    assert len(s.hands[0]) == 6 and len(s.hands[1]) == 3


def test_direnjie_location_clue_function_swaps_whole_hands():
    s = act(bonus_state("L2"), 0, "function", target=2)
    assert s.hands[0] == ["W4"] and s.hands[2] == ["W2", "W3", "L1", "L2"]


def test_direnjie_requests_are_by_category_or_by_number_one_to_five_never_six():
    s = fresh(3)
    with pytest.raises(RuleError, match="不可以索取 6"):
        act(s, 0, "request", number=6)
    assert act(s, 0, "request", category="W").request == {"category": "W"}
    assert act(s, 0, "request", number=5).request == {"number": 5}


def test_direnjie_a_category_with_five_public_clues_cannot_be_requested():
    s = fresh(3)
    s.clues[1] = [clue(f"L{k}") for k in range(1, 6)]
    with pytest.raises(RuleError, match="5 组公开线索"):
        act(s, 0, "request", category="L")
    act(s, 0, "request", category="W")


def test_direnjie_a_number_with_three_public_clues_cannot_be_requested():
    s = fresh(3)
    s.clues[2] = [clue("T2"), clue("W2"), clue("L2")]
    with pytest.raises(RuleError, match="号码"):
        act(s, 0, "request", number=2)
    act(s, 0, "request", number=3)


def test_direnjie_other_players_give_in_turn_from_the_left_a_matching_card_or_nothing():
    s = fresh(4, hands=[[], ["W3", "L1"], ["W5", "M3", "T6"], ["L1"]])
    s = act(s, 0, "request", number=3)
    assert s.givers == [1, 2, 3]
    with pytest.raises(RuleError, match="现在应由 乙"):
        act(s, 2, "pass")
    with pytest.raises(RuleError, match="不符合"):
        act(s, 1, "give", card="L1")
    s = act(s, 1, "give", card="W3")
    with pytest.raises(RuleError, match="丐帮牌或杀手牌"):
        act(s, 2, "give", card="M3")
    s = act(s, 2, "give", card="T6")  # T6 is wild
    s = act(s, 3, "pass")
    assert sorted(s.hands[0]) == ["T6", "W3"] and s.given == [1, 2]
    assert "乙:给。" in texts(s) and "丁:不给。" in texts(s)
    public = dj.view(s, None)["log"]
    assert all("W3" not in line for line in public)


def test_direnjie_with_nothing_received_the_player_may_draw_from_the_deck_or_steal_from_a_three_card_hand():
    s = fresh(3, hands=[[], ["L1", "L2", "L4"], ["W1"]], deck=["T1", "T2"])
    s = act(act(act(s, 0, "request", category="T"), 1, "pass"), 2, "pass")
    assert s.phase == "consolation"
    with pytest.raises(RuleError, match="三张或以上"):
        act(s, 0, "consolation", source=2)
    assert act(s, 0, "consolation", source="deck").hands[0] == ["T2"]
    stolen = act(s, 0, "consolation", source=1)
    assert len(stolen.hands[0]) == 1 and len(stolen.hands[1]) == 2


def test_direnjie_a_clue_must_be_submitted_when_the_hand_holds_one():
    s = fresh(2, hands=[["W5", "W5"], ["W5", "L1"]], deck=[])
    s = act(act(s, 0, "request", category="W"), 1, "give", card="W5")
    assert s.phase == "submit"
    with pytest.raises(RuleError, match="现在可以:「提交线索」"):
        act(s, 0, "refill", sources=[])
    s = act(s, 0, "submit", cards=["W5", "W5", "W5"])
    assert s.clues[0] == [{"cards": ["W5", "W5", "W5"], "public": False}] and s.phase == "refill"
    assert s.submitted[0] == 1


def test_direnjie_without_a_clue_in_hand_step_three_is_skipped():
    s = fresh(2, hands=[["W5"], ["L1"]], deck=[])
    s = act(act(s, 0, "request", category="W"), 1, "pass")
    assert s.phase == "refill"


@pytest.mark.parametrize(
    ("cards", "ok"),
    [
        (["T4", "T4", "M4"], True),  # special clue 1: a matching beggar at the bottom
        (["T4", "T4", "M3"], False),
        (["T6", "T6", "M1"], True),  # special clue 2: any beggar under two T6
        (["W2", "W2", "T6"], False),  # T6 is wild only when giving
        (["L3", "L3", "L3"], True),
        (["L3", "W3", "M3"], False),
    ],
)
def test_direnjie_basic_and_special_clues(cards, ok):
    if ok:
        assert dj.arrange_clue(cards, False)[2] == cards[2]
    else:
        with pytest.raises(RuleError):
            dj.arrange_clue(cards, False)


def test_direnjie_only_the_killer_may_put_the_killer_card_under_a_clue_and_may_decline_to_submit():
    with pytest.raises(RuleError, match="只有本局的杀手"):
        dj.arrange_clue(["W1", "W1", "A"], False)
    assert dj.arrange_clue(["A", "W1", "W1"], True) == ["W1", "W1", "A"]
    s = fresh(5, killer=True)
    s.killer = 0
    s.hands = [["W1", "W1", "A"], [], [], [], []]
    s.phase = "submit"
    s = act(s, 0, "no_submit")
    assert s.phase == "refill" and s.clues[0] == []


def test_direnjie_refill_takes_up_to_two_from_the_deck_or_from_players_who_did_not_give():
    s = fresh(4, hands=[[], ["L1", "L2", "L4"], ["W1", "W2", "W3"], ["T1"]], deck=["T2", "T3", "T4"])
    s = act(act(s, 0, "request", category="W"), 1, "pass")
    s = act(act(s, 2, "give", card="W1"), 3, "pass")
    s.phase = "refill"
    with pytest.raises(RuleError, match="已经传过牌"):
        act(s, 0, "refill", sources=[2])
    with pytest.raises(RuleError, match="少于三张"):
        act(s, 0, "refill", sources=[3])
    with pytest.raises(RuleError, match="最多两张"):
        act(s, 0, "refill", sources=["deck", "deck", "deck"])
    with pytest.raises(RuleError, match="两位不同的玩家"):
        act(s, 0, "refill", sources=[1, 1])
    both = act(s, 0, "refill", sources=["deck", 1])
    assert len(both.hands[0]) == 3 and len(both.hands[1]) == 2 and both.current == 1
    assert len(act(s, 0, "refill", sources=["deck", "deck"]).deck) == 1


def seven_public(n=3):
    s = fresh(n, deck=[])
    s.clues[1] = [clue("W1"), clue("W2"), clue("W3"), clue("W4")]
    s.clues[2] = [clue("L1"), clue("L2"), clue("L3")]
    s.hands = [["T1"], ["T2"], ["T3"]][:n]
    return s


def one_turn(s):
    seat = s.current
    s = act(s, seat, "request", category="T")
    for giver in list(s.givers):
        s = act(s, giver, "pass")
    if s.phase == "consolation":
        s = act(s, seat, "consolation", source="none")
    return act(s, seat, "refill", sources=[])


def test_direnjie_the_eighth_public_clue_starts_the_last_round_until_the_tail_has_played():
    s = seven_public()
    s.clues[1].append(clue("T5", public=False))
    s = one_turn(s)  # seat 1 reveals the 8th public clue
    assert s.last_round and s.current == 1
    s = one_turn(s)
    assert s.current == 2 and s.phase == "request"
    s = one_turn(s)  # the tail (seat 2) finishes: the game ends
    assert s.phase == "answer"


def test_direnjie_when_the_tail_reveals_the_eighth_clue_the_game_ends_after_that_turn():
    s = seven_public()
    s.current = 1
    s.clues[2] = [clue("L1"), clue("L2"), clue("T5", public=False)]  # seat 2's 3rd clue: no check
    s.clues[0] = [clue("L3"), clue("T4", public=False)]
    s = one_turn(s)
    assert s.current == 2 and s.last_round
    s = one_turn(s)
    assert s.phase == "answer"
    assert all(c["public"] for row in s.clues for c in row)  # remaining hidden clues turn face up
    assert s.phase == "answer" and "须执行检查线索" not in texts(s)


def answer_all(s, answers):
    for seat, (t, w, loc, killer) in enumerate(answers):
        s = act(s, seat, "answer", T=t, W=w, L=loc, **({} if killer is None else {"killer": killer}))
    return s


def test_direnjie_scoring_is_1_3_6_for_the_mission_and_1_per_two_clues():
    s = fresh(3)
    s.mission = {"T": 2, "W": 3, "L": 4}
    s.phase = "answer"
    s.submitted = [2, 3, 1]
    s = answer_all(s, [(2, 3, 4, None), (2, 3, 1, None), (2, 1, 1, None)])
    assert s.phase == "over"
    assert dj.score(s) == {0: 7, 1: 4, 2: 1}  # the source's example: three right and two clues = 7
    assert dj.winner(s) == [0]


def test_direnjie_killer_expansion_scoring_3_for_naming_the_killer_otherwise_5_to_the_killer():
    s = fresh(5, killer=True)
    s.killer = 4
    s.mission = {"T": 1, "W": 1, "L": 1}
    s.phase = "answer"
    s.submitted = [2, 0, 0, 0, 3]
    s = answer_all(s, [(1, 1, 1, 3), (2, 2, 2, 3), (2, 2, 2, 0), (2, 2, 2, 1), (1, 2, 2, None)])
    # the source's examples: detective B (3 right, 2 clues, killer not found) 7; killer E (1 right, 3 clues) 1+3+5
    assert dj.score(s) == {0: 7, 1: 0, 2: 0, 3: 0, 4: 9}
    s2 = fresh(5, killer=True)
    s2.killer, s2.mission, s2.phase, s2.submitted = 4, {"T": 1, "W": 1, "L": 1}, "answer", [0, 0, 0, 0, 3]
    s2 = answer_all(s2, [(2, 2, 2, 4), (2, 2, 2, 4), (2, 2, 2, 0), (2, 2, 2, 1), (1, 2, 2, None)])
    assert dj.score(s2)[0] == 3 and dj.score(s2)[1] == 3 and dj.score(s2)[4] == 1 + 3


def test_direnjie_ties_go_to_the_most_clues_and_then_are_shared():
    s = fresh(3)
    s.mission = {"T": 2, "W": 3, "L": 4}
    s.phase = "answer"
    s.submitted = [0, 1, 1]
    s = answer_all(s, [(2, 1, 1, None)] * 3)
    assert dj.score(s) == {0: 1, 1: 1, 2: 1}
    assert dj.winner(s) == [1, 2]


def test_direnjie_team_variant_adds_teammates_scores():
    s = fresh(4, teams="2v2")
    s.mission = {"T": 2, "W": 3, "L": 4}
    s.phase = "answer"
    s.submitted = [0, 0, 0, 0]
    s = answer_all(s, [(2, 3, 4, None), (2, 3, 1, None), (1, 1, 1, None), (2, 3, 4, None)])
    assert dj.view(s, None)["teams"] == [[0, 2], [1, 3]]
    assert dj.winner(s) == [1, 3]  # 3 + 6 beats 6 + 0
    with pytest.raises(RuleError, match="需要 6"):
        dj.new_game(NAMES[:4], 1, {"teams": "3v3"})


def test_direnjie_views_hide_hands_hidden_clues_and_the_mission():
    s = fresh(3)
    s.clues[1] = [{"cards": ["W3", "W3", "M3"], "public": False}]
    public = dj.view(s, None)
    assert all(seat["hand"] is None for seat in public["seats"])
    assert public["seats"][1]["clues"][0] == {"index": 0, "public": False, "top": None, "cards": None}
    assert public["mission"] is None
    assert dj.view(s, 1)["seats"][1]["clues"][0]["cards"] == ["W3", "W3", "M3"]
    assert dj.view(s, 0)["seats"][0]["hand"] == sorted(s.hands[0])


def test_direnjie_a_giver_without_a_matching_card_is_offered_only_not_giving():
    s = act(fresh(3, hands=[[], ["L1", "M3"], ["W3"]]), 0, "request", number=3)
    assert [(f["type"], f["label"]) for f in dj.forms(s, 1)] == [("pass", "没有「3 号」:不给")]
    s = act(s, 1, "pass")
    assert [f["type"] for f in dj.forms(s, 2)] == ["give", "pass"]
