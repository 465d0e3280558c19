"""Shapes the corpus checks only for their inputs: here what else the 天神 sees — no spurious "没读懂" note
beside an order read correctly, and a vote for an unknown name refused with its candidates (never guessed)."""

from __future__ import annotations

import pytest

from moderator.parser import parse_pm, parse_vote
from tests.world import PLAYERS

# Four of the world's players and two forum nicknames: 小白兔 is the one near the unknown 大白兔.
NICKNAMED = (*PLAYERS[2:6], "小白兔", "月下独酌")
HANDS = {
    "cursed": ["庶民", "诅咒/庇佑", "禁锢/反狙击", "绝杀/特赦", "纵火/圣人"],
    "killer": ["庶民", "狙击手", "保镖", "庶民", "杀手"],
    "amoeba": ["庶民", "阿米巴", "束魂", "保镖", "庶民"],
}


@pytest.mark.parametrize(
    ("hand", "text", "use"),
    [
        ("cursed", "诅咒王五。最后一张牌了", "诅咒"),
        ("cursed", "诅咒王五。唉,最后一张牌了,随缘吧", "诅咒"),
        ("cursed", "詛咒王五。最後一張牌了", "诅咒"),
        ("killer", "杀王五,明天再补一刀", "普通攻击"),
        ("amoeba", "束魂王五。变形后的阿米巴好强", "束魂"),
        ("amoeba", "束魂王五!变形后的阿米巴好强啊~", "束魂"),
    ],
)
def test_plain_chatter_beside_an_order_leaves_no_not_understood_note(hand, text, use):
    result = parse_pm(text, sender="钱七", players=NICKNAMED, hand=HANDS[hand]).to_json()
    assert [(i["use"], i["target"]) for i in result["inputs"]] == [(use, "王五")]
    assert result["refusals"] == []


@pytest.mark.parametrize("text", ["投大白兔", "投票:大白兔", "vote 大白兔", "投 大白兔,理由见楼上", "ＶＯＴＥ 大白兔"])
def test_a_vote_for_an_unknown_name_is_refused_with_the_candidates_never_guessed_d1(text):
    result = parse_vote(text, sender="王五", players=NICKNAMED).to_json()
    assert result["inputs"] == []
    [refusal] = result["refusals"]
    assert refusal["candidates"] == ["小白兔"] and "没有叫“大白兔”的玩家" in refusal["reason"]


def test_the_vote_reader_and_the_pm_reader_flag_the_same_unknown_name_alike():
    vote = parse_vote("投大白兔", sender="王五", players=NICKNAMED).to_json()["refusals"][0]
    pm = parse_pm("诅咒大白兔", sender="钱七", players=NICKNAMED, hand=HANDS["cursed"]).to_json()["refusals"][0]
    assert vote["reason"] == pm["reason"] and vote["candidates"] == pm["candidates"]


# ---- 刚才的王五改给赵六: a change of target in words with no privilege written (T3)
BINDER = ["庶民", "束魂", "保镖", "庶民", "庶民"]


@pytest.mark.parametrize(
    "text",
    [
        "刚才的王五改给赵六",
        "剛才的王五改給趙六",  # 繁
        "唉，刚才的王五改给赵六吧，谢谢天神！",  # full-width, chatter around
        "天神:刚才那个王五改成赵六",
    ],
)
def test_a_target_change_without_its_privilege_is_read_when_the_hand_has_one_privilege_naming_a_player_t3(text):
    """The hand's only privilege that names a player is 束魂 (N7): the change is read, marked as inferred for the
    preview to say so."""
    result = parse_pm(text, sender="钱七", players=NICKNAMED, hand=BINDER).to_json()
    [item] = result["inputs"]
    assert (item["use"], item["target"], item["change"], item["inferred_use"]) == ("束魂", "赵六", True, True)
    assert result["refusals"] == []


@pytest.mark.parametrize(
    ("hand", "named"),
    [
        (
            HANDS["killer"],
            "普通狙击、瞄准狙击、普通攻击、一击必杀",
        ),  # two cards, four privileges naming a player (N1–N6)
        (["庶民", "杀手", "庶民", "庶民", "保镖"], "普通攻击、一击必杀"),  # one card, two privileges (N1, N2)
        (["庶民", "束魂", "巫医", "庶民", "庶民"], "束魂、治疗"),  # two cards, one privilege each (N7, N8)
        (HANDS["amoeba"], "阿米巴变形后的特权、束魂"),  # the 阿米巴's form is the engine's to know (M1)
    ],
)
@pytest.mark.parametrize("text", ["刚才的王五改给赵六", "剛才的王五改給趙六", "嗯,刚才的王五改给赵六。"])
def test_a_target_change_without_its_privilege_is_refused_naming_the_candidates_when_two_are_possible(
    hand, named, text
):
    result = parse_pm(text, sender="钱七", players=NICKNAMED, hand=hand).to_json()
    assert result["inputs"] == []
    [refusal] = result["refusals"]
    assert refusal["reason"].startswith(f"写了改目标,但没写是哪个特权:可能是{named};不会替你选")
    assert "candidates" not in refusal  # the candidates are privileges, not players: no player button


