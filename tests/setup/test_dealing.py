"""S1, S3: dealing the standard table, and hands entered by hand."""

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from cards.catalogue import COMMONER, DEFAULT_CAMPS, KILLER, WEREWOLF, is_privilege, standard_deck
from cards.dealing import check_hands, deal


def _assert_s3(result):
    deck = standard_deck()
    dealt = [c for h in result.hands for c in h]
    assert len(result.hands) == 7 and all(len(h) == 5 for h in result.hands)
    assert len(dealt) == 35 and len(result.left_out) == 1
    assert Counter(dealt) + Counter(result.left_out) == Counter(deck)
    for camp, hand in zip(DEFAULT_CAMPS, result.hands, strict=True):
        assert (KILLER in hand) == (camp == "杀手")
        assert (WEREWOLF in hand) == (camp == "狼人")
        privileges = [c for c in hand if is_privilege(c)]
        assert len(privileges) == len(set(privileges)), hand
        assert 1 <= hand.count(COMMONER) <= 2, hand


def test_it_deals_2000_seeds_all_within_s3_and_each_seed_twice_the_same():
    for seed in range(2000):
        first = deal(DEFAULT_CAMPS, standard_deck(), 5, seed)
        _assert_s3(first)
        assert deal(DEFAULT_CAMPS, standard_deck(), 5, seed) == first


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**48))
def test_it_deals_any_seed_within_s3(seed):
    _assert_s3(deal(DEFAULT_CAMPS, standard_deck(), 5, seed))


def test_different_seeds_give_different_deals():
    deals = {deal(DEFAULT_CAMPS, standard_deck(), 5, s).hands for s in range(50)}
    assert len(deals) > 45


def test_it_deals_a_table_of_another_size():
    camps = ["杀手", "狼人", "平民", "平民", "自选"]
    result = deal(camps, standard_deck(), 6, 7)
    assert [len(h) for h in result.hands] == [6] * 5
    assert check_hands(camps, result.hands, standard_deck()) == []


def test_it_refuses_hands_that_break_s3_saying_which_seat_and_why():
    camps = ["杀手", "狼人", "平民"]
    hands = [
        ["庶民", "狼人", "保镖", "保镖", "束魂"],
        ["庶民", "庶民", "庶民", "巫医", "束魂"],
        ["杀手", "巫医", "狙击手", "保镖", "阿米巴"],
    ]
    problems = check_hands(camps, hands, standard_deck())
    text = "\n".join(problems)
    assert "1 号座位不是狼人,不能拿“狼人”牌" in text
    assert "1 号座位是杀手,必须拿到“杀手”牌" in text
    assert "1 号座位有两张“保镖”" in text
    assert "2 号座位有 3 张庶民牌" in text
    assert "3 号座位有 0 张庶民牌" in text
    assert "牌堆里没有这么多“保镖”" not in text  # three 保镖 exist
