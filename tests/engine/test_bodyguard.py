"""B1–B5: the exact bodyguard optimiser against brute force over every order of application."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from moderator.game.state import Card
from nights.bodyguard import AIMED, DOOM, STRIKE_KINDS, Strike, brute_force, cards_taken, simulate

GUARD = "保镖"
FRONT_KINDS = [k for k in STRIKE_KINDS if k != AIMED]


def is_guard(card):
    return card.name == GUARD


@st.composite
def nights(draw):
    names = draw(st.lists(st.sampled_from([GUARD, "庶民", "束魂", "狙击手"]), min_size=1, max_size=6))
    hand = [Card(i, n) for i, n in enumerate(names)]
    kinds = draw(st.lists(st.sampled_from(FRONT_KINDS), min_size=1, max_size=3, unique=True))
    hits = draw(
        st.lists(
            st.one_of(
                st.builds(lambda k: Strike(k), st.sampled_from([*kinds, DOOM])),
                st.builds(lambda i: Strike(AIMED, i), st.integers(0, len(hand) - 1)),
            ),
            max_size=5,
        )
    )
    return hand, hits


def _agrees(hand, hits) -> bool:
    return frozenset(card.uid for card, _ in cards_taken(hand, hits, is_guard)) == brute_force(hand, hits, is_guard)


# Hypothesis: its edge cases and, on a failure, the smallest night that fails. Its drawing costs ~20 times the check
# itself, so the bulk of the nights comes from the seeded sweep below (the same distribution, 10 times as many).
@settings(max_examples=1_000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(nights())
def test_b5_the_optimiser_takes_exactly_the_cards_of_the_best_order(night):
    assert _agrees(*night)


def _random_night(rng: random.Random):
    """A night as nights() draws it: 1–6 cards of four names, 1–3 front kinds, up to 5 hits (kinds, 绝杀, aimed)."""
    hand = [Card(i, rng.choice([GUARD, "庶民", "束魂", "狙击手"])) for i in range(rng.randint(1, 6))]
    kinds = rng.sample(FRONT_KINDS, rng.randint(1, 3))
    hits = [
        Strike(rng.choice([*kinds, DOOM])) if rng.random() < 0.5 else Strike(AIMED, rng.randrange(len(hand)))
        for _ in range(rng.randint(0, 5))
    ]
    return hand, hits


def test_b5_the_optimiser_agrees_with_brute_force_on_10000_seeded_random_nights():
    for seed in range(10_000):
        hand, hits = _random_night(random.Random(seed))
        assert _agrees(hand, hits), f"seed {seed}: hand {[c.name for c in hand]}, hits {hits}"


def _hand(*names):
    return [Card(i, n) for i, n in enumerate(names)]


def test_b1_one_kind_never_knocks_the_bodyguard_out_nor_what_follows_it():
    hand = _hand(GUARD, "庶民", "束魂")
    assert simulate(hand, [Strike("杀手普通攻击")] * 3, is_guard) == []


def test_b1_cards_before_the_bodyguard_are_not_protected():
    hand = _hand("庶民", GUARD, "束魂")
    lost = cards_taken(hand, [Strike("杀手普通攻击"), Strike("杀手普通攻击")], is_guard)
    assert [c.name for c, _ in lost] == ["庶民"]


def test_b2_two_kinds_from_one_player_knock_it_out_and_a_third_hit_goes_past():
    hand = _hand(GUARD, "庶民", "束魂")
    lost = cards_taken(hand, [Strike("杀手普通攻击"), Strike("普通狙击"), Strike("杀手普通攻击")], is_guard)
    assert [c.name for c, _ in lost] == [GUARD, "庶民"]


def test_b3_an_aimed_shot_at_the_bodyguard_is_one_kind_and_needs_another():
    hand = _hand(GUARD, "庶民", "束魂")
    assert cards_taken(hand, [Strike(AIMED, 0)], is_guard) == []
    lost = cards_taken(hand, [Strike(AIMED, 0), Strike("狼人普通攻击")], is_guard)
    assert [c.name for c, _ in lost] == [GUARD]


def test_b4_doom_takes_the_bodyguard_itself_and_the_order_is_chosen_to_take_most():
    hand = _hand(GUARD, "庶民", "束魂")
    lost = cards_taken(hand, [Strike("杀手普通攻击"), Strike(DOOM)], is_guard)
    assert sorted(c.name for c, _ in lost) == sorted([GUARD, "庶民"])


def test_b5_the_best_order_keeps_a_second_kind_for_the_bodyguard():
    """Scenario 02: killer, killer, werewolf on [保镖, 庶民, …] — entry order would lose one card, the best two."""
    hand = _hand(GUARD, "庶民", "束魂")
    hits = [Strike("杀手普通攻击"), Strike("杀手普通攻击"), Strike("狼人普通攻击")]
    assert len(simulate(hand, hits, is_guard)) == 1
    assert [c.name for c, _ in cards_taken(hand, hits, is_guard)] == [GUARD, "庶民"]


def test_a_strike_of_a_kind_no_bodyguard_tells_apart_is_refused_at_once():
    """B1: a 保镖 falls to two hits of different kinds among the eight; a misspelt kind would count as a ninth and
    take a 保镖 that the rules keep, so it is refused where it is made."""
    with pytest.raises(ValueError, match="B1"):
        Strike("杀手普攻")
    assert Strike("杀手普通攻击").kind == "杀手普通攻击" and Strike(DOOM).kind == DOOM
