"""The one-pass readers find what the patterns they replace find: quoted words (`QUOTED`) and
a 底牌 word before a card (`_BOTTOM_AFTER`), on random text made of the characters that matter to them."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from moderator.parser.orders import _BOTTOM_AFTER, _bottom_before
from moderator.parser.text import quoted

# The pattern `quoted` replaces: quoted words 「…」 『…』 “…” "…" ‘…’ within one line.
QUOTED = re.compile(r"「[^」\n]*」|『[^』\n]*』|“[^”\n]*”|\"[^\"\n]*\"|‘[^’\n]*’")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(list('「」『』“”"‘’\na王 ')), max_size=40))
def test_quoted_words_are_the_spans_of_the_quote_pattern(chars):
    text = "".join(chars)
    assert quoted(text) == [m.span() for m in QUOTED.finditer(text)]


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.sampled_from(["做", "当", "作为", "作", "为", "放", "是", "当做", " ", "\n", "　", "a", "底"]), max_size=10
    )
)
def test_a_bottom_word_before_a_place_is_found_as_the_pattern_finds_it(pieces):
    text = "".join(pieces)
    for i in range(len(text) + 1):
        assert _bottom_before(text, i) == bool(_BOTTOM_AFTER.search(text[:i])), (text, i)
