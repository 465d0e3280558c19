"""All four rules modules: the shared contract (JSON states, no mutation, replay, forms, playable to the end)."""

from __future__ import annotations

import json
import random

import pytest
from tables_playout import play, random_step

from tables.rules import GAMES, RuleError, game
from tables.rules.base import action_from_form, form, param

SIZES = {"direnjie_cards": [2, 4, 6], "noir": [2], "sanguosha": [4, 5], "anhuoxian": [4, 6]}
CASES = [(kind, n) for kind, sizes in SIZES.items() for n in sizes]


def names(n):
    return [f"玩家{i}" for i in range(n)]


@pytest.mark.parametrize(("kind", "n"), CASES)
def test_every_game_is_playable_to_the_end_through_its_forms_and_replays_to_the_same_state(kind, n):
    g = game(kind)
    start = g.new_game(names(n), 2024)
    end, actions = play(g, start, random.Random(n))
    assert g.winner(end), f"{kind} with {n} players did not finish in {len(actions)} actions"
    assert set(g.score(end)) == set(range(n))
    assert all(g.forms(end, p) == [] for p in range(n))
    replay = g.new_game(names(n), 2024)
    for action in actions:
        replay, _ = g.apply(replay, json.loads(json.dumps(action)))
    assert replay.to_dict() == end.to_dict()


@pytest.mark.parametrize(("kind", "n"), CASES)
def test_states_round_trip_through_json_and_apply_never_mutates_its_input(kind, n):
    g = game(kind)
    s = g.new_game(names(n), 5)
    rng = random.Random(1)
    for _ in range(30):
        if g.winner(s):
            break
        frozen = json.dumps(s.to_dict(), sort_keys=True)
        new, _ = random_step(g, s, rng)
        assert json.dumps(s.to_dict(), sort_keys=True) == frozen
        s = type(s).from_dict(json.loads(json.dumps(new.to_dict())))
        assert s.to_dict() == new.to_dict()


@pytest.mark.parametrize("kind", list(GAMES))
def test_the_same_seed_deals_the_same_game_and_the_seed_is_kept_in_the_state(kind):
    g = game(kind)
    n = SIZES[kind][-1]
    a, b = g.new_game(names(n), 77), g.new_game(names(n), 77)
    assert a.to_dict() == b.to_dict() and a.seed == 77
    assert g.new_game(names(n), 78).to_dict() != a.to_dict()


@pytest.mark.parametrize("kind", list(GAMES))
def test_bad_actions_raise_rule_errors_in_chinese(kind):
    g = game(kind)
    s = g.new_game(names(SIZES[kind][0]), 1)
    for bad in ({}, {"type": "nonsense", "player": 0}, {"type": "pass", "player": 99}, "x"):
        with pytest.raises(RuleError) as info:
            g.apply(s, bad)
        assert any("\u4e00" <= ch <= "\u9fff" for ch in str(info.value))


@pytest.mark.parametrize("kind", list(GAMES))
def test_player_counts_outside_the_range_are_refused(kind):
    g = game(kind)
    with pytest.raises(RuleError):
        g.new_game(names(g.MAX_PLAYERS + 1), 1)
    with pytest.raises(RuleError, match="重复"):
        g.new_game(["甲"] * g.MIN_PLAYERS, 1)


def test_unknown_game_kind_is_a_rule_error():
    with pytest.raises(RuleError, match="未知的游戏"):
        game("chess")


def test_form_values_are_converted_to_action_parameters():
    spec = form(
        "x",
        "",
        param("fixed", "", "hidden", [(3, "")]),
        param("seat", "座位", "seat", [(1, "")]),
        param("cards", "牌", "multi"),
        param("set", "线索", "cardset"),
        param("src", "来源", "sources"),
        param("who", "目标", "seats"),
    )
    values = {"seat": ["1"], "cards": ["W1", "W1"], "set": ["T6 T6 M2"], "src": ["deck", "", "2"], "who": ["0"]}
    action = action_from_form(spec, values)
    assert action == {
        "type": "x",
        "fixed": 3,
        "seat": 1,
        "cards": ["W1", "W1"],
        "set": ["T6", "T6", "M2"],
        "src": ["deck", 2],
        "who": [0],
    }
    with pytest.raises(RuleError, match="请填写「座位」"):
        action_from_form(spec, {})
    with pytest.raises(RuleError, match="「座位」只能从表单给出的选项中选:1。收到的「abc」不是其中之一"):
        action_from_form(spec, {"seat": ["abc"]})  # a value the form did not offer: a sentence, not a code
