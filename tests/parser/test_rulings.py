"""The rulings on shapes players write (PARSER.md, "Rulings on shapes players write"): each shape read as the
contract says, or refused naming what was not read — never a different input."""

from __future__ import annotations

import pytest

from moderator.parser import parse_pm

PLAYERS = ["张三", "李四", "王五", "赵六", "钱七", "孙八", "周九"]
KILLER = ["庶民", "杀手", "防弹衣/狼毒", "狙击手", "巫医"]
BINDER = ["庶民", "束魂", "诅咒/庇佑", "禁锢/反狙击", "巫医"]
ORDERS = ["庶民", "杀手", "束魂", "保镖", "禁锢/反狙击"]


def read(text: str, hand=KILLER, phase: str = "night") -> dict:
    return parse_pm(text, sender="钱七", players=PLAYERS, hand=hand, phase=phase).to_json()


def plain(result: dict) -> list[dict]:
    return [{k: v for k, v in i.items() if k not in ("span", "manifesto_spans")} for i in result["inputs"]]


@pytest.mark.parametrize(
    "text,published",
    [
        ("杀王五,宣言:今晚你逃不掉了\n—— 钱七 留", "今晚你逃不掉了"),  # a signature line
        ("杀王五。宣言:今晚你逃不掉了,by 七七", "今晚你逃不掉了"),  # a signature after a comma
        ("杀王五 再见了朋友(天神帮我看看字数够不够)", "再见了朋友"),  # a bracket to the 天神
        ("杀王五 再见了朋友\n天神:这段宣言麻烦帮我发一下", "再见了朋友"),  # a line to the 天神
        ("天神好,我想了很久,杀王五 再见了朋友", "再见了朋友"),  # chatter before the attack
        ("杀王五 你的死期到了,另外开防弹衣", "你的死期到了"),  # another instruction after a comma
    ],
)
def test_the_manifesto_publishes_the_declaration_only(text, published):
    attacks = [i for i in read(text)["inputs"] if i.get("use") == "普通攻击"]
    assert [(a["target"], a["manifesto"]) for a in attacks] == [("王五", published)]


def test_an_aim_after_a_comma_is_never_absorbed_into_the_manifesto():
    got = read("杀王五 你的死期到了,瞄他倒数第三张")
    assert plain(got)[0]["manifesto"] == "你的死期到了"
    assert [r["text"] for r in got["refusals"]] == ["瞄他倒数第三张"]  # shown, not dropped


@pytest.mark.parametrize(
    "text,use,target,dropped",
    [
        ("治疗张三,哦不对,治疗李四", "治疗", "李四", "治疗张三"),
        ("禁锢王五。更正:禁锢赵六", "禁锢", "赵六", "禁锢王五"),
        ("禁锢王五……更正:禁锢赵六", "禁锢", "赵六", "禁锢王五"),
    ],
)
def test_a_self_correction_keeps_the_corrected_reading_and_says_which_words_it_replaced(text, use, target, dropped):
    got = plain(read(text, hand=BINDER))
    assert [(i["use"], i["target"], i.get("correction")) for i in got] == [(use, target, dropped)]


def test_a_correction_that_could_replace_two_inputs_refuses_them_naming_both():
    got = read("诅咒张三,诅咒李四,不对,诅咒王五", hand=BINDER)
    assert [(i["use"], i["target"]) for i in got["inputs"]] == [("诅咒", "王五")]
    assert "“诅咒张三”、“诅咒李四”" in got["refusals"][0]["reason"]


def test_talk_saying_something_is_wrong_is_no_correction():
    got = plain(read("诅咒张三,他说的不对,诅咒李四", hand=BINDER))
    assert [i["target"] for i in got] == ["张三", "李四"]
