"""Cues of modality as data (moderator/parser/cues.yaml) and the rulings they carry (PARSER.md, "Rulings on shapes
players write"): a cancel, a retraction, a counterfactual, a tally of others' votes, a change frame and a
correction each decide only the act they reach; the sender's own present act elsewhere in the post stands."""

from __future__ import annotations

import pytest

from moderator.parser import cues, parse_pm
from tests.parser.compose import MIXED_NAMES

NESTED_NAMES = (*MIXED_NAMES, "小明", "小明明")  # one name begins another
HANDS = {
    "binder": ["庶民", "束魂", "诅咒/庇佑", "禁锢/反狙击", "巫医"],
    "healer": ["巫医", "诅咒/庇佑", "庶民", "庶民", "庶民"],
    "saint": ["庶民", "束魂", "纵火/圣人", "禁锢/反狙击", "巫医"],
    "killer": ["庶民", "杀手", "防弹衣/狼毒", "狙击手", "巫医"],
    "sniper": ["庶民", "狙击手", "诅咒/庇佑", "禁锢/反狙击", "巫医"],
    "pardon": ["绝杀/特赦", "防弹衣/狼毒", "庶民", "庶民", "庶民"],
    "none": [],
}


def read(text: str, hand: str = "binder", phase: str = "night") -> list[dict]:
    got = parse_pm(text, sender="钱七", players=NESTED_NAMES, hand=HANDS[hand], phase=phase).to_json()
    return [{k: v for k, v in i.items() if k not in ("span", "manifesto_spans", "correction")} for i in got["inputs"]]


def _cases(field: str):
    for cue in cues.cue_table()[0]:
        for case in getattr(cue, field):
            yield pytest.param(case, id=f"{cue.name}: {case['text']}")


@pytest.mark.parametrize("case", list(_cases("examples")))
def test_each_example_of_a_cue_gives_no_input_from_the_act_it_reaches(case):
    wanted = [case["input"]] if "input" in case else []
    assert read(case["text"], case.get("hand", "none"), case.get("phase", "night")) == wanted


@pytest.mark.parametrize("case", list(_cases("counter")))
def test_each_counter_example_of_a_cue_keeps_its_input(case):
    assert read(case["text"], case.get("hand", "none"), case.get("phase", "night")) == [case["input"]]


BIND = {"card": "束魂", "use": "束魂", "target": "阿飞"}


@pytest.mark.parametrize(
    "text,hand",
    [
        ("束魂阿飞。算了", "binder"),  # PARSER.md: a cancel inside one message
        ("束魂阿飞,这条删掉", "binder"),
        ("束魂阿飞,不束魂了", "binder"),
        ("本来想束魂阿飞,还是不要了", "binder"),
        ("庇佑李四。不庇佑了", "binder"),
        ("早知道就束魂阿飞了", "binder"),  # PARSER.md: counterfactuals and regrets
        ("要不是赵六挡着,我今天就绝杀阿飞了", "pardon"),
    ],
)
def test_a_cancelled_or_counterfactual_act_is_no_input(text, hand):
    assert read(text, hand) == []


def test_a_counterfactual_about_a_privilege_in_a_day_post_is_no_input():
    assert read("要不是圣人只能晚上开,我今天就开了", "saint", "day") == []


@pytest.mark.parametrize(
    "text,hand,wanted",
    [
        (
            "一击必杀王五……算了点数不够 还是普通攻击王五吧",
            "killer",
            {"card": "杀手", "use": "普通攻击", "target": "王五"},
        ),
        ("绝杀欧阳锋……算了,还是特赦张三", "pardon", {"card": "绝杀/特赦", "use": "特赦", "target": "张三"}),
        ("束魂小明,不对,是小明明", "binder", {"card": "束魂", "use": "束魂", "target": "小明明"}),
        ("束魂李四,啊不对打错了,是阿飞", "binder", {"card": "束魂", "use": "束魂", "target": "阿飞"}),
        ("诅咒阿飞,不对是庇佑", "binder", {"card": "诅咒/庇佑", "use": "庇佑", "target": "阿飞"}),
        (
            "瞄准狙击王五倒数第二张,不对,倒数第三张",
            "sniper",
            {"card": "狙击手", "use": "瞄准狙击", "target": "王五", "position": -3},
        ),
        ("治疗阿飞 等下 改成王五 刚才手滑", "healer", {"card": "巫医", "use": "治疗", "target": "王五"}),
        ("束魂对象由阿飞变更为王五", "binder", {"card": "束魂", "use": "束魂", "target": "王五", "change": True}),
        ("给天神的话:今晚治疗阿飞", "healer", {"card": "巫医", "use": "治疗", "target": "阿飞"}),
        ("我们打配合吧,束魂阿飞", "binder", BIND),
        ("狼人那边要小心,束魂阿飞", "binder", BIND),
    ],
)
def test_what_replaces_or_corrects_an_act_is_the_input(text, hand, wanted):
    assert read(text, hand) == [wanted]


