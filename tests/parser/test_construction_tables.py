"""The parser's construction tables, each rule with an example it decides and a counter-example it leaves alone:
when a privilege word goes on the group before it (groups._USE_GOES_ON; docs/rules.md M1 for 变形) and what ends
the names after a vote word (votes._NAMES_END; D1, D3)."""

from __future__ import annotations

import pytest

from moderator.parser import groups, parse_pm, parse_vote, votes

PLAYERS = ["张三", "李四", "王五", "赵六", "孙八", "钱七", "阿飞"]
HAND = ["杀手", "束魂", "纵火/圣人", "阿米巴", "狙击手", "巫医"]
NO_VOTE = "没看出投给谁;请写“投 某某”(改票写“改投 某某”)"


def seen(data: dict) -> tuple[list[dict], list[str]]:
    """What the 天神 sees of a reading: its inputs (without their spans) and the reasons of its refusals."""
    return [{k: v for k, v in i.items() if k != "span"} for i in data["inputs"]], [
        r["reason"] for r in data["refusals"]
    ]


def night(text: str) -> tuple[list[dict], list[str]]:
    return seen(parse_pm(text, sender="钱七", players=PLAYERS, hand=HAND).to_json())


def vote(text: str) -> tuple[list[dict], list[str]]:
    return seen(parse_vote(text, sender="钱七", players=PLAYERS).to_json())


def attack(target: str, use: str = "普通攻击") -> dict:
    return {"card": "杀手", "use": use, "target": target}


GOES_ON = {
    "_doubled_transform": (
        ("变形变成杀手", ([{"card": "阿米巴", "use": "变形", "into": "杀手"}], [])),
        ("变形变成杀手杀张三", ([{"card": "阿米巴", "use": "变形", "into": "杀手"}, attack("张三")], [])),
    ),
    "_names_the_form": (
        ("变形 狙击", ([{"card": "阿米巴", "use": "变形", "into": "狙击手"}], [])),
        ("变形成杀手 杀张三", ([{"card": "阿米巴", "use": "变形", "into": "杀手"}, attack("张三")], [])),
    ),
    "_same_verb": (
        ("放火烧王五", ([{"card": "纵火/圣人", "use": "纵火", "target": "王五"}], [])),
        ("杀张三杀李四", ([attack("张三"), attack("李四")], [])),
    ),
    "_weak_kin_verb": (
        ("束魂救张三", ([{"card": "束魂", "use": "束魂", "target": "张三"}], [])),
        (
            "束魂张三救李四",
            (
                [{"card": "束魂", "use": "束魂", "target": "张三"}],
                ["“救”可能是治疗(巫医牌)也可能是束魂(束魂牌);请写明"],
            ),
        ),
    ),
    "_stronger_kin": (
        ("刀张三一击必杀", ([attack("张三", "一击必杀")], [])),
        ("一击必杀张三刀", ([attack("张三", "一击必杀")], ["普通攻击要写明对谁用(如“普通攻击 某某”)"])),
    ),
}

NAMES_END = {
    "_other_vote_word": (("投票,楼上说投孙八", ([], [NO_VOTE])), ("投票,孙八", ([{"for": "孙八"}], []))),
    "_reason_or_privilege": (("投,因为李四很可疑", ([], [NO_VOTE])), ("投 李四,因为他可疑", ([{"for": "李四"}], []))),
    "_next_after_names": (
        ("投王五,李四也可疑", ([{"for": "王五"}], [])),
        ("投王五 赵六", ([], ["投票只能明确投一个人,这里写了王五、赵六(D3)"])),
    ),
    "_aside_after_names": (
        ("改票:王五(原投李四)", ([{"change": "王五"}], [])),
        ("投(王五)", ([{"for": "王五"}], [])),
    ),
    "_verb_ending_pronoun": (("票死她", ([], [NO_VOTE])), ("票死王五", ([{"for": "王五"}], []))),
}


def test_it_has_an_example_and_a_counter_example_for_every_rule_of_both_tables():
    assert list(GOES_ON) == [when.__name__ for when, _ in groups._USE_GOES_ON]
    assert list(NAMES_END) == [ends.__name__ for ends in votes._NAMES_END]


@pytest.mark.parametrize(("rule", "case"), [(r, c) for r, cases in GOES_ON.items() for c in cases])
def test_it_reads_a_privilege_word_on_the_group_before_it_only_where_the_rule_says(rule, case):
    text, expected = case
    assert night(text) == expected, rule


@pytest.mark.parametrize(("rule", "case"), [(r, c) for r, cases in NAMES_END.items() for c in cases])
def test_it_ends_the_names_after_a_vote_word_only_where_the_rule_says_d3(rule, case):
    text, expected = case
    assert vote(text) == expected, rule
