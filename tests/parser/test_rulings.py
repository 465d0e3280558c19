"""The rulings on shapes players write (docs/parser.md, "Rulings on shapes players write"): each shape read as the
contract says, or refused naming what was not read — never a different input."""

from __future__ import annotations

import pytest

from moderator.parser import parse_pm
from tests.world import PLAYERS

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
    "text,position",
    [("瞄准狙击王五,打他的第二张牌", 2), ("狙王五,打她的倒数第二张", -2), ("狙王五,打她从后往前数第2张", -2)],
)
def test_where_the_snipe_lands_after_a_comma_is_its_position(text, position):
    got = read(text)
    assert plain(got) == [{"card": "狙击手", "use": "瞄准狙击", "target": "王五", "position": position}]
    assert got["inputs"][0]["span"] == [0, len(text)] and not got["refusals"]


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


@pytest.mark.parametrize(
    "text",
    [
        "第一张丢束魂,第二张丢保镖,第三张丢庶民,第四张丢禁锢/反狙击,第五张丢杀手",
        "1号束魂 2号保镖 3号庶民 4号禁锢/反狙击 5号杀手",  # never five 束魂 on seats 1–5
        "第二张丢保镖,第一张丢束魂,第三张丢庶民,第四张丢禁锢/反狙击,底牌杀手",
        "第一张:束魂\n第二张:保镖\n第三张:庶民\n第四张:禁锢/反狙击\n第五张:杀手",
        "丢牌顺序:第一张束魂,第二张保镖,第三张庶民,第四张禁锢/反狙击,第五张杀手",  # the order's label before it
    ],
)
def test_an_ordinal_list_is_an_order_in_the_ordinals_sequence(text):
    assert plain(read(text, hand=ORDERS)) == [{"order": ["束魂", "保镖", "庶民", "禁锢/反狙击", "杀手"]}]


def test_an_ordinal_list_after_the_orders_label_that_leaves_cards_out_is_refused():
    got = read("丢牌顺序:第一张束魂,第二张保镖,第三张庶民", hand=ORDERS)
    assert plain(got) == [] and "丢牌顺序少了" in got["refusals"][0]["reason"]


def test_the_bottom_card_named_apart_is_last_wherever_it_is_written():
    got = plain(read("底牌留杀手;其余依次丢 束魂、保镖、禁锢/反狙击、庶民", hand=ORDERS))
    assert got == [{"order": ["束魂", "保镖", "禁锢/反狙击", "庶民", "杀手"]}]


@pytest.mark.parametrize(
    "text,hand,use,target",
    [
        ("狙击,对象:王五", KILLER, "普通狙击", "王五"),
        ("诅咒,对象是王五", BINDER, "诅咒", "王五"),
        ("束魂 → 目标 李四", BINDER, "束魂", "李四"),
        ("诅咒王五(她白天一直带节奏)", BINDER, "诅咒", "王五"),  # a pronoun in an aside is no target
        ("束魂张三(可以吗?)", BINDER, "束魂", "张三"),  # a question in an aside does not block
        ("诅咒王五 ok?", BINDER, "诅咒", "王五"),
        ("用狙击打王五", KILLER, "普通狙击", "王五"),
    ],
)
def test_labels_asides_and_a_plain_verb_after_the_privilege_leave_the_reading_alone(text, hand, use, target):
    assert [(i["use"], i["target"]) for i in plain(read(text, hand=hand))] == [(use, target)]


def test_a_privilege_used_with_a_plain_verb_is_never_read_as_an_attack():
    got = read("用绝杀打王五")  # the hand holds no 绝杀: refused, not a 普通攻击 from 打
    assert got["inputs"] == []
    assert "绝杀" in got["refusals"][0]["reason"]


@pytest.mark.parametrize(
    "text",
    [
        "投王五 —— 赵六昨晚说的理由我信",  # a reason naming another player
        "投王五。赵六说她是杀手,那今天票死她",
        "投王五,如果下一楼孙八还不解释我就改票",  # a condition about a later post
    ],
)
def test_a_vote_post_with_reasons_naming_others_is_the_vote_for_its_target(text):
    assert plain(read(text, hand=BINDER, phase="day")) == [{"for": "王五"}]


@pytest.mark.parametrize("text", ["如果王五不是杀手就投赵六,否则投王五", "投王五 赵六", "投王五。改投大白兔"])
def test_a_vote_post_whose_own_vote_is_unclear_is_still_refused(text):
    got = read(text, hand=BINDER, phase="day")
    assert got["inputs"] == [] and got["refusals"]


@pytest.mark.parametrize(
    "text",
    ["底牌:杀手\n丢牌顺序:束魂、保镖、禁锢/反狙击、庶民", "丢牌顺序:束魂、保镖、禁锢/反狙击、庶民\n底牌:杀手"],
)
def test_the_bottom_card_on_a_line_of_its_own_before_or_after_the_order_is_last(text):
    assert plain(read(text, hand=ORDERS)) == [{"order": ["束魂", "保镖", "禁锢/反狙击", "庶民", "杀手"]}]


def test_nothing_else_after_an_action_is_no_pass():
    assert [i["use"] for i in plain(read("诅咒王五~ 其他的不动了", hand=BINDER))] == ["诅咒"]


def test_a_pass_beside_an_action_is_refused_in_words_for_the_player_and_the_gm_alike():
    got = read("诅咒王五,今晚不动", hand=BINDER)
    assert got["inputs"] == []
    reason = got["refusals"][0]["reason"]
    assert "空过和用特权只能是其中一个" in reason and "请问玩家" not in reason


def test_a_line_after_the_manifesto_that_names_a_card_and_a_position_is_never_published_and_is_shown():
    got = read("杀王五。杀人宣言:夜色如墨,今夜必有一人付出代价。\n另:我的保镖其实在第四张,别说出去哦")
    assert plain(got)[0]["manifesto"] == "夜色如墨,今夜必有一人付出代价。"
    assert any("保镖" in r["text"] for r in got["refusals"])  # not published, not dropped


def test_a_clause_with_an_action_word_after_an_attack_is_not_absorbed():
    got = read("杀李四。宣言:长夜漫漫,今夜轮到你了\n我猜孙八今晚会禁锢我。")
    assert plain(got)[0]["manifesto"] == "长夜漫漫,今夜轮到你了"
    assert [r["text"] for r in got["refusals"]] == ["我猜孙八今晚会禁锢我。"]


@pytest.mark.parametrize("text", ["改自己", "刚才的王五改给赵六"])
def test_a_change_of_target_with_only_an_amoeba_in_hand_is_refused_never_read_as_a_privilege_named_amoeba(text):
    """An 阿米巴's privilege is its form's, which the parser does not know: a change that names no privilege is
    refused naming what it could be — never an input whose privilege is "阿米巴" (M1–M4)."""
    result = read(text, hand=["阿米巴"])
    assert result["inputs"] == []
    assert "阿米巴变形后的特权" in result["refusals"][0]["reason"]