@pytest.mark.parametrize(
    "text,wanted",
    [
        ("投阿飞。如果王五下一楼还不解释我就改票", {"for": "阿飞"}),  # a condition about a later post
        ("投阿飞。投笔从戎的精神", {"for": "阿飞"}),  # a second vote word in an idiom
        ("投阿飞,下一轮还有改票机会", {"for": "阿飞"}),
        ("投阿飞,不改了", {"for": "阿飞"}),
        ("阿飞、王五各一票。我投张三", {"for": "张三"}),  # a tally of others' votes
        ("票从阿飞挪到王五", {"change": "王五"}),  # a change frame
        ("投阿飞,打配合", {"for": "阿飞"}),
        ("引用 张三 的发言:\n我投阿飞,他很可疑\n\n可疑?\n我投张三", {"for": "张三"}),  # a quoted post
        ("我也改票,原来投的李四,现在改投阿飞", {"change": "阿飞"}),
    ],
)
def test_a_vote_post_counts_the_senders_own_present_vote(text, wanted):
    assert read(text, "none", "day") == [wanted]


def test_a_tally_alone_is_no_vote():
    assert read("阿飞、王五各一票", "none", "day") == []


def test_a_bottom_card_named_in_a_sentence_before_the_order_is_the_orders_last_card():
    # PARSER.md: the 底牌 named apart from the order is its last card, in whatever place the message names it
    hand = ["庶民", "纵火/圣人", "禁锢/反狙击", "诅咒/庇佑", "绝杀/特赦"]
    got = parse_pm(
        "底牌:纵火/圣人。其余按 庶民、禁锢/反狙击、诅咒/庇佑、绝杀/特赦 的顺序丢",
        sender="钱七",
        players=NESTED_NAMES,
        hand=hand,
    )
    assert [i["order"] for i in got.to_json()["inputs"]] == [
        ["庶民", "禁锢/反狙击", "诅咒/庇佑", "绝杀/特赦", "纵火/圣人"]
    ]


ATTACK = {"card": "杀手", "use": "普通攻击", "target": "张三"}


@pytest.mark.parametrize(
    "text,hand,phase,wanted",
    [
        # PARSER.md: a hypothetical is no input, and the 杀人宣言 never carries a later instruction
        ("普通攻击张三。如果李四明天还不说话,我就束魂李四", "killer_binder", "night", [ATTACK]),
        ("禁锢赵六,张三、赵六各一票", "binder", "night", [{"card": "禁锢/反狙击", "use": "禁锢", "target": "赵六"}]),
        ("由张三改投李四,张三、李四各一票", "none", "day", [{"change": "李四"}]),  # a change frame beside a tally
        ("原票赵六 → 新票李四", "none", "day", [{"change": "李四"}]),
        ("票给李四,不对,是王五", "none", "day", [{"for": "王五"}]),  # a correction in a vote post
        ("我投张三啊不对打错了,是李四", "none", "day", [{"for": "李四"}]),
        ("用巫医治疗张三啊不对打错了,是阿飞", "healer", "night", [{"card": "巫医", "use": "治疗", "target": "阿飞"}]),
        ("别投票:阿飛", "none", "day", []),  # a negated vote
    ],
)
def test_a_shape_found_by_the_properties_is_read_as_the_ruling_says(text, hand, phase, wanted):
    HANDS.setdefault("killer_binder", ["庶民", "杀手", "束魂", "狙击手", "巫医"])
    assert read(text, hand, phase) == wanted


def test_a_correction_after_an_attack_is_never_published_as_its_manifesto():
    got = parse_pm("狙击张三,不对,是欧阳锋", sender="钱七", players=NESTED_NAMES, hand=HANDS["killer"]).to_json()
    assert [(i["target"], "manifesto" in i) for i in got["inputs"]] == [("欧阳锋", False)]


@pytest.mark.parametrize("text,phase", [("束魂阿飞", "night"), ("投阿飞", "day")])
def test_a_prefix_of_one_player_as_near_another_whole_name_is_refused_naming_both(text, phase):
    # PARSER.md: a prefix match never wins over an equally near whole name (阿飞: 阿飞龙's prefix, one off 阿强)
    players = ["张三", "李四", "钱七", "阿飞龙", "阿强"]
    got = parse_pm(text, sender="钱七", players=players, hand=HANDS["binder"], phase=phase).to_json()
    assert got["inputs"] == []
    assert set(got["refusals"][0]["candidates"]) == {"阿飞龙", "阿强"}


def test_a_report_reaches_every_privilege_after_it_in_its_clause():
    assert read("阿飞说他要用巫医治疗赵六", "healer") == []


@pytest.mark.parametrize(
    "text,published",
    [
        # PARSER.md: the 杀人宣言 never takes in a note to the 天神, and an inner sentence with no instruction stays
        ("杀王五,宣言:你逃不掉了。附:天神辛苦啦", "你逃不掉了。"),
        ("杀王五,宣言:你逃不掉了。天神辛苦啦", "你逃不掉了。"),
        ("杀王五,宣言:你逃不掉了。顺便说一句,你的发言太假了。再见", "你逃不掉了。顺便说一句,你的发言太假了。再见"),
        ("杀王五,宣言照旧", None),  # a note about the declaration, not the declaration
        ("杀王五,宣言稍后补上", None),
    ],
)
def test_the_manifesto_is_the_declaration_whole_and_only_it(text, published):
    [attack] = parse_pm(text, sender="钱七", players=NESTED_NAMES, hand=HANDS["killer"]).to_json()["inputs"]
    assert attack.get("manifesto") == published
