"""The reasons a privilege word is not the sender's order (moderator/parser/blocked.py, docs/parser.md): each reason of
the table with a message that gives it and the sentence the 天神 reads, and counter-examples read as orders."""

from __future__ import annotations

import pytest

from moderator.parser import blocked, parse_pm

PLAYERS = ["张三", "李四", "王五", "赵六", "钱七", "孙八", "周九"]
BINDER = ["庶民", "束魂", "诅咒/庇佑", "禁锢/反狙击", "巫医"]

# (message, the reason's name in the table, the words of the sentence the 天神 reads)
EXAMPLES = [
    ("王五说:束魂孙八", "report", "“王五说:束魂孙八”是转述别人的话"),
    ("李四说他要束魂赵六", "report", "“李四说他要束魂赵六”是转述别人的话"),
    ("如果明天王五还不说话,我就束魂王五", "condition", "“我就束魂王五”附了条件"),
    ("李四会束魂孙八", "other", "“李四会束魂孙八”说的是别人的行动"),
    ("那个庇佑不给王五了", "negation", "“那个庇佑不给王五了”是否定(不做)"),  # AP4: nothing is refunded
    ("不束魂王五", "negation", "“不束魂王五”是否定(不做)"),
    ("昨晚束魂了王五", "past", "“昨晚束魂了王五”说的是已经发生的事"),
    ("我觉得要束魂王五", "guess", "“我觉得要束魂王五”是猜测或闲聊"),
    ("我是巫医", "identity", "“我是巫医”说的是谁是什么牌"),
    ("可能束魂王五", "hedge", "“可能束魂王五”听起来还没拿定主意"),
    ("束魂王五吗?", "question", "“束魂王五吗”是个问句"),
]


def said(text: str) -> tuple[list, list[str]]:
    result = parse_pm(text, sender="钱七", players=PLAYERS, hand=BINDER, phase="night").to_json()
    return result["inputs"], [r["reason"] for r in (*result["refusals"], *result["notes"])]


@pytest.mark.parametrize("text,why,sentence", EXAMPLES)
def test_it_says_why_a_privilege_word_is_not_taken_as_an_order(text, why, sentence):
    inputs, reasons = said(text)
    assert inputs == []
    assert any(r.startswith(sentence) for r in reasons), reasons


def test_every_reason_of_the_table_has_an_example():
    assert {why for why, _ in blocked._BLOCKS} == {why for _, why, _ in EXAMPLES}


@pytest.mark.parametrize("text", ["束魂王五 ok?", "束魂王五,可以吗?", "我束魂王五", "王五,给他来个束魂"])
def test_it_takes_a_privilege_word_no_reason_holds_for_as_the_order(text):
    inputs, _ = said(text)
    assert [(i["use"], i["target"]) for i in inputs] == [("束魂", "王五")]
