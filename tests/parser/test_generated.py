"""The property of the generated messages (tests/parser/generator.py): a message composed from known inputs wrapped
in filler (greetings, strategy talk naming players, reported speech, hypotheticals, quotes, asides with pronouns, PS
lines, signatures, notes to the 天神, self-corrections, reasons after votes, 繁體, full width, IME typos, emoji,
BBCode) is read as exactly its inputs, or refused naming what was not read — never a different input."""

from __future__ import annotations

import bisect
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from moderator.parser import account, parse_pm
from moderator.parser.account import blank
from tests.parser import generator
from tests.world import PLAYERS


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


def _part_at(parts: list, at: int):
    return parts[bisect.bisect_right([p.start for p in parts], at) - 1]


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.integers(min_value=0, max_value=2**32))
def test_the_words_an_input_was_read_from_are_shown_as_that_input_never_as_a_note(seed):
    """Every word of a known input that the parser read — its card phrase (用杀手牌, 束魂牌, …用诅咒牌), privilege,
    player, position, vote word — is in that input's part of the preview (docs/parser.md, "nothing dropped"): never
    in a note that says nothing was read. (A card name mangled by a typo may be refused instead: it was not read.)"""
    message = generator.generate(random.Random(seed))
    got = parse_pm(
        message.text, sender=generator.SENDER, players=PLAYERS, hand=message.hand, phase=message.phase
    ).to_json()
    parts = account(message.text, inputs=got["inputs"], refusals=got["refusals"], notes=got["notes"])
    for item, (start, end) in zip(message.inputs, message.said, strict=True):
        read = {k for k, i in enumerate(got["inputs"]) if generator.key(i) == generator.key(item)}
        if not read:
            continue  # missed: the property above wants a refusal
        for at in range(start, end):
            if blank(message.text[at]):
                continue
            part = _part_at(parts, at)
            if part.kind == "refusal" and "typo" in message.kinds:
                continue
            shown = [(p.kind, p.text) for p in parts]
            assert part.kind == "input" and part.index in read, (message.text, message.text[start:end], shown)
