"""Golden messages (golden.yaml) and the corpus of chatter and hard shapes (corpus.yaml): each is read exactly as a
GM expects (docs/parser.md), every input carries the span of the words it was read from, and no case produces a
wrong input."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.parser.cases import all_cases, bare, load

GOLDEN = load("golden.yaml")
CORPUS = load("corpus.yaml")
CLASSES = ("chat", "negation", "quote", "clause", "position", "dayvote", "pronoun", "words", "refusal")


def test_the_tables_hold_at_least_300_messages_ten_per_class_with_unique_ids():
    cases = all_cases()
    assert len(cases) >= 300
    assert len({c.id for c in cases}) == len(cases)
    per_class = Counter(c.kind for c in CORPUS)
    assert all(per_class[k] >= 10 for k in CLASSES), per_class


@pytest.mark.parametrize("case", GOLDEN, ids=[c.id for c in GOLDEN])
def test_it_parses_each_golden_message_as_the_player_meant_it(case):
    result = case.parse()
    assert [bare(i) for i in result["inputs"]] == case.raw["inputs"]
    expected = case.raw.get("refusals", [])
    assert [r["text"] for r in result["refusals"]] == [r["text"] for r in expected], result["refusals"]
    for got, want in zip(result["refusals"], expected, strict=True):
        assert want["reason"] in got["reason"]


@pytest.mark.parametrize("case", CORPUS, ids=[c.id for c in CORPUS])
def test_it_reads_each_corpus_message_and_never_invents_an_input(case):
    result = case.parse()
    assert [bare(i) for i in result["inputs"]] == case.raw["inputs"], result
    reasons = [r["reason"] for r in result["refusals"]]
    if case.raw.get("refused") or "reason_has" in case.raw or "candidates" in case.raw:
        assert reasons, result
    if "reason_has" in case.raw:
        assert any(case.raw["reason_has"] in r for r in reasons), reasons
    if "no_reason" in case.raw:
        assert not any(case.raw["no_reason"] in r for r in reasons), reasons
    if "candidates" in case.raw:
        firsts = [r["candidates"] for r in result["refusals"] if r.get("candidates")]
        assert firsts and firsts[0] == case.raw["candidates"], result["refusals"]


@pytest.mark.parametrize("case", GOLDEN + CORPUS, ids=[c.id for c in GOLDEN + CORPUS])
def test_every_input_and_refusal_span_points_at_words_of_the_original_text(case):
    result = case.parse()
    for item in [*result["inputs"], *result["refusals"]]:
        start, end = item["span"]
        assert 0 <= start < end <= len(case.text), item
        assert case.text[start:end].strip(), item
    for item in result["inputs"]:
        target = item.get("target") or item.get("for") or item.get("change")
        written = case.text[slice(*item["span"])]
        if isinstance(target, str) and target in case.text:
            assert target in written or "自己" in written or "号" in written or item.get("pronoun") in written, (
                item,
                written,
            )
