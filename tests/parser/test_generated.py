"""The property of the generated messages (tests/parser/generator.py): a message composed from known inputs wrapped
in filler (greetings, strategy talk naming players, reported speech, hypotheticals, quotes, asides with pronouns, PS
lines, signatures, notes to the 天神, self-corrections, reasons after votes, 繁體, full width, IME typos, emoji,
BBCode) is read as exactly its inputs, or refused naming what was not read — never a different input."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.parser import generator


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.integers(min_value=0, max_value=2**32))
def test_a_generated_message_gives_its_inputs_or_a_refusal_never_another_input(seed):
    message = generator.generate(random.Random(seed))
    result, got = generator.score(message)
    assert result.wrong == 0, (message.text, message.inputs, got)
    assert result.manifesto_wrong == 0, (message.text, got)  # a signature, PS, note or instruction never published
    if result.missed:
        assert got["refusals"], (message.text, message.inputs, got)  # what was not read is shown, with a reason


def test_the_generator_uses_at_least_twelve_kinds_of_filler():
    rnd = random.Random(1)
    kinds = {k for _ in range(2_000) for k in generator.generate(rnd).kinds}
    assert len(kinds) >= 12, kinds
