"""O1, O2: discard orders and their refusals."""

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from cards.catalogue import is_privilege
from moderator.game.orders import check_order, random_order

HAND = ["庶民", "杀手", "狙击手", "保镖", "庶民"]


def test_it_accepts_a_full_order_ending_on_a_privilege():
    assert check_order(HAND, ["庶民", "庶民", "保镖", "狙击手", "杀手"]) == []


def test_it_refuses_an_order_that_misses_a_card():
    assert check_order(HAND, ["庶民", "庶民", "保镖", "杀手"]) == ["顺序里漏了“狙击手”"]


def test_it_refuses_an_order_that_misses_a_commoner():
    assert check_order(HAND, ["庶民", "保镖", "狙击手", "杀手"]) == ["顺序里漏了“庶民”"]


def test_it_refuses_an_order_that_repeats_a_card():
    problems = check_order(HAND, ["庶民", "庶民", "保镖", "保镖", "杀手"])
    assert "“保镖”你只有 1 张,顺序里写了 2 次" in problems
    assert "顺序里漏了“狙击手”" in problems


def test_it_refuses_an_order_naming_a_card_not_held():
    assert "你手里没有“巫医”" in check_order(HAND, ["庶民", "庶民", "巫医", "狙击手", "杀手", "保镖"])


def test_o2_it_refuses_an_order_ending_on_a_commoner():
    assert check_order(HAND, ["杀手", "庶民", "保镖", "狙击手", "庶民"]) == [
        "底牌(最后一张)必须是特权牌,不能是“庶民”(O2)"
    ]


@given(seed=st.integers(min_value=0, max_value=2**40))
def test_o1_a_drawn_order_is_a_valid_order_and_repeatable(seed):
    order = random_order(HAND, seed)
    assert Counter(order) == Counter(HAND)
    assert is_privilege(order[-1])
    assert check_order(HAND, order) == []
    assert random_order(HAND, seed) == order
