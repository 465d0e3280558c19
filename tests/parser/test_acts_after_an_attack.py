"""A privilege word and a name one character off a player, written after an attack (or after a counterfactual
attack, which opens no order), is an act of the sender's refused naming that player — never words of the 杀人宣言
before it, never a quiet note (docs/parser.md, "A clause that carries an action word…")."""

from __future__ import annotations

import pytest

from moderator.parser import parse_pm

PLAYERS = ["张三", "李四", "王五", "赵六", "欧阳锋", "钱七"]
WOLF = ["狼人", "狙击手", "庶民", "庶民", "庶民"]


def read(text: str) -> dict:
    return parse_pm(text, sender="钱七", players=PLAYERS, hand=WOLF).to_json()


@pytest.mark.parametrize(
    "text",
    [
        "普通攻击张三,一击必杀欧阳峰",
        "普通攻击由赵六改为张三,一击必杀欧阳峰",
        "要不是赵六挡着,我今天就攻击李四了。一击必杀欧阳峰。",
    ],
)
def test_an_act_on_a_misspelt_player_after_an_attack_is_refused_naming_the_player(text):
    got = read(text)
    assert [(r["text"], r.get("candidates")) for r in got["refusals"] if r.get("candidates")] == [
        ("一击必杀欧阳峰", ["欧阳锋"])
    ]
    assert all("一击必杀" not in i.get("manifesto", "") for i in got["inputs"])


def test_words_of_the_manifesto_that_name_no_player_stay_the_manifesto():
    got = read("普通攻击张三,杀了你这个骗子")
    assert [(i["target"], i["manifesto"]) for i in got["inputs"]] == [("张三", "杀了你这个骗子")]
    assert got["refusals"] == []


@pytest.mark.parametrize(
    "text,use,replaced",
    [
        ("普通攻击欧阳峰啊不对打错了,是王五", "普通攻击", "普通攻击欧阳峰"),
        ("一击必杀欧阳峰,不对,是王五", "一击必杀", "一击必杀欧阳峰"),
    ],
)
def test_a_correction_naming_a_player_after_an_act_refused_for_a_misspelt_name_is_that_act_on_the_player(
    text, use, replaced
):
    got = read(text)
    inputs = [{k: v for k, v in i.items() if k != "span"} for i in got["inputs"]]
    assert inputs == [{"card": "狼人", "use": use, "target": "王五", "correction": replaced}]
    assert got["refusals"] == []


def test_an_act_refused_for_a_misspelt_name_with_a_correction_that_names_no_player_is_still_refused():
    got = read("普通攻击欧阳峰,不对,我再想想")
    assert got["inputs"] == [] and [r.get("candidates") for r in got["refusals"]][:1] == [["欧阳锋"]]
