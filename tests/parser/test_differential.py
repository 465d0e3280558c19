"""What the 天神 reads is what is stored: every input the parser reads from the message tables, written
back as the sentence the intake preview shows (`codec.describe_item`), and parsed again from that sentence, gives
the same input. A hostile text is read in linear time: the operations counted at several sizes, never timed; a message
longer than the parser's bound (MAX_CHARS) is read up to it, the rest refused."""

from __future__ import annotations

import itertools

import pytest

from bench.hostile import CASES, HAND, PLAYERS, build, operations
from moderator.parser import MAX_CHARS, parse_pm, parse_vote
from moderator.rules import codec
from tests.parser.cases import all_cases, bare

KEYS_NOT_SAID = ("manifesto",)  # the 杀人宣言 is shown beside the sentence, word for word, not inside it


def _said(item: dict) -> dict:
    return {k: v for k, v in bare(item).items() if k not in KEYS_NOT_SAID}


CASES_WITH_INPUTS = [c for c in all_cases() if c.parse()["inputs"]]


@pytest.mark.parametrize("case", CASES_WITH_INPUTS, ids=[c.id for c in CASES_WITH_INPUTS])
def test_each_input_written_back_as_its_preview_sentence_reads_the_same(case):
    for item in case.parse()["inputs"]:
        sentence = codec.describe_item(_said(item))
        again = parse_pm(sentence, sender=case.sender, players=case.players, hand=case.hand, phase=case.phase)
        assert [_said(i) for i in again.to_json()["inputs"]] == [_said(item)], (case.text, sentence)


@pytest.mark.parametrize("name,piece,reader", CASES, ids=[c[0] for c in CASES])
def test_a_hostile_text_eight_times_as_long_costs_about_eight_times_the_operations(name, piece, reader):
    """Every reader of player text is linear: on hostile text (bench/hostile.py: digit runs after 第, repeated names,
    nested brackets, long lines with no punctuation, token soup, …) at 1, 2, 4 and 8 thousand characters, its bound
    lifted, the function calls it makes (counted by the C profiler: the same text gives the same count on a loaded
    machine or an idle one) grow as the text does: at most 12× for 8× the text (linear ≈ 8, n·log n ≈ 11, quadratic
    ≈ 64), and never more than 3.2× for a doubling (quadratic: 4; some texts cut at a size end a line of
    cards or not, so one doubling may reach 2.7). Seconds are the benchmark's alone: python -m bench.parser
    --hostile."""
    counts = [operations(reader, build(piece, n), max_chars=None) for n in (1_000, 2_000, 4_000, 8_000)]
    assert counts[3] <= 12 * counts[0] + 2_000, (name, counts)
    for small, large in itertools.pairwise(counts):
        assert large <= 3.2 * small + 2_000, (name, counts)


@pytest.mark.parametrize("read", ["pm", "vote"])
def test_a_message_longer_than_the_bound_is_read_up_to_it_and_the_rest_refused_with_its_span(read):
    """What is written in the first MAX_CHARS characters is read; what follows is shown to the 天神 as not read,
    with its span, however long it is: 100 KB costs no more than 20 KB."""
    head = "投王五\n" if read == "vote" else "诅咒王五\n"
    text = head + "闲聊" * 9_000 + "\n" + "投赵六 诅咒赵六" + "啊" * 80_000
    if read == "vote":
        got = parse_vote(text, sender="钱七", players=PLAYERS).to_json()
        assert got["inputs"] == [{"for": "王五", "span": [0, 3]}]
    else:
        got = parse_pm(text, sender="钱七", players=PLAYERS, hand=HAND).to_json()
        assert [(i["use"], i["target"]) for i in got["inputs"]] == [("诅咒", "王五")]
    cut = len(head) + 18_001  # after the last line break in the first MAX_CHARS characters
    last = got["refusals"][-1]
    assert last["span"] == [cut, len(text)]
    assert last["text"].startswith("投赵六 诅咒赵六")
    assert f"共{len(text):,}字" in last["reason"] and f"只读了前{cut:,}字" in last["reason"]

    def pm(t: str, max_chars: int | None = MAX_CHARS) -> None:
        parse_pm(t, sender="钱七", players=PLAYERS, hand=HAND, max_chars=max_chars)

    assert operations(pm, text) < 1.1 * operations(pm, text[:20_000]) + 2_000  # the rest is never read


def test_a_message_within_the_bound_is_read_whole():
    text = "闲聊" * (MAX_CHARS // 2 - 4) + "\n诅咒王五"
    assert len(text) <= MAX_CHARS
    got = parse_pm(text, sender="钱七", players=PLAYERS, hand=HAND).to_json()
    assert [(i["use"], i["target"]) for i in got["inputs"]] == [("诅咒", "王五")]
    assert got["refusals"] == []