def test_a_target_change_by_day_considers_only_the_privileges_of_the_day():
    """By day a 绝杀/特赦 card's 绝杀 is its only privilege naming a player (N11, N12)."""
    hand = ["庶民", "绝杀/特赦", "束魂", "庶民", "庶民"]
    day = parse_pm("刚才的王五改给赵六", sender="钱七", players=NICKNAMED, hand=hand, phase="day").to_json()
    assert [(i["use"], i["target"], i.get("inferred_use")) for i in day["inputs"]] == [("绝杀", "赵六", True)]
    night = parse_pm("刚才的王五改给赵六", sender="钱七", players=NICKNAMED, hand=hand).to_json()
    assert night["inputs"] == [] and "可能是绝杀、特赦、束魂" in night["refusals"][0]["reason"]


def test_a_target_change_after_its_privilege_in_the_same_message_is_not_marked_inferred():
    # PARSER.md, cancels and change frames: 算了 withdraws 束魂王五, and the change in the same message is what
    # replaces it: one 束魂, on 赵六, with no change of an earlier message's action
    result = parse_pm("束魂王五。算了,王五改给赵六", sender="钱七", players=NICKNAMED, hand=BINDER).to_json()
    assert [(i["target"], i.get("change"), "inferred_use" in i) for i in result["inputs"]] == [("赵六", None, False)]


def test_a_target_change_with_no_privilege_in_the_hand_says_so():
    result = parse_pm("刚才的王五改给赵六", sender="钱七", players=NICKNAMED, hand=["庶民", "保镖"]).to_json()
    assert result["inputs"] == []
    assert result["refusals"][0]["reason"].startswith("写了改目标,但没写是哪个特权,你手里也没有能指定目标的特权")


# ---- a message that is only chatter about the cards left: no stray-position reason
@pytest.mark.parametrize("text", ["唉,最后一张牌了", "唉，最後一張牌了！", "只剩最后一张牌", "最后一张了啦~"])
def test_chatter_about_the_last_card_is_not_explained_as_a_position_without_its_shot(text):
    result = parse_pm(text, sender="钱七", players=NICKNAMED, hand=HANDS["killer"]).to_json()
    assert result["inputs"] == []
    [refusal] = result["refusals"]
    assert "第几张" not in refusal["reason"] and refusal["reason"].startswith("没看懂这条消息")


@pytest.mark.parametrize("text", ["倒数第二张", "第2张牌", "倒數第二張"])
def test_a_lone_position_is_still_explained_as_a_position_without_its_shot(text):
    [refusal] = parse_pm(text, sender="钱七", players=NICKNAMED, hand=HANDS["killer"]).to_json()["refusals"]
    assert refusal["reason"].startswith("写了第几张牌,但没写瞄准狙击谁")


# ---- 投大白兔: the refusal carries the vote choosing the candidate gives (the console's one-click button)
@pytest.mark.parametrize(
    ("text", "vote"),
    [
        ("投大白兔", {"for": None}),
        ("投票:大白兔", {"for": None}),
        ("ＶＯＴＥ 大白兔", {"for": None}),
        ("投 大白兔,理由见楼上", {"for": None}),
        ("改投大白兔", {"change": None}),
        ("改投 大白兔 吧，想了想就他了", {"change": None}),
    ],
)
def test_a_vote_for_an_unknown_name_carries_the_vote_a_chosen_candidate_gives_d1_d3(text, vote):
    [refusal] = parse_vote(text, sender="王五", players=NICKNAMED).to_json()["refusals"]
    assert refusal["candidates"] == ["小白兔"] and refusal["input"] == vote


@pytest.mark.parametrize(
    "text",
    [
        "投王五。再想想,改投大白兔",
        "投王五\n改投大白兔",
        "投王五。改投　大白兔！",
        "投王五。再想想，改投大白兔",
        "投大白兔。改投王五",
    ],
)
def test_a_vote_post_with_a_known_and_an_unknown_name_is_refused_never_read_as_the_known_one_d3(text):
    """Was read as 改票 → 王五: a silent misreading of a change to a name that is no player."""
    result = parse_vote(text, sender="钱七", players=NICKNAMED).to_json()
    assert result["inputs"] == []
    [refusal] = result["refusals"]
    assert refusal["reason"].startswith("这条投票写了王五,又写了另一个对象:没有叫“大白兔”的玩家;最接近的是:小白兔")


def test_a_second_change_of_an_inferred_privilege_is_marked_inferred_too_t3():
    # PARSER.md, self-correction: the corrected change counts and the first is dropped (it is still a change of
    # the earlier message's 束魂, its privilege taken from the hand)
    result = parse_pm("刚才的王五改给赵六。不对，改给孙八", sender="钱七", players=NICKNAMED, hand=BINDER).to_json()
    assert [(i["target"], i["change"], i["inferred_use"]) for i in result["inputs"]] == [("孙八", True, True)]
