"""Asides in brackets never block the reading of the clause they stand in, and a pronoun inside an aside is not a
target (PARSER.md, "asides in brackets"): words in brackets that only describe — what was done to someone (a
passive), or someone's own card (她底牌) — are an aside whatever action words they hold. Its counter-example: an
order in brackets (今晚禁锢他) is still read as one."""

from __future__ import annotations

import pytest

from moderator.parser import parse_pm

PLAYERS = ["张三", "李四", "王五", "赵六", "钱七"]
HAND = ["狙击手", "绝杀/特赦", "禁锢/反狙击", "束魂", "庶民"]


def read(text: str) -> dict:
    got = parse_pm(text, sender="钱七", players=PLAYERS, hand=HAND).to_json()
    return {"inputs": [{k: v for k, v in i.items() if k != "span"} for i in got["inputs"]], "refusals": got["refusals"]}


@pytest.mark.parametrize(
    "text,wanted",
    [
        ("特赦王五(他昨天被投出去了)", {"card": "绝杀/特赦", "use": "特赦", "target": "王五"}),
        (
            "狙击王五倒数第二张牌(就是她底牌前面那张)",
            {"card": "狙击手", "use": "瞄准狙击", "target": "王五", "position": -2},
        ),
        ("束魂王五(他被禁锢了)", {"card": "束魂", "use": "束魂", "target": "王五"}),
    ],
)
def test_words_in_brackets_that_only_describe_are_an_aside_and_their_pronoun_no_target(text, wanted):
    assert read(text) == {"inputs": [wanted], "refusals": []}


def test_an_order_in_brackets_is_still_read_as_one():
    got = read("束魂王五(今晚禁锢他)")  # 他: the one player named before it, shown to the 天神 (docs/parser.md)
    assert got["inputs"] == [
        {"card": "束魂", "use": "束魂", "target": "王五"},
        {"card": "禁锢/反狙击", "use": "禁锢", "target": "王五", "pronoun": "他"},
    ]
