"""The table of patterns read at a place (moderator/parser/positions.py): each rule reads its examples, the rules
tried in order give the token a 天神 would read, and the counter-examples are read as no position. A position is
the card a 瞄准狙击 names in the target's order (N6: 第三张 from the front is 3, 倒数第二张 from the back is −2)."""

from __future__ import annotations

import pytest

from moderator.parser.positions import pattern_at
from moderator.parser.text import prepare

# (text, where the token starts, kind, value, hint): the token read there, to the end of the text.
EXAMPLES = [
    ("第三张", 0, "POS", 3, None),
    ("倒数第二张", 0, "POS", -2, None),
    ("倒三", 0, "POS", -3, None),
    ("从后面数第三张", 0, "POS", -3, None),
    ("从前面数第2张", 0, "POS", 2, None),
    ("顺位2", 0, "POS", 2, None),
    ("从后往前数第三张", 0, "POS", -3, None),  # the direction in words before the number
    ("从右数第二张", 0, "POS", 2, "unclear"),  # words that do not say which end
    ("第二张,从后面数", 0, "POS", -2, None),  # the direction written after the number
    ("第二张(从右数)", 0, "POS", 2, "unclear"),
    ("位置:倒数第二", 0, "POS", -2, None),  # a label, then a position
    ("第几张:2", 0, "POS", 2, None),  # a label, then a bare number
    ("最后一张", 0, "POS", -1, None),
    ("最前面那张", 0, "POS", 1, None),
    ("两次", 0, "REPEAT", 2, None),
    ("x2", 0, "REPEAT", 2, None),
    ("3号", 0, "SEAT", 3, None),
    ("第一夜", 0, "STOP", None, None),  # when, not where
    ("第3天", 0, "STOP", None, None),
]

# (text, where): nothing is read there.
COUNTER_EXAMPLES = [
    ("max2", 2),  # an x inside a word is no repeat mark
    ("12号", 1),  # a seat number does not start inside a number
    ("底牌", 0),  # 底 outside brackets is a word of the vocabulary, not a pattern
    ("杀手底", 2),
    ("张三", 0),
]


@pytest.mark.parametrize(("text", "at", "kind", "value", "hint"), EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_it_reads_each_example_as_the_token_a_game_master_would(text, at, kind, value, hint):
    norm = prepare(text).norm
    token = pattern_at(norm, at)
    assert token is not None
    assert (token.kind, token.value, token.hint, token.end) == (kind, value, hint, len(norm))


@pytest.mark.parametrize(("text", "at"), COUNTER_EXAMPLES, ids=[c[0] for c in COUNTER_EXAMPLES])
def test_it_reads_no_token_in_a_counter_example(text, at):
    assert pattern_at(prepare(text).norm, at) is None


def test_it_stops_a_position_where_the_words_after_it_say_nothing_of_a_direction():
    """第二张,从前面数: counted from the front already, the words after it are not part of the position."""
    token = pattern_at(prepare("第二张,从前面数").norm, 0)
    assert token is not None and (token.value, token.text) == (2, "第二张")


def test_it_reads_bottom_in_brackets_as_the_bottom_card():
    """杀手(底): the card before it is the 底牌."""
    token = pattern_at(prepare("杀手(底)").norm, 3)
    assert token is not None and (token.start, token.end, token.text) == (3, 4, "底牌")
