"""The parser's one-pass 繁→简 conversion gives what OpenCC's t2s (opencc-python-reimplemented) gives: on
every message of the corpus, on text dense with the library's phrases, and on long text, where the library itself
is slow."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from opencc import OpenCC

from moderator.parser.text import _T2S_TABLES, to_simplified
from tests.parser.cases import all_cases

LIBRARY = OpenCC("t2s")


def library_to_simplified(s: str) -> str:
    """The library's own conversion: character by character when a phrase changes the
    length."""
    out = LIBRARY.convert(s)
    if len(out) == len(s):
        return out
    chars = (LIBRARY.convert(c) for c in s)
    return "".join(o if len(o) == 1 else c for o, c in zip(chars, s, strict=True))


PHRASES = sorted(_T2S_TABLES.phrases)
PIECES = [*PHRASES, *"發財髮型乾隆後面麵條王五趙六詛咒狙擊 ,。.-\n　a1", *(k[:-1] for k in PHRASES if len(k) > 2)]


def test_every_message_of_the_corpus_converts_as_the_library_converts_it():
    texts = [c.text for c in all_cases()] + [p for c in all_cases() for p in c.players]
    assert texts
    for text in texts:
        assert to_simplified(text) == library_to_simplified(text), text


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=40))
def test_text_dense_with_phrases_converts_as_the_library_converts_it(pieces):
    text = "".join(pieces)
    assert _T2S_TABLES.convert(text) == LIBRARY.convert(text)
    assert to_simplified(text) == library_to_simplified(text)


def test_long_text_converts_as_the_library_converts_it():
    rnd = random.Random(22)
    text = "".join(rnd.choice(PIECES) for _ in range(3_000))
    assert _T2S_TABLES.convert(text) == LIBRARY.convert(text)
