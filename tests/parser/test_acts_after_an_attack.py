"""A privilege word and a name one character off a player, written after an attack (or after a counterfactual
attack, which opens no order), is an act of the sender's refused naming that player — never words of the 杀人宣言 (N1)
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


JAILER = ["庶民", "庶民", "保镖", "禁锢/反狙击", "杀手"]


def test_a_card_named_in_a_remark_about_the_hand_is_not_the_card_of_the_privilege_after_it():
    got = parse_pm("我手里就两张庶民一张保镖 行动点也少 今晚只禁锢王五", sender="钱七", players=PLAYERS, hand=JAILER)
    assert [{k: v for k, v in i.items() if k != "span"} for i in got.to_json()["inputs"]] == [
        {"card": "禁锢/反狙击", "use": "禁锢", "target": "王五"}
    ]


def test_a_card_written_as_the_privileges_own_card_phrase_that_cannot_grant_it_is_still_refused():
    got = parse_pm("用保镖牌禁锢王五", sender="钱七", players=PLAYERS, hand=JAILER).to_json()
    assert got["inputs"] == [] and got["refusals"][0]["reason"].startswith("保镖牌没有“禁锢”这个特权")
